import { TZDate } from '@date-fns/tz';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { OrderStatus } from '../../../../shared/enums/orders';
import { PaymentMethod } from '../../../../shared/enums/payments';
import { ClientVisitStatus as V } from '../../../../shared/enums/visits';

export interface DemoReportsInput {
  studioId: string;
  timeZone: string;
  services: ReadonlyArray<{ id: string; minutes: number }>;
  rooms: ReadonlyArray<{ id: string; locationId: string; capacity: number }>;
  instructors: readonly string[];
  clientIds: readonly string[];
  passes: ReadonlyArray<{
    id: string;
    name: { pl?: { value: string } };
    price: number;
    entries: number | null;
  }>;
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

/**
 * Six months of history for the dashboard and the reports (issue 20): past classes with who came,
 * no-shows and cancellations; orders paid every day (passes, drop-ins, products) by cash, card,
 * online and wallet, growing a little month by month, some of them still owed; a few refunds; today's
 * sales so far; the instructors' pay rates. The timetable module's own classes (last week onward)
 * are left as they are: this history ends the day before them.
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
          booked_by: 'self',
          booked_at: new Date(startsAt.getTime() - 2 * DAY),
          checked_in_at: status === V.present ? startsAt : null,
          cancelled_at: status === V.lateCancel || status === V.selfEarlyCancel ? startsAt : null,
        });
      }
    }
  }
  await trx.batchInsert('schedule_events', events, 200);
  await trx.batchInsert('client_visits', visits, 500);

  const orders: Record<string, unknown>[] = [];
  const lines: Record<string, unknown>[] = [];
  const payments: Record<string, unknown>[] = [];
  const refunds: Record<string, unknown>[] = [];
  const methods = [
    PaymentMethod.cash,
    PaymentMethod.paymentCard,
    PaymentMethod.paymentCard,
    PaymentMethod.online,
    PaymentMethod.wallet,
  ];
  const products = [
    { name: 'Woda mineralna 0,5 l', price: 500 },
    { name: 'Mata do jogi', price: 12900 },
    { name: 'Ręcznik', price: 3900 },
  ];
  for (let daysAgo = HISTORY_DAYS; daysAgo >= 0; daysAgo--) {
    // A studio that grows: a few more sales a day each month.
    const perDay = 3 + Math.floor(((HISTORY_DAYS - daysAgo) / HISTORY_DAYS) * 4) + Math.floor(random() * 3);
    for (let i = 0; i < perDay; i++) {
      const hour = 7 + Math.floor(random() * 13);
      const paidAt = at(daysAgo, hour, Math.floor(random() * 60));
      if (paidAt > now) continue;
      const roll = random();
      const pass = pick(input.passes);
      const product = pick(products);
      const line =
        roll < 0.7
          ? {
              kind: 'pass',
              refId: pass.id,
              name: pass.name.pl?.value ?? 'Karnet',
              quantity: 1,
              unitPrice: pass.price,
            }
          : roll < 0.9
            ? { kind: 'visit', refId: null, name: 'Wejście jednorazowe', quantity: 1, unitPrice: 4500 }
            : {
                kind: 'product',
                refId: null,
                name: product.name,
                quantity: 1 + Math.floor(random() * 2),
                unitPrice: product.price,
              };
      const subtotal = line.quantity * line.unitPrice;
      const discount = random() < 0.08 ? Math.round(subtotal * 0.1) : 0;
      const owed = random() < 0.03;
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
        created_at: paidAt,
        updated_at: paidAt,
      });
      lines.push({
        id: uuidv7(),
        studio_id: studioId,
        order_id: id,
        position: 0,
        kind: line.kind,
        ref_id: line.refId,
        name: line.name,
        quantity: line.quantity,
        unit_price: line.unitPrice,
        vat_rate: '2300',
        total: subtotal,
      });
      if (owed) continue;
      const paymentId = uuidv7();
      payments.push({
        id: paymentId,
        studio_id: studioId,
        order_id: id,
        client_id: clientId,
        method: pick(methods),
        amount: subtotal - discount,
        currency: 'PLN',
        status: 'succeeded',
        settled_at: paidAt,
        created_at: paidAt,
        updated_at: paidAt,
      });
      if (random() < 0.01)
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
  await trx.batchInsert('client_orders', orders, 500);
  await trx.batchInsert('client_order_lines', lines, 500);
  await trx.batchInsert('client_order_payments', payments, 500);
  if (refunds.length) await trx.batchInsert('client_order_refunds', refunds, 500);

  // Clients joined over the half year, so "new clients" and retention have a history too.
  for (const w of windows)
    await trx('clients')
      .where({ studioId, userId: w.clientId })
      .update({ createdAt: new Date(now.getTime() - w.joined * DAY) });

  const kinds = [
    { kind: 'perClass', amount: 12000, minimum: 0 },
    { kind: 'perAttendee', amount: 1500, minimum: 6000 },
    { kind: 'perHour', amount: 10000, minimum: 0 },
    { kind: 'perClass', amount: 11000, minimum: 0 },
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
