import { afterEach, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import type { StationReportResult } from '../../../shared/contracts/api/desk-fleet';
import { PaymentMethod } from '../../../shared/enums';
import { AppError } from '../../../shared/errors/app-error';
import { openLocalDatabase, type LocalDatabase } from '../db/database';
import { StationPos } from '../station/pos.service';
import { SyncEngine } from '../sync/engine';
import { StationReporter } from './station-reporter';

/**
 * Issue 29: a desk the cloud no longer accepts stops selling, and the POS says why with both
 * versions (the screen's banner and the sale's error come from these).
 */
let db: LocalDatabase | null = null;
afterEach(() => {
  db?.close();
  db = null;
});

function desk(accepted: boolean) {
  db = openLocalDatabase(':memory:');
  db.prepare(
    `insert into meta (key, value) values ('studioId', ?), ('deviceId', ?), ('deviceToken', 't')`,
  ).run(uuidv7(), uuidv7());
  const engine = new SyncEngine(db);
  const answer: StationReportResult = {
    channel: 'stable',
    feedPath: '/desktop/updates/stable',
    oldestAccepted: '0.4.0',
    accepted,
    uploadLogs: false,
    serverTime: new Date().toISOString(),
  };
  const reporter = new StationReporter({
    cloudUrl: 'http://cloud.test',
    version: '0.3.2',
    platform: 'win32',
    mode: 'desk',
    deviceToken: () => 't',
    sync: () => engine.status(),
    pos: () => null,
    logs: () => '',
    fetch: (async () =>
      new Response(JSON.stringify(answer), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      })) as typeof fetch,
  });
  const pos = new StationPos({
    engine,
    forward: async () => {
      throw new Error('not in this test');
    },
    staff: () => ({ userId: uuidv7(), name: 'Anna' }),
    studioUuid: () => uuidv7(),
    deviceId: () => uuidv7(),
    locale: () => 'pl',
    isOnline: () => false,
    fiscalPrinter: null,
    ticketInterface: null,
    refuseSales: () => reporter.refusal(),
  });
  return { pos, reporter, engine };
}

const sale = {
  saleId: uuidv7(),
  clientId: null,
  lines: [{ type: 'product' as const, id: uuidv7(), quantity: 1 }],
  discount: 0,
  payments: [{ method: PaymentMethod.cash, amount: 500 }],
};

describe('a desk the cloud no longer accepts', () => {
  it('says so in the POS state with both versions, and refuses the sale with desktop.tooOld before recording it', async () => {
    const { pos, reporter, engine } = desk(false);
    // Before the first answer nothing is known: the desk sells.
    expect(pos.state().updateRequired).toBeNull();
    await reporter.report();
    expect(pos.state().updateRequired).toEqual({ version: '0.3.2', oldestAccepted: '0.4.0' });
    const refused = await pos.sell(sale as never).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      key: 'desktop.tooOld',
      fields: { version: ['0.3.2'], oldestAccepted: ['0.4.0'] },
    });
    expect(engine.outbox()).toEqual([]);
  });

  it('an accepted desk has no update required', async () => {
    const { pos, reporter } = desk(true);
    await reporter.report();
    expect(pos.state().updateRequired).toBeNull();
  });
});
