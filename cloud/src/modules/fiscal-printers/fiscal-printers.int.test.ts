import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { inProcessRig } from '../../../../desktop/main/printing/emulator/test-rig';
import type { FiscalReceipt } from '../../../../desktop/main/printing/fiscal-printer';
import { FiscalPrinterListSchema } from '../../../../shared/contracts/api/fiscal-printers';
import { computeReceiptTotals, type ReceiptLineInput } from '../../../../shared/domain/receipts';
import { addMembership, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { studioSessions } from '../../../../tests/support/sessions';
import type { Studio } from '../identity/rows';

const NOW = new Date('2026-11-22T12:00:00Z');
const clock = new ManualClock(NOW);

const app = useTestApp({ clock });

const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
const unique = () => uuidv7().slice(-8);

const SERIAL = {
  kind: 'serial',
  path: '/dev/ttyUSB0',
  baudRate: 9600,
  parity: 'none',
  dataBits: 8,
  stopBits: 1,
  flowControl: 'none',
} as const;

const STATUS_OK = {
  online: true,
  paperOut: false,
  coverOpen: false,
  device: 'ready',
  dailyReportNeeded: false,
  lastReceiptNumber: 41,
  vatSlots: [2300, 800, 500, 0, 'exempt', 'inactive', 'inactive'],
} as const;

const { ownerStudio, staffWithRole } = studioSessions(() => app);

async function addPrinter(owner: HttpClient, studio: Studio, overrides: Record<string, unknown> = {}) {
  const res = await owner.post(api(studio, 'fiscal-printer'), {
    name: 'Front desk POSNET',
    stationSlug: `front-${unique()}`,
    connection: SERIAL,
    ...overrides,
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; stationSlug: string; [k: string]: any };
}

async function addPricingOption(studio: Studio, taxRateBp: number) {
  await app.knex('pricing_options').insert({
    id: uuidv7(),
    studioId: studio.id,
    name: { en: { value: `Pass ${taxRateBp}` } },
    price: 10000,
    taxRateBp,
  });
}

const LINES: ReceiptLineInput[] = [
  { name: 'Karnet 4 wejścia', unitPrice: 16000, vatRate: 2300 },
  { name: 'Woda mineralna 0,5 l', unitPrice: 333, quantity: '3', vatRate: 800 },
  { name: 'Joga — zajęcia', unitPrice: 4599, vatRate: 2300, discount: { percent: 1250 } },
  { name: 'Ręcznik', unitPrice: 1999, quantity: '1.5', vatRate: 'exempt', discount: { amount: 99 } },
];

function printedDocument(lines = LINES, discount = 777, overrides: Record<string, unknown> = {}) {
  const total = computeReceiptTotals({ lines, discount }).total;
  return {
    saleId: uuidv7(),
    lines,
    discount,
    payments: [{ type: 'cash', amount: total + 1000 }],
    outcome: { status: 'printed', receiptNumber: 42, total, recovered: false },
    ...overrides,
  };
}

// ------------------------------------------------------------------------------------ the route table

interface Fixture {
  studio: Studio;
  printerId: string;
  slug: string;
  documentId: string;
}

type RouteCase = {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  /** A default role without the route's ability (403). */
  deniedRole: string;
  /** A default role with it. */
  allowedRole: string;
  ok: number;
};

const ROUTES: RouteCase[] = [
  {
    name: 'collection',
    method: 'GET',
    path: () => 'fiscal-printer/collection',
    deniedRole: 'front_desk',
    allowedRole: 'manager',
    ok: 200,
  },
  {
    name: 'create',
    method: 'POST',
    path: () => 'fiscal-printer',
    body: () => ({
      name: 'P',
      stationSlug: `s-${unique()}`,
      connection: { kind: 'tcp', host: '10.0.0.5', port: 6666 },
    }),
    deniedRole: 'accountant',
    allowedRole: 'manager',
    ok: 201,
  },
  {
    name: 'edit',
    method: 'PATCH',
    path: (f) => `fiscal-printer/${f.printerId}`,
    body: () => ({ name: `Renamed ${unique()}` }),
    deniedRole: 'front_desk',
    allowedRole: 'manager',
    ok: 200,
  },
  {
    name: 'diagnose',
    method: 'POST',
    path: (f) => `fiscal-printer/${f.printerId}/diagnose`,
    deniedRole: 'front_desk',
    allowedRole: 'manager',
    ok: 202,
  },
  {
    name: 'document',
    method: 'GET',
    path: (f) => `fiscal-printer/document/${f.documentId}`,
    deniedRole: 'instructor',
    allowedRole: 'accountant',
    ok: 200,
  },
  {
    name: 'station config',
    method: 'GET',
    path: (f) => `fiscal-printer/${f.slug}`,
    deniedRole: 'accountant',
    allowedRole: 'front_desk',
    ok: 200,
  },
  {
    name: 'station report',
    method: 'POST',
    path: (f) => `fiscal-printer/${f.slug}`,
    body: () => ({ status: STATUS_OK }),
    deniedRole: 'accountant',
    allowedRole: 'front_desk',
    ok: 200,
  },
  {
    name: 'retail status',
    method: 'POST',
    path: () => 'retail/fiscal-printer-status',
    body: (f) => ({ stationSlug: f.slug }),
    deniedRole: 'instructor',
    allowedRole: 'front_desk',
    ok: 200,
  },
  {
    name: 'delete',
    method: 'DELETE',
    path: (f) => `fiscal-printer/${f.printerId}`,
    deniedRole: 'front_desk',
    allowedRole: 'manager',
    ok: 204,
  },
];

async function fixture(): Promise<Fixture & { owner: HttpClient }> {
  const { studio, owner } = await ownerStudio();
  const printer = await addPrinter(owner, studio);
  const res = await owner.post(api(studio, `fiscal-printer/${printer.stationSlug}`), {
    documents: [printedDocument()],
  });
  expect(res.status, res.text).toBe(200);
  return {
    studio,
    owner,
    printerId: printer.id,
    slug: printer.stationSlug,
    documentId: res.body.documents[0].id,
  };
}

describe('every fiscal-printer route', () => {
  it.each(ROUTES.map((r) => [r.name, r] as const))(
    '%s: 401, 403 by role, 404 for another studio, success',
    async (_, route) => {
      const f = await fixture();
      const path = api(f.studio, route.path(f));
      const body = route.body?.(f);

      const anonymous = await app.anonymous();
      const unauthenticated = await anonymous.request(route.method, path, body);
      expect(unauthenticated.status).toBe(401);

      const denied = await staffWithRole(f.studio, route.deniedRole);
      const refused = await denied.request(route.method, path, body);
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.error.key).toBe('auth.forbidden');

      await expectHiddenFromOtherStudio(app, { method: route.method, path, body }, [f.slug, f.printerId]);

      const allowed = await staffWithRole(f.studio, route.allowedRole);
      const res = await allowed.request(route.method, path, body);
      expect(res.status, res.text).toBe(route.ok);
    },
  );

  it('another studio’s printer, station and document ids name nothing in the caller’s own studio', async () => {
    const f = await fixture();
    const other = await ownerStudio();
    for (const [method, path, body] of [
      ['PATCH', `fiscal-printer/${f.printerId}`, { name: 'Mine now' }],
      ['DELETE', `fiscal-printer/${f.printerId}`, undefined],
      ['POST', `fiscal-printer/${f.printerId}/diagnose`, undefined],
      ['GET', `fiscal-printer/document/${f.documentId}`, undefined],
      ['GET', `fiscal-printer/${f.slug}`, undefined],
      ['POST', `fiscal-printer/${f.slug}`, { status: STATUS_OK }],
    ] as const) {
      const res = await other.owner.request(method, api(other.studio, path), body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const status = await other.owner.post(api(other.studio, 'retail/fiscal-printer-status'), {
      stationSlug: f.slug,
    });
    expect(status.body).toMatchObject({ configured: false, printer: null });
    const list = await other.owner.get(api(other.studio, 'fiscal-printer/collection'));
    expect(list.body.items).toEqual([]);
    // Nothing of the first studio changed.
    const mine = await f.owner.get(api(f.studio, 'fiscal-printer/collection'));
    expect(mine.body.items[0]).toMatchObject({ id: f.printerId, name: 'Front desk POSNET', diagnosis: null });
  });

  it('ids that are not uuids answer 404, unknown query parameters 400', async () => {
    const { studio, owner } = await ownerStudio();
    expect((await owner.patch(api(studio, 'fiscal-printer/nope'), { name: 'x' })).status).toBe(404);
    expect((await owner.get(api(studio, 'fiscal-printer/document/nope'))).status).toBe(404);
    expect((await owner.get(api(studio, `fiscal-printer/document/${uuidv7()}`))).status).toBe(404);
    expect((await owner.get(api(studio, 'fiscal-printer/no-such-station'))).status).toBe(404);
    const extra = await owner.get(api(studio, 'fiscal-printer/collection?x=1'));
    expect(extra.status).toBe(400);
    expect(extra.body.error.fields).toHaveProperty(['query.x']);
  });

  it('a role that may view settings but not edit them sees the printers and cannot add one', async () => {
    const { studio, owner } = await ownerStudio();
    await addPrinter(owner, studio);
    const role = await owner.request('PUT', api(studio, 'studio-iam-role'), {
      name: `Viewer ${unique()}`,
      abilities: ['settings.view'],
    });
    expect(role.status, role.text).toBe(201);
    const user = await createUser(app.knex);
    await addMembership(app.knex, studio, user, { isMember: true, role: null });
    await app
      .knex('memberships')
      .where({ studioId: studio.id, userId: user.id })
      .update({ iamRoleId: role.body.uuid });
    const viewer = await app.signedIn(user.email, user.password);
    expect((await viewer.get(api(studio, 'fiscal-printer/collection'))).body.items).toHaveLength(1);
    const add = await viewer.post(api(studio, 'fiscal-printer'), {
      name: 'X',
      stationSlug: 'x',
      connection: SERIAL,
    });
    expect(add.status).toBe(403);
  });
});

// ------------------------------------------------------------------------------------ settings

describe('POST/PATCH/DELETE fiscal-printer (settings of a station)', () => {
  it('leaves out a 100 % tax, which no printer can hold, and still answers a valid list', async () => {
    const { studio, owner } = await ownerStudio();
    await addPricingOption(studio, 800);
    const full = await owner.post(api(studio, 'tax'), {
      name: 'Akcyza 100%',
      rateBp: 10000,
      fiscalSlot: 'G',
    });
    expect(full.status, full.text).toBe(201);
    await addPrinter(owner, studio, { name: 'Recepcja', stationSlug: 'recepcja' });
    const list = await owner.get(api(studio, 'fiscal-printer/collection'));
    expect(list.status).toBe(200);
    expect(FiscalPrinterListSchema.safeParse(list.body).error).toBeUndefined();
    expect(list.body.studioRates).toEqual([800]);
  });

  it('adds a printer with the usual VAT table and maps the studio’s rates by value', async () => {
    const { studio, owner } = await ownerStudio();
    await addPricingOption(studio, 2300);
    await addPricingOption(studio, 800);
    await addPricingOption(studio, 700);
    const printer = await addPrinter(owner, studio, { name: '  Recepcja  ', stationSlug: 'Recepcja-1' });
    expect(printer).toMatchObject({
      name: 'Recepcja',
      stationSlug: 'Recepcja-1',
      connection: SERIAL,
      vatSlots: [2300, 800, 500, 0, 'exempt', 'inactive', 'inactive'],
      status: null,
      diagnosis: null,
    });
    const list = await owner.get(api(studio, 'fiscal-printer/collection'));
    expect(list.status).toBe(200);
    expect(list.body.studioRates).toEqual(expect.arrayContaining([2300, 800, 700]));
    expect(list.body.items[0].vatMapping).toMatchObject({
      source: 'configured',
      differsFromConfigured: false,
    });
    expect(list.body.items[0].vatMapping.items).toEqual(
      expect.arrayContaining([
        { rate: 2300, slot: 'A' },
        { rate: 800, slot: 'B' },
        { rate: 700, slot: null },
      ]),
    );
  });

  it('answers 400 with every invalid field, and 409 for a second printer on one station (any case)', async () => {
    const { studio, owner } = await ownerStudio();
    const bad = await owner.post(api(studio, 'fiscal-printer'), {
      name: '   ',
      stationSlug: 'front desk!',
      connection: { ...SERIAL, baudRate: 9601, parity: 'sometimes' },
      vatSlots: [2300, 800],
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(
      ['connection.baudRate', 'connection.parity', 'name', 'stationSlug', 'vatSlots'].sort(),
    );
    const reserved = await owner.post(api(studio, 'fiscal-printer'), {
      name: 'X',
      stationSlug: 'Collection',
      connection: SERIAL,
    });
    expect(reserved.body.error.fields).toHaveProperty('stationSlug');
    const tcp = await owner.post(api(studio, 'fiscal-printer'), {
      name: 'X',
      stationSlug: 'y',
      connection: { kind: 'tcp', host: '', port: 0 },
    });
    expect(Object.keys(tcp.body.error.fields).sort()).toEqual(['connection.host', 'connection.port']);

    await addPrinter(owner, studio, { stationSlug: 'front-1' });
    const clash = await owner.post(api(studio, 'fiscal-printer'), {
      name: 'Second',
      stationSlug: 'FRONT-1',
      connection: SERIAL,
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error.fields).toHaveProperty('stationSlug');
    expect((await owner.get(api(studio, 'fiscal-printer/collection'))).body.items).toHaveLength(1);
  });

  it('edits the connection and VAT table; deleting keeps the documents', async () => {
    const { studio, owner } = await ownerStudio();
    const printer = await addPrinter(owner, studio);
    const edited = await owner.patch(api(studio, `fiscal-printer/${printer.id}`), {
      connection: { kind: 'tcp', host: '192.168.1.50', port: 6666 },
      vatSlots: [800, 2300, 500, 0, 'exempt', 'inactive', 'inactive'],
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.connection).toEqual({ kind: 'tcp', host: '192.168.1.50', port: 6666 });
    const nothing = await owner.patch(api(studio, `fiscal-printer/${printer.id}`), {});
    expect(nothing.status).toBe(400);

    const report = await owner.post(api(studio, `fiscal-printer/${printer.stationSlug}`), {
      documents: [printedDocument()],
    });
    const documentId = report.body.documents[0].id;
    expect((await owner.delete(api(studio, `fiscal-printer/${printer.id}`))).status).toBe(204);
    expect((await owner.get(api(studio, 'fiscal-printer/collection'))).body.items).toEqual([]);
    const document = await owner.get(api(studio, `fiscal-printer/document/${documentId}`));
    expect(document.status).toBe(200);
    expect(document.body).toMatchObject({
      printer: null,
      stationSlug: printer.stationSlug,
      status: 'printed',
    });
  });
});

// ------------------------------------------------------------------------------------ diagnose

describe('diagnose: queued by the back office, run and answered by the station', () => {
  it('queues one request, hands it to the station, and shows its result', async () => {
    const { studio, owner, manager } = await ownerStudio();
    const printer = await addPrinter(owner, studio);
    const station = await staffWithRole(studio, 'front_desk');

    const first = await owner.post(api(studio, `fiscal-printer/${printer.id}/diagnose`));
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({
      status: 'pending',
      result: null,
      requestedBy: { id: manager.id, firstName: 'Maria' },
    });
    const again = await owner.post(api(studio, `fiscal-printer/${printer.id}/diagnose`));
    expect(again.body.id).toBe(first.body.id);

    const config = await station.get(api(studio, `fiscal-printer/${printer.stationSlug.toUpperCase()}`));
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({
      printer: { id: printer.id, connection: SERIAL },
      pendingDiagnoses: [{ id: first.body.id }],
    });

    clock.set(new Date('2026-11-22T12:05:00Z'));
    const result = {
      ok: false,
      messageKey: 'printing:cashier.paperOut',
      transport: 'serial /dev/ttyUSB0 9600 8N1',
      status: { ...STATUS_OK, paperOut: true },
      counters: { completed: 41, cancelled: 2, lastReceiptNumber: 41 },
      transactionOpen: false,
    };
    const answered = await station.post(api(studio, `fiscal-printer/${printer.stationSlug}`), {
      diagnoses: [{ id: first.body.id, result }],
    });
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body.pendingDiagnoses).toEqual([]);

    const list = await owner.get(api(studio, 'fiscal-printer/collection'));
    const shown = list.body.items[0];
    expect(shown.diagnosis).toMatchObject({ id: first.body.id, status: 'completed', result });
    expect(shown.diagnosis.completedAt).toBe('2026-11-22T12:05:00.000Z');
    expect(shown.status).toMatchObject({
      paperOut: true,
      lastReceiptNumber: 41,
      attentionKey: 'printing:cashier.paperOut',
      reportedAt: '2026-11-22T12:05:00.000Z',
    });
    expect(shown.vatMapping.source).toBe('reported');

    // A retry of the same answer changes nothing; a new request can then be queued.
    const retry = await station.post(api(studio, `fiscal-printer/${printer.stationSlug}`), {
      diagnoses: [{ id: first.body.id, result: { ...result, ok: true, messageKey: null } }],
    });
    expect(retry.status).toBe(200);
    const kept = await owner.get(api(studio, 'fiscal-printer/collection'));
    expect(kept.body.items[0].diagnosis.result.ok).toBe(false);
    const next = await owner.post(api(studio, `fiscal-printer/${printer.id}/diagnose`));
    expect(next.body.id).not.toBe(first.body.id);
    clock.set(NOW);
  });

  it('a result for a request it was not given is 404 and writes nothing, not even the status', async () => {
    const { studio, owner } = await ownerStudio();
    const printer = await addPrinter(owner, studio);
    const other = await addPrinter(owner, studio);
    const elsewhere = await owner.post(api(studio, `fiscal-printer/${other.id}/diagnose`));
    const res = await owner.post(api(studio, `fiscal-printer/${printer.stationSlug}`), {
      status: STATUS_OK,
      diagnoses: [{ id: elsewhere.body.id, result: { ok: true, status: STATUS_OK } }],
    });
    expect(res.status).toBe(404);
    const list = await owner.get(api(studio, 'fiscal-printer/collection'));
    expect(list.body.items.map((p: any) => [p.id, p.status, p.diagnosis?.status])).toEqual(
      expect.arrayContaining([
        [printer.id, null, undefined],
        [other.id, null, 'pending'],
      ]),
    );
  });

  it('a report with nothing in it, or a bad status, is 400 with field errors', async () => {
    const { studio, owner } = await ownerStudio();
    const printer = await addPrinter(owner, studio);
    const empty = await owner.post(api(studio, `fiscal-printer/${printer.stationSlug}`), {});
    expect(empty.status).toBe(400);
    const bad = await owner.post(api(studio, `fiscal-printer/${printer.stationSlug}`), {
      status: { online: 'yes', device: 'asleep', lastReceiptNumber: -1 },
    });
    expect(Object.keys(bad.body.error.fields).sort()).toEqual([
      'status.device',
      'status.lastReceiptNumber',
      'status.online',
    ]);
  });
});

// ------------------------------------------------------------------------------------ documents

describe('fiscal documents: stored totals equal printed totals', () => {
  it('stores the totals the shared receipt-totals function computes for the lines', async () => {
    const { studio, owner } = await ownerStudio();
    const printer = await addPrinter(owner, studio);
    const doc = printedDocument();
    const res = await owner.post(api(studio, `fiscal-printer/${printer.stationSlug}`), { documents: [doc] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.documents).toEqual([{ id: expect.any(String), saleId: doc.saleId, status: 'printed' }]);

    const stored = await owner.get(api(studio, `fiscal-printer/document/${res.body.documents[0].id}`));
    expect(stored.status).toBe(200);
    const expected = computeReceiptTotals({ lines: LINES, discount: 777 });
    expect(stored.body).toMatchObject({
      saleId: doc.saleId,
      status: 'printed',
      receiptNumber: 42,
      printer: { id: printer.id, name: 'Front desk POSNET' },
      subtotal: expected.subtotal,
      discount: expected.discount,
      total: expected.total,
      vat: expected.vat,
      vatGroups: expected.vatGroups,
      currency: 'PLN',
    });
    expect(stored.body.lines.map((l: any) => [l.name, l.gross, l.discount, l.total])).toEqual(
      expected.lines.map((l) => [l.name, l.gross, l.discount, l.total]),
    );
  });

  it('a receipt printed by the POSNET driver on the emulator is stored with the printer’s own totals', async () => {
    const rig = await inProcessRig();
    try {
      const lines: ReceiptLineInput[] = [
        { name: 'Karnet open', unitPrice: 29999, vatRate: 2300 },
        { name: 'Izotonik', unitPrice: 699, quantity: '2', vatRate: 800, discount: { percent: 333 } },
        { name: 'Masaż', unitPrice: 12001, vatRate: 'exempt' },
        { name: 'Batonik', unitPrice: 350, quantity: '0.5', vatRate: 500 },
      ];
      const receipt: FiscalReceipt = {
        id: uuidv7(),
        lines,
        discount: 1234,
        payments: [{ type: 'cash', amount: 50000 }],
      };
      const outcome = await rig.printer.printReceipt(receipt);
      expect(outcome.status).toBe('printed');
      const printed = rig.emulator.receipts().at(-1) as Extract<
        (typeof rig.emulator.roll)[number],
        { kind: 'receipt' }
      >;

      const { studio, owner } = await ownerStudio();
      const printer = await addPrinter(owner, studio);
      const res = await owner.post(api(studio, `fiscal-printer/${printer.stationSlug}`), {
        documents: [{ saleId: receipt.id, lines, discount: 1234, payments: receipt.payments, outcome }],
      });
      expect(res.status, res.text).toBe(200);
      const stored = (await owner.get(api(studio, `fiscal-printer/document/${res.body.documents[0].id}`)))
        .body;
      expect(stored.receiptNumber).toBe(printed.number);
      expect(stored.total).toBe(printed.total);
      expect(stored.vat).toBe(printed.vat);
      expect(stored.vatGroups.map((g: any) => [g.total, g.vat])).toEqual(
        printed.slots.map((s: any) => [s.total, s.vat]),
      );
    } finally {
      await rig.close();
    }
  });

  it('refuses a printed total that differs from the lines’ total, and bad lines, storing nothing', async () => {
    const { studio, owner } = await ownerStudio();
    const printer = await addPrinter(owner, studio);
    const good = printedDocument();
    const wrongTotal = printedDocument(LINES, 777, {
      outcome: { status: 'printed', receiptNumber: 43, total: 100, recovered: false },
    });
    const badLines = {
      saleId: uuidv7(),
      lines: [
        { name: 'A', unitPrice: 1000, vatRate: 2300 },
        { name: 'B', unitPrice: 500, vatRate: 800, discount: { amount: 600 } },
      ],
      outcome: {
        status: 'notPrinted',
        reason: 'invalidReceipt',
        messageKey: 'printing:cashier.invalidReceipt',
      },
    };
    const res = await owner.post(api(studio, `fiscal-printer/${printer.stationSlug}`), {
      status: STATUS_OK,
      documents: [good, wrongTotal, badLines],
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual([
      'documents.1.outcome.total',
      'documents.2.lines.1.discount',
    ]);
    expect(
      await app.knex('fiscal_documents').where({ studioId: studio.id }).count('* as n').first(),
    ).toMatchObject({
      n: 0,
    });
    const list = await owner.get(api(studio, 'fiscal-printer/collection'));
    expect(list.body.items[0].status).toBeNull();
  });

  it('an unknown outcome is settled later; a printed receipt is final', async () => {
    const { studio, owner } = await ownerStudio();
    const printer = await addPrinter(owner, studio);
    const station = await staffWithRole(studio, 'front_desk');
    const url = api(studio, `fiscal-printer/${printer.stationSlug}`);
    const total = computeReceiptTotals({ lines: LINES, discount: 0 }).total;
    const saleId = uuidv7();
    const base = { saleId, lines: LINES, payments: [{ type: 'card', amount: total }] };

    const unknown = await station.post(url, {
      documents: [
        {
          ...base,
          outcome: {
            status: 'needsAttention',
            reason: 'printerNotResponding',
            messageKey: 'printing:cashier.outcomeUnknown',
            pending: { completedBefore: 10, total },
          },
        },
      ],
    });
    expect(unknown.body.documents[0].status).toBe('needsAttention');
    const retail = await station.post(api(studio, 'retail/fiscal-printer-status'), {
      stationSlug: printer.stationSlug,
    });
    expect(retail.body.documentsNeedingAttention).toBe(1);

    const settled = await station.post(url, {
      documents: [{ ...base, outcome: { status: 'printed', receiptNumber: 11, total, recovered: true } }],
    });
    expect(settled.body.documents[0]).toMatchObject({ id: unknown.body.documents[0].id, status: 'printed' });
    // The same report again (an outbox retry) is accepted and changes nothing.
    const retry = await station.post(url, {
      documents: [{ ...base, outcome: { status: 'printed', receiptNumber: 11, total, recovered: true } }],
    });
    expect(retry.status).toBe(200);
    const rewrite = await station.post(url, {
      documents: [{ ...base, outcome: { status: 'printed', receiptNumber: 12, total } }],
    });
    expect(rewrite.status).toBe(409);
    expect(rewrite.body.error.fields).toHaveProperty(['documents.0.saleId']);
    const doc = await owner.get(api(studio, `fiscal-printer/document/${unknown.body.documents[0].id}`));
    expect(doc.body).toMatchObject({ receiptNumber: 11, recovered: true, reason: null });
  });
});

// ------------------------------------------------------------------------------------ retail

describe('POST retail/fiscal-printer-status', () => {
  it('tells the POS whether its station has a printer, and records the state it reports', async () => {
    const { studio, owner } = await ownerStudio();
    const station = await staffWithRole(studio, 'front_desk');
    const none = await station.post(api(studio, 'retail/fiscal-printer-status'), { stationSlug: 'bar' });
    expect(none.body).toEqual({
      configured: false,
      printer: null,
      status: null,
      pendingDiagnoses: 0,
      documentsNeedingAttention: 0,
    });

    const printer = await addPrinter(owner, studio, { stationSlug: 'bar' });
    await owner.post(api(studio, `fiscal-printer/${printer.id}/diagnose`));
    const asked = await station.post(api(studio, 'retail/fiscal-printer-status'), { stationSlug: 'BAR' });
    expect(asked.body).toMatchObject({ configured: true, status: null, pendingDiagnoses: 1 });

    const told = await station.post(api(studio, 'retail/fiscal-printer-status'), {
      stationSlug: 'bar',
      status: { online: true, coverOpen: true, lastReceiptNumber: 7 },
    });
    expect(told.status, told.text).toBe(200);
    expect(told.body.status).toMatchObject({
      online: true,
      coverOpen: true,
      paperOut: false,
      lastReceiptNumber: 7,
      attentionKey: 'printing:cashier.coverOpen',
      reportedAt: NOW.toISOString(),
    });
    const list = await owner.get(api(studio, 'fiscal-printer/collection'));
    expect(list.body.items[0].status.attentionKey).toBe('printing:cashier.coverOpen');

    const bad = await station.post(api(studio, 'retail/fiscal-printer-status'), { stationSlug: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toHaveProperty('stationSlug');
  });
});
