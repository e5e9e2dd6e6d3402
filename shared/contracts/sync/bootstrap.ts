import { z } from 'zod';

export const BOOTSTRAP_PAGE_MAX = 10_000;

/** `POST /sync/bootstrap`: records the snapshot the pages and the closing delta pull start from. */
export const BootstrapStartResultSchema = z.object({
  cursor: z.string(),
  epoch: z.string(),
  tables: z.array(z.string()),
  lastMutationSeq: z.number().int(),
  serverTime: z.string(),
  studio: z.object({ id: z.string(), name: z.string(), timeZone: z.string(), currency: z.string() }),
});
export type BootstrapStartResult = z.infer<typeof BootstrapStartResultSchema>;

/** `GET /sync/bootstrap/page?table=&after=&limit=`: rows of one table by key. */
export const BootstrapPageQuerySchema = z.strictObject({
  table: z.string().min(1).max(60),
  after: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(BOOTSTRAP_PAGE_MAX).default(5000),
});
export type BootstrapPageQuery = z.input<typeof BootstrapPageQuerySchema>;

export const BootstrapPageResultSchema = z.object({
  table: z.string(),
  rows: z.array(z.object({ id: z.string(), row: z.record(z.string(), z.unknown()) })),
  /** Key to ask the next page after; null on the table's last page. */
  next: z.string().nullable(),
});
export type BootstrapPageResult = z.infer<typeof BootstrapPageResultSchema>;
