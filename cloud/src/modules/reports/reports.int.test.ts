import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { v7 as uuidv7 } from 'uuid';
import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../../shared/domain/clients/csv';
import { ClientVisitStatus as V } from '../../../../shared/enums/visits';
import { PaymentMethod } from '../../../../shared/enums/payments';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import type { Studio } from '../identity/rows';
import { TEST_SELLER_SETTINGS } from '../invoices/testing/seller-settings';
import { dac7Xml } from './dac7';
import { reportDef } from './report-catalog';
import { reportContext } from './report-period';
import { insertClass, insertOrder, insertRefund, insertVisit, type TestOrder } from './reports-fixtures';

/**
 * Management insight (issue 20): the dashboard, the reports reconciled with the orders to the grosz
 * (screen, CSV and XLSX), attendance and payroll (a substitute is paid), pay rates in bulk, rights,
 * tenancy, and the report queries' plans (studio and period on an index, no sequential scan).
 */
const DPI_SCHEMA = join(__dirname, '../../../../shared/spec/dpi/DPIXML_v1.0.xsd');

/** xmllint's verdict on a DPI file against the OECD schema: 'validates', else its errors. */
function validateDpi(xml: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'dpi-')), 'DPI.xml');
  writeFileSync(file, xml);
  const lint = spawnSync('xmllint', ['--noout', '--nonet', '--schema', DPI_SCHEMA, file], {
    encoding: 'utf8',
  });
  if (lint.error) throw lint.error; // no xmllint: fail, never skip
  const out = lint.stderr.replaceAll(file, 'DPI.xml').trim();
  return lint.status === 0 && out === 'DPI.xml validates' ? 'validates' : out;
}

const NOW = new Date('2026-11-20T10:00:00Z'); // 11:00 in Warsaw
const clock = new ManualClock(NOW);
const app = useTestApp({ clock });
const api = (studio: { id: string }, p: string) => `/api/v4/${studio.id}/${p}`;
const NOVEMBER = 'from=2026-11-01&to=2026-11-30';

/** Seeded randomness: the same orders every run. */
function prng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

async function studioWithSales(count = 60) {
  clock.set(NOW);
  const scenario = await createStudioScenario(app.knex);
  const owner = await app.signedIn(scenario.manager.email, scenario.manager.password);
  const s = scenario.studio.id;
  const random = prng(42);
  const methods = [PaymentMethod.cash, PaymentMethod.paymentCard, PaymentMethod.online, PaymentMethod.wallet];
  const orders: TestOrder[] = [];
  // `count` orders from 25 October to 5 December; some of them exactly on the month's edges in Warsaw.
  const edges = [
    new Date('2026-10-31T22:59:59Z'), // 31 Oct 23:59:59 in Warsaw: October
    new Date('2026-10-31T23:00:00Z'), // 1 Nov 00:00 in Warsaw: November
    new Date('2026-11-30T22:59:59Z'), // 30 Nov 23:59:59: November
    new Date('2026-11-30T23:00:00Z'), // 1 Dec 00:00: December
  ];
  for (let i = 0; i < count; i++) {
    const paidAt =
      edges[i] ?? new Date(Date.parse('2026-10-25T08:00:00Z') + Math.floor(random() * 41 * 86_400_000));
    const lines = [
      {
        kind: 'pass',
        name: random() < 0.5 ? 'Karnet 8' : 'Open',
        quantity: 1,
        total: 10000 + Math.floor(random() * 30000),
      },
      ...(random() < 0.4 ? [{ kind: 'product', name: 'Woda', quantity: 2, total: 798 }] : []),
    ];
    const discount = random() < 0.2 ? Math.floor(random() * 1500) + 1 : 0;
    const status = random() < 0.1 ? 2 : 1; // a few unpaid
    orders.push(
      await insertOrder(app.knex, s, scenario.client.id, {
        paidAt,
        status,
        discount,
        lines,
        method: methods[Math.floor(random() * methods.length)]!,
      }),
    );
  }
  const refunded = orders.filter((o) => o.payments.length > 0).slice(10, 13);
  for (const o of refunded) await insertRefund(app.knex, s, o, 1234, new Date('2026-11-15T12:00:00Z'));
  return { ...scenario, owner, orders, refunds: refunded.length * 1234 };
}

const inNovember = (d: Date) => d >= new Date('2026-10-31T23:00:00Z') && d < new Date('2026-11-30T23:00:00Z');

async function download(client: HttpClient, studio: Studio, path: string) {
  const res = await fetch(app.url + api(studio, path), { headers: client.headers() });
  return { status: res.status, type: res.headers.get('content-type') ?? '', res };
}

describe('reports', () => {
  it('money in the sales reports and their exports equals the orders to the grosz; the plans use indexes', async () => {
    const { studio, owner, orders, refunds } = await studioWithSales();
    const paid = orders.filter((o) => o.status === 1 && inNovember(o.paidAt));
    const expected = paid.reduce((sum, o) => sum + o.total, 0);
    const payments = paid.flatMap((o) => o.payments).reduce((sum, p) => sum + p.amount, 0);
    expect(expected).toBeGreaterThan(0);

    const byItem = await owner.get(api(studio, `report/sales-by-item?${NOVEMBER}`));
    expect(byItem.status, byItem.text).toBe(200);
    expect(byItem.body.totals.amount).toBe(expected);
    expect(byItem.body.rows.some((r: { kind: string }) => r.kind === 'reports:lineKind.discount')).toBe(true);
    const byDay = await owner.get(api(studio, `report/sales-by-day?${NOVEMBER}`));
    expect(byDay.body.totals.amount).toBe(expected);
    expect(byDay.body.totals.orders).toBe(paid.length);
    expect(byDay.body.rows[0].day).toBe('2026-11-01'); // the order paid at local midnight
    expect(byDay.body.rows.at(-1).day).toBe('2026-11-30');
    const byMethod = await owner.get(api(studio, `report/sales-by-method?${NOVEMBER}`));
    expect(byMethod.body.totals).toMatchObject({
      amount: payments,
      refunded: refunds,
      net: payments - refunds,
    });
    const list = await owner.get(api(studio, `report/payments?${NOVEMBER}`));
    expect(list.body.totals.amount).toBe(payments - refunds);
    expect(list.body.rowCount).toBe(paid.length + 3);
    const cash = await owner.get(api(studio, `report/payments?${NOVEMBER}&method=${PaymentMethod.cash}`));
    expect(cash.body.rows.every((r: { method: string }) => r.method === 'enums:paymentMethod.2')).toBe(true);
    const owed = await owner.get(api(studio, `report/outstanding?${NOVEMBER}`));
    expect(owed.body.rowCount).toBe(orders.filter((o) => o.status === 2 && inNovember(o.paidAt)).length);

    // The CSV (Polish: `;` and decimal commas) and the XLSX hold the same money.
    const csv = await download(owner, studio, `report/sales-by-item/export?${NOVEMBER}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.type).toContain('text/csv');
    expect(csv.res.headers.get('content-disposition')).toContain('sales-by-item_2026-11-01_2026-11-30.csv');
    const rows = parseCsv(await csv.res.text(), ';');
    expect(rows[0]).toEqual(['Rodzaj', 'Pozycja', 'Zamówienia', 'Ilość', 'Kwota']);
    const csvSum = rows
      .slice(1)
      .reduce((sum, r) => sum + Math.round(Number(r[4]!.replace(',', '.')) * 100), 0);
    expect(csvSum).toBe(expected);
    expect(rows.slice(1).map((r) => r[0])).toContain('Rabaty');

    const xlsx = await download(owner, studio, `report/payments/export?${NOVEMBER}&format=xlsx`);
    expect(xlsx.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.res.arrayBuffer());
    const sheet = workbook.worksheets[0]!;
    let xlsxSum = 0;
    sheet.eachRow((row, n) => {
      if (n > 1) xlsxSum += Math.round(Number(row.getCell(6).value) * 100);
    });
    expect(sheet.rowCount).toBe(paid.length + 3 + 1);
    expect(xlsxSum).toBe(payments - refunds);

    // The report queries read the studio's period through indexes, never a sequential scan.
    const checked: string[] = [];
    await app.knex.transaction(async (trx) => {
      // The test database is small, so the planner would rightly scan; forbid it to see that it can avoid it.
      await trx.raw('set local enable_seqscan = off');
      for (const id of [
        'sales-by-item',
        'sales-by-method',
        'sales-by-day',
        'payments',
        'outstanding',
        'attendance',
        'payroll',
        'retention',
        'fiscal-documents',
        'voucher-liability',
      ]) {
        const ctx = reportContext(trx, studio, { from: '2026-11-01', to: '2026-11-30' }, 'pl');
        const { sql, bindings } = reportDef(id)!.sql(ctx);
        const plan: { rows: Array<{ 'QUERY PLAN': string }> } = await trx.raw(`explain ${sql}`, bindings);
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(text, id).not.toMatch(
          /Seq Scan on (client_orders|client_visits|client_order_payments|schedule_events|fiscal_documents|voucher_redemptions|client_activity_months)/,
        );
        checked.push(id);
      }
    });
    expect(checked).toHaveLength(10);
  });

  it('the dashboard: today’s classes, revenue against last month, charts', async () => {
    const { studio, owner, manager, client, orders } = await studioWithSales(20);
    const s = studio.id;
    const today = await insertClass(app.knex, s, {
      startsAt: new Date('2026-11-20T17:00:00Z'),
      instructorId: manager.id,
      capacity: 3,
    });
    await insertVisit(app.knex, s, today.eventId, client.id, new Date('2026-11-20T17:00:00Z'), V.booked);
    const other = await createUser(app.knex);
    await addMembership(app.knex, studio, other, { isClient: true });
    await insertVisit(app.knex, s, today.eventId, other.id, new Date('2026-11-20T17:00:00Z'), V.waitingList);
    const past = await insertClass(app.knex, s, {
      startsAt: new Date('2026-11-17T07:00:00Z'), // Tuesday 08:00 in Warsaw
      instructorId: manager.id,
      locationId: today.locationId,
      classServiceId: today.classServiceId,
    });
    await insertVisit(app.knex, s, past.eventId, client.id, new Date('2026-11-17T07:00:00Z'), V.present);

    await app
      .knex('clients')
      .where({ studioId: s })
      .update({ createdAt: new Date('2026-11-20T08:00:00Z') });
    const res = await owner.get(api(studio, 'backoffice/dashboard'));
    expect(res.status, res.text).toBe(200);
    const d = res.body;
    expect(d.today).toBe('2026-11-20');
    expect(d.classes).toEqual([
      expect.objectContaining({ name: 'Vinyasa PL', booked: 1, capacity: 3, checkedIn: 0, waiting: 1 }),
    ]);
    const paidIn = (from: string, to: string) =>
      orders
        .filter((o) => o.status === 1 && o.paidAt >= new Date(from) && o.paidAt < new Date(to))
        .reduce((sum, o) => sum + o.total, 0);
    expect(d.revenue.month).toBe(paidIn('2026-10-31T23:00:00Z', '2026-11-20T23:00:00Z'));
    expect(d.revenue.lastMonth).toBe(paidIn('2026-09-30T22:00:00Z', '2026-10-31T23:00:00Z'));
    expect(d.revenue.lastMonthToDate).toBe(paidIn('2026-09-30T22:00:00Z', '2026-10-20T22:00:00Z'));
    expect(d.revenueByDay).toHaveLength(30);
    expect(d.revenueByDay.at(-1).day).toBe('2026-11-20');
    expect(d.waitingList).toBe(1);
    expect(d.attendanceByWeekday.find((w: { weekday: number }) => w.weekday === 2).visits).toBe(1);
    expect(d.attendanceByHour.find((h: { hour: number }) => h.hour === 8).visits).toBe(1);
    expect(d.newClients).toEqual({ today: 2, month: 2 });
    // A location filter narrows the classes (report-rollups.int.test.ts); one not of the studio is 404.
    const elsewhere = await owner.get(api(studio, `backoffice/dashboard?location=${crypto.randomUUID()}`));
    expect(elsewhere.status).toBe(404);
  });

  it('attendance and payroll: rates set in bulk, a substitute paid, per-attendee minimum', async () => {
    clock.set(NOW);
    const { studio, manager, client } = await createStudioScenario(app.knex);
    const owner = await app.signedIn(manager.email, manager.password);
    const s = studio.id;
    const anna = await createUser(app.knex, { firstName: 'Anna', lastName: 'Nowak' });
    const piotr = await createUser(app.knex, { firstName: 'Piotr', lastName: 'Zastępca' });
    for (const u of [anna, piotr])
      await addMembership(app.knex, studio, u, { isMember: true, role: 'instructor' });
    const at = new Date('2026-11-10T17:00:00Z');
    // Anna's timetable; Piotr taught this one.
    const taught = await insertClass(app.knex, s, {
      startsAt: at,
      minutes: 90,
      instructorId: piotr.id,
      metaInstructorId: anna.id,
    });
    await insertVisit(app.knex, s, taught.eventId, client.id, at, V.present);
    const second = await insertClass(app.knex, s, {
      startsAt: new Date('2026-11-11T17:00:00Z'),
      instructorId: anna.id,
      locationId: taught.locationId,
      classServiceId: taught.classServiceId,
    });
    await insertVisit(app.knex, s, second.eventId, client.id, new Date('2026-11-11T17:00:00Z'), V.absent);

    const rates = await owner.post(api(studio, 'manager-tools/payroll-values'), {
      rates: [
        { instructorId: piotr.id, classServiceId: null, kind: 'perHour', amount: 8000 },
        {
          instructorId: anna.id,
          classServiceId: taught.classServiceId,
          kind: 'perAttendee',
          amount: 1500,
          minimum: 5000,
        },
        { instructorId: anna.id, classServiceId: null, kind: 'perClass', amount: 9999 },
      ],
    });
    expect(rates.status, rates.text).toBe(200);
    expect(rates.body.items).toHaveLength(3);
    const bad = await owner.post(api(studio, 'manager-tools/payroll-values'), {
      rates: [{ instructorId: anna.id, classServiceId: null, kind: 'revenuePercent', amount: 20000 }],
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(['rates.0.amount']);
    const stranger = await createUser(app.knex);
    const notStaff = await owner.post(api(studio, 'manager-tools/payroll-values'), {
      rates: [{ instructorId: stranger.id, classServiceId: null, kind: 'perClass', amount: 1 }],
    });
    expect(notStaff.status).toBe(404);

    const report = await owner.get(api(studio, `report/payroll?${NOVEMBER}`));
    expect(report.status, report.text).toBe(200);
    expect(report.body.rows).toEqual([
      expect.objectContaining({
        instructor: 'Piotr Zastępca',
        substitute: 'reports:substitute.yes',
        rule: 'reports:payRule.perHour',
        pay: 12000, // 90 minutes at 80 zł an hour
      }),
      expect.objectContaining({
        instructor: 'Anna Nowak',
        substitute: 'reports:substitute.no',
        rule: 'reports:payRule.perAttendee',
        attendees: 0,
        pay: 5000, // nobody came: the minimum
      }),
    ]);
    expect(report.body.totals.pay).toBe(17000);
    const summary = await owner.get(api(studio, `report/payroll-summary?${NOVEMBER}`));
    expect(summary.body.rows).toEqual([
      expect.objectContaining({ instructor: 'Anna Nowak', classes: 1, substitutions: 0, pay: 5000 }),
      expect.objectContaining({ instructor: 'Piotr Zastępca', classes: 1, substitutions: 1, pay: 12000 }),
    ]);
    const onlyAnna = await owner.get(api(studio, `report/payroll?${NOVEMBER}&instructor=${anna.id}`));
    expect(onlyAnna.body.rowCount).toBe(1);

    const byInstructor = await owner.get(api(studio, `report/attendance?${NOVEMBER}&groupBy=instructor`));
    expect(byInstructor.body.rows).toEqual([
      expect.objectContaining({ label: 'Anna Nowak', classes: 1, booked: 1, absent: 1, noShowRate: 100 }),
      expect.objectContaining({ label: 'Piotr Zastępca', classes: 1, present: 1, fillRate: 10 }),
    ]);
    const retention = await owner.get(api(studio, `report/retention?from=2026-10-01&to=2026-11-30`));
    expect(retention.body.rows).toEqual([
      expect.objectContaining({ month: '2026-10', active: 0, new: 0 }),
      expect.objectContaining({ month: '2026-11', active: 1, new: 1, lapsed: 0 }),
    ]);
    const removed = await owner.post(api(studio, 'manager-tools/payroll-values'), {
      rates: [{ instructorId: piotr.id, classServiceId: null, kind: 'perClass', amount: 10000 }],
      remove: [{ instructorId: anna.id, classServiceId: null }],
    });
    expect(removed.body.items).toHaveLength(2);
  });

  it('payroll: a drop-in paid at the desk is its class’s revenue, a share of it the instructor’s pay', async () => {
    clock.set(NOW);
    const { studio, manager, client } = await createStudioScenario(app.knex);
    const owner = await app.signedIn(manager.email, manager.password);
    const s = studio.id;
    const anna = await createUser(app.knex, { firstName: 'Anna', lastName: 'Nowak' });
    await addMembership(app.knex, studio, anna, { isMember: true, role: 'instructor' });
    const other = await createUser(app.knex);
    await addMembership(app.knex, studio, other, { isClient: true });
    const at = new Date('2026-11-12T17:00:00Z');
    const taught = await insertClass(app.knex, s, { startsAt: at, instructorId: anna.id });
    const paidVisit = await insertVisit(app.knex, s, taught.eventId, client.id, at, V.booked);
    // Booked to pay at the desk and not paid yet: no revenue.
    await insertVisit(app.knex, s, taught.eventId, other.id, at, V.booked);
    const paid = await owner.post(`/api/v2/${s}/client-visits/pay`, {
      userId: client.id,
      visitIds: [paidVisit],
      unitPrice: 4500,
      method: PaymentMethod.cash,
    });
    expect(paid.status, paid.text).toBe(201);
    await owner.post(api(studio, 'manager-tools/payroll-values'), {
      rates: [{ instructorId: anna.id, classServiceId: null, kind: 'revenuePercent', amount: 4000 }],
    });

    const report = await owner.get(api(studio, `report/payroll?${NOVEMBER}`));
    expect(report.body.rows).toEqual([
      expect.objectContaining({
        instructor: 'Anna Nowak',
        attendees: 2,
        revenue: 4500,
        rule: 'reports:payRule.revenuePercent',
        pay: 1800, // 40 % of 45 zł
      }),
    ]);
  });

  it('rights, bad input and other studios', async () => {
    clock.set(NOW);
    const { studio, manager } = await createStudioScenario(app.knex);
    const owner = await app.signedIn(manager.email, manager.password);
    const desk = await createUser(app.knex);
    await addMembership(app.knex, studio, desk, { isMember: true, role: 'front_desk' });
    const frontDesk = await app.signedIn(desk.email, desk.password);
    const anonymous = await app.anonymous();
    const paths = [
      'backoffice/dashboard',
      'report/all',
      `report/attendance?${NOVEMBER}`,
      `report/sales-by-item/export?${NOVEMBER}&format=csv`,
      'manager-tools/payroll-values',
    ];
    const other = await createStudioScenario(app.knex);
    const otherManager = await app.signedIn(other.manager.email, other.manager.password);
    for (const p of paths) {
      expect((await anonymous.get(api(studio, p))).status, p).toBe(401);
      expect((await frontDesk.get(api(studio, p))).status, p).toBe(403);
      const hidden = await otherManager.get(api(studio, p));
      expect(hidden.status, p).toBe(404);
      expect(hidden.body.error.key).toBe('resource.notFound');
    }
    await expectHiddenFromOtherStudio(app, {
      method: 'POST',
      path: api(studio, 'manager-tools/payroll-values'),
      body: { rates: [{ instructorId: manager.id, classServiceId: null, kind: 'perClass', amount: 1 }] },
    });
    const catalog = await owner.get(api(studio, 'report/all'));
    expect(catalog.status).toBe(200);
    expect(catalog.body.items).toHaveLength(14);
    expect((await owner.get(api(studio, `report/nope?${NOVEMBER}`))).status).toBe(404);
    const group = await owner.get(api(studio, `report/attendance?${NOVEMBER}&groupBy=nope&location=x`));
    expect(group.status).toBe(400);
    expect(Object.keys(group.body.error.fields).sort()).toEqual(['query.groupBy', 'query.location']);
    const reversed = await owner.get(api(studio, 'report/attendance?from=2026-11-30&to=2026-11-01'));
    expect(reversed.status).toBe(400);
    expect(reversed.body.error.fields['query.to']).toEqual(['the end is before the start']);
    const year = await owner.get(api(studio, 'report/attendance?from=2025-01-01&to=2026-01-02'));
    expect(year.status).toBe(400);
    expect(year.body.error.fields['query.to']).toEqual(['at most 366 days']);
    expect((await owner.get(api(studio, `report/payments/export?${NOVEMBER}&format=pdf`))).status).toBe(400);
  });

  it('the studio’s data export: a background job, its progress, the zip; other studios see nothing', async () => {
    const { studio, owner, client, orders } = await studioWithSales(12);
    const desk = await createUser(app.knex);
    await addMembership(app.knex, studio, desk, { isMember: true, role: 'front_desk' });
    const frontDesk = await app.signedIn(desk.email, desk.password);
    expect((await frontDesk.post(api(studio, 'studio-data-export'), {})).status).toBe(403);
    expect((await (await app.anonymous()).post(api(studio, 'studio-data-export'), {})).status).toBe(401);

    const asked = await owner.post(api(studio, 'studio-data-export'), {});
    expect(asked.status, asked.text).toBe(201);
    expect(asked.body).toMatchObject({ status: 'queued', progress: 0 });
    const id = asked.body.id as string;
    const early = await download(owner, studio, `studio-data-export/${id}/download`);
    expect(early.status).toBe(409);
    expect(((await early.res.json()) as { error: { key: string } }).error.key).toBe('studioExport.notReady');
    const other = await createStudioScenario(app.knex);
    const stranger = await app.signedIn(other.manager.email, other.manager.password);
    for (const path of [`studio-data-export/${id}`, `studio-data-export/${id}/download`]) {
      expect((await stranger.get(api(studio, path))).status, path).toBe(404);
      // Their own studio's address does not find another studio's export either.
      expect((await stranger.get(api(other.studio, path))).status, path).toBe(404);
    }

    expect(await app.drainJobs()).toBeGreaterThanOrEqual(1);
    const ready = await owner.get(api(studio, `studio-data-export/${id}`));
    expect(ready.body).toMatchObject({ status: 'ready', progress: 100 });
    const list = await owner.get(api(studio, 'studio-data-export/all'));
    expect(list.body.items.map((e: { id: string }) => e.id)).toEqual([id]);
    const zip = await download(owner, studio, `studio-data-export/${id}/download`);
    expect(zip.status).toBe(200);
    expect(zip.type).toBe('application/zip');
    const files = unzipSync(new Uint8Array(await zip.res.arrayBuffer()));
    expect(Object.keys(files)).toContain('clients.csv');
    const clients = parseCsv(strFromU8(files['clients.csv']!), ',');
    expect(clients[0]).toContain('first_name');
    expect(clients.slice(1).some((r) => r.includes(client.firstName))).toBe(true);
    expect(parseCsv(strFromU8(files['client_orders.csv']!), ',')).toHaveLength(orders.length + 1);
  });

  it('DAC7: requireInput until the studio is identified, quarters of payments through the platform, the DPI file', async () => {
    clock.set(NOW);
    const { studio, manager, client } = await createStudioScenario(app.knex);
    const owner = await app.signedIn(manager.email, manager.password);
    const line = [{ kind: 'pass', name: 'Karnet', quantity: 1, total: 20000 }];
    const paid = (at: string, method: number) =>
      insertOrder(app.knex, studio.id, client.id, {
        paidAt: new Date(at),
        status: 1,
        discount: 0,
        lines: line,
        method,
      });
    await paid('2026-01-15T10:00:00Z', PaymentMethod.online);
    const card = await paid('2026-11-02T10:00:00Z', PaymentMethod.paymentCard);
    await paid('2026-11-03T10:00:00Z', PaymentMethod.cash); // at the desk: not through the platform
    await insertRefund(app.knex, studio.id, card, 5000, new Date('2026-11-04T10:00:00Z'));

    const before = await owner.get(api(studio, 'dac7-report/collection'));
    expect(before.status, before.text).toBe(200);
    expect(before.body.items[0]).toMatchObject({ year: 2026, status: 'requireInput' });
    expect(before.body.items[0].missing).toEqual([
      'sellerName',
      'taxId',
      'addressLine',
      'postalCode',
      'city',
      'country',
      'iban',
    ]);
    expect((await owner.request('PUT', api(studio, 'invoice-settings'), TEST_SELLER_SETTINGS)).status).toBe(
      200,
    );
    const after = await owner.get(api(studio, 'dac7-report/collection'));
    const report = after.body.items[0];
    expect(report).toMatchObject({ year: 2026, status: 'completed', missing: [] });
    expect(report.quarters).toEqual([
      { quarter: 1, consideration: 20000, activities: 1, fees: 0 },
      { quarter: 2, consideration: 0, activities: 0, fees: 0 },
      { quarter: 3, consideration: 0, activities: 0, fees: 0 },
      { quarter: 4, consideration: 15000, activities: 1, fees: 0 },
    ]);
    const hidden = await (
      await app.signedIn((await createStudioScenario(app.knex)).manager.email, 'correct horse battery')
    ).get(api(studio, 'dac7-report/collection'));
    expect(hidden.status).toBe(404);

    // The platform's fees, per quarter of the studio's calendar (31 Mar 23:30 UTC is 1 Apr in Warsaw).
    await app.knex('platform_fees').insert([
      {
        id: uuidv7(),
        studioId: studio.id,
        chargedAt: new Date('2026-03-31T23:30:00Z'),
        amount: 1999,
        currency: 'PLN',
      },
      {
        id: uuidv7(),
        studioId: studio.id,
        chargedAt: new Date('2026-11-05T09:00:00Z'),
        amount: 750,
        currency: 'PLN',
      },
    ]);

    // A sole trader: an individual seller, named, with a date of birth.
    const seller = 'dac7-report/seller';
    const soleTrader = { kind: 'individual', firstName: 'Anna', lastName: 'Nowak', birthDate: '1985-04-02' };
    expect((await (await app.anonymous()).request('PUT', api(studio, seller), soleTrader)).status).toBe(401);
    const deskUser = await createUser(app.knex);
    await addMembership(app.knex, studio, deskUser, { isMember: true, role: 'front_desk' });
    const frontDesk = await app.signedIn(deskUser.email, deskUser.password);
    expect((await frontDesk.request('PUT', api(studio, seller), soleTrader)).status).toBe(403);
    await expectHiddenFromOtherStudio(app, { method: 'PUT', path: api(studio, seller), body: soleTrader });
    const incomplete = await owner.request('PUT', api(studio, seller), {
      kind: 'individual',
      firstName: 'Anna',
      birthDate: '2099-01-01',
    });
    expect(incomplete.status).toBe(400);
    expect(Object.keys(incomplete.body.error.fields).sort()).toEqual(['birthDate', 'lastName']);
    const set = await owner.request('PUT', api(studio, seller), soleTrader);
    expect(set.status, set.text).toBe(200);
    const individual = set.body.items[0];
    expect(individual).toMatchObject({
      status: 'completed',
      seller: { kind: 'individual', name: 'Anna Nowak', birthDate: '1985-04-02' },
    });
    expect(individual.quarters.map((q: { fees: number }) => q.fees)).toEqual([0, 1999, 0, 750]);
    // Without a tax id the individual's report needs input again, and says so.
    await app.knex('studio_invoice_settings').where({ studioId: studio.id }).update({ taxId: '' });
    const needs = (await owner.get(api(studio, 'dac7-report/collection'))).body.items[0];
    expect(needs).toMatchObject({ status: 'requireInput', missing: ['taxId'] });
    await app
      .knex('studio_invoice_settings')
      .where({ studioId: studio.id })
      .update({ taxId: '526-025-02-74' });

    const operator = {
      name: 'Platforma sp. z o.o.',
      tin: '5260250274',
      country: 'PL',
      address: 'Warszawa',
      platformName: 'Studio',
    };
    const place = { addressLine: 'ul. Marszałkowska 10/4', postalCode: '00-590', city: 'Warszawa' };
    const xml = dac7Xml(
      operator,
      2026,
      [
        { studioId: studio.id, report, ...place },
        { studioId: `${studio.id}-2`, report: individual, ...place },
      ],
      'PL2026-1',
      NOW,
    );
    expect(xml).toContain(
      '<dpi:DPI_OECD xmlns:dpi="urn:oecd:ties:dpi:v1" version="1.0" xmlns:stf="urn:oecd:ties:dpistf:v1">',
    );
    // Whole units of the currency (the schema's MonAmnt_Type is an integer).
    expect(xml).toContain('<dpi:ConsQ1 currCode="PLN">200</dpi:ConsQ1>');
    expect(xml).toContain('<dpi:ConsQ4 currCode="PLN">150</dpi:ConsQ4>');
    expect(xml).toContain('<dpi:FeesQ2 currCode="PLN">20</dpi:FeesQ2>');
    expect(xml).toContain('<dpi:NumbQ4>1</dpi:NumbQ4>');
    expect(xml).toContain('<dpi:TIN issuedBy="PL">5260250274</dpi:TIN>');
    expect(xml).toMatch(/<dpi:EntitySeller>\s*<dpi:Standard>\s*<dpi:EntSellerID>/);
    expect(xml).toMatch(
      /<dpi:IndividualSeller>[\s\S]*<dpi:FirstName>Anna<\/dpi:FirstName>\s*<dpi:LastName>Nowak<\/dpi:LastName>[\s\S]*<dpi:BirthInfo>\s*<dpi:BirthDate>1985-04-02<\/dpi:BirthDate>/,
    );
    // Validated against the OECD's DPI schema (offline copy in shared/spec/dpi, README there).
    expect(validateDpi(xml)).toBe('validates');
    // …and a file missing a required element does not.
    expect(validateDpi(xml.replace(/<dpi:ReportingPeriod>[^<]*<\/dpi:ReportingPeriod>/, ''))).toMatch(
      /ReportingPeriod/,
    );
  });
});
