import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { OrderStatus, VoucherType } from '../../../../shared/enums';
import { useTestApp } from '../../../../tests/support/test-app';
import { api, deliverNotification, payAtTestBank, salesStudio } from './sales-support';

/**
 * Issue 26: a failed or cancelled online payment keeps the cart (its items go back in), a new checkout
 * pays it with a new payment; the return from the payment page comes back in the language the client
 * paid in (`locale` of the checkout and the top-up).
 */
const app = useTestApp();
const key = () => `key-${uuidv7()}`;

type Sales = Awaited<ReturnType<typeof salesStudio>>;

async function checkoutOnline(s: Sales, body: Record<string, unknown> = {}) {
  const res = await s.clientHttp.post(
    api(s.studio, 'shopping-cart/checkout'),
    { paymentMethod: 'online', ...body },
    { headers: { 'idempotency-key': key() } },
  );
  expect(res.status, res.text).toBe(201);
  return res.body as { orderId: string; redirectUrl: string };
}

const cartItems = async (s: Sales) =>
  (
    (await s.clientHttp.get(api(s.studio, 'shopping-cart/status'))).body as {
      items: { type: string; id: string; quantity: number }[];
    }
  ).items.map((i) => ({ type: i.type, id: i.id, quantity: i.quantity }));

describe('a failed online payment keeps the cart', () => {
  it('declined or cancelled: the items are back in the cart, and a new checkout pays them once', async () => {
    const s = await salesStudio(app);
    const basket = [
      { type: 'pricingOption', id: s.passId },
      { type: 'product', id: s.productId, quantity: 2 },
    ];
    for (const outcome of ['failed', 'cancelled'] as const) {
      await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), { items: basket });
      const first = await checkoutOnline(s);
      // Checked out: the cart is empty while the client is at the bank.
      expect(await cartItems(s)).toEqual([]);
      const { transactionId } = await payAtTestBank(app, s.clientHttp, first.redirectUrl, outcome);
      await deliverNotification(app, s.studio.id, transactionId, outcome);
      // A repeated notification does not put them back twice.
      await deliverNotification(app, s.studio.id, transactionId, outcome, `again-${outcome}`);
      expect(await cartItems(s)).toEqual([
        { type: 'pricingOption', id: s.passId, quantity: 1 },
        { type: 'product', id: s.productId, quantity: 2 },
      ]);
      const st = await s.clientHttp.get(api(s.studio, `client-order/${first.orderId}/status`));
      expect(st.body.status).toBe(outcome === 'failed' ? OrderStatus.failed : OrderStatus.cancelled);
    }

    // Try again: a new order and a new payment at the bank; paid, and the cart is empty.
    const retry = await checkoutOnline(s);
    const { transactionId } = await payAtTestBank(app, s.clientHttp, retry.redirectUrl, 'succeeded');
    await deliverNotification(app, s.studio.id, transactionId, 'succeeded');
    const paid = await s.clientHttp.get(api(s.studio, `client-order/${retry.orderId}/status`));
    expect(paid.body.status).toBe(OrderStatus.paid);
    expect(await cartItems(s)).toEqual([]);
    expect(await app.knex('client_pricing_options').where({ clientId: s.client.id })).toHaveLength(1);
  });

  it('what the client put in the cart meanwhile stays; a declined top-up puts nothing in it', async () => {
    const s = await salesStudio(app);
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const first = await checkoutOnline(s);
    // At the bank, the client adds water to the cart in another tab.
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'product', id: s.productId, quantity: 1 }],
    });
    const { transactionId } = await payAtTestBank(app, s.clientHttp, first.redirectUrl, 'failed');
    await deliverNotification(app, s.studio.id, transactionId, 'failed');
    expect(await cartItems(s)).toEqual([
      { type: 'product', id: s.productId, quantity: 1 },
      { type: 'pricingOption', id: s.passId, quantity: 1 },
    ]);

    // A declined wallet top-up is not a cart's order: the cart stays as it is.
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), { items: [] });
    const topUp = await s.clientHttp.post(
      api(s.studio, 'wallet/top-up'),
      { amount: 5000 },
      { headers: { 'idempotency-key': key() } },
    );
    expect(topUp.status, topUp.text).toBe(201);
    const declined = await payAtTestBank(app, s.clientHttp, topUp.body.redirectUrl, 'failed');
    await deliverNotification(app, s.studio.id, declined.transactionId, 'failed');
    expect(await cartItems(s)).toEqual([]);
  });
});

describe('a failed online payment gives the voucher back', () => {
  it('a single-use voucher: released on decline, back on the cart, used by the retry, then used up', async () => {
    const s = await salesStudio(app);
    await app.knex('vouchers').insert({
      id: uuidv7(),
      studioId: s.studio.id,
      code: 'ONCE',
      type: VoucherType.singleUse,
      discountType: 'percentage',
      value: 5000,
      currency: 'PLN',
    });
    const held = () =>
      app.knex('voucher_redemptions').where({ studioId: s.studio.id }).whereNull('releasedAt');
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const applied = await s.clientHttp.post(api(s.studio, 'shopping-cart/voucher-redeem'), { code: 'once' });
    expect(applied.status, applied.text).toBe(200);
    const discount = applied.body.discount as number;
    expect(discount).toBeGreaterThan(0);

    const first = await checkoutOnline(s);
    expect(await held()).toHaveLength(1);
    const declined = await payAtTestBank(app, s.clientHttp, first.redirectUrl, 'failed');
    await deliverNotification(app, s.studio.id, declined.transactionId, 'failed');
    await deliverNotification(app, s.studio.id, declined.transactionId, 'failed', 'again-failed');

    // The use is given back and the voucher is on the cart again, still taking its discount off.
    expect(await held()).toHaveLength(0);
    const cart = await s.clientHttp.get(api(s.studio, 'shopping-cart/status'));
    expect(cart.body.voucher).toMatchObject({ code: 'ONCE', discount, problem: null });

    // The retry redeems it again and pays the discounted total.
    const retry = await checkoutOnline(s);
    const order = await app
      .knex('client_orders')
      .where({ id: retry.orderId })
      .first('discount', 'voucherRedemptionId');
    expect(order?.discount).toBe(discount);
    expect(order?.voucherRedemptionId).not.toBeNull();
    const paid = await payAtTestBank(app, s.clientHttp, retry.redirectUrl, 'succeeded');
    await deliverNotification(app, s.studio.id, paid.transactionId, 'succeeded');
    expect((await s.clientHttp.get(api(s.studio, `client-order/${retry.orderId}/status`))).body.status).toBe(
      OrderStatus.paid,
    );
    const uses = await held();
    expect(uses.map((u) => u.useNumber)).toEqual([2]);

    // Single use: now it is used up.
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const again = await s.clientHttp.post(api(s.studio, 'shopping-cart/voucher-redeem'), { code: 'ONCE' });
    expect(again.status).toBe(409);
    expect(again.body.error.key).toBe('voucher.usedUp');

    // The bank's late success of the declined payment: that order keeps its discount and its use.
    await deliverNotification(app, s.studio.id, declined.transactionId, 'succeeded', 'late-success');
    expect((await held()).map((u) => u.useNumber).sort()).toEqual([1, 2]);
  });
});

describe('the return from the payment page keeps the language', () => {
  it('a checkout in Polish comes back in Polish, whatever the locale cookie says', async () => {
    const s = await salesStudio(app);
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const paying = await checkoutOnline(s, { locale: 'pl' });
    const { returnUrl } = await payAtTestBank(app, s.clientHttp, paying.redirectUrl, 'failed');
    // Another browser (a bank's app opening the default one): no cookie, English.
    const back = await fetch(returnUrl, {
      redirect: 'manual',
      headers: { 'accept-language': 'en-US', cookie: 'locale=en' },
    });
    expect(back.status).toBe(302);
    expect(back.headers.get('set-cookie')).toMatch(/(^|, )locale=pl;/);
    const target = new URL(back.headers.get('location')!, app.url);
    expect(target.pathname).toBe(`/${s.studio.id}/frontoffice/purchases`);
    expect(target.searchParams.get('order')).toBe(paying.orderId);
    expect(target.searchParams.has('lang')).toBe(false);

    // A wallet top-up in English comes back in English.
    const topUp = await s.clientHttp.post(
      api(s.studio, 'wallet/top-up'),
      { amount: 5000, locale: 'en' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(topUp.status, topUp.text).toBe(201);
    const paid = await payAtTestBank(app, s.clientHttp, topUp.body.redirectUrl, 'succeeded');
    const wallet = await fetch(paid.returnUrl, { redirect: 'manual', headers: { cookie: 'locale=pl' } });
    expect(wallet.headers.get('set-cookie')).toMatch(/(^|, )locale=en;/);
    expect(new URL(wallet.headers.get('location')!, app.url).pathname).toBe(
      `/${s.studio.id}/frontoffice/wallet`,
    );
  });

  it('a donation in Polish comes back to the donation page in Polish; a bad locale is 400', async () => {
    const s = await salesStudio(app);
    const visitor = await app.anonymous();
    const gift = { amount: 5000, name: 'Anna Nowak', email: 'anna@example.com' };
    const bad = await visitor.post(
      api(s.studio, 'donation/checkout'),
      { ...gift, locale: 'de' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(['locale']);
    const res = await visitor.post(
      api(s.studio, 'donation/checkout'),
      { ...gift, locale: 'pl' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(res.status, res.text).toBe(201);
    const { returnUrl } = await payAtTestBank(app, visitor, res.body.redirectUrl, 'succeeded');
    // The bank's app opened another browser: English cookie and headers.
    const back = await fetch(returnUrl, {
      redirect: 'manual',
      headers: { 'accept-language': 'en-US', cookie: 'locale=en' },
    });
    expect(back.status).toBe(302);
    expect(back.headers.get('set-cookie')).toMatch(/(^|, )locale=pl;/);
    const target = new URL(back.headers.get('location')!, app.url);
    expect(target.pathname).toBe(`/${s.studio.id}/donation/payment-status`);
    expect(target.searchParams.get('order')).toBe(res.body.orderId);
    expect(target.searchParams.has('lang')).toBe(false);
  });

  it('refuses a language it does not speak (400 on the field) and asks for a session (401)', async () => {
    const s = await salesStudio(app);
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const bad = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online', locale: 'de' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(['locale']);
    const badTopUp = await s.clientHttp.post(
      api(s.studio, 'wallet/top-up'),
      { amount: 5000, locale: 'xx' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(badTopUp.status).toBe(400);
    expect(Object.keys(badTopUp.body.error.fields)).toEqual(['locale']);
    const anonymous = await (
      await app.anonymous()
    ).post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online', locale: 'pl' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(anonymous.status).toBe(401);
    // Nothing was ordered by the refused calls: the cart still holds the pass.
    expect(await cartItems(s)).toEqual([{ type: 'pricingOption', id: s.passId, quantity: 1 }]);
  });
});
