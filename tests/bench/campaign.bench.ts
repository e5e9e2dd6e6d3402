/**
 * `npm run bench:campaign`: a 50,000-recipient e-mail campaign delivered to a real SMTP server on
 * loopback (smtp-server; messages counted, not parsed), through the real pipeline: the job runner
 * (pg-boss) performing `campaign.batch` jobs, each rendering the MJML mail once per language and
 * sending its batch over a pooled nodemailer SMTP transport, marking each recipient sent.
 *
 * Runs on TEST_DATABASE_URL (or DATABASE_URL): builds a studio of its own and deletes it after.
 * BENCH_RECIPIENTS (default 50000), CAMPAIGN_EMAIL_BATCH (default here 1000),
 * CAMPAIGN_EMAIL_CONCURRENCY (default here 8). Last line: `campaign 50k s = N, peak MB = M` (the
 * sending process's peak RSS; `npm run bench:campaign` gives it a 160 MB old space, see the README).
 */
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { v7 as uuidv7 } from 'uuid';
import { systemClock } from '../../cloud/src/clock';
import { createKnex } from '../../cloud/src/db/knex';
import { migrateLatest } from '../../cloud/src/db/migrate';
import { startJobRunner } from '../../cloud/src/jobs/runner';
import { enqueue } from '../../cloud/src/jobs/queue';
import { createLogger } from '../../cloud/src/logger';
import { createMailer } from '../../cloud/src/mail/mailer';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 50_000);
process.env.CAMPAIGN_EMAIL_BATCH ??= '1000';
process.env.CAMPAIGN_EMAIL_CONCURRENCY ??= '8';
process.env.CAMPAIGN_EMAIL_PAUSE_MS ??= '1';

const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (!url) throw new Error('set TEST_DATABASE_URL (a PostgreSQL database)');

let peak = 0;
let peakHeap = 0;
const sample = () => {
  const m = process.memoryUsage();
  peak = Math.max(peak, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed + m.external);
};
const sampler = setInterval(sample, 200);
const gcProbe = (globalThis as { gc?: () => void }).gc;
if (process.env.GC_PROBE && gcProbe)
  setInterval(() => {
    gcProbe();
    console.log(
      'live heap MB',
      Math.round(process.memoryUsage().heapUsed / 1048576),
      'external',
      Math.round(process.memoryUsage().external / 1048576),
    );
  }, 3000).unref();

const baseline = process.memoryUsage().rss;
const knex = createKnex(url, { poolMax: 8 });
await migrateLatest(knex);
const log = createLogger('warn', false);
// The receiving SMTP server runs in a child process: its memory is not the app's.
const child = fork(new URL('./smtp-sink-process.ts', import.meta.url).pathname, [], {
  execArgv: ['--import', 'tsx'],
});
const ask = <T>(what: 'count' | 'close', field: 'count' | 'url'): Promise<T> =>
  new Promise((resolve) => {
    const on = (m: Record<string, unknown>) => {
      if (field in m) {
        child.off('message', on);
        resolve(m[field] as T);
      }
    };
    child.on('message', on);
    if (field !== 'url') child.send({ ask: what });
  });
const smtp = { url: await ask<string>('count', 'url'), count: () => ask<number>('count', 'count') };
const mailer = createMailer({
  smtpUrl: `${smtp.url.replace('maxConnections=4', 'maxConnections=8')}`,
  from: 'Bench <bench@studio.local>',
  dataDir: '/tmp',
  log,
});

// A studio with RECIPIENTS clients who agreed to marketing e-mails (set-based inserts).
const studioId = uuidv7();
const tag = Date.now().toString(36);
await knex('studios').insert({
  id: studioId,
  name: 'Bench Studio',
  slug: `bench-campaign-${tag}`,
  currency: 'PLN',
  defaultLocale: 'pl',
  timeZone: 'Europe/Warsaw',
  addressLine: 'ul. Testowa 1',
  postalCode: '00-001',
  city: 'Warszawa',
  country: 'PL',
  kioskKey: uuidv7(),
});
const agreementId = uuidv7();
await knex('studio_agreements').insert({
  id: agreementId,
  studioId,
  kind: 'marketing',
  version: 1,
  required: false,
  title: '{}',
  content: '{}',
  publishedAt: new Date(),
});
const seeding = performance.now();
await knex.raw(
  `insert into users (id, email, first_name, last_name, locale)
   select gen_random_uuid(), 'bench-' || ? || '-' || g || '@bench.example', 'Client' || g, 'Bench', case when g % 4 = 0 then 'en' else 'pl' end
   from generate_series(1, ?) g`,
  [tag, RECIPIENTS],
);
await knex.raw(
  `insert into memberships (id, studio_id, user_id, is_client, is_member)
   select gen_random_uuid(), ?, u.id, true, false from users u where u.email like ?`,
  [studioId, `bench-${tag}-%`],
);
await knex.raw(
  `insert into client_agreement_acceptances (id, studio_id, user_id, agreement_id, kind, version, accepted, decided_at)
   select gen_random_uuid(), ?, m.user_id, ?, 'marketing', 1, true, now() from memberships m where m.studio_id = ?`,
  [studioId, agreementId, studioId],
);
console.log(`seeded ${RECIPIENTS} clients in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

const campaignId = uuidv7();
await knex('campaigns').insert({
  id: campaignId,
  studioId,
  name: 'Bench',
  type: 0,
  status: 2,
  run: 1,
  filter: '{}',
  content: JSON.stringify({
    pl: {
      subject: 'Nowości, {firstName}',
      body: 'Cześć {firstName},\n\nnowy grafik: https://example.com/grafik',
    },
    en: {
      subject: 'News, {firstName}',
      body: 'Hi {firstName},\n\nnew schedule: https://example.com/schedule',
    },
  }),
});

const runner = await startJobRunner(
  { knex, log, clock: systemClock, mailer, publicUrl: () => 'https://studio.example' },
  { jobs: [], queues: ['campaign.batch'], pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 60 },
);
const started = performance.now();
await knex.transaction((trx) =>
  enqueue(trx, 'campaign.batch', { campaignId, run: 1, seq: 0 }, { key: `campaign.batch:${campaignId}:1:0` }),
);
for (;;) {
  await new Promise((r) => setTimeout(r, 500));
  const c = await knex('campaigns').where({ id: campaignId }).first('status', 'sentCount', 'recipientCount');
  if (c?.status === 1) break;
  if (Math.round((performance.now() - started) / 1000) % 15 === 0)
    console.log(`… ${c?.sentCount ?? 0} / ${c?.recipientCount ?? 0} sent, ${await smtp.count()} received`);
}
const seconds = (performance.now() - started) / 1000;
sample();
const done = await knex('campaigns')
  .where({ id: campaignId })
  .first('sentCount', 'recipientCount', 'failedCount');
await runner.stop();
clearInterval(sampler);
console.log(
  `rss after start-up ${Math.round(baseline / 1048576)} MB, peak heap + external ${Math.round(peakHeap / 1048576)} MB`,
);
console.log(
  `recipients ${done?.recipientCount}, sent ${done?.sentCount}, failed ${done?.failedCount}, SMTP received ${await smtp.count()}`,
);
// Clean up: the studio (cascades to its campaign, recipients, memberships), the bench users.
await knex('studios').where({ id: studioId }).delete();
// The studio's cascade removed every row that referred to the bench's users (memberships, consents,
// recipients): their own delete skips the foreign-key checks, which against the ~100 tables that
// refer to users take minutes for 50,000 rows (set-based, one transaction, as the superuser).
await knex.transaction(async (trx) => {
  await trx.raw('set local session_replication_role = replica');
  await trx.raw(`delete from users where email like ?`, [`bench-${tag}-%`]);
});
child.send({ ask: 'close' });
await knex.destroy();
const label = RECIPIENTS === 50_000 ? '50k' : `${RECIPIENTS}`;
console.log(`campaign ${label} s = ${seconds.toFixed(1)}, peak MB = ${Math.round(peak / 1024 / 1024)}`);
process.exit(0);
