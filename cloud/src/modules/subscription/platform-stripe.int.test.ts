import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../../../../tests/support/http-client';
import { studioSessions } from '../../../../tests/support/sessions';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { stripeClient } from '../sales/index';
import { FakeStripe, type FakeStripeAccount } from '../sales/providers/testing/fake-stripe';
import { resetPlatformSettings } from './platform-config';

/**
 * Issue 25, the platform's own Stripe account: checkout through Stripe Checkout (the official SDK
 * against the loopback fake of Stripe's API the sales tests use), the platform's webhook (events
 * signed as Stripe signs them; completed → paid, expired → failed; a retry changes nothing; a
 * forged or tampered event refused), the return page reading the session when the webhook is late,
 * the checkout's Idempotency-Key (a double click pays once), and the invoice e-mailed to the
 * studio's billing address once the period is paid.
 */
const NOW = new Date('2026-11-27T10:00:00Z');
const app = useTestApp({ clock: new ManualClock(NOW) });
const { ownerStudio } = studioSessions(() => app);
const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;

let fake: FakeStripe;
let account: FakeStripeAccount;
const ENV = ['STRIPE_API_URL', 'PLATFORM_STRIPE_SECRET_KEY', 'PLATFORM_STRIPE_WEBHOOK_SECRET'] as const;
const previous = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));

beforeAll(async () => {
  fake = await FakeStripe.start();
  account = fake.addAccount();
  process.env.STRIPE_API_URL = fake.url;
  process.env.PLATFORM_STRIPE_SECRET_KEY = account.secretKey;
  process.env.PLATFORM_STRIPE_WEBHOOK_SECRET = account.webhookSecret;
  resetPlatformSettings();
});
afterAll(async () => {
  await fake?.close();
  for (const k of ENV) {
    if (previous[k] === undefined) delete process.env[k];
    else process.env[k] = previous[k];
  }
  resetPlatformSettings();
});

const webhook = () => `${app.url}/app/subscription-notification/stripe`;
const key = () => `sub-${uuidv7()}`;

async function buy(http: HttpClient, studio: { id: string }, body: object, idempotencyKey = key()) {
  return http.post(api(studio, 'subscription-period/shopping-cart/checkout'), body, {
    headers: { 'idempotency-key': idempotencyKey },
  });
}

/** The payer on Stripe's hosted page; returns where Stripe sends the browser back. */
async function choose(hostedPage: string, outcome: 'pay' | 'cancel'): Promise<string> {
  const res = await fetch(hostedPage, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `outcome=${outcome}`,
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  return res.headers.get('location')!;
}

/** The browser follows Stripe's redirect to `/app/subscription-return`. */
async function comeBack(url: string): Promise<string> {
  expect(url.startsWith(`${app.url}/app/subscription-return?payment=`)).toBe(true);
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return res.headers.get('location')!;
}

const eventFor = (sessionId: string, type: string) =>
  fake.events.find((e) => e.type === type && (e.data.object as { id?: string }).id === sessionId)!;
const statusOf = async (http: HttpClient, studio: { id: string }, periodId: string) =>
  (
    await http.get(
      api(studio, `subscription-period/shopping-cart/status?studioSubscriptionPeriod=${periodId}`),
    )
  ).body;
/** Stripe sessions opened for a payment (two requests under one Idempotency-Key are one session). */
const sessionsOf = (paymentId: string) =>
  [...fake.sessions.values()].filter((s) => s.client_reference_id === paymentId).length;

describe('the platform Stripe checkout', () => {
  it('pays a period through Stripe Checkout and its webhook; a double click pays once; the invoice is e-mailed', async () => {
    const { studio, owner } = await ownerStudio();
    await app
      .knex('studios')
      .where({ id: studio.id })
      .update({ settings: JSON.stringify({ billingEmail: 'accounts@studio.example' }) });
    const init = await owner.get(api(studio, 'studio-subscription/init'));
    expect(init.body.paymentProvider).toBe('stripe');

    // A double click: two requests with one key make one period, one payment, one Stripe session.
    const k = key();
    const [first, second] = await Promise.all([
      buy(owner, studio, { plan: 'start', addOns: ['sms-500'] }, k),
      buy(owner, studio, { plan: 'start', addOns: ['sms-500'] }, k),
    ]);
    expect(first.status, first.text).toBe(201);
    expect(second.status, second.text).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(sessionsOf(first.body.paymentId)).toBe(1);
    expect(await app.knex('studio_subscription_periods').where({ studioId: studio.id })).toHaveLength(1);
    const hostedPage = first.body.redirectUrl as string;
    expect(hostedPage.startsWith(`${fake.url}/pay/cs_test_`)).toBe(true);
    const sessionId = hostedPage.split('/').pop()!;
    // The session asks for the period's total in the platform's currency.
    expect(fake.sessions.get(sessionId)).toMatchObject({
      amount_total: Math.round((9900 + 7900) * 1.23),
      currency: 'pln',
      client_reference_id: first.body.paymentId,
    });
    // The same key for another cart is refused; a later retry of the first still answers the same.
    const reused = await buy(owner, studio, { plan: 'pro' }, k);
    expect(reused.status).toBe(409);
    expect(reused.body.error.key).toBe('checkout.idempotencyKeyReused');
    expect((await buy(owner, studio, { plan: 'start', addOns: ['sms-500'] }, k)).body).toEqual(first.body);

    const back = await choose(hostedPage, 'pay');
    // Stripe's event, signed with the endpoint's secret: paid, invoiced, credits granted.
    const completed = eventFor(sessionId, 'checkout.session.completed');
    const forged = await fake.deliver(completed, { url: webhook(), secret: 'whsec_not_ours' });
    expect(forged.status).toBe(400);
    const tampered = await fake.deliver(completed, {
      url: webhook(),
      tamper: (payload) => payload.replace('"paid"', '"unpaid"'),
    });
    expect(tampered.status).toBe(400);
    const unsigned = await fetch(webhook(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(completed),
    });
    expect(unsigned.status).toBe(400);
    expect((await statusOf(owner, studio, first.body.periodId)).period.status).toBe('awaiting');

    const delivered = await fake.deliver(completed, { url: webhook() });
    expect(delivered).toEqual({ status: 200, body: { received: true, result: 'applied' } });
    const paid = await statusOf(owner, studio, first.body.periodId);
    expect(paid).toMatchObject({
      period: { status: 'paid', period: '2026-11', invoice: { number: expect.stringMatching(/^SUB\//) } },
      payment: { status: 'succeeded' },
      credits: { sms: 50 + 500, email: 1000 + 500 },
    });
    // Stripe retries: nothing changes; the payer's return finds it paid and opens the settings.
    expect((await fake.deliver(completed, { url: webhook() })).body).toEqual({
      received: true,
      result: 'ignored',
    });
    expect(await comeBack(back)).toBe(
      `/${studio.id}/backoffice#/settings/subscription?period=${first.body.periodId}`,
    );
    expect((await owner.get(api(studio, 'studio-subscription/init'))).body.credits.sms).toBe(550);

    // The platform's invoice goes to the studio's billing address, once.
    for (let i = 0; i < 5; i += 1) if ((await app.drainJobs()) === 0) break;
    const mails = app.mail.filter((m) => m.to === 'accounts@studio.example');
    expect(mails).toHaveLength(1);
    const number = paid.period.invoice.number as string;
    expect(mails[0]!.subject).toBe(`Faktura ${number} za subskrypcję ${studio.name}`);
    expect(mails[0]!.text).toContain(number);
    expect(mails[0]!.attachments).toHaveLength(1);
    expect(mails[0]!.attachments![0]!).toMatchObject({
      filename: `${number.replace(/\//g, '-')}.pdf`,
      contentType: 'application/pdf',
    });
    expect(mails[0]!.attachments![0]!.content.subarray(0, 4).toString()).toBe('%PDF');
    const row = await app.knex('studio_subscription_periods').where({ id: first.body.periodId }).first();
    expect(row).toMatchObject({ invoiceSentTo: 'accounts@studio.example' });
    expect(row!.invoiceSentAt).not.toBeNull();
  });

  it('fails a period whose session expired unpaid; reads the session when the payer returns first', async () => {
    const { studio, owner, manager } = await ownerStudio();
    // Expired: the payer never paid within the session's life.
    const lapsed = await buy(owner, studio, { addOns: ['sms-500'] });
    const lapsedSession = (lapsed.body.redirectUrl as string).split('/').pop()!;
    await (await stripeClient(account.secretKey)).checkout.sessions.expire(lapsedSession);
    const expired = await fake.deliver(eventFor(lapsedSession, 'checkout.session.expired'), {
      url: webhook(),
    });
    expect(expired.body).toEqual({ received: true, result: 'applied' });
    expect(await statusOf(owner, studio, lapsed.body.periodId)).toMatchObject({
      period: { status: 'failed', invoice: null },
      payment: { status: 'failed' },
      credits: { sms: 50 },
    });

    // Paid, the webhook late: the return page asks Stripe and pays the period; the webhook then
    // changes nothing.
    const late = await buy(owner, studio, { plan: 'pro' });
    const lateSession = (late.body.redirectUrl as string).split('/').pop()!;
    await comeBack(await choose(late.body.redirectUrl as string, 'pay'));
    expect(await statusOf(owner, studio, late.body.periodId)).toMatchObject({
      period: { status: 'paid', period: '2026-11' },
      credits: { sms: 150, email: 4000 },
    });
    expect(
      (await fake.deliver(eventFor(lateSession, 'checkout.session.completed'), { url: webhook() })).body,
    ).toEqual({ received: true, result: 'ignored' });
    // No billing address set: the invoice goes to whoever bought it.
    for (let i = 0; i < 5; i += 1) if ((await app.drainJobs()) === 0) break;
    expect(app.mail.filter((m) => m.to === manager.email && m.attachments)).toHaveLength(1);

    // "Back" on Stripe's page: the return page expires the session, the period is cancelled.
    const leaving = await buy(owner, studio, { addOns: ['sms-500'] });
    const back = await choose(leaving.body.redirectUrl as string, 'cancel');
    expect(back).toContain('&cancelled=1');
    await comeBack(back);
    expect((await statusOf(owner, studio, leaving.body.periodId)).period.status).toBe('cancelled');

    // An event about a session that is none of the platform's: acknowledged, nothing changes.
    const foreign = await (
      await stripeClient(account.secretKey)
    ).checkout.sessions.create({
      mode: 'payment',
      success_url: 'https://example.test/ok',
      cancel_url: 'https://example.test/back',
      line_items: [
        { quantity: 1, price_data: { currency: 'pln', unit_amount: 100, product_data: { name: 'x' } } },
      ],
    });
    fake.pay(foreign.id);
    expect(
      (await fake.deliver(eventFor(foreign.id, 'checkout.session.completed'), { url: webhook() })).body,
    ).toEqual({ received: true, result: 'unknown' });
  });

  it('answers 404 while the platform has no webhook secret', async () => {
    delete process.env.PLATFORM_STRIPE_WEBHOOK_SECRET;
    resetPlatformSettings();
    try {
      const res = await fetch(webhook(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
        body: '{}',
      });
      expect(res.status).toBe(404);
    } finally {
      process.env.PLATFORM_STRIPE_WEBHOOK_SECRET = account.webhookSecret;
      resetPlatformSettings();
    }
  });
});
