import { z } from 'zod';
import { uuid, instant } from '../api/common';
import { MutationResultSchema } from './outcomes';

export const PUSH_BATCH_MAX = 100;

/** One queued command of a device's outbox. `id` is the idempotency key; `seq` the device's order. */
export const MutationSchema = z.strictObject({
  id: uuid(),
  seq: z.number().int().positive(),
  name: z.string().min(1).max(60),
  version: z.number().int().positive(),
  args: z.record(z.string(), z.unknown()),
  /** Device time of the action (ISO), corrected by the device's known offset; checked against the server. */
  occurredAt: instant(),
  /** The device's offset (server − device, ms) when it queued the mutation. */
  clockOffsetMs: z.number().int().optional(),
  /** The staff member signed in at the station (PIN switch); defaults to whoever registered it. */
  actorId: uuid().optional(),
});
export type Mutation = z.infer<typeof MutationSchema>;

export const PushInputSchema = z.strictObject({
  mutations: z.array(MutationSchema).min(1).max(PUSH_BATCH_MAX),
  /** The device clock now (ISO): the server logs its skew. */
  deviceTime: instant().optional(),
});
export type PushInput = z.infer<typeof PushInputSchema>;

export const PushResultSchema = z.object({
  results: z.array(MutationResultSchema),
  lastMutationSeq: z.number().int(),
  serverTime: z.string(),
  /**
   * The device's seq numbers were used by other mutation ids (a restored or copied device database):
   * the device must re-register as a new device and re-bootstrap, keeping its unsent outbox.
   */
  clientReset: z.boolean().optional(),
});
export type PushResult = z.infer<typeof PushResultSchema>;

/** Header of a 409 `sync.seqGap`: the seq the server expects next. */
export const EXPECTED_SEQ_HEADER = 'sync-expected-seq';
