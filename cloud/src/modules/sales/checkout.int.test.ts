import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { OrderStatus, PaymentMethod } from '../../../../shared/enums';
import { useTestApp } from '../../../../tests/support/test-app';
import {
  anotherClient,
  api,
  deliverNotification,
  payAtTestBank,
  salesStudio,
  topUpDirect,
} from './sales-support';

const app = useTestApp();

const key = () => `key-${uuidv7()}`;

async function passesOf(studioId: string, clientId: string) {
  return app.knex('client_pricing_options').where({ studioId, clientId });
}

async function waitFor<T>(read: () => Promise<T>, until: (v: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (until(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('buying a pass online through the test provider', () => {
  it('walks redirect, bank, return and notification; the pass appears once', async () => {
    const s = await salesStudio(app);
    const prepared = await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    expect(prepared.status, prepared.text).toBe(200);
    // The client has no language of their own: the studio's default (Polish) names the pass.
    expect(prepared.body.items[0]).toMatchObject({
      name: 'Karnet 10 wejść',
      unitPrice: 25000,
      problem: null,
    });
    const inEnglish = await s.clientHttp.get(api(s.studio, 'shopping-cart/status'), {
      headers: { 'accept-language': 'en' },
    });
    expect(inEnglish.body.items[0].name).toBe('10 entries');
    expect(prepared.body.total).toBe(25000);
    expect(prepared.body.paymentMethods).toEqual(['online']);

    const status = await s.clientHttp.get(api(s.studio, 'shopping-cart/status'));
    expect(status.body.items).toHaveLength(1);

    const res = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe(OrderStatus.awaiting);
    expect(res.body.redirectUrl).toMatch(/^\/app\/form-redirect\?payment=/);
    expect((await s.clientHttp.get(api(s.studio, 'shopping-cart/status'))).body.items).toEqual([]);

    const { returnUrl, transactionId } = await payAtTestBank(
      app,
      s.clientHttp,
      res.body.redirectUrl,
      'succeeded',
    );
    expect(returnUrl).toContain('/app/return?payment=');

    // The asynchronous notification arrives: the order is paid and the pass created.
    const n1 = await deliverNotification(app, s.studio.id, transactionId, 'succeeded', 'evt-1');
    expect(n1).toMatchObject({ status: 200, body: { result: 'applied' } });
    // The provider repeats it: applied once.
    const n2 = await deliverNotification(app, s.studio.id, transactionId, 'succeeded', 'evt-1');
    expect(n2.body.result).toBe('duplicate');
    const n3 = await deliverNotification(app, s.studio.id, transactionId, 'succeeded', 'evt-2');
    expect(n3.body.result).toBe('ignored');
    expect(await passesOf(s.studio.id, s.client.id)).toHaveLength(1);

    // The browser comes back: sent on to purchases with the order named.
    const back = await s.clientHttp.get(new URL(returnUrl).pathname + new URL(returnUrl).search);
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(
      `/${s.studio.id}/frontoffice/purchases?order=${res.body.orderId}&payment=${new URL(returnUrl).searchParams.get('payment')}`,
    );

    const orderStatus = await s.clientHttp.get(api(s.studio, `client-order/${res.body.orderId}/status`));
    expect(orderStatus.body).toMatchObject({
      status: OrderStatus.paid,
      paid: 25000,
      payment: { status: 'succeeded' },
    });
    const bought = await s.clientHttp.post(api(s.studio, 'purchases'), {});
    expect(bought.body.items[0]).toMatchObject({
      id: res.body.orderId,
      status: OrderStatus.paid,
      lines: [{ kind: 'pass', name: 'Karnet 10 wejść', quantity: 1, total: 25000 }],
      payment: { method: PaymentMethod.test, status: 'succeeded' },
    });
    const detail = await s.owner.get(api(s.studio, `client-order/${res.body.orderId}/init`));
    expect(detail.body.lines[0].fulfilled).toBe(true);
    expect(detail.body.lines[0].fulfilledRefId).toBe((await passesOf(s.studio.id, s.client.id))[0]!.id);
  });

  it('settles on return when the notification is lost', async () => {
    const s = await salesStudio(app);
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const res = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': key() } },
    );
    const { returnUrl } = await payAtTestBank(app, s.clientHttp, res.body.redirectUrl, 'succeeded');
    await s.clientHttp.get(new URL(returnUrl).pathname + new URL(returnUrl).search);
    const st = await s.clientHttp.get(api(s.studio, `client-order/${res.body.orderId}/status`));
    expect(st.body.status).toBe(OrderStatus.paid);
    expect(await passesOf(s.studio.id, s.client.id)).toHaveLength(1);
  });

  it('a pass sold only online (not at the desk) is delivered once paid online', async () => {
    const s = await salesStudio(app);
    await app.knex('pricing_options').where({ id: s.passId }).update({ sellAtDesk: false, sellOnline: true });
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const res = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(res.status, res.text).toBe(201);
    const { returnUrl } = await payAtTestBank(app, s.clientHttp, res.body.redirectUrl, 'succeeded');
    await s.clientHttp.get(new URL(returnUrl).pathname + new URL(returnUrl).search);
    expect(await passesOf(s.studio.id, s.client.id)).toHaveLength(1);
    const unfulfilled = await app
      .knex('client_order_lines')
      .where({ orderId: res.body.orderId, fulfilledAt: null });
    expect(unfulfilled).toEqual([]);
    // …and the desk still may not sell it.
    const desk = await s.owner.post(
      `/api/v2/${s.studio.id}/clients/${s.client.id}/client-pricing-options/${s.passId}`,
      {},
    );
    expect(desk.status, desk.text).toBe(409);
  });

  it('the real asynchronous notification arrives by itself', async () => {
    const s = await salesStudio(app);
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const res = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': key() } },
    );
    const redirect = await s.clientHttp.get(res.body.redirectUrl);
    const bankPath = new URL(/action="([^"]+)"/.exec(redirect.text)![1]!).pathname;
    const sig = /name="sig" value="([^"]+)"/.exec(redirect.text)![1]!;
    const decided = await s.clientHttp.request('POST', `${bankPath}/decide`, undefined, {
      raw: new URLSearchParams({ sig, outcome: 'succeeded' }).toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(decided.status).toBe(302);
    const st = await waitFor(
      () => s.clientHttp.get(api(s.studio, `client-order/${res.body.orderId}/status`)),
      (r) => r.body.status === OrderStatus.paid,
    );
    expect(st.body.status).toBe(OrderStatus.paid);
  });

  it('a declined payment fails the order and a cancelled one cancels it; no pass', async () => {
    const s = await salesStudio(app);
    for (const [outcome, expected] of [
      ['failed', OrderStatus.failed],
      ['cancelled', OrderStatus.cancelled],
    ] as const) {
      await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
        items: [{ type: 'pricingOption', id: s.passId }],
      });
      const res = await s.clientHttp.post(
        api(s.studio, 'shopping-cart/checkout'),
        { paymentMethod: 'online' },
        { headers: { 'idempotency-key': key() } },
      );
      const { transactionId } = await payAtTestBank(app, s.clientHttp, res.body.redirectUrl, outcome);
      await deliverNotification(app, s.studio.id, transactionId, outcome);
      const st = await s.clientHttp.get(api(s.studio, `client-order/${res.body.orderId}/status`));
      expect(st.body).toMatchObject({ status: expected, payment: { status: outcome } });
      // A late success after a failure is still honoured: the money was taken.
    }
    expect(await passesOf(s.studio.id, s.client.id)).toHaveLength(0);
  });

  it('a chargeback marks the order chargeback; staff may then change it to unpaid', async () => {
    const s = await salesStudio(app);
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const res = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': key() } },
    );
    const { transactionId, sig } = await payAtTestBank(app, s.clientHttp, res.body.redirectUrl, 'succeeded');
    await deliverNotification(app, s.studio.id, transactionId, 'succeeded');
    // The card holder disputes it at the bank (the bank page's chargeback button).
    const cb = await s.clientHttp.request(
      'POST',
      `/app/test-provider/${transactionId}/decide?notify=never`,
      undefined,
      {
        raw: new URLSearchParams({ sig, outcome: 'chargeback' }).toString(),
        contentType: 'application/x-www-form-urlencoded',
      },
    );
    expect(cb.status).toBe(302);
    const n = await deliverNotification(app, s.studio.id, transactionId, 'chargeback');
    expect(n.body.result).toBe('applied');
    const detail = await s.owner.get(api(s.studio, `client-order/${res.body.orderId}/init`));
    expect(detail.body).toMatchObject({
      status: OrderStatus.chargeback,
      actions: ['markUnpaid'],
      refundable: 0,
    });
    expect(detail.body.payments[0].status).toBe('chargeback');
    const unpaid = await s.owner.post(api(s.studio, `client-order/${res.body.orderId}/status`), {
      action: 'markUnpaid',
    });
    expect(unpaid.status, unpaid.text).toBe(200);
    expect(unpaid.body.status).toBe(OrderStatus.unpaid);
  });

  it('refuses forged notifications and bank links', async () => {
    const s = await salesStudio(app);
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const res = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': key() } },
    );
    const { transactionId } = await payAtTestBank(app, s.clientHttp, res.body.redirectUrl, 'succeeded');
    const forged = await fetch(`${app.url}/app/payment-notification/test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        eventId: 'x',
        studioId: s.studio.id,
        transactionId,
        status: 'succeeded',
        signature: 'forged',
      }),
    });
    expect(forged.status).toBe(400);
    const bank = await s.clientHttp.get(`/app/test-provider/${transactionId}?sig=wrong`);
    expect(bank.status).toBe(404);
    const st = await s.clientHttp.get(api(s.studio, `client-order/${res.body.orderId}/status`));
    expect(st.body.status).toBe(OrderStatus.awaiting);
  });
});

describe('idempotent checkout', () => {
  it('a retried request with the same key charges once and answers the same', async () => {
    const s = await salesStudio(app);
    await topUpDirect(app, s.studio, s.client.id, 100000);
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const k = key();
    const first = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'wallet' },
      { headers: { 'idempotency-key': k } },
    );
    expect(first.status, first.text).toBe(201);
    expect(first.body.status).toBe(OrderStatus.paid);
    // The cart is empty now, yet the retry answers the stored outcome instead of "cart empty".
    const retry = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'wallet' },
      { headers: { 'idempotency-key': k } },
    );
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    const wallet = await s.clientHttp.get(api(s.studio, 'wallet/init'));
    expect(wallet.body.balance).toBe(100000 - 25000);
    expect(await passesOf(s.studio.id, s.client.id)).toHaveLength(1);
    expect(await app.knex('client_orders').where({ studioId: s.studio.id })).toHaveLength(1);
  });

  it('two simultaneous requests with one key charge once', async () => {
    const s = await salesStudio(app);
    await topUpDirect(app, s.studio, s.client.id, 100000);
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const k = key();
    const send = () =>
      s.clientHttp.post(
        api(s.studio, 'shopping-cart/checkout'),
        { paymentMethod: 'wallet' },
        { headers: { 'idempotency-key': k } },
      );
    const [a, b] = await Promise.all([send(), send()]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.orderId).toBe(b.body.orderId);
    expect((await s.clientHttp.get(api(s.studio, 'wallet/init'))).body.balance).toBe(75000);
  });

  it('needs a key, and refuses a key reused for another request', async () => {
    const s = await salesStudio(app);
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const none = await s.clientHttp.post(api(s.studio, 'shopping-cart/checkout'), {
      paymentMethod: 'online',
    });
    expect(none.status).toBe(400);
    expect(none.body.error.key).toBe('checkout.idempotencyKeyRequired');
    const k = key();
    const ok = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': k } },
    );
    expect(ok.status).toBe(201);
    const other = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'wallet' },
      { headers: { 'idempotency-key': k } },
    );
    expect(other.status).toBe(409);
    expect(other.body.error.key).toBe('checkout.idempotencyKeyReused');
  });
});

describe('wallet', () => {
  it('top-up online credits the balance derived from its rows; paying from it takes', async () => {
    const s = await salesStudio(app);
    const init = await s.clientHttp.get(api(s.studio, 'wallet/init'));
    expect(init.body).toMatchObject({ balance: 0, currency: 'PLN', onlinePayment: true });
    const top = await s.clientHttp.post(
      api(s.studio, 'wallet/top-up'),
      { amount: 30000 },
      { headers: { 'idempotency-key': key() } },
    );
    expect(top.status, top.text).toBe(201);
    const { transactionId } = await payAtTestBank(app, s.clientHttp, top.body.redirectUrl, 'succeeded');
    await deliverNotification(app, s.studio.id, transactionId, 'succeeded');
    const after = await s.clientHttp.get(api(s.studio, 'wallet/init'));
    expect(after.body.balance).toBe(30000);
    expect(after.body.entries[0]).toMatchObject({ kind: 'top_up', amount: 30000 });

    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [
        { type: 'pricingOption', id: s.passId },
        { type: 'product', id: s.productId, quantity: 2 },
      ],
    });
    const cart = await s.clientHttp.get(api(s.studio, 'shopping-cart/status'));
    expect(cart.body).toMatchObject({
      total: 26000,
      walletBalance: 30000,
      paymentMethods: ['online', 'wallet'],
    });
    const paid = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'wallet' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(paid.status, paid.text).toBe(201);
    expect((await s.clientHttp.get(api(s.studio, 'wallet/init'))).body.balance).toBe(4000);
    // The product's stock went down by the sale.
    const sums = await app
      .knex('product_stock_movements')
      .where({ productId: s.productId })
      .sum({ stock: 'quantity' });
    expect(Number(sums[0]?.stock)).toBe(8);

    const staffView = await s.owner.get(api(s.studio, `client-wallet/${s.client.id}/init`));
    expect(staffView.body.wallet.balance).toBe(4000);
    const entries = await s.owner.get(api(s.studio, `client/${s.client.id}/client-wallet-payment/all`));
    expect(entries.body.items.map((e: { kind: string }) => e.kind)).toEqual(['payment', 'top_up']);
  });

  it('refuses a wallet payment above the balance', async () => {
    const s = await salesStudio(app);
    await topUpDirect(app, s.studio, s.client.id, 1000);
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const res = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'wallet' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(res.status).toBe(409);
    expect(res.body.error.key).toBe('wallet.insufficientFunds');
    // Nothing was recorded: the cart is still there and the balance unchanged.
    expect((await s.clientHttp.get(api(s.studio, 'shopping-cart/status'))).body.items).toHaveLength(1);
    expect((await s.clientHttp.get(api(s.studio, 'wallet/init'))).body.balance).toBe(1000);
  });

  it('two simultaneous wallet payments never take the balance below zero', async () => {
    for (let round = 0; round < 3; round++) {
      const s = await salesStudio(app);
      await topUpDirect(app, s.studio, s.client.id, 10000);
      const orders = [];
      for (let i = 0; i < 2; i++) {
        const { rows } = await app.knex.raw('select 1');
        void rows;
        const id = uuidv7();
        await app.knex('client_orders').insert({
          id,
          studioId: s.studio.id,
          clientId: s.client.id,
          source: 'desk',
          status: OrderStatus.unpaid,
          currency: 'PLN',
          subtotal: 7000,
          total: 7000,
        });
        orders.push(id);
      }
      const results = await Promise.all(
        orders.map((id) =>
          s.owner.post(api(s.studio, `client-order/${id}/payment`), { method: PaymentMethod.wallet }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      const balance = (await s.owner.get(api(s.studio, `client-wallet/${s.client.id}/init`))).body.wallet
        .balance;
      expect(balance).toBe(3000);
    }
  });
});

describe('cart', () => {
  it('applies a voucher, refuses an unknown one, and checks out free when it covers all', async () => {
    const s = await salesStudio(app);
    await app.knex('vouchers').insert({
      id: uuidv7(),
      studioId: s.studio.id,
      code: 'HALF',
      type: 1,
      discountType: 'percentage',
      value: 5000,
      currency: 'PLN',
    });
    await app.knex('vouchers').insert({
      id: uuidv7(),
      studioId: s.studio.id,
      code: 'FREE',
      type: 0,
      discountType: 'percentage',
      value: 10000,
      currency: 'PLN',
    });
    await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: s.passId }],
    });
    const unknown = await s.clientHttp.post(api(s.studio, 'shopping-cart/voucher-redeem'), { code: 'nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.fields.code).toBeDefined();
    const half = await s.clientHttp.post(api(s.studio, 'shopping-cart/voucher-redeem'), { code: 'half' });
    expect(half.status, half.text).toBe(200);
    expect(half.body).toMatchObject({
      subtotal: 25000,
      discount: 12500,
      total: 12500,
      voucher: { code: 'HALF' },
    });
    // Previewing used nothing up.
    expect(await app.knex('voucher_redemptions').where({ studioId: s.studio.id })).toHaveLength(0);

    await s.clientHttp.post(api(s.studio, 'shopping-cart/voucher-redeem'), { code: 'FREE' });
    const res = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ status: OrderStatus.freeOfCharge, redirectUrl: null });
    expect(await passesOf(s.studio.id, s.client.id)).toHaveLength(1);
    expect(await app.knex('voucher_redemptions').where({ studioId: s.studio.id })).toHaveLength(1);
  });

  it('shows what cannot be bought and refuses to check it out', async () => {
    const s = await salesStudio(app);
    await app.knex('pricing_options').where({ id: s.passId }).update({ sellOnline: false });
    const prepared = await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [
        { type: 'pricingOption', id: s.passId },
        { type: 'product', id: s.productId, quantity: 50 },
        { type: 'contract', id: uuidv7() },
      ],
    });
    expect(prepared.body.items.map((i: { problem: string }) => i.problem)).toEqual([
      'cart.problem.unavailable',
      'cart.problem.outOfStock',
      'cart.problem.unavailable',
    ]);
    expect(prepared.body.canCheckout).toBe(false);
    const res = await s.clientHttp.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(res.status).toBe(409);
    expect(Object.keys(res.body.error.fields)).toEqual(['items.0', 'items.1', 'items.2']);
    const empty = await (
      await anotherClient(app, s.studio)
    ).http.post(
      api(s.studio, 'shopping-cart/checkout'),
      { paymentMethod: 'online' },
      { headers: { 'idempotency-key': key() } },
    );
    expect(empty.body.error.key).toBe('cart.empty');
  });

  it("another studio's pass is not in this cart", async () => {
    const s = await salesStudio(app);
    const other = await salesStudio(app);
    const prepared = await s.clientHttp.post(api(s.studio, 'shopping-cart/prepare'), {
      items: [{ type: 'pricingOption', id: other.passId }],
    });
    expect(prepared.body.items[0]).toMatchObject({ name: '', problem: 'cart.problem.unavailable' });
  });
});
