import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedDatabase } from '../../../tests/support/isolated-db';
import { ManualClock, startTestApp, type TestApp } from '../../../tests/support/test-app';
import { createLogger } from '../logger';
import type { Mailer, MailMessage } from '../mail/mailer';
import { bookVisit } from '../modules/bookings/bookings.service';
import { findStudio } from '../modules/identity/rows';
import { bookingStudio, sessionClient } from '../modules/bookings/bookings-fixtures';
import { bossConnection, enqueue, JOB_SCHEMA, statements } from './queue';
import { startJobRunner, type JobRunner } from './runner';

/**
 * The side-effect pipeline end to end with the real worker (pg-boss fetching, retrying): on a
 * database of this file's own (PostgreSQL), so no other test file's jobs are taken; on the embedded
 * database files run one at a time and test apps delete the jobs they leave.
 */
let app: TestApp;
let drop: () => Promise<void>;
const clock = new ManualClock(new Date('2026-06-01T10:00:00Z'));
beforeAll(async () => {
  const db = await isolatedDatabase();
  drop = db.drop;
  app = await startTestApp({ clock, databaseUrl: db.url });
});
afterAll(async () => {
  await app?.close();
  await drop?.();
});

/** A mailer the test steers: `next` decides what each send does (default: record it). */
function steeredMailer() {
  const sent: MailMessage[] = [];
  const mailer: Mailer & { next: Array<() => Promise<void>> } = {
    recent: sent,
    next: [],
    async send(message) {
      const step = mailer.next.shift();
      if (step) await step();
      sent.push(message);
    },
  };
  return mailer;
}

async function runner(mailer: Mailer): Promise<JobRunner> {
  return startJobRunner(
    {
      knex: app.knex,
      log: createLogger('silent', false),
      clock: app.clock,
      mailer,
      publicUrl: () => app.url,
    },
    { jobs: [], pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 },
  );
}

async function until(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const jobRow = async (id: string) =>
  (
    (await app.knex.raw(
      `select state, retry_backoff, start_after > now() + interval '10 seconds' as later
         from ${JOB_SCHEMA}.job where id = ?`,
      [id],
    )) as { rows: Array<{ state: string; retry_backoff: boolean; later: boolean }> }
  ).rows[0];

const mail = (to: string): MailMessage => ({ to, subject: 'Hello', text: 'Hi\n' });

describe('enqueue inside the business transaction', () => {
  it('a rolled-back transaction leaves no job; a committed one is performed once, after the commit', async () => {
    const rolledBack = await app.knex
      .transaction(async (trx) => {
        const id = await enqueue(trx, 'mail.send', mail('never@example.com'));
        throw Object.assign(new Error('refused'), { id });
      })
      .catch((err: { id: string }) => err.id);
    expect(
      await statements.getJobById('mail.send', rolledBack, {
        db: bossConnection(app.knex),
        includeArchive: true,
      }),
    ).toBeNull();

    const mailer = steeredMailer();
    const worker = await runner(mailer);
    try {
      const id = await app.knex.transaction(async (trx) => {
        const queued = await enqueue(trx, 'mail.send', mail('once@example.com'));
        // Not visible to the worker before the commit: nothing is sent while the transaction is open.
        await new Promise((r) => setTimeout(r, 1_200));
        expect(mailer.recent).toEqual([]);
        return queued;
      });
      await until(() => mailer.recent.length === 1);
      expect(mailer.recent[0]).toMatchObject({
        to: 'once@example.com',
        messageId: `<${id}@jobs.studio.local>`,
      });
      await until(async () => (await jobRow(id))?.state === 'completed');
      expect(await app.knex('job_deliveries').where({ key: id }).first('queue')).toEqual({
        queue: 'mail.send',
      });
    } finally {
      await worker.stop();
    }
    expect(mailer.recent.filter((m) => m.to === 'never@example.com')).toEqual([]);
  }, 60_000);

  it('a failed send is retried with exponential backoff; a key already delivered is not sent again', async () => {
    const mailer = steeredMailer();
    mailer.next.push(async () => {
      throw new Error('SMTP 451 try again later');
    });
    const worker = await runner(mailer);
    try {
      const id = await enqueue(app.knex, 'mail.send', mail('retry@example.com'), { key: 'test:retry' });
      // The first attempt failed: the job waits for its retry (30 s, doubling) instead of failing.
      await until(async () => (await jobRow(id))?.state === 'retry');
      expect(await jobRow(id)).toMatchObject({ state: 'retry', retry_backoff: true, later: true });
      expect(mailer.recent).toEqual([]);
      // Time passes: the retry sends it.
      await app.knex.raw(`update ${JOB_SCHEMA}.job set start_after = now() where id = ?`, [id]);
      await until(async () => (await jobRow(id))?.state === 'completed');
      expect(mailer.recent.map((m) => m.to)).toEqual(['retry@example.com']);

      // The same effect enqueued again (same key): done already, nothing sent.
      const again = await enqueue(app.knex, 'mail.send', mail('retry@example.com'), { key: 'test:retry' });
      await until(async () => (await jobRow(again))?.state === 'completed');
      expect(mailer.recent.map((m) => m.to)).toEqual(['retry@example.com']);
    } finally {
      await worker.stop();
    }
  }, 60_000);
});

describe('no answer waits for a side effect', () => {
  it('a booking answers at once while SMTP hangs; its confirmation goes when SMTP answers', async () => {
    const st = await bookingStudio(app, new Date('2026-06-03T16:00:00Z'));
    await app.knex('users').where({ id: st.client.id }).update({ locale: 'en' });
    const me = await sessionClient(app, st.client.id);
    let release!: () => void;
    const smtpHangs = new Promise<void>((resolve) => (release = resolve));
    let attempts = 0;
    const mailer = steeredMailer();
    const send = mailer.send.bind(mailer);
    // Every send hangs until SMTP answers.
    mailer.send = async (message) => {
      attempts += 1;
      await smtpHangs;
      await send(message);
    };
    const worker = await runner(mailer);
    try {
      const started = Date.now();
      const booked = await me.post(`/api/v4/${st.studio.id}/booking/classroom/book`, {
        scheduleEventId: st.eventId,
      });
      expect(booked.body.outcome).toBe('booked');
      expect(Date.now() - started).toBeLessThan(2_000);
      // The worker is stuck in the send meanwhile.
      await until(() => attempts === 1);
      expect(mailer.recent).toEqual([]);
      release();
      await until(() => mailer.recent.some((m) => m.to === st.client.email));
      expect(mailer.recent.find((m) => m.to === st.client.email)!.subject).toBe(
        'Booked: Vinyasa, Wednesday, 3 June 2026 18:00',
      );
    } finally {
      release();
      await worker.stop();
    }
  }, 60_000);

  it('a booking made outside any route (the sync push) is confirmed by the worker too', async () => {
    const st = await bookingStudio(app, new Date('2026-06-03T16:00:00Z'));
    const studio = (await findStudio(app.knex, st.studio.id))!;
    await app.knex.transaction((trx) =>
      bookVisit(
        trx,
        studio,
        {
          actor: 'staff',
          actorUserId: st.manager.id,
          clientId: st.client.id,
          eventId: st.eventId,
          override: false,
          waitingListWanted: true,
        },
        clock.now(),
      ),
    );
    const mailer = steeredMailer();
    const worker = await runner(mailer);
    try {
      await until(() => mailer.recent.some((m) => m.to === st.client.email));
      expect(mailer.recent.filter((m) => m.to === st.client.email)).toHaveLength(1);
    } finally {
      await worker.stop();
    }
  }, 60_000);
});
