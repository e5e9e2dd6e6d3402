import { z } from 'zod';
import { MutationResultSchema } from './outcomes';

export const PULL_PAGE_MAX = 5000;

/** A cursor of the changefeed: a PostgreSQL snapshot (`xmin:xmax:xip,...`) and the server's epoch. */
const snapshotText = () => z.string().regex(/^\d+:\d+:(\d+(,\d+)*)?$/, 'invalid cursor');

/** Pages of one delta keep the first page's snapshot (`pin`) and go on after the last key. */
export const PullResumeSchema = z.strictObject({
  pin: snapshotText(),
  lastMutationSeq: z.number().int().nonnegative(),
  afterTable: z.string().max(60),
  afterId: z.string().max(64),
});
export type PullResume = z.infer<typeof PullResumeSchema>;

export const PullInputSchema = z.strictObject({
  cursor: snapshotText(),
  epoch: z.string().min(1).max(64),
  /** The highest seq whose outcome the device already holds: outcomes after it come back. */
  ackedThrough: z.number().int().nonnegative().default(0),
  resume: PullResumeSchema.optional(),
  limit: z.number().int().min(1).max(PULL_PAGE_MAX).default(1000),
});
export type PullInput = z.input<typeof PullInputSchema>;

export const PatchOpSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('put'),
    table: z.string(),
    id: z.string(),
    /** The row as the server stores it (snake_case columns, JSON values). */
    row: z.record(z.string(), z.unknown()),
  }),
  z.object({ op: z.literal('del'), table: z.string(), id: z.string() }),
]);
export type PatchOp = z.infer<typeof PatchOpSchema>;

export const PullResultSchema = z.object({
  patch: z.array(PatchOpSchema),
  /** The device's last applied seq as of the delta's snapshot: its effects are in the rows. */
  lastMutationSeq: z.number().int(),
  /** Outcomes of this device's mutations after `ackedThrough` up to `lastMutationSeq`. */
  outcomes: z.array(MutationResultSchema),
  /** The next cursor: store it only when `hasMore` is false. */
  cursor: z.string(),
  epoch: z.string(),
  serverTime: z.string(),
  hasMore: z.boolean(),
  resume: PullResumeSchema.nullable(),
});
export type PullResult = z.infer<typeof PullResultSchema>;

/** Body of a 409 `sync.reset`: the device must bootstrap again (keeping its outbox). */
export const RESET_REASONS = ['epoch', 'pruned', 'restored', 'scope'] as const;
export type ResetReason = (typeof RESET_REASONS)[number];
