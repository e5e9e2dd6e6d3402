import { v7 as uuidv7 } from 'uuid';
import {
  ChargeSaleArgsSchema,
  RecordSaleInputSchema,
  type ChargeSaleInput,
  recordSaleTotal,
  type Outcome,
  type RecordSaleArgs,
  type RecordSaleInput,
} from '../../../shared/contracts/sync';
import type { SyncEngine } from '../sync/engine';

export interface RecordedSale {
  saleId: string;
  mutationId: string;
  seq: number;
  /** What the lines cost after the discount (what the receipt prints). */
  total: number;
  soldAt: string;
}

export interface LocalSale {
  saleId: string;
  mutationId: string;
  shiftId: string | null;
  clientId: string | null;
  total: number;
  soldAt: string;
  actorId: string | null;
  sale: RecordSaleArgs;
  /** 'pending' until the server answered; then its outcome (applied, flagged…). */
  status: 'pending' | 'acked';
  outcome: Outcome | null;
}

/**
 * Records a sale made at this station (the POS screen's "pay"): validates it with the shared schema
 * (zod, every bad field), then in ONE synchronous SQLite transaction writes the sale to `local_sales`,
 * its local effect (passes sold, provisional) and its `recordSale@1` outbox row. Durable when it
 * returns: print the receipt, open the drawer after this. The engine then pushes it (once: the
 * mutation id is the idempotency key, the sale id dedupes again on the server).
 *
 * A receipt printed after the sale was recorded is not a second sale: record the sale with its
 * `receipt` outcome, or (printing first) pass the outcome in `input.receipt`.
 */
export function recordSale(
  engine: SyncEngine,
  input: RecordSaleInput,
  options: { actorId?: string } = {},
): RecordedSale {
  const parsed = RecordSaleInputSchema.parse(input);
  const args: RecordSaleArgs = { ...parsed, saleId: parsed.saleId ?? uuidv7() };
  return writeSale(engine, 'recordSale', args, recordSaleTotal(args), options);
}

/**
 * Records a sale that charges what only the cloud holds (`chargeSale@1`: wallet, voucher, contracts):
 * validated with the shared schema, then `local_sales` and the outbox row in ONE transaction (plus the
 * caller's `alsoWrite`, e.g. the POS's pos_cloud_sales row). Nothing is printed until the cloud applied
 * it; a refusal voids the local row (`voidSale`), so the shift never counts money not taken.
 */
export function recordChargedSale(
  engine: SyncEngine,
  input: ChargeSaleInput,
  options: { actorId?: string; alsoWrite?: (done: { mutationId: string; occurredAt: string }) => void } = {},
): RecordedSale {
  const args = ChargeSaleArgsSchema.parse(input);
  return writeSale(engine, 'chargeSale', args, args.total, options);
}

/** The sale's outbox row (`name@1`), its `local_sales` row and the caller's `alsoWrite`, in ONE transaction. */
function writeSale(
  engine: SyncEngine,
  name: 'recordSale' | 'chargeSale',
  args: { saleId: string; shiftId?: string | null; clientId: string | null },
  total: number,
  options: { actorId?: string; alsoWrite?: (done: { mutationId: string; occurredAt: string }) => void },
): RecordedSale {
  let soldAt = '';
  const done = engine.mutate(name, 1, args, {
    ...(options.actorId ? { actorId: options.actorId } : {}),
    alsoWrite: (m) => {
      soldAt = m.occurredAt;
      engine.db
        .prepare(
          `insert into local_sales (sale_id, mutation_id, shift_id, client_id, total, args, sold_at, actor_id)
           values (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          args.saleId,
          m.mutationId,
          args.shiftId ?? null,
          args.clientId,
          total,
          JSON.stringify(m.args),
          m.occurredAt,
          options.actorId ?? null,
        );
      options.alsoWrite?.({ mutationId: m.mutationId, occurredAt: m.occurredAt });
    },
  });
  return { saleId: args.saleId, mutationId: done.mutationId, seq: done.seq, total, soldAt };
}

/** A sale the cloud refused (nothing printed, no money kept): it stays recorded, counted nowhere. */
export function voidSale(engine: SyncEngine, saleId: string, at: string): void {
  engine.db
    .prepare('update local_sales set voided_at = ? where sale_id = ? and voided_at is null')
    .run(at, saleId);
}

/** The station's sales, newest first (a shift's when `shiftId` is given), with the server's outcome once known. */
export function localSales(engine: SyncEngine, filter: { shiftId?: string } = {}): LocalSale[] {
  const rows = engine.db
    .prepare(
      `select s.*, o.status, o.outcome from local_sales s left join outbox o on o.mutation_id = s.mutation_id
        where (? is null or s.shift_id = ?) and s.voided_at is null order by s.sold_at desc, s.sale_id desc`,
    )
    .all(filter.shiftId ?? null, filter.shiftId ?? null) as Array<{
    sale_id: string;
    mutation_id: string;
    shift_id: string | null;
    client_id: string | null;
    total: number;
    args: string;
    sold_at: string;
    actor_id: string | null;
    status: 'pending' | 'acked' | null;
    outcome: string | null;
  }>;
  return rows.map((r) => ({
    saleId: r.sale_id,
    mutationId: r.mutation_id,
    shiftId: r.shift_id,
    clientId: r.client_id,
    total: r.total,
    soldAt: r.sold_at,
    actorId: r.actor_id,
    sale: JSON.parse(r.args) as RecordSaleArgs,
    // An outbox row dropped after a re-registration was delivered already.
    status: r.status ?? 'acked',
    outcome: r.outcome ? (JSON.parse(r.outcome) as Outcome) : null,
  }));
}
