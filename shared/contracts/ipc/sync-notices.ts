import { z } from 'zod';
import { OUTCOME_STATUSES } from '../sync/outcomes';

/**
 * Outcomes that came back different from what the desk assumed offline (docs/offline-sync.md:
 * "shows outcomes that came back different (waitlisted, flagged)"): a booking put on the waiting
 * list or refused, a check-in or a new client flagged for review, a command quarantined. Kept on the
 * station's outbox row until staff acknowledge them (desktop/main/sync/notices.ts).
 */
const LocaleText = z.record(z.string(), z.object({ value: z.string() }).optional());

export const SyncNoticeSchema = z.object({
  seq: z.number().int(),
  /** The command as the desk queued it: bookClass, checkIn, cancelBooking, createClient, updateClient, recordSale… */
  command: z.string(),
  status: z.enum(OUTCOME_STATUSES),
  /** Why (flagged): possibleDuplicate, overbooked, uncovered, attendanceForced, emailTaken, priceChanged… */
  flags: z.array(z.string()),
  /** The error key of a refusal (rejected), e.g. visit.classFull. */
  key: z.string().nullable(),
  /** The refusal's stable number (the spec's status-code), shown when the key has no translation. */
  code: z.number().int().nullable().default(null),
  /** The cloud's own words (English), the last resort when neither the key nor the flags say why. */
  message: z.string().nullable().default(null),
  /** Fields the cloud refused (a rejected or partly applied edit): field path → messages. */
  fields: z.record(z.string(), z.array(z.string())).default({}),
  occurredAt: z.string(),
  /** Who and what it was about, as the station's copy knows them. */
  client: z.object({ id: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
  event: z.object({ id: z.string(), startsAt: z.string(), name: LocaleText }).nullable(),
});
export type SyncNotice = z.infer<typeof SyncNoticeSchema>;

export const SyncNoticeListSchema = z.object({ items: z.array(SyncNoticeSchema) });
export type SyncNoticeList = z.infer<typeof SyncNoticeListSchema>;

export const SyncNoticeAckInputSchema = z.strictObject({
  seqs: z
    .array(z.number().int().positive())
    .min(1, 'choose at least one')
    .max(200)
    .refine((a) => new Set(a).size === a.length, 'listed twice'),
});

const empty = z.strictObject({});

export const SYNC_NOTICES_IPC_CONTRACT = {
  syncNotices: { input: empty, output: SyncNoticeListSchema },
  syncNoticeAck: { input: SyncNoticeAckInputSchema, output: SyncNoticeListSchema },
} as const;
