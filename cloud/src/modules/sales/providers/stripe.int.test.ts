import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderStatus, PaymentMethod } from '../../../../../shared/enums';
import { expectHiddenFromOtherStudio } from '../../../../../tests/support/tenancy';
import { startTestApp, type TestApp } from '../../../../../tests/support/test-app';
import type { HttpClient } from '../../../../../tests/support/http-client';
import { anotherClient, api, orderInStatus, salesStudio, staffWithRole, topUpDirect } from '../sales-support';
import { FakeStripe, type FakeStripeAccount } from './testing/fake-stripe';
import { AppError } from '../../../../../shared/errors';
import { PROVIDERS } from '../providers';

/**
 * The Stripe provider through the official SDK against the local fake of Stripe's API
 * (`testing/fake-stripe.ts`): settings and keys, the hosted-checkout flow (success, decline, cancel,
 * lost notification), webhook signatures, refunds with Stripe's refusals, disputes, saved cards.
 */

let app: TestApp;
let fake: FakeStripe;
const previousApiUrl = process.env.STRIPE_API_URL;

beforeAll(async () => {
  fake = await FakeStripe.start();
  process.env.STRIPE_API_URL = fake.url;
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
  await fake?.close();
  if (previousApiUrl === undefined) delete process.env.STRIPE_API_URL;
  else process.env.STRIPE_API_URL = previousApiUrl;
});

const key = () => `key-${uuidv7()}`;

/** A sales studio whose manager connected a fresh Stripe account (and whose webhook points at us). */
async function stripeStudio() {
  const s = await salesStudio(app);
  const account = fake.addAccount({
    webhookUrl: `${app.url}/app/payment-notification/stripe?studio=${s.studio.id}`,
  });
  const saved = await s.owner.patch(api(s.studio, 'payment-provider/stripe'), {
    enabled: true,
    credentials: { secretKey: account.secretKey, webhookSecret: account.webhookSecret },
  });
  expect(saved.status, saved.text).toBe(200);
  return { ...s, account };
}

/** The client buys the pass online: checkout, then the form redirect to Stripe's hosted page. */
async function checkoutToStripe(
  s: { studio: { id: string }; passId: string; clientHttp: HttpClient },
  saveCard?: boolean,
) {
  await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
    items: [{ type: 'pricingOption', id: s.passId }],
  });
  const res = await s.clientHttp.post(
    api(s.studio, 'shopping-cart/checkout'),
    { paymentMethod: 'online', ...(saveCard === undefined ? {} : { saveCard }) },
    { headers: { 'idempotency-key': key() } },
  );
  expect(res.status, res.text).toBe(201);
  const paymentId = new URL(res.body.redirectUrl as string, app.url).searchParams.get('payment')!;
  const redirect = await s.clientHttp.get(res.body.redirectUrl as string);
  expect(redirect.status).toBe(302);
  const hostedPage = redirect.headers.get('location')!;
  expect(hostedPage.startsWith(`${fake.url}/pay/cs_test_`)).toBe(true);
  const sessionId = hostedPage.split('/').pop()!;
  return { orderId: res.body.orderId as string, paymentId, hostedPage, sessionId };
}

/** The payer's choice on the hosted page; returns where Stripe sends the browser back. */
async function choose(hostedPage: string, outcome: 'pay' | 'decline' | 'cancel'): Promise<string> {
  const page = await fetch(hostedPage);
  expect(await page.text()).toContain('data-outcome="pay"');
  const res = await fetch(hostedPage, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `outcome=${outcome}`,
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  return res.headers.get('location')!;
}

/** The browser follows Stripe's redirect back to `/app/return`. */
async function comeBack(http: HttpClient, url: string) {
  expect(url.startsWith(`${app.url}/app/return?payment=`)).toBe(true);
  const u = new URL(url);
  const res = await http.get(u.pathname + u.search);
  expect(res.status).toBe(302);
  return res.headers.get('location')!;
}

const orderOf = async (id: string) =>
  (await app.knex('client_orders').where({ id }).first()) as { status: number; total: number };
const paymentOf = async (id: string) =>
  (await app.knex('client_order_payments').where({ id }).first()) as {
    status: string;
    method: number;
    provider: string;
    providerRef: string;
  };
const passesOf = (studioId: string, clientId: string) =>
  app.knex('client_pricing_options').where({ studioId, clientId });
const eventOf = (account: FakeStripeAccount, type: string) =>
  fake.events.filter((e) => e.account === account.secretKey && e.type === type).at(-1)!;

describe('Stripe settings', () => {
  it('keeps the keys encrypted, shows a hint, tests the connection against Stripe', async () => {
    const s = await salesStudio(app);
    const all = await s.owner.get(api(s.studio, 'payment-provider/all'));
    expect(all.status).toBe(200);
    expect(all.body.items.map((p: { provider: string }) => p.provider)).toEqual(['stripe', 'test']);
    expect(all.body.items[0]).toMatchObject({
      provider: 'stripe',
      method: PaymentMethod.online,
      enabled: false,
      needsCredentials: true,
      configured: false,
      secretKeyHint: null,
      webhookPath: `/app/payment-notification/stripe?studio=${s.studio.id}`,
    });

    // Cannot be switched on without keys; keys of the wrong shape name each field.
    const noKeys = await s.owner.patch(api(s.studio, 'payment-provider/stripe'), { enabled: true });
    expect(noKeys.status).toBe(400);
    expect(noKeys.body.error.fields).toHaveProperty('enabled');
    const badKeys = await s.owner.patch(api(s.studio, 'payment-provider/stripe'), {
      credentials: { secretKey: 'pk_test_123', webhookSecret: 'nope' },
    });
    expect(badKeys.status).toBe(400);
    expect(Object.keys(badKeys.body.error.fields).sort()).toEqual([
      'credentials.secretKey',
      'credentials.webhookSecret',
    ]);
    const testKeys = await s.owner.patch(api(s.studio, 'payment-provider/test'), {
      credentials: { secretKey: 'sk_test_abcdefgh1234', webhookSecret: 'whsec_abcdefgh1234' },
    });
    expect(testKeys.status).toBe(400);

    // Nothing saved yet: the test says so; typed keys are tried before saving.
    const none = await s.owner.post(api(s.studio, 'payment-provider/test-connection'), {
      provider: 'stripe',
    });
    expect(none.body).toMatchObject({ ok: false, reason: 'noCredentials' });
    const wrong = await s.owner.post(api(s.studio, 'payment-provider/test-connection'), {
      provider: 'stripe',
      credentials: { secretKey: 'sk_test_notAKeyStripeKnows', webhookSecret: 'whsec_abcdefgh1234' },
    });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toMatchObject({ ok: false, reason: 'invalidKey' });
    expect(wrong.body.message).toContain('Invalid API Key');
    const account = fake.addAccount();
    const credentials = { secretKey: account.secretKey, webhookSecret: account.webhookSecret };
    const typed = await s.owner.post(api(s.studio, 'payment-provider/test-connection'), {
      provider: 'stripe',
      credentials,
    });
    expect(typed.body).toMatchObject({ ok: true, reason: null, livemode: false });

    const saved = await s.owner.patch(api(s.studio, 'payment-provider/stripe'), {
      enabled: true,
      credentials,
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({
      enabled: true,
      configured: true,
      secretKeyHint: `sk_test_…${account.secretKey.slice(-4)}`,
    });
    expect(saved.text).not.toContain(account.secretKey);
    expect((await s.owner.get(api(s.studio, 'payment-provider/all'))).text).not.toContain(account.secretKey);
    // At rest: ciphertext only.
    const row = await app
      .knex('studio_payment_providers')
      .where({ studioId: s.studio.id, provider: 'stripe' })
      .first();
    expect(JSON.stringify(row!.settings)).not.toContain(account.secretKey);
    expect(JSON.stringify(row!.settings)).not.toContain(account.webhookSecret);
    expect((row!.settings as { credentials: string }).credentials).toMatch(/^v2\.[\w-]{8}\./);

    const savedTest = await s.owner.post(api(s.studio, 'payment-provider/test-connection'), {
      provider: 'stripe',
    });
    expect(savedTest.body).toMatchObject({ ok: true });
    expect(fake.requests.filter((r) => r.path === '/v1/balance').length).toBeGreaterThanOrEqual(2);

    // Online options now offer Stripe first; checkout goes there.
    const options = await s.owner.get(api(s.studio, 'payment-option/all'));
    expect(options.body.items[0]).toMatchObject({
      provider: 'stripe',
      online: true,
      method: PaymentMethod.online,
    });

    // The ciphertext is bound to its studio: copied to another studio it does not decrypt.
    const other = await salesStudio(app);
    await app.knex('studio_payment_providers').insert({
      id: uuidv7(),
      studioId: other.studio.id,
      provider: 'stripe',
      enabled: true,
      settings: row!.settings,
    });
    const copied = await other.owner.post(api(other.studio, 'payment-provider/test-connection'), {
      provider: 'stripe',
    });
    expect(copied.body).toMatchObject({ ok: false, reason: 'noCredentials' });
  });

  it('needs settings rights and hides one studio from another', async () => {
    const s = await salesStudio(app);
    expect((await s.clientHttp.get(api(s.studio, 'payment-provider/all'))).status).toBe(403);
    expect(
      (await s.clientHttp.patch(api(s.studio, 'payment-provider/stripe'), { enabled: false })).status,
    ).toBe(403);
    expect((await (await app.anonymous()).get(api(s.studio, 'payment-provider/all'))).status).toBe(401);
    await expectHiddenFromOtherStudio(app, {
      method: 'PATCH',
      path: api(s.studio, 'payment-provider/stripe'),
      body: { enabled: false },
    });
    await expectHiddenFromOtherStudio(app, {
      method: 'POST',
      path: api(s.studio, 'payment-provider/test-connection'),
      body: { provider: 'stripe' },
    });
  });
});

describe('paying through Stripe Checkout', () => {
  it('success: hosted page, webhook, return; the pass is given once', async () => {
    const s = await stripeStudio();
    const c = await checkoutToStripe(s);
    const session = fake.sessions.get(c.sessionId)!;
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: 25000,
      currency: 'pln',
      client_reference_id: c.paymentId,
      customer: null,
    });
    expect(await paymentOf(c.paymentId)).toMatchObject({
      status: 'pending',
      method: PaymentMethod.online,
      provider: 'stripe',
      providerRef: c.sessionId,
    });
    expect((await orderOf(c.orderId)).status).toBe(OrderStatus.awaiting);

    const back = await choose(c.hostedPage, 'pay');
    // Stripe's webhook arrives before the browser.
    const completed = eventOf(s.account, 'checkout.session.completed');
    const n1 = await fake.deliver(completed);
    expect(n1).toMatchObject({ status: 200, body: { result: 'applied' } });
    expect(await fake.deliver(completed)).toMatchObject({ status: 200, body: { result: 'duplicate' } });
    expect(await fake.deliver(eventOf(s.account, 'payment_intent.succeeded'))).toMatchObject({
      status: 200,
      body: { result: 'ignored' },
    });
    expect(await comeBack(s.clientHttp, back)).toBe(
      `/${s.studio.id}/frontoffice/purchases?order=${c.orderId}&payment=${c.paymentId}`,
    );
    expect((await orderOf(c.orderId)).status).toBe(OrderStatus.paid);
    expect(await passesOf(s.studio.id, s.client.id)).toHaveLength(1);
    // No card kept when the client did not ask.
    expect(await app.knex('client_payment_cards').where({ studioId: s.studio.id })).toHaveLength(0);
  });

  it('settles on return when the webhook is lost', async () => {
    const s = await stripeStudio();
    const c = await checkoutToStripe(s);
    await comeBack(s.clientHttp, await choose(c.hostedPage, 'pay'));
    expect((await orderOf(c.orderId)).status).toBe(OrderStatus.paid);
    expect((await paymentOf(c.paymentId)).status).toBe('succeeded');
    expect(await passesOf(s.studio.id, s.client.id)).toHaveLength(1);
    // The late webhook changes nothing.
    expect((await fake.deliver(eventOf(s.account, 'checkout.session.completed'))).body).toMatchObject({
      result: 'ignored',
    });
  });

  it('failure: a declined card fails the order; the session is closed', async () => {
    const s = await stripeStudio();
    const c = await checkoutToStripe(s);
    const back = await choose(c.hostedPage, 'decline');
    expect(back).toContain('cancelled=1');
    expect((await fake.deliver(eventOf(s.account, 'payment_intent.payment_failed'))).body).toMatchObject({
      result: 'applied',
    });
    await comeBack(s.clientHttp, back);
    expect((await orderOf(c.orderId)).status).toBe(OrderStatus.failed);
    expect((await paymentOf(c.paymentId)).status).toBe('failed');
    expect(await passesOf(s.studio.id, s.client.id)).toHaveLength(0);
  });

  it('failure known only from the return (webhook lost)', async () => {
    const s = await stripeStudio();
    const c = await checkoutToStripe(s);
    await comeBack(s.clientHttp, await choose(c.hostedPage, 'decline'));
    expect((await orderOf(c.orderId)).status).toBe(OrderStatus.failed);
    // Closed at Stripe, so the payer cannot still pay in another tab after we called it failed.
    expect(fake.sessions.get(c.sessionId)!.status).toBe('expired');
  });

  it('cancel: the payer goes back; the session is expired and the order cancelled', async () => {
    const s = await stripeStudio();
    const c = await checkoutToStripe(s);
    const back = await choose(c.hostedPage, 'cancel');
    await comeBack(s.clientHttp, back);
    expect((await orderOf(c.orderId)).status).toBe(OrderStatus.cancelled);
    expect((await paymentOf(c.paymentId)).status).toBe('cancelled');
    expect(fake.sessions.get(c.sessionId)!.status).toBe('expired');
    // Stripe's own "expired" event agrees and changes nothing.
    expect((await fake.deliver(eventOf(s.account, 'checkout.session.expired'))).body).toMatchObject({
      result: 'ignored',
    });
    // A forged "cancelled" return after a real payment does not undo it.
    const paid = await checkoutToStripe(s);
    await choose(paid.hostedPage, 'pay');
    await comeBack(s.clientHttp, `${app.url}/app/return?payment=${paid.paymentId}&cancelled=1`);
    expect((await orderOf(paid.orderId)).status).toBe(OrderStatus.paid);
  });

  it('rejects webhooks that Stripe did not sign for this studio (400, nothing applied)', async () => {
    const s = await stripeStudio();
    const other = await stripeStudio();
    const c = await checkoutToStripe(s);
    await choose(c.hostedPage, 'pay');
    const event = eventOf(s.account, 'checkout.session.completed');
    const url = `${app.url}/app/payment-notification/stripe?studio=${s.studio.id}`;
    for (const attempt of [
      { secret: 'whsec_notTheStudiosSecret' },
      { secret: other.account.webhookSecret },
      { tamper: (p: string) => p.replace('"paid"', '"paid" ') },
      { url: `${app.url}/app/payment-notification/stripe?studio=${other.studio.id}` },
      { url: `${app.url}/app/payment-notification/stripe?studio=${uuidv7()}` },
      { url: `${app.url}/app/payment-notification/stripe` },
    ]) {
      const res = await fake.deliver(event, { url, ...attempt });
      expect(res.status, JSON.stringify(attempt)).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 2004, key: 'payment.notificationInvalid' } });
    }
    const unsigned = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    expect(unsigned.status).toBe(400);
    expect((await paymentOf(c.paymentId)).status).toBe('pending');
    expect((await orderOf(c.orderId)).status).toBe(OrderStatus.awaiting);
    expect(await fake.deliver(event)).toMatchObject({ status: 200, body: { result: 'applied' } });
  });
});

describe('Stripe refunds and chargebacks', () => {
  async function paidOrder() {
    const s = await stripeStudio();
    const c = await checkoutToStripe(s);
    await comeBack(s.clientHttp, await choose(c.hostedPage, 'pay'));
    const intentId = fake.sessions.get(c.sessionId)!.payment_intent as string;
    return { ...s, ...c, intentId };
  }

  it('refunds through Stripe and maps its refusals to the §3 refund errors', async () => {
    const s = await paidOrder();
    const refund = (amount: number) =>
      s.owner.post(api(s.studio, `client-order/${s.orderId}/refund`), { paymentId: s.paymentId, amount });

    const part = await refund(10000);
    expect(part.status, part.text).toBe(201);
    expect(part.body).toMatchObject({ amount: 10000, status: 'success', error: null });
    expect(
      fake.charges.get(fake.paymentIntents.get(s.intentId)!.latest_charge as string)!.amount_refunded,
    ).toBe(10000);

    // More than the payment still holds by our books: refused before Stripe is asked.
    const asked = fake.requests.filter((r) => r.path === '/v1/refunds').length;
    const tooMuch = await refund(15001);
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error).toMatchObject({ key: 'refund.exceededAmount', code: 2012 });
    expect(fake.requests.filter((r) => r.path === '/v1/refunds').length).toBe(asked);

    // Someone refunded 10,000 in Stripe's dashboard: our 10,000 is more than Stripe has left.
    fake.refundOutside(s.intentId, 10000);
    const stripeRefuses = await refund(10000);
    expect(stripeRefuses.status).toBe(201);
    expect(stripeRefuses.body).toMatchObject({ status: 'failed', error: 'exceededAmount' });

    // The Stripe balance cannot cover it.
    s.account.balanceInsufficient = true;
    const broke = await refund(1000);
    expect(broke.body).toMatchObject({ status: 'failed', error: 'insufficientFunds' });
    s.account.balanceInsufficient = false;

    const rest = await refund(5000);
    expect(rest.body).toMatchObject({ status: 'success' });
    const detail = await s.owner.get(api(s.studio, `client-order/${s.orderId}/init`));
    expect(detail.body.refundable).toBe(10000); // our books: 25,000 − 10,000 − 5,000 (failed ones do not count)
    const after = await refund(1000);
    expect(after.body).toMatchObject({ status: 'failed', error: 'cannotRefund' }); // Stripe: fully refunded
  });

  it('a dispute is a chargeback; a disputed payment cannot be refunded', async () => {
    const s = await paidOrder();
    const [disputed] = fake.dispute(s.intentId);
    const res = await fake.deliver(disputed!);
    expect(res).toMatchObject({ status: 200, body: { result: 'applied' } });
    expect((await orderOf(s.orderId)).status).toBe(OrderStatus.chargeback);
    expect((await paymentOf(s.paymentId)).status).toBe('chargeback');
    expect((await fake.deliver(disputed!)).body).toMatchObject({ result: 'duplicate' });
    const refund = await s.owner.post(api(s.studio, `client-order/${s.orderId}/refund`), {
      paymentId: s.paymentId,
      amount: 1000,
    });
    expect(refund.status).toBe(409);
    expect(refund.body.error.key).toBe('refund.cannotRefund');
  });

  it('refunds of a payment Stripe does not know are transactionNotFound', async () => {
    const s = await paidOrder();
    await app
      .knex('client_order_payments')
      .where({ id: s.paymentId })
      .update({ providerRef: `pi_unknown${uuidv7().replace(/-/g, '')}` });
    const res = await s.owner.post(api(s.studio, `client-order/${s.orderId}/refund`), {
      paymentId: s.paymentId,
      amount: 100,
    });
    expect(res.body).toMatchObject({ status: 'failed', error: 'transactionNotFound' });
  });
});

describe('saved payment cards', () => {
  async function clientWithCard(card: { declineOffSession?: boolean } = {}) {
    const s = await stripeStudio();
    const c = await checkoutToStripe(s, true);
    const session = fake.sessions.get(c.sessionId)!;
    expect(session.customer).toMatch(/^cus_/);
    expect(session.payment_intent_data).toMatchObject({ setup_future_usage: 'off_session' });
    fake.pay(c.sessionId, card);
    await comeBack(s.clientHttp, `${app.url}/app/return?payment=${c.paymentId}`);
    expect((await orderOf(c.orderId)).status).toBe(OrderStatus.paid);
    const cards = await s.clientHttp.get(api(s.studio, 'me/payment-cards'));
    expect(cards.status).toBe(200);
    return { ...s, checkout: c, card: cards.body.items[0] as { id: string } };
  }

  it('a client saves a card at checkout, lists it and deletes it', async () => {
    const s = await clientWithCard();
    const cards = await s.clientHttp.get(api(s.studio, 'me/payment-cards'));
    expect(cards.body.items).toEqual([
      {
        id: expect.any(String),
        provider: 'stripe',
        brand: 'visa',
        last4: '4242',
        expMonth: 12,
        expYear: 2030,
        createdAt: expect.any(String),
      },
    ]);
    // The webhook saying the same thing does not save it twice.
    await fake.deliver(eventOf(s.account, 'checkout.session.completed'));
    expect((await s.clientHttp.get(api(s.studio, 'me/payment-cards'))).body.items).toHaveLength(1);
    // A second checkout reuses the client's Stripe customer.
    const again = await checkoutToStripe(s, true);
    expect(fake.sessions.get(again.sessionId)!.customer).toBe(
      fake.sessions.get(s.checkout.sessionId)!.customer,
    );

    const pm = [...fake.paymentMethods.values()].find((m) => m.customer !== null)!;
    const removed = await s.clientHttp.delete(api(s.studio, `me/payment-cards/${s.card.id}`));
    expect(removed.status).toBe(204);
    expect(pm.customer).toBeNull(); // detached at Stripe
    expect((await s.clientHttp.get(api(s.studio, 'me/payment-cards'))).body.items).toEqual([]);
    expect((await s.clientHttp.delete(api(s.studio, `me/payment-cards/${s.card.id}`))).status).toBe(404);
  });

  it("cards are their owner's: other clients and other studios get 404", async () => {
    const s = await clientWithCard();
    const other = await anotherClient(app, s.studio);
    expect((await other.http.get(api(s.studio, 'me/payment-cards'))).body.items).toEqual([]);
    expect((await other.http.delete(api(s.studio, `me/payment-cards/${s.card.id}`))).status).toBe(404);
    const otherStudio = await salesStudio(app);
    expect(
      (await otherStudio.clientHttp.delete(api(otherStudio.studio, `me/payment-cards/${s.card.id}`))).status,
    ).toBe(404);
    expect(
      (await otherStudio.clientHttp.get(api(otherStudio.studio, 'me/payment-cards'))).body.items,
    ).toEqual([]);
    await expectHiddenFromOtherStudio(app, { method: 'GET', path: api(s.studio, 'me/payment-cards') }, [
      '4242',
    ]);
    await expectHiddenFromOtherStudio(app, {
      method: 'DELETE',
      path: api(s.studio, `me/payment-cards/${s.card.id}`),
    });
    expect((await (await app.anonymous()).get(api(s.studio, 'me/payment-cards'))).status).toBe(401);
    expect((await s.clientHttp.delete(api(s.studio, 'me/payment-cards/not-a-uuid'))).status).toBe(404);
    expect(await app.knex('client_payment_cards').where({ id: s.card.id })).toHaveLength(1);
  });

  it('bulk charge takes the saved card (payment card, off session); without one, the wallet', async () => {
    const s = await clientWithCard();
    const order = await orderInStatus(app, s.studio, s.client.id, OrderStatus.unpaid, 12000);
    const res = await s.owner.post(api(s.studio, 'client-order/bulk/charge'), { orderIds: [order] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ charged: [order], failed: [] });
    expect((await orderOf(order)).status).toBe(OrderStatus.paid);
    const payment = (await app.knex('client_order_payments').where({ orderId: order }).first()) as {
      method: number;
      provider: string;
      providerRef: string;
      amount: number;
    };
    expect(payment).toMatchObject({ method: PaymentMethod.paymentCard, provider: 'stripe', amount: 12000 });
    const intent = fake.paymentIntents.get(payment.providerRef)!;
    expect(intent).toMatchObject({ amount: 12000, currency: 'pln', off_session: true, status: 'succeeded' });
    // A card charge can be refunded through Stripe like any other.
    const refund = await s.owner.post(api(s.studio, `client-order/${order}/refund`), {
      paymentId: (await app.knex('client_order_payments').where({ orderId: order }).first())!.id,
      amount: 2000,
    });
    expect(refund.body).toMatchObject({ status: 'success' });

    // Card removed: the next bulk charge falls back to the wallet.
    await s.clientHttp.delete(api(s.studio, `me/payment-cards/${s.card.id}`));
    const next = await orderInStatus(app, s.studio, s.client.id, OrderStatus.unpaid, 3000);
    const noCard = await s.owner.post(api(s.studio, 'client-order/bulk/charge'), { orderIds: [next] });
    expect(noCard.body).toEqual({ charged: [], failed: [{ id: next, key: 'wallet.insufficientFunds' }] });
    await topUpDirect(app, s.studio, s.client.id, 3000);
    const wallet = await s.owner.post(api(s.studio, 'client-order/bulk/charge'), { orderIds: [next] });
    expect(wallet.body.charged).toEqual([next]);
    expect((await app.knex('client_order_payments').where({ orderId: next }).first())!.method).toBe(
      PaymentMethod.wallet,
    );
  });

  it('the cart offers saving the card only when the online provider can charge it later', async () => {
    const plain = await salesStudio(app);
    await plain.clientHttp.post(api(plain.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: plain.passId }],
    });
    const testOnly = await plain.clientHttp.get(api(plain.studio, 'shopping-cart/status'));
    expect(testOnly.body).toMatchObject({ paymentMethods: ['online'], canSaveCard: false });
    const s = await stripeStudio();
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    expect((await s.clientHttp.get(api(s.studio, 'shopping-cart/status'))).body.canSaveCard).toBe(true);
    // Without saveCard the client stays a guest at Stripe and no card is kept.
    const c = await checkoutToStripe(s, false);
    expect(fake.sessions.get(c.sessionId)!.customer ?? null).toBeNull();
    fake.pay(c.sessionId);
    await comeBack(s.clientHttp, `${app.url}/app/return?payment=${c.paymentId}`);
    expect((await s.clientHttp.get(api(s.studio, 'me/payment-cards'))).body.items).toEqual([]);
  });

  it("staff see a client's saved cards and remove one at the client's request", async () => {
    const s = await clientWithCard();
    const path = api(s.studio, `client/${s.client.id}/payment-cards`);
    const listed = await s.owner.get(path);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.items).toEqual([
      expect.objectContaining({ id: s.card.id, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 }),
    ]);
    expect(JSON.stringify(listed.body)).not.toMatch(/pm_|cus_/); // no provider references leave
    // The front desk (sales.view, sales.sell) may; an instructor (no sales) may not; nor a client.
    const desk = await staffWithRole(app, s.studio, 'front_desk');
    const instructor = await staffWithRole(app, s.studio, 'instructor');
    const accountant = await staffWithRole(app, s.studio, 'accountant');
    expect((await desk.get(path)).body.items).toHaveLength(1);
    expect((await instructor.get(path)).status).toBe(403);
    expect((await s.clientHttp.get(path)).status).toBe(403);
    expect((await (await app.anonymous()).get(path)).status).toBe(401);
    // Removing needs sales.sell: the accountant reads but may not remove.
    expect((await accountant.get(path)).status).toBe(200);
    expect((await accountant.delete(`${path}/${s.card.id}`)).status).toBe(403);
    // Unknown client or card, another client's card, another studio: 404.
    expect((await s.owner.get(api(s.studio, `client/${uuidv7()}/payment-cards`))).status).toBe(404);
    const other = await anotherClient(app, s.studio);
    expect(
      (await s.owner.delete(api(s.studio, `client/${other.user.id}/payment-cards/${s.card.id}`))).status,
    ).toBe(404);
    expect((await s.owner.get(api(s.studio, `client/${other.user.id}/payment-cards`))).body.items).toEqual(
      [],
    );
    await expectHiddenFromOtherStudio(app, { method: 'GET', path }, ['4242']);
    await expectHiddenFromOtherStudio(app, { method: 'DELETE', path: `${path}/${s.card.id}` });
    const otherStudio = await salesStudio(app);
    expect(
      (
        await otherStudio.owner.delete(
          api(otherStudio.studio, `client/${s.client.id}/payment-cards/${s.card.id}`),
        )
      ).status,
    ).toBe(404);
    expect(await app.knex('client_payment_cards').where({ id: s.card.id })).toHaveLength(1);

    const { methodRef } = (await app.knex('client_payment_cards').where({ id: s.card.id }).first()) as {
      methodRef: string;
    };
    const pm = fake.paymentMethods.get(methodRef)!;
    expect(pm.customer).toMatch(/^cus_/);
    const removed = await desk.delete(`${path}/${s.card.id}`);
    expect(removed.status).toBe(204);
    expect(pm.customer).toBeNull(); // detached at Stripe, as when the client removes it
    expect((await s.clientHttp.get(api(s.studio, 'me/payment-cards'))).body.items).toEqual([]);
    expect((await s.owner.get(path)).body.items).toEqual([]);
  });

  it('a declined saved card is listed as failed; the order stays unpaid with the declined attempt', async () => {
    const s = await clientWithCard({ declineOffSession: true });
    const order = await orderInStatus(app, s.studio, s.client.id, OrderStatus.unpaid, 5000);
    const res = await s.owner.post(api(s.studio, 'client-order/bulk/charge'), { orderIds: [order] });
    expect(res.body).toEqual({ charged: [], failed: [{ id: order, key: 'payment.cardDeclined' }] });
    expect((await orderOf(order)).status).toBe(OrderStatus.unpaid);
    // Staff see the attempt and why it failed; nothing was paid.
    const detail = await s.owner.get(api(s.studio, `client-order/${order}/init`));
    expect(detail.body).toMatchObject({ paid: 0 });
    expect(detail.body.payments).toMatchObject([{ method: PaymentMethod.paymentCard, status: 'failed' }]);
  });

  it('charges the card after the commit, with the order unlocked; a lost answer is finished by the job, once', async () => {
    const s = await clientWithCard();
    const order = await orderInStatus(app, s.studio, s.client.id, OrderStatus.unpaid, 7000);
    const stripe = PROVIDERS.stripe;
    const charge = stripe.chargeSavedCard!.bind(stripe);
    const seen: Array<{ payment: string | undefined; lockable: boolean | string }> = [];
    stripe.chargeSavedCard = async (db, request) => {
      const lockable = await app.knex
        .transaction(async (trx) => {
          await trx.raw('select id from client_orders where id = ? for update nowait', [order]);
          return true as const;
        })
        .catch((err: Error) => err.message);
      const payment = await app
        .knex('client_order_payments')
        .where({ id: request.paymentId })
        .first('status');
      seen.push({ payment: payment?.status, lockable });
      const answer = await charge(db, request);
      // The first time Stripe charges the card and the answer is lost on the way back.
      if (seen.length === 1)
        throw new AppError('payment.providerError', {
          message: 'Stripe could not charge the card: socket hang up',
        });
      return answer;
    };
    try {
      const res = await s.owner.post(api(s.studio, 'client-order/bulk/charge'), { orderIds: [order] });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ charged: [], failed: [{ id: order, key: 'payment.providerError' }] });
      // Asked after the commit: the pending payment was there and the order row free.
      expect(seen).toEqual([{ payment: 'pending', lockable: true }]);
      // While the bank's word is awaited, a second charge of the order is refused.
      const again = await s.owner.post(api(s.studio, 'client-order/bulk/charge'), { orderIds: [order] });
      expect(again.body).toEqual({ charged: [], failed: [{ id: order, key: 'order.notPayable' }] });
      // The job asks again with the same idempotency key: Stripe answers with the first charge.
      await app.drainJobs();
      expect(seen).toHaveLength(2);
      expect((await orderOf(order)).status).toBe(OrderStatus.paid);
      const payments = await app.knex('client_order_payments').where({ orderId: order });
      expect(payments).toMatchObject([
        { status: 'succeeded', amount: 7000, method: PaymentMethod.paymentCard },
      ]);
      const intents = [...fake.paymentIntents.values()].filter(
        (i) => (i.metadata as { paymentId?: string }).paymentId === payments[0]!.id,
      );
      expect(intents).toHaveLength(1);
    } finally {
      stripe.chargeSavedCard = charge;
    }
  });
});
