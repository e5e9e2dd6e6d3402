import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CampaignType } from '../../../../shared/contracts/api/communication';
import { createLogger } from '../../logger';
import { createMailer } from '../../mail/mailer';
import { createStudioScenario } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { useTestApp } from '../../../../tests/support/test-app';
import { checkoutPassOnline, deliverNotification, payAtTestBank, salesStudio } from '../sales/sales-support';
import { startFakePushService, type FakePushService } from './testing/fake-push-service';
import { startSmtpSink, type SmtpSink } from './testing/smtp-sink';

/**
 * Communication (issue 23), the later parts: a campaign's image or PDF (`campaign/upload`, the
 * public file the mails link), bounces and complaints that arrive later (`mail-feedback`: a DSN, an
 * ARF complaint, a provider's events), and the transactional mails (purchase confirmation with its
 * receipt, failed payment, password changed) received by a real SMTP server on loopback; web push
 * to the front office (subscriptions, a push campaign decrypted by a fake push service on loopback).
 */
let smtp: SmtpSink;
let push: FakePushService;
let realMailer: ReturnType<typeof createMailer> | undefined;
const app = useTestApp({
  mailer: { recent: [], send: (m) => realMailer!.send(m) },
});
const api = (studio: { id: string }, p: string) => `/api/v4/${studio.id}/${p}`;
let s: Awaited<ReturnType<typeof createStudioScenario>>;
let owner: HttpClient;

async function drainAll() {
  for (let i = 0; i < 30; i += 1) if ((await app.drainJobs()) === 0) return;
}

// A 1×1 PNG and a minimal PDF.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

beforeAll(async () => {
  smtp = await startSmtpSink();
  push = await startFakePushService();
  process.env.WEB_PUSH_ALLOWED_HOSTS = push.host;
  realMailer = createMailer({
    smtpUrl: smtp.url,
    from: 'Studio Platform <no-reply@studio.local>',
    dataDir: '/tmp',
    log: createLogger('silent', false),
  });
  s = await createStudioScenario(app.knex, { name: 'Pilates Loft', defaultLocale: 'pl' });
  owner = await app.signedIn(s.manager.email, s.manager.password);
});

afterAll(async () => {
  realMailer = undefined;
  delete process.env.MAIL_FEEDBACK_TOKEN;
  delete process.env.WEB_PUSH_ALLOWED_HOSTS;
  await smtp.close();
  await push.close();
});

async function draft(name = 'With a picture') {
  const res = await owner.post(api(s.studio, 'campaign'), {
    name,
    type: CampaignType.email,
    content: { pl: { subject: 'Nowy grafik', body: 'Cześć {firstName}, zobacz.' } },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe('campaign/upload', () => {
  it('stores an image for a draft, served publicly to the mails; 401/403/404/400', async () => {
    const id = await draft();
    const body = { campaign: id, name: 'poster.png', dataUrl: dataUrl('image/png', PNG) };
    expect((await (await app.anonymous()).post(api(s.studio, 'campaign/upload'), body)).status).toBe(401);
    await expectHiddenFromOtherStudio(app, { method: 'POST', path: api(s.studio, 'campaign/upload'), body });
    // Another studio's manager naming this campaign from their own studio: 404.
    const other = await createStudioScenario(app.knex);
    const otherOwner = await app.signedIn(other.manager.email, other.manager.password);
    expect((await otherOwner.post(api(other.studio, 'campaign/upload'), body)).status).toBe(404);
    // A client of the studio has no campaigns.edit: 403.
    const client = await app.signedIn(s.client.email, s.client.password);
    expect((await client.post(api(s.studio, 'campaign/upload'), body)).status).toBe(403);

    const up = await owner.post(api(s.studio, 'campaign/upload'), body);
    expect(up.status, up.text).toBe(201);
    expect(up.body.attachment).toMatchObject({ name: 'poster.png', type: 'image/png', size: PNG.length });
    const file = await fetch(up.body.attachment.url.replace(/^https?:\/\/[^/]+/, app.url));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer()).equals(PNG)).toBe(true);

    // The test send shows it above the text.
    await owner.post(api(s.studio, 'marketing-template/test'), { campaignId: id, locale: 'pl' });
    await drainAll();
    const test = smtp.messages.find((m) => m.subject?.includes('Nowy grafik'));
    expect(test?.html).toContain(`/api/v4/campaign-file/${id}`);

    // Replaced by a PDF: linked as a file; the image is gone from storage.
    const pdf = await owner.post(api(s.studio, 'campaign/upload'), {
      campaign: id,
      name: 'cennik.pdf',
      dataUrl: dataUrl('application/pdf', PDF),
    });
    expect(pdf.body.attachment).toMatchObject({ name: 'cennik.pdf', type: 'application/pdf' });
    const again = await fetch(`${app.url}/api/v4/campaign-file/${id}`);
    expect(again.headers.get('content-type')).toBe('application/pdf');
    expect((await fetch(`${app.url}/api/v4/campaign-file/${uuidv7()}`)).status).toBe(404);
  });

  it('refuses a file whose bytes are not what it claims, a wrong type, one too large, a sent campaign', async () => {
    const id = await draft('Refusals');
    const lie = await owner.post(api(s.studio, 'campaign/upload'), {
      campaign: id,
      name: 'x.png',
      dataUrl: dataUrl('image/png', Buffer.from('<script>alert(1)</script>')),
    });
    expect(lie.status).toBe(400);
    expect(lie.body.error).toMatchObject({ key: 'campaign.fileRefused', code: 2896 });
    const svg = await owner.post(api(s.studio, 'campaign/upload'), {
      campaign: id,
      name: 'x.svg',
      dataUrl: dataUrl('image/svg+xml', Buffer.from('<svg/>')),
    });
    expect(svg.status).toBe(400);
    expect(svg.body.error.fields).toHaveProperty('dataUrl');
    const big = await owner.post(api(s.studio, 'campaign/upload'), {
      campaign: id,
      name: 'big.png',
      dataUrl: dataUrl('image/png', Buffer.concat([PNG, Buffer.alloc(710 * 1024)])),
    });
    expect(big.status).toBe(400);
    await app.knex('campaigns').where({ id }).update({ status: 1 });
    const sent = await owner.post(api(s.studio, 'campaign/upload'), {
      campaign: id,
      name: 'late.png',
      dataUrl: dataUrl('image/png', PNG),
    });
    expect(sent.status).toBe(409);
  });
});

describe('later bounces and complaints (mail-feedback)', () => {
  const TOKEN = 'feedback-secret-0123456789';
  const post = (body: unknown, token: string | null = TOKEN) =>
    fetch(`${app.url}/api/v4/mail-feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });

  async function sentCampaignTo(address: string) {
    const campaignId = uuidv7();
    await app.knex('campaigns').insert({
      id: campaignId,
      studioId: s.studio.id,
      name: 'Sent',
      type: 0,
      status: 1,
      filter: '{}',
      content: '{}',
    });
    await app.knex('campaign_recipients').insert({
      campaignId,
      userId: s.client.id,
      address,
      locale: 'pl',
      firstName: 'Kamil',
      token: uuidv7().replace(/-/g, ''),
      status: 'sent',
    });
    return campaignId;
  }
  const suppressed = (address: string) =>
    app.knex('mail_suppressions').where({ studioId: s.studio.id, address }).first();

  it('a DSN suppresses the address in the campaign’s studio and shows the bounce on the profile', async () => {
    process.env.MAIL_FEEDBACK_TOKEN = TOKEN;
    const address = `gone.${Date.now()}@clients.example`;
    const campaignId = await sentCampaignTo(address);
    const dsn = [
      'From: MAILER-DAEMON@mx.example',
      `To: no-reply@studio.local`,
      'Subject: Undelivered Mail Returned to Sender',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="B"',
      '',
      '--B',
      'Content-Type: text/plain',
      '',
      'The mail could not be delivered.',
      '--B',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.example',
      '',
      `Final-Recipient: rfc822; ${address}`,
      'Action: failed',
      'Status: 5.1.1',
      'Diagnostic-Code: smtp; 550 5.1.1 user unknown',
      '--B',
      'Content-Type: text/rfc822-headers',
      '',
      `Message-ID: <campaign:${campaignId}:${s.client.id}@jobs.studio.local>`,
      `X-Campaign-Id: ${campaignId}`,
      `To: ${address}`,
      '--B--',
      '',
    ].join('\r\n');
    expect((await post({ raw: dsn }, null)).status).toBe(401);
    expect((await post({ raw: dsn }, 'wrong-token-0123456789')).status).toBe(401);
    expect((await post({}, TOKEN)).status).toBe(400);
    const res = await post({ raw: dsn });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ events: 1, suppressed: 1 });
    expect(await suppressed(address)).toMatchObject({ reason: 'bounce' });
    expect(
      await app.knex('client_email_bounces').where({ studioId: s.studio.id, clientId: s.client.id }).first(),
    ).toMatchObject({ email: address });
    // A delayed (4.x.x) notice suppresses nobody.
    const later = `later.${Date.now()}@clients.example`;
    await sentCampaignTo(later);
    await post({
      raw: dsn.replace(address, later).replace('Action: failed', 'Action: delayed').replace('5.1.1', '4.4.1'),
    });
    expect(await suppressed(later)).toBeUndefined();
  });

  it('an ARF complaint and a provider’s events suppress the address; off without a token', async () => {
    process.env.MAIL_FEEDBACK_TOKEN = TOKEN;
    const address = `angry.${Date.now()}@clients.example`;
    const campaignId = await sentCampaignTo(address);
    const arf = [
      'From: fbl@isp.example',
      'Subject: complaint',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=feedback-report; boundary="F"',
      '',
      '--F',
      'Content-Type: text/plain',
      '',
      'A complaint.',
      '--F',
      'Content-Type: message/feedback-report',
      '',
      'Feedback-Type: abuse',
      'Version: 1',
      '--F',
      'Content-Type: message/rfc822',
      '',
      `X-Campaign-Id: ${campaignId}`,
      `To: Angry <${address}>`,
      'Subject: News',
      '',
      'body',
      '--F--',
      '',
    ].join('\r\n');
    expect(await (await post({ raw: arf })).json()).toEqual({ events: 1, suppressed: 1 });
    expect(await suppressed(address)).toMatchObject({ reason: 'complaint' });
    const viaProvider = `hook.${Date.now()}@clients.example`;
    await sentCampaignTo(viaProvider);
    const res = await post({ events: [{ type: 'bounce', email: viaProvider.toUpperCase() }] });
    expect(await res.json()).toEqual({ events: 1, suppressed: 1 });
    expect(await suppressed(viaProvider)).toMatchObject({ reason: 'bounce' });
    delete process.env.MAIL_FEEDBACK_TOKEN;
    expect((await post({ events: [{ type: 'bounce', email: viaProvider }] })).status).toBe(404);
  });
});

describe('transactional mail', () => {
  it('a paid online order sends the confirmation with its receipt; a failed payment the link to retry', async () => {
    const shop = await salesStudio(app);
    const before = smtp.messages.length;
    const { pay } = await checkoutPassOnline(app, shop);
    await pay();
    await drainAll();
    const to = (m: { to?: unknown }) => (m.to && !Array.isArray(m.to) ? (m.to as { text: string }).text : '');
    const confirmation = smtp.messages.slice(before).find((m) => to(m).includes(shop.client.email));
    expect(confirmation?.subject).toMatch(/zakup|purchase/i);
    expect(confirmation?.text).toMatch(/250[,.]00/);
    expect(confirmation?.text).toContain(`/${shop.studio.id}/frontoffice/purchases`);

    const failing = await checkoutPassOnline(app, shop);
    const { transactionId } = await payAtTestBank(app, shop.clientHttp, failing.redirectUrl, 'failed');
    await deliverNotification(app, shop.studio.id, transactionId, 'failed');
    await deliverNotification(app, shop.studio.id, transactionId, 'failed');
    await drainAll();
    const failed = smtp.messages.slice(before).filter((m) => /nie powiod|failed/i.test(m.subject ?? ''));
    expect(failed).toHaveLength(1);
    expect(failed[0]?.text).toContain(`/${shop.studio.id}/frontoffice/purchases`);
  });

  it('a password change tells the owner of the account', async () => {
    const scenario = await createStudioScenario(app.knex, { name: 'Yoga Nook', defaultLocale: 'en' });
    const client = await app.signedIn(scenario.client.email, scenario.client.password, scenario.studio.id);
    const before = smtp.messages.length;
    const res = await client.post(api(scenario.studio, 'security'), {
      currentPassword: scenario.client.password,
      newPassword: 'A-new-password-42!',
    });
    expect(res.status, res.text).toBeLessThan(300);
    await drainAll();
    const mail = smtp.messages.slice(before).find((m) => /password/i.test(m.subject ?? ''));
    expect(mail?.headers.get('content-language')).toBeDefined();
    expect(mail?.text).toContain(`/${scenario.studio.id}/frontoffice/login`);
    expect(mail?.from?.text).toContain('Yoga Nook');
  });
});

describe('web push', () => {
  it('a client subscribes a browser; a push campaign reaches it encrypted and VAPID-signed', async () => {
    const key = api(s.studio, 'web-push/key');
    const subPath = api(s.studio, 'web-push/subscription');
    const browser = push.browser();
    expect((await (await app.anonymous()).get(key)).status).toBe(401);
    expect((await (await app.anonymous()).post(subPath, browser.subscription)).status).toBe(401);
    await expectHiddenFromOtherStudio(app, { method: 'POST', path: subPath, body: browser.subscription });
    // Staff who are not clients of the studio have no front-office subscription.
    expect((await owner.get(key)).status).toBe(403);
    const client = await app.signedIn(s.client.email, s.client.password, s.studio.id);
    const k = await client.get(key);
    expect(k.status).toBe(200);
    expect(Buffer.from(k.body.publicKey, 'base64url')).toHaveLength(65);
    // An endpoint that is no push service (the server would POST to it): refused.
    const elsewhere = await client.post(subPath, {
      ...browser.subscription,
      endpoint: 'https://intranet.example/hook',
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.fields).toHaveProperty('endpoint');
    expect((await client.post(subPath, { endpoint: browser.subscription.endpoint })).status).toBe(400);
    const ok = await client.post(subPath, { ...browser.subscription, expirationTime: null });
    expect(ok.status, ok.text).toBe(201);

    // The client agreed to marketing: a push campaign reaches the browser.
    const agreementId = uuidv7();
    await app.knex('studio_agreements').insert({
      id: agreementId,
      studioId: s.studio.id,
      kind: 'marketing',
      version: 1,
      required: false,
      title: '{}',
      content: '{}',
      publishedAt: new Date(),
    });
    await app.knex('client_agreement_acceptances').insert({
      id: uuidv7(),
      studioId: s.studio.id,
      userId: s.client.id,
      agreementId,
      kind: 'marketing',
      version: 1,
      accepted: true,
      decidedAt: new Date(),
    });
    const created = await owner.post(api(s.studio, 'campaign'), {
      name: 'Push',
      type: CampaignType.push,
      content: { pl: { subject: 'Dziś zajęcia, {firstName}', body: 'Wolne miejsca o 18:00' } },
    });
    const recipients = await owner.get(`${api(s.studio, 'campaign/find-recipients')}?type=2`);
    expect(recipients.body.reachable).toBe(1);
    const sent = await owner.patch(api(s.studio, `campaign/${created.body.id}`), { action: 'send' });
    expect(sent.status, sent.text).toBe(200);
    await drainAll();
    expect(push.received).toHaveLength(1);
    const got = push.received[0]!;
    expect(got.headers.ttl).toBe('86400');
    expect(got.headers.topic).toBe(String(created.body.id).replace(/-/g, ''));
    const opened = browser.open(got);
    expect(opened.vapidKey).toBe(k.body.publicKey);
    expect(opened.jwt.sub).toMatch(/^mailto:/);
    expect(opened.payload).toEqual({
      title: 'Dziś zajęcia, Kamil',
      body: 'Wolne miejsca o 18:00',
      url: expect.stringContaining(`/${s.studio.id}/frontoffice`),
      tag: created.body.id,
    });
    expect((await owner.get(api(s.studio, `campaign/${created.body.id}`))).body.stats).toMatchObject({
      sent: 1,
      failed: 0,
    });

    // The browser unsubscribed at its push service (410): that subscription is dropped.
    push.gone.add(new URL(browser.subscription.endpoint).pathname);
    const again = await owner.post(api(s.studio, `campaign/${created.body.id}/replicate`));
    await owner.patch(api(s.studio, `campaign/${again.body.id}`), { action: 'send' });
    await drainAll();
    expect((await owner.get(api(s.studio, `campaign/${again.body.id}`))).body.stats.failed).toBe(1);
    expect(await app.knex('push_subscriptions').where({ studioId: s.studio.id })).toHaveLength(0);

    // Turning it off in the front office removes the subscription.
    const other = push.browser();
    await client.post(subPath, other.subscription);
    const del = await client.request('DELETE', subPath, { endpoint: other.subscription.endpoint });
    expect(del.status).toBe(204);
    expect(await app.knex('push_subscriptions').where({ studioId: s.studio.id })).toHaveLength(0);

    const sw = await fetch(`${app.url}/api/v4/web-push/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get('content-type')).toMatch(/javascript/);
    expect(sw.headers.get('service-worker-allowed')).toBe('/');
    expect(await sw.text()).toContain('showNotification');
  });
});
