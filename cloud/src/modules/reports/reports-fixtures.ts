import { v7 as uuidv7 } from 'uuid';
import type { Knex } from '../../db/knex';

/**
 * Rows the reports read, written straight into the tables (the modules that make them through their
 * routes have their own tests): a studio's class, its visits, and paid orders with their lines and
 * payments. Each returns what it wrote, so a test can sum it independently of the report.
 */
export interface TestOrder {
  id: string;
  paidAt: Date;
  status: number;
  total: number;
  discount: number;
  lines: Array<{ kind: string; name: string; quantity: number; total: number; refId?: string }>;
  payments: Array<{ id: string; method: number; amount: number; settledAt: Date }>;
}

export async function insertOrder(
  knex: Knex,
  studioId: string,
  clientId: string | null,
  order: Omit<TestOrder, 'id' | 'payments' | 'total'> & { method: number },
): Promise<TestOrder> {
  const id = uuidv7();
  const subtotal = order.lines.reduce((s, l) => s + l.total, 0);
  const total = subtotal - order.discount;
  await knex('client_orders').insert({
    id,
    studioId,
    clientId,
    source: 'desk',
    status: order.status,
    currency: 'PLN',
    subtotal,
    discount: order.discount,
    total,
    paidAt: order.status === 1 ? order.paidAt : null,
    createdAt: order.paidAt,
  });
  await knex('client_order_lines').insert(
    order.lines.map((l, position) => ({
      id: uuidv7(),
      studioId,
      orderId: id,
      position,
      kind: l.kind,
      refId: l.refId ?? null,
      name: l.name,
      quantity: l.quantity,
      unitPrice: Math.round(l.total / l.quantity),
      vatRate: '2300',
      total: l.total,
    })),
  );
  const payments: TestOrder['payments'] = [];
  if (order.status === 1 && total > 0) {
    const payment = { id: uuidv7(), method: order.method, amount: total, settledAt: order.paidAt };
    await knex('client_order_payments').insert({
      id: payment.id,
      studioId,
      orderId: id,
      clientId,
      method: payment.method,
      amount: payment.amount,
      currency: 'PLN',
      status: 'succeeded',
      settledAt: payment.settledAt,
      createdAt: payment.settledAt,
    });
    payments.push(payment);
  }
  return {
    id,
    paidAt: order.paidAt,
    status: order.status,
    total,
    discount: order.discount,
    lines: order.lines,
    payments,
  };
}

export async function insertRefund(
  knex: Knex,
  studioId: string,
  order: TestOrder,
  amount: number,
  at: Date,
): Promise<void> {
  await knex('client_order_refunds').insert({
    id: uuidv7(),
    studioId,
    orderId: order.id,
    paymentId: order.payments[0]!.id,
    amount,
    status: 'success',
    reason: 'test',
    createdAt: at,
  });
}

/** A location, a class service and a room-less class at `startsAt` taught by `instructorId`. */
export async function insertClass(
  knex: Knex,
  studioId: string,
  options: {
    startsAt: Date;
    minutes?: number;
    capacity?: number;
    instructorId: string;
    metaInstructorId?: string;
    locationId?: string;
    classServiceId?: string;
  },
): Promise<{ eventId: string; locationId: string; classServiceId: string }> {
  const locationId = options.locationId ?? uuidv7();
  if (!options.locationId) await knex('locations').insert({ id: locationId, studioId, name: 'Mokotów' });
  const classServiceId = options.classServiceId ?? uuidv7();
  if (!options.classServiceId)
    await knex('class_services').insert({
      id: classServiceId,
      studioId,
      name: JSON.stringify({ en: { value: 'Vinyasa' }, pl: { value: 'Vinyasa PL' } }),
      durationMinutes: options.minutes ?? 60,
    });
  let metaId: string | null = null;
  if (options.metaInstructorId) {
    metaId = uuidv7();
    await knex('schedule_metas').insert({
      id: metaId,
      studioId,
      classServiceId,
      locationId,
      daysOfWeek: [1, 2, 3, 4, 5, 6, 7],
      startTime: '18:00',
      durationMinutes: options.minutes ?? 60,
      firstDate: '2026-01-01',
      capacity: options.capacity ?? 10,
      instructorIds: [options.metaInstructorId],
    });
  }
  const eventId = uuidv7();
  await knex('schedule_events').insert({
    id: eventId,
    studioId,
    classServiceId,
    locationId,
    instructorId: options.instructorId,
    instructorIds: [options.instructorId],
    scheduleMetaId: metaId,
    startsAt: options.startsAt,
    endsAt: new Date(options.startsAt.getTime() + (options.minutes ?? 60) * 60_000),
    capacity: options.capacity ?? 10,
  });
  return { eventId, locationId, classServiceId };
}

export async function insertVisit(
  knex: Knex,
  studioId: string,
  eventId: string,
  clientId: string,
  startsAt: Date,
  status: number,
): Promise<string> {
  const id = uuidv7();
  await knex('client_visits').insert({
    id,
    studioId,
    scheduleEventId: eventId,
    clientId,
    startsAt,
    status,
    payment: 'desk',
    bookedBy: 'staff',
    bookedAt: startsAt,
    checkedInAt: status === 1 ? startsAt : null,
    waitingPosition: status === 8 ? 1 : null,
  });
  return id;
}
