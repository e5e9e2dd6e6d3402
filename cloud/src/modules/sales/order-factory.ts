import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { OrderStatus } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import {
  ORDER_SOURCES,
  orderLineProblems,
  orderStatusFromText,
  orderTotals,
  parseVatRate,
  vatRateText,
  type OrderLineKind,
  type OrderSource,
} from '../../../../shared/domain/orders';
import type { LocaleText } from '../../../../shared/domain/locale-text';

export interface CreateOrderLine {
  kind: OrderLineKind;
  /** What the line sells: a pricing option id, an instalment id, a product id, a visit id … */
  refId?: string;
  name: string;
  /** The catalogue's name in every language it has: screens and invoices pick theirs (issue 25). */
  nameTexts?: LocaleText | null;
  quantity: number;
  /** Unit price in minor units (grosze). Only a `fee` line may be negative. */
  unitPriceMinor: number;
  /** Basis points (`'2300'`), a percentage (`'23%'`) or `'exempt'`. */
  vatRate: string;
  /** Optional, a `pass` line: the client's visit the pass pays once the order is paid. */
  forVisitId?: string | null;
}

export interface CreateOrderInput {
  studioId: string;
  clientId: string | null;
  source: OrderSource;
  /** With a source id the order is created once per (studio, source, source id): a retry returns it. */
  sourceId?: string;
  lines: CreateOrderLine[];
  /** A spec §3 status by name (`'scheduled'`) or number (`'7'`); default pending (free: free of charge). */
  status?: string;
  /** Optional: who created it (a member of staff, the client). */
  createdBy?: string | null;
  /** Optional: a note staff see on the order. */
  note?: string;
  /** Optional: the voucher discount in minor units (capped at the lines' sum) and its redemption. */
  discountMinor?: number;
  voucherRedemptionId?: string | null;
}

/**
 * Creates a client order with its lines inside the caller's transaction. Other modules (contracts'
 * instalments, the cart, the desk) call this; it records the order only: payment and fulfilment are
 * `sales.service`'s. Idempotent per (studio, source, sourceId) when a source id is given — a second
 * call (even a concurrent one: the unique index makes it wait for the first) returns the first id.
 */
export async function createOrder(trx: Knex.Transaction, input: CreateOrderInput): Promise<{ id: string }> {
  const problems = orderLineProblems(input.lines);
  if (!(ORDER_SOURCES as readonly string[]).includes(input.source))
    problems.push({ path: 'source', message: 'unknown order source' });
  const status = input.status === undefined ? null : orderStatusFromText(input.status);
  if (input.status !== undefined && status === null)
    problems.push({ path: 'status', message: 'unknown order status' });
  if (problems.length > 0) {
    const fields: Record<string, string[]> = {};
    for (const p of problems) (fields[p.path] ??= []).push(p.message);
    throw AppError.invalid(fields, 'invalid order');
  }

  if (input.sourceId !== undefined) {
    const existing = await findBySource(trx, input.studioId, input.source, input.sourceId);
    if (existing) return existing;
  }

  const studio = (await trx('studios').where({ id: input.studioId }).first('currency')) as
    { currency: string } | undefined;
  if (!studio) throw AppError.notFound('studio');

  const totals = orderTotals(input.lines, input.discountMinor ?? 0);
  const resolvedStatus: OrderStatus =
    status ?? (totals.total === 0 ? OrderStatus.freeOfCharge : OrderStatus.pending);
  const id = uuidv7();
  const now = new Date();
  const inserted = await trx.raw(
    `insert into client_orders
       (id, studio_id, client_id, source, source_id, status, currency, subtotal, discount, total,
        voucher_redemption_id, paid_at, created_by, note, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (studio_id, source, source_id) where source_id is not null do nothing
     returning id`,
    [
      id,
      input.studioId,
      input.clientId,
      input.source,
      input.sourceId ?? null,
      resolvedStatus,
      studio.currency,
      totals.subtotal,
      totals.discount,
      totals.total,
      input.voucherRedemptionId ?? null,
      resolvedStatus === OrderStatus.paid ? now : null,
      input.createdBy ?? null,
      input.note ?? '',
      now,
      now,
    ],
  );
  if ((inserted as { rows: unknown[] }).rows.length === 0) {
    // A concurrent call with the same source id committed first.
    const existing = await findBySource(trx, input.studioId, input.source, input.sourceId!);
    if (existing) return existing;
    throw new Error('order insert conflicted but no order was found');
  }

  const catalogueTexts = await catalogueNameTexts(trx, input.studioId, input.lines);
  await trx('client_order_lines').insert(
    input.lines.map((line, position) => ({
      id: uuidv7(),
      studioId: input.studioId,
      orderId: id,
      position,
      kind: line.kind,
      refId: line.refId ?? null,
      name: line.name.trim().slice(0, 300),
      nameTexts:
        (line.nameTexts ?? catalogueTexts.get(line))
          ? JSON.stringify(line.nameTexts ?? catalogueTexts.get(line))
          : null,
      quantity: line.quantity,
      unitPrice: line.unitPriceMinor,
      vatRate: vatRateText(parseVatRate(line.vatRate)!),
      total: line.quantity * line.unitPriceMinor,
      forVisitId: line.forVisitId ?? null,
    })),
  );
  return { id };
}

/**
 * The catalogue's names in every language of the pass and product lines a caller gave no
 * `nameTexts` (the desk's sales, offline ones included, name a line in the desk's language only), so
 * that every screen, mail and invoice names the line in its own language (issue 25: an English cart
 * showed "Karnet 8 wejść", a Polish invoice "4 entries"). A product's default-language name is its
 * `name`, its translations `name_texts` (migration 0350).
 */
async function catalogueNameTexts(
  trx: Knex.Transaction,
  studioId: string,
  lines: CreateOrderLine[],
): Promise<Map<CreateOrderLine, LocaleText>> {
  const found = new Map<CreateOrderLine, LocaleText>();
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const wanted = (kind: string) =>
    lines.filter((l) => !l.nameTexts && l.kind === kind && l.refId && UUID.test(l.refId));
  const passes = wanted('pass');
  const products = wanted('product');
  if (passes.length > 0) {
    const rows = await trx('pricing_options')
      .where({ studioId })
      .whereIn('id', [...new Set(passes.map((l) => l.refId!))])
      .select('id', 'name');
    const byId = new Map(rows.map((r) => [r.id, r.name]));
    for (const line of passes) {
      const texts = byId.get(line.refId!);
      if (texts && Object.keys(texts).length > 0) found.set(line, texts);
    }
  }
  if (products.length > 0) {
    const studio = (await trx('studios').where({ id: studioId }).first('defaultLocale')) as
      { defaultLocale: string } | undefined;
    const rows = await trx('products')
      .where({ studioId })
      .whereIn('id', [...new Set(products.map((l) => l.refId!))])
      .select('id', 'name', 'nameTexts');
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const line of products) {
      const row = byId.get(line.refId!);
      if (row && studio)
        found.set(line, { ...(row.nameTexts ?? {}), [studio.defaultLocale]: { value: row.name } });
    }
  }
  return found;
}

async function findBySource(
  trx: Knex.Transaction,
  studioId: string,
  source: string,
  sourceId: string,
): Promise<{ id: string } | undefined> {
  const row = (await trx('client_orders').where({ studioId, source, sourceId }).first('id')) as
    { id: string } | undefined;
  return row ? { id: row.id } : undefined;
}
