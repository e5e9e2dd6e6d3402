import { z } from 'zod';

/**
 * What the server did with one mutation. Business outcomes are all HTTP 200 so the queue never blocks:
 * - applied: done as asked;
 * - flagged: a fact kept as it happened, with something for the desk to look at (`flags`);
 * - waitlisted: an intent accepted in another form (a booking on the waiting list);
 * - rejected: an intent refused (`code`/`key` of the error, `fields` of bad arguments);
 * - quarantined: the handler failed the same way too often; the payload is kept server-side for a
 *   person to look at, and the queue moves on.
 */
export const OUTCOME_STATUSES = ['applied', 'flagged', 'waitlisted', 'rejected', 'quarantined'] as const;
export type OutcomeStatus = (typeof OUTCOME_STATUSES)[number];

export const OutcomeSchema = z.object({
  status: z.enum(OUTCOME_STATUSES),
  code: z.number().int().optional(),
  key: z.string().optional(),
  message: z.string().optional(),
  fields: z.record(z.string(), z.array(z.string())).optional(),
  flags: z.array(z.string()).optional(),
  /** Command-specific details (e.g. the ids of possible duplicates). */
  data: z.record(z.string(), z.unknown()).optional(),
});
export type Outcome = z.infer<typeof OutcomeSchema>;

export const MutationResultSchema = z.object({
  id: z.string(),
  seq: z.number().int(),
  outcome: OutcomeSchema,
  /** True when the server had this mutation already and answered its stored outcome. */
  replayed: z.boolean().optional(),
});
export type MutationResult = z.infer<typeof MutationResultSchema>;
