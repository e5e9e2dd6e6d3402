import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudioScenario } from '../../../tests/support/factories';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';
import { createLogger } from '../logger';
import PgBoss from 'pg-boss';
import { v7 as uuidv7 } from 'uuid';
import { bossConnection, JOB_SCHEMA } from './queue';
import { CONTRACT_INSTALMENTS_DUE, startJobRunner, type JobDefinition } from './runner';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

describe('job runner (pg-boss over the knex pool)', () => {
  it('runs "contract instalments due" on this database and stops gracefully', async () => {
    const { studio, manager, client } = await createStudioScenario(app.knex);
    const owner = await app.signedIn(manager.email, manager.password);
    const created = await owner.post(`/api/v4/${studio.id}/contract`, {
      name: { en: { value: 'Monthly' } },
      price: 15000,
      periodUnit: 'month',
      periodLength: 1,
      durationPeriods: 3,
      activationType: 0,
      serviceTypes: ['classroomPricingOption'],
    });
    expect(created.status, created.text).toBe(201);
    const sold = await owner.post(`/api/v4/${studio.id}/client/${client.id}/client-contract`, {
      contractId: created.body.id,
    });
    expect(sold.status, sold.text).toBe(201);
    // Make the second instalment due yesterday: the job must pick it up.
    const second = sold.body.instalments[1];
    await app.knex('client_contract_instalments').where({ id: second.id }).update({ dueOn: '2020-01-01' });

    const runner = await startJobRunner(
      { knex: app.knex, log: createLogger('silent', false), clock: app.clock },
      { pollingIntervalSeconds: 0.5 },
    );
    try {
      await runner.trigger(CONTRACT_INSTALMENTS_DUE);
      const deadline = Date.now() + 30_000;
      let status = 'scheduled';
      while (Date.now() < deadline && status !== 'ordered') {
        await new Promise((r) => setTimeout(r, 250));
        status = (
          (await app.knex('client_contract_instalments').where({ id: second.id }).first('status')) as {
            status: string;
          }
        ).status;
      }
      expect(status).toBe('ordered');
      const orders = await app
        .knex('client_orders')
        .where({ studioId: studio.id, source: 'contract_instalment' });
      expect(orders).toHaveLength(2);
    } finally {
      const started = Date.now();
      await runner.stop();
      expect(Date.now() - started).toBeLessThan(25_000);
    }
    // The database stays usable after the runner stopped (it never closed the shared pool).
    expect(await app.knex('studios').where({ id: studio.id }).first('id')).toBeTruthy();
  }, 60_000);
});

describe('periodic jobs across instances', () => {
  it('two instances starting on one database run a start-up catch-up once, not once each', async () => {
    const runs: string[] = [];
    const job = (instance: string): JobDefinition => ({
      // A queue of this test's own: the shared database's real crons stay untouched.
      name: `test-start-up-${uuidv7()}`,
      cron: '0 3 * * *',
      runOnStart: true,
      run: async () => {
        runs.push(instance);
      },
    });
    const a = job('a');
    const b = { ...job('b'), name: a.name };
    const log = createLogger('silent', false);
    const first = await startJobRunner(
      { knex: app.knex, log, clock: app.clock },
      { jobs: [a], pollingIntervalSeconds: 0.5 },
    );
    const second = await startJobRunner(
      { knex: app.knex, log, clock: app.clock },
      { jobs: [b], pollingIntervalSeconds: 0.5 },
    );
    try {
      const deadline = Date.now() + 20_000;
      while (runs.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      // Time for a second run to be fetched (the workers poll every 0.5 s), were one queued.
      await new Promise((r) => setTimeout(r, 3_000));
      expect(runs).toHaveLength(1);
    } finally {
      await first.stop();
      await second.stop();
      const boss = new PgBoss({ db: bossConnection(app.knex), schema: JOB_SCHEMA });
      await boss.unschedule(a.name);
      await app.knex.raw(`delete from ${JOB_SCHEMA}.job where name = ?`, [a.name]);
      await boss.deleteQueue(a.name);
    }
  }, 60_000);
});
