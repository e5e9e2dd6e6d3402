import { TZDate } from '@date-fns/tz';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { OrderStatus } from '../../../../shared/enums/orders';
import { PaymentMethod } from '../../../../shared/enums/payments';
import {
  ClientPricingOptionStatus,
  PricingOptionExpirationType,
} from '../../../../shared/enums/pricing-options';
import {
  derivePassState,
  visitHoldsEntry,
  type PassTerms,
  type PassVisit,
} from '../../../../shared/domain/entitlements';
import { ClientVisitStatus as V } from '../../../../shared/enums/visits';

export interface DemoReportsInput {
  studioId: string;
  timeZone: string;
  services: ReadonlyArray<{ id: string; minutes: number; name: Record<string, { value: string }> }>;
  rooms: ReadonlyArray<{ id: string; locationId: string; capacity: number }>;
  instructors: readonly string[];
  clientIds: readonly string[];
  passes: ReadonlyArray<{
    id: string;
    name: { pl?: { value: string } };
    price: number;
    entries: number | null;
    days: number;
  }>;
  /** Who sold at the desk (the owner). */
  staffId: string;
  /** The passes clients hold now (seeded with the timetable): each was sold by an order too. */
  currentPasses: ReadonlyArray<Record<string, unknown>>;
}

/** A small deterministic generator, so every demo studio has the same history. */
function prng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const DAY = 86_400_000;
const HISTORY_DAYS = 183;
/** What a drop-in class costs at the desk (the single-entry pass's price). */
const DROP_IN_PRICE = 4500;
/** How often clients pick each pass (single entry, 4, 8, monthly open). */
const PASS_WEIGHTS = [0.05, 0.3, 0.45, 0.2];
const DESK_METHODS = [PaymentMethod.cash, PaymentMethod.paymentCard, PaymentMethod.paymentCard];
const METHODS = [...DESK_METHODS, PaymentMethod.online, PaymentMethod.wallet];

/**
 * Inserts many rows as one JSON parameter per 2,000 rows (`json_populate_recordset`), the columns
 * those of the rows: on the embedded database this is several times faster than thousands of bound
 * parameters. Only the columns the rows name are written (the others take their defaults).
 */
async function insertRows(trx: Knex, table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const list = columns.map((c) => `"${c}"`).join(', ');
  for (let i = 0; i < rows.length; i += 2000)
    await trx.raw(
      `insert into ${table} (${list}) select ${list} from json_populate_recordset(null::${table}, ?)`,
      [JSON.stringify(rows.slice(i, i + 2000))],
    );
}

function pickWeighted<T>(items: readonly T[], weights: readonly number[], roll: number): T {
  let sum = 0;
  for (let i = 0; i < items.length; i++) {
    sum += weights[i] ?? 0;
    if (roll < sum) return items[i]!;
  }
  return items[items.length - 1]!;
}

/**
 * Six months of history for the dashboard and the reports (issue 20): past classes with who came,
 * no-shows and cancellations, each visit paid as the product pays it — by a pass the client bought
 * (an order, paid at the desk or online, whose pass line sold it) or as a drop-in paid at the desk
 * (an order whose visit line is the visit) — so the payroll's class revenue and the pass reports
 * have their orders behind them; the passes clients hold now (seeded with the timetable) have their
 * orders too; retail sales every day, growing a little month by month, some of them still owed, a
 * few refunded; today's sales so far; the instructors' pay rates (one paid a share of the revenue).
 * The timetable module's own classes (last week onward) are left as they are: this history ends the
 * day before them.
 */
export async function seedDemoReports(trx: Knex, input: DemoReportsInput, now: Date): Promise<void> {
  const random = prng(20261128);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const { studioId, timeZone } = input;
  const local = new TZDate(now.getTime(), timeZone);
  const at = (daysAgo: number, hour: number, minute = 0) => {
    const d = new TZDate(
      local.getFullYear(),
      local.getMonth(),
      local.getDate() - daysAgo,
      hour,
      minute,
      0,
      timeZone,
    );
    return new Date(d.getTime());
  };
  // Each client's time with the studio: most were there before the history starts, some joined
  // during it, and some stopped coming (retention and churn have something to show).
  const windows = input.clientIds.map((clientId, i) => {
    const joined = i === 0 || random() < 0.55 ? HISTORY_DAYS + 30 : Math.floor(random() * HISTORY_DAYS);
    const left = i !== 0 && random() < 0.25 ? Math.floor(random() * Math.min(joined, HISTORY_DAYS)) : -1;
    return { clientId, joined, left };
  });
  const activeOn = (daysAgo: number) =>
    windows.filter((w) => w.joined >= daysAgo && w.left < daysAgo).map((w) => w.clientId);
  const events: Record<string, unknown>[] = [];
  const visits: Record<string, unknown>[] = [];
  for (let daysAgo = HISTORY_DAYS; daysAgo > 7; daysAgo--) {
    const weekday = at(daysAgo, 12).getUTCDay();
    const regulars = activeOn(daysAgo);
    const hours = weekday === 0 || weekday === 6 ? [10, 12] : [7, 12, 18, 19];
    for (const hour of hours) {
      const room = pick(input.rooms);
      const service = pick(input.services);
      const startsAt = at(daysAgo, hour, hour === 7 ? 0 : 30);
      const id = uuidv7();
      events.push({
        id,
        studio_id: studioId,
        class_service_id: service.id,
        location_id: room.locationId,
        room_id: room.id,
        instructor_id: pick(input.instructors),
        instructor_ids: [],
        starts_at: startsAt,
        ends_at: new Date(startsAt.getTime() + service.minutes * 60_000),
        capacity: room.capacity,
      });
      // Evenings fill up; mornings less so.
      const fill = (hour >= 18 ? 0.6 : 0.35) + random() * 0.4;
      const count = Math.min(room.capacity, regulars.length, Math.round(room.capacity * fill));
      const taken = new Set<string>();
      while (taken.size < count) taken.add(pick(regulars));
      for (const clientId of taken) {
        const roll = random();
        const status =
          roll < 0.84 ? V.present : roll < 0.91 ? V.absent : roll < 0.96 ? V.lateCancel : V.selfEarlyCancel;
        visits.push({
          id: uuidv7(),
          studio_id: studioId,
          schedule_event_id: id,
          client_id: clientId,
          starts_at: startsAt,
          status,
          payment: 'pass',
          client_pricing_option_id: null,
          paid_at: null,
          booked_by: 'self',
          booked_at: new Date(startsAt.getTime() - 2 * DAY),
          checked_in_at: status === V.present ? startsAt : null,
          cancelled_at: status === V.lateCancel || status === V.selfEarlyCancel ? startsAt : null,
        });
      }
    }
  }
  await trx.batchInsert('schedule_events', events, 200);

  // What paid each visit, as the product would have written it. Most clients buy passes (at the
  // desk or online, when booking and holding none that covers the class): the visit carries the
  // pass (`payment = pass`, `client_pricing_option_id`), and the pass was sold by a paid order whose
  // `pass` line was fulfilled with it (sales' fulfilment → catalog's sellPass). Some come as drop-ins,
  // booked to pay at the desk and paid there (`client-visits/pay`): an order of one `visit` line
  // whose `ref_id` is the visit, the visit's `paid_at` set. A generator of its own, so the classes
  // and who came are the same as before payments were added.
  const payRandom = prng(20261203);
  const payPick = <T>(items: readonly T[]): T => items[Math.floor(payRandom() * items.length)]!;
  const orders: Record<string, unknown>[] = [];
  const lines: Record<string, unknown>[] = [];
  const payments: Record<string, unknown>[] = [];
  const refunds: Record<string, unknown>[] = [];
  const sold: Array<Record<string, unknown> & { terms: PassTerms; used: PassVisit[] }> = [];
  const termsOf = (pass: DemoReportsInput['passes'][number]): PassTerms => ({
    expirationType: PricingOptionExpirationType.saleDate,
    validityCount: pass.days,
    validityUnit: 'day',
    validUntil: null,
    entries: pass.entries,
  });
  const order = (o: {
    clientId: string;
    source: 'desk' | 'online' | 'visit';
    status?: number;
    at: Date;
    line: { kind: string; refId: string; name: string; nameTexts: unknown; unitPrice: number };
    fulfilledRefId: string | null;
    method?: number;
  }) => {
    const id = uuidv7();
    const paid = (o.status ?? OrderStatus.paid) === OrderStatus.paid;
    orders.push({
      id,
      studio_id: studioId,
      client_id: o.clientId,
      source: o.source,
      status: o.status ?? OrderStatus.paid,
      currency: 'PLN',
      subtotal: o.line.unitPrice,
      discount: 0,
      total: o.line.unitPrice,
      paid_at: paid ? o.at : null,
      created_by: o.source === 'online' ? o.clientId : input.staffId,
      created_at: o.at,
      updated_at: o.at,
    });
    lines.push({
      id: uuidv7(),
      studio_id: studioId,
      order_id: id,
      position: 0,
      kind: o.line.kind,
      ref_id: o.line.refId,
      name: o.line.name,
      name_texts: o.line.nameTexts,
      quantity: 1,
      unit_price: o.line.unitPrice,
      vat_rate: '2300',
      total: o.line.unitPrice,
      fulfilled_ref_id: paid ? o.fulfilledRefId : null,
      fulfilled_at: paid ? o.at : null,
    });
    if (!paid) return;
    payments.push({
      id: uuidv7(),
      studio_id: studioId,
      order_id: id,
      client_id: o.clientId,
      method: o.method ?? (o.source === 'online' ? PaymentMethod.online : payPick(DESK_METHODS)),
      amount: o.line.unitPrice,
      currency: 'PLN',
      status: 'succeeded',
      created_by: o.source === 'online' ? null : input.staffId,
      settled_at: o.at,
      created_at: o.at,
      updated_at: o.at,
    });
  };
  // A sale-date pass runs a number of the studio's calendar days from its sale (the catalog's rule);
  // remembered per instant, as sales share their classes' booking times.
  const expiries = new Map<string, Date>();
  const expiryOf = (soldAt: Date, terms: PassTerms): Date => {
    const key = `${soldAt.getTime()}:${terms.validityCount}`;
    let expiresAt = expiries.get(key);
    if (!expiresAt) {
      const state = derivePassState({ soldAt, terms, changes: [], visits: [] }, now, timeZone);
      expiresAt = state.expiresAt ?? new Date(8.64e15);
      expiries.set(key, expiresAt);
    }
    return expiresAt;
  };
  const sellPass = (clientId: string, pass: DemoReportsInput['passes'][number], at: Date) => {
    const id = uuidv7();
    const terms = termsOf(pass);
    const online = payRandom() < 0.35;
    // Now and then a card is declined online before the client pays again.
    if (online && payRandom() < 0.05)
      order({
        clientId,
        source: 'online',
        status: OrderStatus.failed,
        at: new Date(at.getTime() - 5 * 60_000),
        line: passLine(pass),
        fulfilledRefId: null,
      });
    order({ clientId, source: online ? 'online' : 'desk', at, line: passLine(pass), fulfilledRefId: id });
    const row = {
      id,
      studio_id: studioId,
      client_id: clientId,
      pricing_option_id: pass.id,
      sold_at: at,
      sold_by: online ? null : input.staffId,
      price_paid: pass.price,
      entries: pass.entries,
      expiration_type: terms.expirationType,
      validity_count: pass.days,
      validity_unit: 'day',
      created_at: at,
      updated_at: at,
      terms,
      used: [] as PassVisit[],
    };
    sold.push(row);
    return { id, soldAt: at, left: pass.entries, expiresAt: expiryOf(at, terms), used: row.used };
  };
  const passLine = (pass: DemoReportsInput['passes'][number]) => ({
    kind: 'pass',
    refId: pass.id,
    name: pass.name.pl?.value ?? 'Karnet',
    nameTexts: pass.name,
    unitPrice: pass.price,
  });
  const serviceOf = new Map(input.services.map((s) => [s.id, s]));
  const serviceOfEvent = new Map(events.map((e) => [e.id as string, e.class_service_id as string]));
  const when = new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'short' });
  // What each client usually buys: a few only ever come as drop-ins; the demo client holds passes.
  const habits = new Map(
    input.clientIds.map((clientId, i) => {
      const roll = payRandom();
      const option = pickWeighted(input.passes, PASS_WEIGHTS, payRandom());
      return [clientId, { dropIn: i !== 0 && roll < 0.1, option }] as const;
    }),
  );
  // The passes clients hold now paid their last weeks of the history too, keeping two entries spare
  // for the bookings ahead (seeded with the timetable); and no pass bought in the history is still
  // valid now (such a visit is a drop-in), so what clients hold today is only those passes.
  type Held = { id: string; soldAt: Date; expiresAt: Date; left: number | null; used?: PassVisit[] };
  const bookedOnCurrent = new Map<string, number>();
  for (const v of (await trx('client_visits')
    .where({ studioId })
    .whereNotNull('clientPricingOptionId')
    .select('clientPricingOptionId', 'status')) as Array<{ clientPricingOptionId: string; status: number }>)
    if (visitHoldsEntry(v.status))
      bookedOnCurrent.set(v.clientPricingOptionId, (bookedOnCurrent.get(v.clientPricingOptionId) ?? 0) + 1);
  const currentOf = new Map<string, Held[]>();
  for (const p of input.currentPasses) {
    const entries = p.entries as number | null;
    const list = currentOf.get(p.client_id as string) ?? [];
    list.push({
      id: p.id as string,
      soldAt: p.sold_at as Date,
      expiresAt: p.expires_at as Date,
      left: entries === null ? null : entries - (bookedOnCurrent.get(p.id as string) ?? 0) - 2,
    });
    currentOf.set(p.client_id as string, list);
  }
  const held = new Map<string, Held>();
  const coversVisit = (pass: Held | undefined, bookedAt: Date, startsAt: Date, holds: boolean) =>
    pass !== undefined &&
    pass.soldAt <= bookedAt &&
    pass.expiresAt > startsAt &&
    (!holds || pass.left === null || pass.left > 0);
  for (const visit of visits) {
    const clientId = visit.client_id as string;
    const startsAt = visit.starts_at as Date;
    const bookedAt = visit.booked_at as Date;
    const status = visit.status as V;
    const holds = status !== V.selfEarlyCancel;
    let pass = held.get(clientId);
    let covers = coversVisit(pass, bookedAt, startsAt, holds);
    if (!covers) {
      pass = currentOf.get(clientId)?.find((p) => coversVisit(p, bookedAt, startsAt, holds));
      covers = pass !== undefined;
      if (pass) held.set(clientId, pass);
    }
    const habit = habits.get(clientId)!;
    const buyable = expiryOf(bookedAt, termsOf(habit.option)) <= now;
    if (!covers && (habit.dropIn || !buyable || payRandom() < 0.05)) {
      visit.payment = 'desk';
      // Cancelled early before paying: nothing owed.
      if (!holds) continue;
      const service = serviceOf.get(serviceOfEvent.get(visit.schedule_event_id as string)!);
      const label = when.format(startsAt);
      visit.paid_at = bookedAt;
      visit.booked_by = 'staff';
      visit.booked_by_user_id = input.staffId;
      order({
        clientId,
        source: 'visit',
        at: bookedAt,
        line: {
          kind: 'visit',
          refId: visit.id as string,
          name: `${service?.name.pl?.value ?? ''} ${label}`.trim(),
          nameTexts: Object.fromEntries(
            Object.entries(service?.name ?? {}).map(([lang, t]) => [lang, { value: `${t.value} ${label}` }]),
          ),
          unitPrice: DROP_IN_PRICE,
        },
        fulfilledRefId: visit.id as string,
      });
      continue;
    }
    if (!covers) {
      pass = sellPass(clientId, habit.option, bookedAt);
      held.set(clientId, pass);
    }
    visit.client_pricing_option_id = pass!.id;
    pass!.used?.push({ startsAt, status });
    if (holds && pass!.left !== null) pass!.left -= 1;
  }
  // The passes' state as the catalog's projection keeps it (derived from the sale and the visits).
  await insertRows(
    trx,
    'client_pricing_options',
    sold.map(({ terms, used, ...row }) => {
      const soldAt = row.sold_at as Date;
      const expiresAt = expiryOf(soldAt, terms);
      // Most ran out long ago; only those still running need the whole derivation (entries used up?).
      const state =
        expiresAt <= now
          ? { status: ClientPricingOptionStatus.inactive, activatedAt: soldAt, expiresAt }
          : derivePassState({ soldAt, terms, changes: [], visits: used }, now, timeZone);
      return { ...row, status: state.status, activated_at: state.activatedAt, expires_at: state.expiresAt };
    }),
  );
  await insertRows(trx, 'client_visits', visits);
  // The passes clients hold now were sold by orders too.
  const passById = new Map(input.passes.map((p) => [p.id, p]));
  for (const current of input.currentPasses) {
    const pass = passById.get(current.pricing_option_id as string);
    if (!pass) continue;
    const online = payRandom() < 0.35;
    order({
      clientId: current.client_id as string,
      source: online ? 'online' : 'desk',
      at: current.sold_at as Date,
      line: { ...passLine(pass), unitPrice: current.price_paid as number },
      fulfilledRefId: current.id as string,
    });
  }

  // Retail at the desk every day, a few more each month: some still owed, a few refunded.
  const products = [
    { name: 'Woda mineralna 0,5 l', price: 500 },
    { name: 'Mata do jogi', price: 12900 },
    { name: 'Ręcznik', price: 3900 },
  ];
  for (let daysAgo = HISTORY_DAYS; daysAgo >= 0; daysAgo--) {
    const perDay = Math.floor(((HISTORY_DAYS - daysAgo) / HISTORY_DAYS) * 2) + Math.floor(random() * 3);
    for (let i = 0; i < perDay; i++) {
      const hour = 7 + Math.floor(random() * 13);
      const paidAt = at(daysAgo, hour, Math.floor(random() * 60));
      if (paidAt > now) continue;
      const product = pick(products);
      const quantity = 1 + Math.floor(random() * 2);
      const subtotal = quantity * product.price;
      const discount = random() < 0.08 ? Math.round(subtotal * 0.1) : 0;
      const owed = random() < 0.1;
      const status = owed ? (random() < 0.5 ? OrderStatus.unpaid : OrderStatus.failed) : OrderStatus.paid;
      const id = uuidv7();
      const active = activeOn(daysAgo);
      const clientId = active.length > 0 ? pick(active) : input.clientIds[0]!;
      orders.push({
        id,
        studio_id: studioId,
        client_id: clientId,
        source: 'desk',
        status,
        currency: 'PLN',
        subtotal,
        discount,
        total: subtotal - discount,
        paid_at: owed ? null : paidAt,
        created_by: input.staffId,
        created_at: paidAt,
        updated_at: paidAt,
      });
      lines.push({
        id: uuidv7(),
        studio_id: studioId,
        order_id: id,
        position: 0,
        kind: 'product',
        ref_id: null,
        name: product.name,
        quantity,
        unit_price: product.price,
        vat_rate: '2300',
        total: subtotal,
        fulfilled_at: owed ? null : paidAt,
      });
      if (owed) continue;
      const paymentId = uuidv7();
      payments.push({
        id: paymentId,
        studio_id: studioId,
        order_id: id,
        client_id: clientId,
        method: pick(METHODS),
        amount: subtotal - discount,
        currency: 'PLN',
        status: 'succeeded',
        created_by: input.staffId,
        settled_at: paidAt,
        created_at: paidAt,
        updated_at: paidAt,
      });
      if (random() < 0.03)
        refunds.push({
          id: uuidv7(),
          studio_id: studioId,
          order_id: id,
          payment_id: paymentId,
          amount: subtotal - discount,
          status: 'success',
          reason: 'Rezygnacja klienta',
          created_at: new Date(paidAt.getTime() + DAY),
          updated_at: new Date(paidAt.getTime() + DAY),
        });
    }
  }
  await insertRows(trx, 'client_orders', orders);
  await insertRows(trx, 'client_order_lines', lines);
  await insertRows(trx, 'client_order_payments', payments);
  if (refunds.length) await trx.batchInsert('client_order_refunds', refunds, 500);

  // Clients joined over the half year, so "new clients" and retention have a history too.
  // One statement, not one per client (the seed runs at every first start and e2e server start).
  await trx.raw(
    `update clients c set created_at = j.created_at
       from (values ${windows.map(() => '(?::uuid, ?::timestamptz)').join(', ')}) as j (user_id, created_at)
      where c.studio_id = ? and c.user_id = j.user_id`,
    [...windows.flatMap((w) => [w.clientId, new Date(now.getTime() - w.joined * DAY)]), studioId],
  );

  const kinds = [
    { kind: 'perClass', amount: 12000, minimum: 0 },
    { kind: 'perAttendee', amount: 1500, minimum: 6000 },
    { kind: 'perHour', amount: 10000, minimum: 0 },
    // 40 % of the class's revenue: the drop-ins paid for it and an entry's worth of each pass used.
    { kind: 'revenuePercent', amount: 4000, minimum: 0 },
    { kind: 'perClass', amount: 15000, minimum: 0 },
  ];
  await trx('instructor_pay_rates').insert(
    input.instructors.map((instructorId, i) => ({
      id: uuidv7(),
      studioId,
      instructorId,
      classServiceId: null,
      ...kinds[i % kinds.length]!,
    })),
  );
}
