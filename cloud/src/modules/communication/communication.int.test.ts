import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignStatus, CampaignType } from '../../../../shared/contracts/api/communication';
import { createMailer } from '../../mail/mailer';
import { createLogger } from '../../logger';
import { DEMO, seedDemoStudio } from '../../db/seed/demo';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { sweepAutomations } from './automations';
import { startFakeSmsapi, type FakeSmsapi } from './testing/fake-smsapi';
import { startSmtpSink, type SmtpSink } from './testing/smtp-sink';

/**
 * Communication (issue 23) end to end: campaigns composed, previewed, test-sent and sent through a
 * real SMTP server on loopback (smtp-server; each message parsed with mailparser), consent and the
 * one-click unsubscribe, bounces, a failure in the middle of sending (nobody gets two), pause and
 * resume, SMS through a fake SMSAPI.pl, the inbox, automations with their reminder log; rights and
 * tenancy of every route.
 */
const NOW = new Date('2026-11-26T09:00:00Z');
const clock = new ManualClock(NOW);
let smtp: SmtpSink;
let sms: FakeSmsapi;
const lazyMailer = {
  recent: [] as never[],
  send: (m: Parameters<ReturnType<typeof createMailer>['send']>[0]) => realMailer!.send(m),
};
let realMailer: ReturnType<typeof createMailer> | undefined;
const app = useTestApp({ clock, mailer: lazyMailer });

const api = (studio: { id: string }, p: string) => `/api/v4/${studio.id}/${p}`;
type Scenario = Awaited<ReturnType<typeof createStudioScenario>>;
let s: Scenario;
let owner: HttpClient;
let frontDesk: HttpClient;
const clients: Record<string, string> = {};
/** Addresses unique to this run (the test database is shared and kept). */
const RUN = Date.now().toString(36);
const mail = (name: string) => `${name.toLowerCase()}.${RUN}@clients.example`;
const toOf = (m: { to?: unknown }) => (m.to && !Array.isArray(m.to) ? (m.to as { text: string }).text : '');

async function drainAll() {
  for (let i = 0; i < 50; i += 1) if ((await app.drainJobs()) === 0) return;
}

async function consent(studioId: string, userId: string, accepted: boolean, agreementId: string) {
  await app.knex('client_agreement_acceptances').insert({
    id: uuidv7(),
    studioId,
    userId,
    agreementId,
    kind: 'marketing',
    version: 1,
    accepted,
    decidedAt: NOW,
  });
}

beforeAll(async () => {
  smtp = await startSmtpSink();
  sms = await startFakeSmsapi();
  process.env.SMSAPI_TOKEN = sms.token;
  process.env.SMSAPI_URL = sms.url;
  realMailer = createMailer({
    smtpUrl: smtp.url,
    from: 'Studio Platform <no-reply@studio.local>',
    dataDir: '/tmp',
    log: createLogger('silent', false),
  });
  s = await createStudioScenario(app.knex, { name: 'Harmonia Yoga', defaultLocale: 'pl' });
  await app
    .knex('studios')
    .where({ id: s.studio.id })
    .update({ settings: JSON.stringify({ contactEmail: 'hello@harmonia.example' }) });
  owner = await app.signedIn(s.manager.email, s.manager.password);
  const desk = await createUser(app.knex, { firstName: 'Dana', lastName: 'Desk' });
  await addMembership(app.knex, s.studio, desk, { isMember: true, role: 'front_desk' });
  frontDesk = await app.signedIn(desk.email, desk.password);
  const agreementId = uuidv7();
  await app.knex('studio_agreements').insert({
    id: agreementId,
    studioId: s.studio.id,
    kind: 'marketing',
    version: 1,
    required: false,
    title: JSON.stringify({ pl: { value: 'Marketing' } }),
    content: JSON.stringify({ pl: { value: 'Zgoda' } }),
    publishedAt: NOW,
  });
  const people: Array<[string, string | null, boolean, string]> = [
    ['Anna', 'pl', true, '+48600100201'],
    ['Bella', 'en', true, '+48600100202'],
    ['Celina', 'pl', true, '+48600100203'],
    ['Dorota', 'pl', false, '+48600100204'],
    ['Ewa', null, true, ''],
  ];
  for (const [name, locale, agreed, phone] of people) {
    const u = await createUser(app.knex, {
      firstName: name,
      lastName: 'Client',
      email: mail(name),
      locale,
    });
    await addMembership(app.knex, s.studio, u, { isClient: true });
    await app
      .knex('clients')
      .where({ studioId: s.studio.id, userId: u.id })
      .update({ phone: phone || null });
    await consent(s.studio.id, u.id, agreed, agreementId);
    clients[name] = u.id;
  }
  // The scenario's own client (Kamil) never answered the marketing agreement: left out.
}, 60_000);

afterAll(async () => {
  realMailer = undefined;
  delete process.env.SMSAPI_TOKEN;
  delete process.env.SMSAPI_URL;
  delete process.env.CAMPAIGN_EMAIL_BATCH;
  await smtp.close();
  await sms.close();
});

const CONTENT = {
  pl: {
    subject: 'Nowości w Harmonii, {firstName}',
    body: 'Cześć {firstName},\n\nnowe zajęcia: https://harmonia.example/grafik',
  },
  en: {
    subject: 'News at Harmonia, {firstName}',
    body: 'Hi {firstName},\n\nnew classes: https://harmonia.example/schedule',
  },
};

async function newCampaign(type: number, name = 'November news', content: object = CONTENT) {
  const res = await owner.post(api(s.studio, 'campaign'), { name, type, content });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe('rights and tenancy', () => {
  it('answers 401 signed out, 403 without the ability, 404 for another studio, 400 for bad input', async () => {
    const id = await newCampaign(CampaignType.email, 'Rights');
    const anonymous = await app.anonymous();
    const routes: Array<{
      method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
      path: string;
      body?: unknown;
    }> = [
      { method: 'GET', path: api(s.studio, 'campaign/all') },
      { method: 'GET', path: `${api(s.studio, 'campaign/find-recipients')}?type=0` },
      { method: 'POST', path: api(s.studio, 'campaign'), body: { name: 'x', type: 0 } },
      { method: 'GET', path: api(s.studio, `campaign/${id}`) },
      { method: 'GET', path: api(s.studio, `campaign/${id}/cost`) },
      { method: 'PATCH', path: api(s.studio, `campaign/${id}`), body: { name: 'y' } },
      { method: 'PATCH', path: api(s.studio, `campaign/${id}/content`), body: {} },
      { method: 'POST', path: api(s.studio, `campaign/${id}/replicate`) },
      { method: 'DELETE', path: api(s.studio, `campaign/${id}`) },
      {
        method: 'POST',
        path: api(s.studio, 'marketing-template/test'),
        body: { campaignId: id, locale: 'pl' },
      },
      { method: 'POST', path: api(s.studio, 'marketing-template/preview'), body: { locale: 'pl' } },
      {
        method: 'POST',
        path: api(s.studio, 'marketing-template/load'),
        body: { template: 'newsletter', locale: 'pl' },
      },
      { method: 'GET', path: api(s.studio, 'studio-automation-scenario/init') },
      {
        method: 'PUT',
        path: api(s.studio, 'studio-automation-scenario'),
        body: { kind: 'birthday', enabled: true },
      },
    ];
    for (const r of routes) {
      expect((await anonymous.request(r.method, r.path, r.body)).status, `${r.method} ${r.path}`).toBe(401);
      expect((await frontDesk.request(r.method, r.path, r.body)).status, `${r.method} ${r.path}`).toBe(403);
      if (r.path.includes(id)) await expectHiddenFromOtherStudio(app, r);
    }
    expect((await owner.get(api(s.studio, `campaign/${uuidv7()}`))).status).toBe(404);
    const bad = await owner.post(api(s.studio, 'campaign'), { name: '', type: 7 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(expect.arrayContaining(['name', 'type']));
    expect(
      (await owner.patch(api(s.studio, `campaign/${id}`), { action: 'schedule' })).body.error.fields,
    ).toHaveProperty('scheduledAt');
    expect(
      (await owner.get(`${api(s.studio, 'campaign/find-recipients')}?type=0&filter=%7B%22x%22%3A1%7D`))
        .status,
    ).toBe(400);
    expect((await owner.delete(api(s.studio, `campaign/${id}`))).status).toBe(204);
  });
});

describe('an e-mail campaign through SMTP', () => {
  let id: string;

  it('is composed: recipients by filter with consent, a starter text, preview, cost', async () => {
    id = await newCampaign(CampaignType.email);
    const found = await owner.get(`${api(s.studio, 'campaign/find-recipients')}?type=0`);
    expect(found.body).toMatchObject({
      matched: 6,
      reachable: 4,
      withoutConsent: 2,
      withoutAddress: 0,
      optedOut: 0,
    });
    expect(found.body.sample.map((r: { name: string }) => r.name)).toEqual([
      'Anna Client',
      'Bella Client',
      'Celina Client',
      'Ewa Client',
    ]);
    const sms = await owner.get(`${api(s.studio, 'campaign/find-recipients')}?type=1`);
    expect(sms.body).toMatchObject({ reachable: 3, withoutAddress: 2 });

    const loaded = await owner.post(api(s.studio, 'marketing-template/load'), {
      template: 'promotion',
      locale: 'pl',
    });
    expect(loaded.body.content.subject).toBe('Specjalna oferta Harmonia Yoga');
    const preview = await owner.post(api(s.studio, 'marketing-template/preview'), {
      type: 0,
      locale: 'pl',
      ...CONTENT.pl,
    });
    expect(preview.body.html).toContain('<a href="https://harmonia.example/grafik"');
    expect(preview.body.html).toContain('Wypisz się');
    expect(preview.body.text).toContain('nowe zajęcia');

    const edited = await owner.patch(api(s.studio, `campaign/${id}/content`), CONTENT);
    expect(edited.body.content.en.subject).toBe(CONTENT.en.subject);
    expect((await owner.get(api(s.studio, `campaign/${id}/cost`))).body).toMatchObject({
      recipients: 4,
      total: 0,
    });
  });

  it('test-sends to the caller, marked as a test', async () => {
    const res = await owner.post(api(s.studio, 'marketing-template/test'), { campaignId: id, locale: 'en' });
    expect(res.body.sentTo).toBe(s.manager.email);
    await drainAll();
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]!.subject).toBe('[TEST] News at Harmonia, Maria');
    expect(smtp.messages[0]!.replyTo?.text).toBe('hello@harmonia.example');
    smtp.messages.length = 0;
  });

  it('sends each client their language, with one-click unsubscribe, once', async () => {
    const sent = await owner.patch(api(s.studio, `campaign/${id}`), { action: 'send' });
    expect(sent.body.status).toBe(CampaignStatus.inProgress);
    expect((await owner.patch(api(s.studio, `campaign/${id}`), { name: 'late edit' })).status).toBe(409);
    await drainAll();
    const byTo = Object.fromEntries(smtp.messages.map((m) => [toOf(m), m]));
    expect(Object.keys(byTo).sort()).toEqual(['anna', 'bella', 'celina', 'ewa'].map(mail));
    const anna = byTo[mail('anna')]!;
    const bella = byTo[mail('bella')]!;
    expect(anna.subject).toBe('Nowości w Harmonii, Anna');
    expect(anna.headers.get('content-language')).toBe('pl');
    expect(bella.subject).toBe('News at Harmonia, Bella');
    expect(bella.headers.get('content-language')).toBe('en');
    expect(byTo[mail('ewa')]!.subject).toBe('Nowości w Harmonii, Ewa'); // no language: the studio's
    expect(anna.from?.value[0]).toEqual({ name: 'Harmonia Yoga', address: 'no-reply@studio.local' });
    expect(anna.html).toContain('href="https://harmonia.example/grafik"');
    expect(anna.text).toContain('Cześć Anna');
    // mailparser reads the List-* headers (RFC 2369, RFC 8058) into `list`.
    const list = anna.headers.get('list') as {
      unsubscribe: { url: string };
      'unsubscribe-post': { name: string };
    };
    const url = list.unsubscribe.url;
    expect(url).toMatch(/\/api\/v4\/unsubscribe\/[0-9a-f]{32}$/);
    expect(list['unsubscribe-post'].name).toBe('List-Unsubscribe=One-Click');
    expect(anna.html).toContain('/unsubscribe/');

    const view = await owner.get(api(s.studio, `campaign/${id}`));
    expect(view.body.status).toBe(CampaignStatus.sent);
    expect(view.body.stats).toMatchObject({ recipients: 4, sent: 4, failed: 0, pending: 0 });
    expect((await owner.delete(api(s.studio, `campaign/${id}`))).status).toBe(204);

    // RFC 8058: a bare POST, no session, no CSRF token, form-encoded.
    const oneClick = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    const anonymous = await app.anonymous();
    expect((await anonymous.get(new URL(url).pathname)).body).toEqual({
      studioName: 'Harmonia Yoga',
      channel: 'email',
      unsubscribed: true,
    });
    const after = await owner.get(`${api(s.studio, 'campaign/find-recipients')}?type=0`);
    expect(after.body).toMatchObject({ reachable: 3, optedOut: 1 });
    // The opt-out is per channel: SMS still reaches Anna.
    expect((await owner.get(`${api(s.studio, 'campaign/find-recipients')}?type=1`)).body.reachable).toBe(3);
    expect((await anonymous.get(`/api/v4/unsubscribe/${'0'.repeat(32)}`)).status).toBe(404);
    smtp.messages.length = 0;
  });

  it('a failure in the middle sends nobody twice; pause and resume; a bounce suppresses the address', async () => {
    process.env.CAMPAIGN_EMAIL_BATCH = '1';
    // Ten more consenting clients, one of whose mailbox does not exist.
    const agreement = await app.knex('studio_agreements').where({ studioId: s.studio.id }).first('id');
    for (let i = 0; i < 10; i += 1) {
      const u = await createUser(app.knex, {
        firstName: `Zofia${i}`,
        lastName: 'Batch',
        email: mail(`zofia${i}`),
        locale: 'pl',
      });
      await addMembership(app.knex, s.studio, u, { isClient: true });
      await consent(s.studio.id, u.id, true, agreement!.id);
    }
    smtp.rejectRecipient = (a) => a === mail('zofia3');
    const id2 = await newCampaign(CampaignType.email, 'Batches');
    await owner.patch(api(s.studio, `campaign/${id2}`), { action: 'send' });
    const before = smtp.count;
    smtp.failAfter = before + 4; // the SMTP server goes away after 4 messages: the batch job fails, retried
    await drainAll();
    expect(smtp.count - before).toBe(4);
    smtp.failAfter = null;
    await drainAll();
    const view = await owner.get(api(s.studio, `campaign/${id2}`));
    expect(view.body.stats).toMatchObject({ recipients: 13, sent: 12, failed: 1, pending: 0 });
    const addresses = smtp.messages.map(toOf);
    expect(addresses).toHaveLength(12);
    expect(new Set(addresses).size).toBe(12);
    expect(await app.knex('mail_suppressions').where({ studioId: s.studio.id }).pluck('address')).toEqual([
      mail('zofia3'),
    ]);
    const found = await owner.get(`${api(s.studio, 'campaign/find-recipients')}?type=0`);
    expect(found.body).toMatchObject({ reachable: 12, optedOut: 2 });

    // Pause after the first batch, resume: the rest goes, still once each.
    smtp.messages.length = 0;
    const id3 = await newCampaign(CampaignType.email, 'Paused');
    await owner.patch(api(s.studio, `campaign/${id3}`), { action: 'send' });
    await app.drainJobs();
    expect(smtp.messages).toHaveLength(1);
    const paused = await owner.patch(api(s.studio, `campaign/${id3}`), { action: 'pause' });
    expect(paused.body.status).toBe(CampaignStatus.paused);
    await drainAll();
    expect(smtp.messages).toHaveLength(1);
    expect((await owner.patch(api(s.studio, `campaign/${id3}`), { action: 'pause' })).status).toBe(409);
    await owner.patch(api(s.studio, `campaign/${id3}`), { action: 'resume' });
    await drainAll();
    expect(smtp.messages).toHaveLength(12);
    expect((await owner.get(api(s.studio, `campaign/${id3}`))).body.status).toBe(CampaignStatus.sent);
    delete process.env.CAMPAIGN_EMAIL_BATCH;

    const list = await owner.get(`${api(s.studio, 'campaign/all')}?limit=2`);
    expect(list.body.items.map((c: { name: string }) => c.name)).toEqual(['Paused', 'Batches']);
    expect(list.body.next).toBe(id2);
    const copy = await owner.post(api(s.studio, `campaign/${id3}/replicate`));
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({
      name: 'Paused (kopia)',
      status: CampaignStatus.draft,
      content: CONTENT,
    });
  });
});

describe('SMS and inbox campaigns, the client list’s bulk message', () => {
  it('sends the bulk message of the client list as an e-mail campaign, consent honoured', async () => {
    smtp.messages.length = 0;
    const res = await owner.post(api(s.studio, 'client/bulk'), {
      action: 'message',
      clientIds: [clients.Bella, clients.Dorota],
      subject: 'Studio closed on Friday',
      content: 'Hi {firstName},\n\nthe studio is closed this Friday.',
    });
    expect(res.body).toMatchObject({ action: 'message', recipients: 2, status: 'recorded' });
    await drainAll();
    expect(smtp.messages.map((m) => [toOf(m), m.subject])).toEqual([
      [mail('bella'), 'Studio closed on Friday'],
    ]);
    expect(smtp.messages[0]!.text).toContain('Hi Bella,');
  });

  it('sends SMS through SMSAPI.pl with its cost in segments', async () => {
    const id = await newCampaign(CampaignType.sms, 'SMS', {
      pl: { subject: '', body: 'Zajęcia jutro o 18:00, {firstName}!' },
    });
    const cost = await owner.get(api(s.studio, `campaign/${id}/cost`));
    expect(cost.body).toMatchObject({
      recipients: 3,
      sms: { encoding: 'UCS-2', segments: 1 },
      unitPrice: 16,
      total: 48,
    });
    await owner.patch(api(s.studio, `campaign/${id}`), { action: 'send' });
    await drainAll();
    expect(sms.sent.map((m) => m.message).sort()).toEqual([
      'Zajęcia jutro o 18:00, Anna!',
      'Zajęcia jutro o 18:00, Bella!',
      'Zajęcia jutro o 18:00, Celina!',
    ]);
    expect(sms.sent[0]!.to).toMatch(/^48600100/);
  });

  it('puts an inbox campaign in the clients’ inbox; push reaches only subscribed browsers', async () => {
    const id = await newCampaign(CampaignType.inbox, 'Inbox');
    await owner.patch(api(s.studio, `campaign/${id}`), { action: 'send' });
    await drainAll();
    const messages = await app
      .knex('user_messages')
      .where({ studioId: s.studio.id, sender: 'studio' })
      .pluck('subject');
    expect(messages).toContain('Nowości w Harmonii, Anna');
    expect(messages).toContain('News at Harmonia, Bella');
    const push = await newCampaign(CampaignType.push, 'Push');
    const refused = await owner.patch(api(s.studio, `campaign/${push}`), { action: 'send' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.key).toBe('campaign.noRecipients');
    const empty = await newCampaign(CampaignType.email, 'Empty', {});
    expect((await owner.patch(api(s.studio, `campaign/${empty}`), { action: 'send' })).body.error.key).toBe(
      'campaign.contentMissing',
    );
  });
});

describe('automations', () => {
  it('switches scenarios on, sends each occasion once in the client’s language, logs it', async () => {
    expect(
      (
        await owner.request('PUT', api(s.studio, 'studio-automation-scenario'), {
          kind: 'appointmentReminder',
          enabled: true,
        })
      ).status,
    ).toBe(409);
    const on = await owner.request('PUT', api(s.studio, 'studio-automation-scenario'), {
      kind: 'birthday',
      enabled: true,
    });
    expect(on.body).toEqual({ kind: 'birthday', enabled: true, available: true, settings: {} });
    const tuned = await owner.request('PUT', api(s.studio, 'studio-automation-scenario'), {
      kind: 'winBack',
      enabled: false,
      settings: { daysWithoutVisit: 45 },
    });
    expect(tuned.body.settings).toEqual({ daysWithoutVisit: 45 });
    // Bella's birthday is today in the studio's zone; Dorota's too, but she gave no marketing consent.
    await app
      .knex('clients')
      .where({ studioId: s.studio.id })
      .whereIn('userId', [clients.Bella!, clients.Dorota!])
      .update({ birthDate: '1990-11-26' });
    smtp.messages.length = 0;
    expect(await sweepAutomations(app.knex, NOW, app.url, s.studio.id)).toBe(1);
    expect(await sweepAutomations(app.knex, NOW, app.url, s.studio.id)).toBe(0);
    await drainAll();
    expect(smtp.messages.map((m) => m.subject)).toEqual(['Happy birthday from Harmonia Yoga!']);
    const init = await owner.get(api(s.studio, 'studio-automation-scenario/init'));
    expect(init.body.scenarios.find((x: { kind: string }) => x.kind === 'appointmentReminder')).toMatchObject(
      {
        available: false,
        enabled: false,
      },
    );
    expect(init.body.log).toEqual([
      expect.objectContaining({
        kind: 'birthday',
        clientName: 'Bella Client',
        status: 1,
        address: mail('bella'),
      }),
    ]);
  });
});

describe('the demo studio', () => {
  it('has a sent newsletter with its numbers, a draft, and automations on with a reminder log', async () => {
    const demo = await seedDemoStudio(app.knex, createLogger('silent', false), NOW, { tag: `com${RUN}` });
    const manager = await app.signedIn(demo!.managerEmail, DEMO.password);
    const studio = { id: demo!.studioUuid };
    const list = await manager.get(api(studio, 'campaign/all'));
    const [draft, sent] = list.body.items;
    expect(draft).toMatchObject({ name: 'Świąteczna promocja', status: CampaignStatus.draft });
    expect(sent).toMatchObject({ name: 'Listopadowe nowości', status: CampaignStatus.sent });
    expect(sent.stats.sent).toBeGreaterThan(10);
    expect(sent.stats).toMatchObject({ failed: 1, unsubscribed: 2 });
    const found = await manager.get(`${api(studio, 'campaign/find-recipients')}?type=0`);
    expect(found.body.reachable).toBeGreaterThan(10);
    expect(found.body.withoutConsent).toBeGreaterThan(0);
    const init = await manager.get(api(studio, 'studio-automation-scenario/init'));
    expect(init.body.scenarios.filter((x: { enabled: boolean }) => x.enabled)).toHaveLength(4);
    expect(init.body.log.length).toBe(10);
  }, 60_000);
});
