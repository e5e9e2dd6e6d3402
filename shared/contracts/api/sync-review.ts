import { z } from 'zod';

/**
 * The back office's review of what front-desk stations left for a person (docs/offline-sync.md):
 * flags a synced command raised (possible duplicate, uncovered visit, overbooked, price changed...)
 * and quarantined commands whose handler kept failing (facts kept, never dropped). Under
 * `/api/v4/{uuid}/sync/...`; decisions in cloud/src/sync/README.md.
 */

export const SYNC_ISSUE_TYPES = ['flag', 'quarantine'] as const;
export type SyncIssueType = (typeof SYNC_ISSUE_TYPES)[number];
export const SYNC_ISSUE_ACTIONS = ['resolve', 'dismiss'] as const;

const cursor = z.string().regex(/^\d{4}-\d\d-\d\dT[\d:.]+Z_[0-9a-f-]{36}$/i, 'invalid cursor');

export const SyncIssueListQuerySchema = z.strictObject({
  state: z.enum(['open', 'closed']).default('open'),
  station: z.uuid('invalid id').optional(),
  cursor: cursor.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type SyncIssueListQuery = z.input<typeof SyncIssueListQuerySchema>;

/** `type` is checked by the route: a word that names no kind of item names nothing (404, not 400). */
export const SyncIssueParamsSchema = z.object({
  uuid: z.string(),
  type: z.string().max(40),
  issue: z.uuid(),
});

export function isSyncIssueType(value: string): value is SyncIssueType {
  return (SYNC_ISSUE_TYPES as readonly string[]).includes(value);
}

export const SyncIssueActionSchema = z.strictObject({
  action: z.enum(SYNC_ISSUE_ACTIONS, { error: 'choose resolve or dismiss' }),
});
export type SyncIssueAction = z.infer<typeof SyncIssueActionSchema>;

export const SyncIssueSchema = z.object({
  id: z.string(),
  type: z.enum(SYNC_ISSUE_TYPES),
  station: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** A flag's kind (`possibleDuplicate`, `uncovered`...) or the quarantined command's name. */
  kind: z.string(),
  subject: z
    .object({
      table: z.string(),
      id: z.string(),
      /** The client concerned, when the subject is a client or a visit (for a link to the profile). */
      client: z.object({ userId: z.string(), name: z.string() }).nullable(),
      /** A visit's class start (UTC ISO). */
      startsAt: z.string().nullable(),
    })
    .nullable(),
  details: z.record(z.string(), z.unknown()),
  command: z
    .object({ name: z.string(), version: z.number().int(), seq: z.number().int(), error: z.string() })
    .nullable(),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolution: z.enum(['resolved', 'dismissed']).nullable(),
  resolvedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type SyncIssue = z.infer<typeof SyncIssueSchema>;

export const SyncIssueListSchema = z.object({
  items: z.array(SyncIssueSchema),
  next: z.string().nullable(),
  /** The studio's stations with how many open items each has (the screen's filter). */
  stations: z.array(z.object({ id: z.string(), name: z.string(), open: z.number().int() })),
});
export type SyncIssueList = z.infer<typeof SyncIssueListSchema>;
