import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import type { HttpClient } from '../../../../tests/support/http-client';
import { configureDonationRateLimits, DONATION_RATE_LIMITS } from './donations.limits';
import { api, deliverNotification, payAtTestBank, salesStudio } from './sales-support';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const key = () => `don-${uuidv7()}`;
const uniqueEmail = (name: string) => `${name}-${uuidv7().slice(-8)}@example.com`;
/** The mails sent to `email` once the worker performed the jobs enqueued so far. */
const mailTo = async (email: string) => {
  await app.drainJobs();
  return app.mail.filter((m) => m.to === email);
};

async function donate(http: HttpClient, studio: { id: string }, gift: Record<string, unknown>) {
  return http.post(api(studio, 'donation/checkout'), gift, { headers: { 'idempotency-key': key() } });
}

describe('donation receipts', () => {
  it('e-mails one receipt when the provider notifies a success, in the studio language', async () => {
    const s = await salesStudio(app);
    const visitor = await app.anonymous();
    const email = uniqueEmail('anna');
    const res = await donate(visitor, s.studio, {
      amount: 5000,
      email: email.toUpperCase(),
      name: 'Anna Nowak',
      message: 'Za poranną jogę',
    });
    expect(res.status, res.text).toBe(201);
    const { returnUrl, transactionId } = await payAtTestBank(app, visitor, res.body.redirectUrl, 'succeeded');
    expect(await mailTo(email)).toEqual([]); // the bank decided, the shop does not know yet

    const notified = await deliverNotification(app, s.studio.id, transactionId, 'succeeded');
    expect(notified.body.result).toBe('applied');
    const sent = await mailTo(email);
    expect(sent).toHaveLength(1);
    const reference = (res.body.orderId as string).slice(-8).toUpperCase();
    expect(sent[0]!.subject).toBe(`Dziękujemy za darowiznę dla ${s.studio.name}`);
    expect(sent[0]!.text).toContain('Anna Nowak');
    expect(sent[0]!.text).toMatch(/50\s?zł/);
    expect(sent[0]!.text).toContain(reference);
    expect(sent[0]!.text).toContain('„Za poranną jogę”');

    // Coming back, polling the status and a repeated notification send nothing more.
    await visitor.get(new URL(returnUrl).pathname + new URL(returnUrl).search);
    const paymentId = new URL(returnUrl).searchParams.get('payment')!;
    await visitor.get(api(s.studio, `donation/payment-status?payment=${paymentId}`));
    await deliverNotification(app, s.studio.id, transactionId, 'succeeded');
    expect(await mailTo(email)).toHaveLength(1);
    const row = await app.knex('donations').where({ orderId: res.body.orderId }).first();
    expect(row!.receiptSentAt).toBeInstanceOf(Date);
  });

  it('sends it when the donor comes back (no notification), never for a declined payment', async () => {
    const s = await salesStudio(app);
    const visitor = await app.anonymous();
    const declinedEmail = uniqueEmail('declined');
    const declined = await donate(visitor, s.studio, { amount: 2000, email: declinedEmail });
    const no = await payAtTestBank(app, visitor, declined.body.redirectUrl, 'failed');
    await visitor.get(new URL(no.returnUrl).pathname + new URL(no.returnUrl).search);
    expect(await mailTo(declinedEmail)).toEqual([]);

    const email = uniqueEmail('quiet');
    const paid = await donate(visitor, s.studio, { amount: 2000, email, anonymous: true });
    const yes = await payAtTestBank(app, visitor, paid.body.redirectUrl, 'succeeded');
    const back = await visitor.get(new URL(yes.returnUrl).pathname + new URL(yes.returnUrl).search);
    expect(back.status).toBe(302);
    const sent = await mailTo(email);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain('nie podamy publicznie');
    expect(await mailTo(declinedEmail)).toEqual([]);
  });

  it('a receipt that could not be sent stays due and goes out on its retry', async () => {
    const s = await salesStudio(app);
    const visitor = await app.anonymous();
    const email = uniqueEmail('retry');
    const res = await donate(visitor, s.studio, { amount: 10000, email });
    const { returnUrl, transactionId } = await payAtTestBank(app, visitor, res.body.redirectUrl, 'succeeded');
    const send = app.deps.mailer.send;
    app.deps.mailer.send = async () => {
      throw new Error('SMTP down');
    };
    try {
      const notified = await deliverNotification(app, s.studio.id, transactionId, 'succeeded');
      expect(notified.status).toBe(200); // the provider is not told to retry over an e-mail
      expect(await mailTo(email)).toEqual([]);
    } finally {
      app.deps.mailer.send = send;
    }
    expect(
      (await app.knex('donations').where({ orderId: res.body.orderId }).first())!.receiptSentAt,
    ).toBeNull();

    const paymentId = new URL(returnUrl).searchParams.get('payment')!;
    const status = await visitor.get(api(s.studio, `donation/payment-status?payment=${paymentId}`));
    expect(status.body.status).toBe('succeeded');
    expect(await mailTo(email)).toHaveLength(1);
  });
});

describe('donation checkout rate limits', () => {
  it('allows five checkouts per donor e-mail and studio an hour, then 429 with Retry-After', async () => {
    configureDonationRateLimits(app.deps, {});
    const s = await salesStudio(app);
    const other = await salesStudio(app);
    const visitor = await app.anonymous();
    const email = uniqueEmail('eager');
    expect(DONATION_RATE_LIMITS.perEmailPerStudio).toEqual({ points: 5, durationSeconds: 3600 });
    for (let i = 0; i < 5; i++) {
      const ok = await donate(visitor, s.studio, {
        amount: 1000,
        email: i % 2 ? email : email.toUpperCase(),
      });
      expect(ok.status, ok.text).toBe(201);
    }
    // Bad input is refused by validation and costs nothing.
    const bad = await donate(visitor, s.studio, { amount: 1, email });
    expect(bad.status).toBe(400);

    const refused = await donate(visitor, s.studio, { amount: 1000, email });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 1300, key: 'rateLimit.exceeded' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(await app.knex('donations').where({ studioId: s.studio.id })).toHaveLength(5);

    // Another donor at this studio, and the same donor at another studio, still may.
    expect((await donate(visitor, s.studio, { amount: 1000, email: uniqueEmail('calm') })).status).toBe(201);
    expect((await donate(visitor, other.studio, { amount: 1000, email })).status).toBe(201);
  });

  it('allows ten checkouts per address and studio in ten minutes, and a ceiling across studios', async () => {
    configureDonationRateLimits(app.deps, {});
    const s = await salesStudio(app);
    const visitor = await app.anonymous();
    for (let i = 0; i < 10; i++)
      expect((await donate(visitor, s.studio, { amount: 1000, email: uniqueEmail('bot') })).status).toBe(201);
    const refused = await donate(visitor, s.studio, { amount: 1000, email: uniqueEmail('bot') });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(600);

    // The cross-studio ceiling (30 an hour by default, 2 here) stops a tour of many studios.
    configureDonationRateLimits(app.deps, { perIp: { points: 2, durationSeconds: 3600 } });
    const studios = [await salesStudio(app), await salesStudio(app), await salesStudio(app)];
    const answers = [];
    for (const st of studios)
      answers.push((await donate(visitor, st.studio, { amount: 1000, email: uniqueEmail('tour') })).status);
    expect(answers).toEqual([201, 201, 429]);
    configureDonationRateLimits(app.deps, {});
  });
});
