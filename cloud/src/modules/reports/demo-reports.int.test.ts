import { describe, expect, it } from 'vitest';
import { TAKES_PLACE } from '../../../../shared/domain/bookings';
import { OrderStatus } from '../../../../shared/enums/orders';
import { DEMO, seedDemoStudio } from '../../db/seed/demo';
import { createLogger } from '../../logger';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';

/**
 * The demo studio's payroll: its classes earned what the orders behind them say — drop-ins paid at
 * the desk for their visits, and an entry's worth of each entry pass used, the pass sold by a paid
 * order. (The demo's history visits once said "pass" with no pass behind them: every class 0 zł.)
 */
const NOW = new Date('2026-11-20T10:00:00Z');
const clock = new ManualClock(NOW);
const app = useTestApp({ clock });
// October (history only) and November up to yesterday (the timetable's own classes from the 13th).
const PERIOD = 'from=2026-10-01&to=2026-11-19';

describe('the demo studio’s payroll', () => {
  it('has revenue for its classes, equal to the orders behind them', async () => {
    clock.set(NOW);
    const demo = (await seedDemoStudio(app.knex, createLogger('silent', false), NOW, {
      tag: `pay${Date.now()}`,
    }))!;
    const s = demo.studioUuid;
    const manager = await app.signedIn(demo.managerEmail, DEMO.password);

    const report = await manager.get(`/api/v4/${s}/report/payroll?${PERIOD}`);
    expect(report.status, report.text).toBe(200);
    const rows = report.body.rows as Array<{
      startsAt: string;
      attendees: number;
      revenue: number;
      rule: string;
      pay: number;
    }>;
    expect(report.body.rowCount).toBe(rows.length);
    expect(rows.length).toBeGreaterThan(150);
    const attended = rows.filter((r) => r.attendees > 0);
    // A class earns nothing only when everyone on it came on a monthly open pass (no entry's worth).
    expect(attended.filter((r) => r.revenue > 0).length).toBeGreaterThan(attended.length * 0.95);
    expect(report.body.totals.revenue).toBeGreaterThan(0);

    // The same figures from the orders: every visit of the period with what paid it.
    const visits = (await app
      .knex('client_visits as v')
      .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
      .leftJoin('client_pricing_options as cpo', 'cpo.id', 'v.client_pricing_option_id')
      .where('v.studio_id', s)
      .where('e.starts_at', '>=', new Date('2026-09-30T22:00:00Z'))
      .where('e.starts_at', '<', new Date('2026-11-19T23:00:00Z'))
      .whereNull('e.cancelled_at')
      .select(
        'v.id',
        'v.status',
        'v.payment',
        'v.client_pricing_option_id',
        'e.id as event_id',
        'e.starts_at',
        'cpo.entries',
      )) as Array<{
      id: string;
      status: number;
      payment: string;
      clientPricingOptionId: string | null;
      eventId: string;
      startsAt: Date;
      entries: number | null;
    }>;
    const lines = (await app
      .knex('client_order_lines as l')
      .join('client_orders as o', 'o.id', 'l.order_id')
      .where({ 'l.studio_id': s, 'o.status': OrderStatus.paid })
      .whereIn('l.kind', ['pass', 'visit'])
      .select('l.kind', 'l.ref_id', 'l.fulfilled_ref_id', 'l.unit_price', 'l.total')) as Array<{
      kind: string;
      refId: string;
      fulfilledRefId: string | null;
      unitPrice: number;
      total: number;
    }>;
    const dropIns = new Map<string, number>();
    const passSales = new Map<string, number>();
    for (const l of lines) {
      if (l.kind === 'visit') dropIns.set(l.refId, (dropIns.get(l.refId) ?? 0) + Number(l.total));
      else if (l.fulfilledRefId) passSales.set(l.fulfilledRefId, Number(l.unitPrice));
    }
    const byEvent = new Map<string, { startsAt: Date; revenue: number }>();
    let passVisits = 0;
    let dropInVisits = 0;
    for (const v of visits) {
      const event = byEvent.get(v.eventId) ?? { startsAt: v.startsAt, revenue: 0 };
      byEvent.set(v.eventId, event);
      if (v.clientPricingOptionId) {
        // Every pass a visit used was sold by a paid order.
        expect(passSales.has(v.clientPricingOptionId), `pass ${v.clientPricingOptionId}`).toBe(true);
        if (!TAKES_PLACE.has(v.status)) continue;
        passVisits += 1;
        if (v.entries) event.revenue += Math.floor(passSales.get(v.clientPricingOptionId)! / v.entries);
      } else if (dropIns.has(v.id)) {
        dropInVisits += 1;
        expect(v.payment).toBe('desk');
        event.revenue += dropIns.get(v.id)!;
      }
    }
    expect(passVisits).toBeGreaterThan(dropInVisits);
    expect(dropInVisits).toBeGreaterThan(50);
    const fromOrders = [...byEvent.values()]
      .filter((e) => e.revenue > 0)
      .map((e) => `${e.startsAt.toISOString()} ${e.revenue}`)
      .sort();
    const fromReport = rows
      .filter((r) => r.revenue > 0)
      .map((r) => `${new Date(r.startsAt).toISOString()} ${r.revenue}`)
      .sort();
    expect(fromReport).toEqual(fromOrders);
    expect(report.body.totals.revenue).toBe([...byEvent.values()].reduce((sum, e) => sum + e.revenue, 0));

    // An instructor paid a share of the revenue: 40 % of each class's.
    const shared = rows.filter((r) => r.rule === 'reports:payRule.revenuePercent');
    expect(shared.length).toBeGreaterThan(10);
    for (const r of shared) expect(r.pay).toBe(Math.round(r.revenue * 0.4));
    expect(shared.some((r) => r.pay > 0)).toBe(true);

    // Every paid order of the demo is settled by its payments, to the grosz.
    const unsettled = await app.knex.raw(
      `select o.id from client_orders o
         left join client_order_payments p on p.order_id = o.id and p.status = 'succeeded'
        where o.studio_id = ? and o.status = ?
        group by o.id, o.total having coalesce(sum(p.amount), 0) <> o.total`,
      [s, OrderStatus.paid],
    );
    expect(unsettled.rows).toEqual([]);
  }, 120_000);
});
