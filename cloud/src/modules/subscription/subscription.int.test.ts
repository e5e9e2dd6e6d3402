import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { CampaignType } from '../../../../shared/contracts/api/communication';
import { addMembership, createUser } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { studioSessions } from '../../../../tests/support/sessions';
import { ManualClock, useTestApp, type TestApp } from '../../../../tests/support/test-app';
import { deliverNotification } from '../sales/sales-support';

/**
 * Issue 25, the studio's subscription to the platform: every route's 401 / 400 / 403 / 404 / other
 * studio / success; a checkout paid at the test bank (period paid, the platform's invoice, credits
 * granted) and one declined through the bank's notification; an SMS campaign beyond the studio's
 * credits refused with the reason, then sent once credits were bought, and the credits spent.
 */
const NOW = new Date('2026-11-27T10:00:00Z');
const app = useTestApp({ clock: new ManualClock(NOW) });
const { ownerStudio, staffWithRole } = studioSessions(() => app);
const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
/** Each checkout attempt carries its own Idempotency-Key (as the back office's button does). */
const withKey = () => ({ headers: { 'idempotency-key': `sub-${uuidv7()}` } });

/** The manager's browser at the test bank: opens the page the checkout answered, decides. */
async function payAtBank(
  http: HttpClient,
  redirectUrl: string,
  outcome: 'succeeded' | 'failed' | 'cancelled',
): Promise<{ returnUrl: string; transactionId: string }> {
  const url = new URL(redirectUrl);
  const bank = await http.get(`${url.pathname}${url.search}`);
  expect(bank.status, bank.text).toBe(200);
  expect(bank.text).toContain('data-outcome="succeeded"');
  const sig = url.searchParams.get('sig')!;
  const decided = await http.request('POST', `${url.pathname}/decide?notify=never`, undefined, {
    raw: form({ sig, outcome }),
    contentType: 'application/x-www-form-urlencoded',
  });
  expect(decided.status).toBe(302);
  return { returnUrl: decided.headers.get('location')!, transactionId: url.pathname.split('/').pop()! };
}

async function followReturn(app: TestApp, returnUrl: string) {
  const url = new URL(returnUrl);
  const res = await fetch(`${app.url}${url.pathname}${url.search}`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return res.headers.get('location')!;
}

/** Three clients with a phone, an e-mail and marketing consent: what a campaign reaches. */
async function smsAudience(studio: { id: string }): Promise<string[]> {
  const ids: string[] = [];
  const agreementId = uuidv7();
  await app.knex('studio_agreements').insert({
    id: agreementId,
    studioId: studio.id,
    kind: 'marketing',
    version: 1,
    required: false,
    title: JSON.stringify({ pl: { value: 'Marketing' } }),
    content: JSON.stringify({ pl: { value: 'Zgoda' } }),
    publishedAt: NOW,
  });
  for (const [i, name] of ['Ala', 'Ola', 'Ela'].entries()) {
    const u = await createUser(app.knex, { firstName: name, lastName: 'Client' });
    await addMembership(app.knex, studio, u, { isClient: true });
    ids.push(u.id);
    await app
      .knex('clients')
      .where({ studioId: studio.id, userId: u.id })
      .update({ phone: `+4860020030${i}` });
    await app.knex('client_agreement_acceptances').insert({
      id: uuidv7(),
      studioId: studio.id,
      userId: u.id,
      agreementId,
      kind: 'marketing',
      version: 1,
      accepted: true,
      decidedAt: NOW,
    });
  }
  return ids;
}

/** Spends the studio's credits of a service down to `left` (an earlier campaign's use). */
async function spendDownTo(studio: { id: string }, service: 'sms' | 'email', left: number) {
  const trial = service === 'sms' ? 50 : 1000;
  await app.knex('subscription_credit_entries').insert({
    id: uuidv7(),
    studioId: studio.id,
    service,
    amount: left - trial,
    sourceKey: `campaign:${uuidv7()}`,
  });
}

describe('studio subscription', () => {
  it('guards every route: 401, 403, 404, another studio, bad input', async () => {
    const { studio, owner } = await ownerStudio();
    const other = await ownerStudio();
    const anonymous = await app.anonymous();
    const desk = await staffWithRole(studio, 'front_desk');
    const client = await createUser(app.knex, { firstName: 'Cara', lastName: 'Client' });
    await addMembership(app.knex, studio, client, { isClient: true });
    const clientHttp = await app.signedIn(client.email, client.password);

    const paths = [
      'studio-subscription/init',
      'subscription-period/shopping-cart/prepare?plan=start',
      `subscription-period/shopping-cart/status?studioSubscriptionPeriod=${uuidv7()}`,
      `studio-subscription/${uuidv7()}/periods`,
      `studio-subscription-period/${uuidv7()}/invoice`,
    ];
    for (const path of paths) {
      expect((await anonymous.get(api(studio, path))).status, path).toBe(401);
      expect((await desk.get(api(studio, path))).status, path).toBe(403);
      expect((await clientHttp.get(api(studio, path))).status, path).toBe(403);
      expect((await other.owner.get(api(studio, path))).status, path).toBe(404);
    }
    const checkoutPath = api(studio, 'subscription-period/shopping-cart/checkout');
    expect((await anonymous.post(checkoutPath, { plan: 'start' })).status).toBe(401);
    expect((await desk.post(checkoutPath, { plan: 'start' })).status).toBe(403);
    expect((await other.owner.post(checkoutPath, { plan: 'start' })).status).toBe(404);

    // Bad input: every field reported.
    const bad = await owner.post(checkoutPath, { plan: 'gold', addOns: ['sms-500', 'nope'] }, withKey());
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ plan: ['no such plan'], 'addOns.1': ['no such add-on'] });
    const empty = await owner.post(checkoutPath, { addOns: [] }, withKey());
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields.addOns).toEqual(['choose a plan or an add-on']);
    expect((await owner.post(checkoutPath, { plan: 7 }, withKey())).status).toBe(400);
    // Without an Idempotency-Key nothing is bought.
    const keyless = await owner.post(checkoutPath, { plan: 'start' });
    expect(keyless.status).toBe(400);
    expect(keyless.body.error.fields).toEqual({ idempotencyKey: ['required'] });
    expect((await owner.get(api(studio, 'subscription-period/shopping-cart/status'))).status).toBe(400);
    expect(
      (await owner.get(api(studio, 'subscription-period/shopping-cart/prepare?plan=gold'))).body.error.fields,
    ).toEqual({ plan: ['no such plan'] });
    // Unknown ids of the caller's own studio: 404.
    expect((await owner.get(api(studio, `studio-subscription/${uuidv7()}/periods`))).status).toBe(404);
    expect((await owner.get(api(studio, `studio-subscription-period/${uuidv7()}/invoice`))).status).toBe(404);
    expect(
      (
        await owner.get(
          api(studio, `subscription-period/shopping-cart/status?studioSubscriptionPeriod=${uuidv7()}`),
        )
      ).status,
    ).toBe(404);

    // Another studio's period and subscription: 404 for this studio's owner.
    const theirs = await other.owner.post(
      api(other.studio, 'subscription-period/shopping-cart/checkout'),
      {
        addOns: ['sms-500'],
      },
      withKey(),
    );
    expect(theirs.status, theirs.text).toBe(201);
    const theirInit = await other.owner.get(api(other.studio, 'studio-subscription/init'));
    expect(
      (await owner.get(api(studio, `studio-subscription/${theirInit.body.subscription.id}/periods`))).status,
    ).toBe(404);
    expect(
      (
        await owner.get(
          api(
            studio,
            `subscription-period/shopping-cart/status?studioSubscriptionPeriod=${theirs.body.periodId}`,
          ),
        )
      ).status,
    ).toBe(404);
    expect(
      (await owner.get(api(studio, `studio-subscription-period/${theirs.body.periodId}/invoice`))).status,
    ).toBe(404);
    // Their unpaid period has no invoice yet.
    const unpaid = await other.owner.get(
      api(other.studio, `studio-subscription-period/${theirs.body.periodId}/invoice`),
    );
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.error.key).toBe('subscription.invoiceNotIssued');
  });

  it('sells a month of the plan with add-ons through the test bank: paid, invoiced, credits granted', async () => {
    const { studio, owner } = await ownerStudio();
    const init = await owner.get(api(studio, 'studio-subscription/init'));
    expect(init.status, init.text).toBe(200);
    expect(init.body).toMatchObject({
      subscription: null,
      status: 'trial',
      currentPeriod: '2026-11',
      paidThrough: null,
      credits: { email: 1000, sms: 50 },
      paymentProvider: 'test',
      currency: 'PLN',
      vatRate: 2300,
    });
    expect(init.body.plans.map((p: { code: string }) => p.code)).toEqual(['start', 'pro']);

    const quote = await owner.get(
      api(studio, 'subscription-period/shopping-cart/prepare?plan=pro&addOns=sms-500,sms-500,premium-apps'),
    );
    expect(quote.status, quote.text).toBe(200);
    expect(quote.body).toMatchObject({
      period: '2026-11',
      kind: 'renewal',
      startsOn: '2026-11-01',
      endsOn: '2026-11-30',
      net: 19900 + 2 * 7900 + 14900,
      vat: Math.round((19900 + 2 * 7900 + 14900) * 0.23),
    });
    expect(quote.body.lines.map((l: { code: string; quantity: number }) => [l.code, l.quantity])).toEqual([
      ['pro', 1],
      ['sms-500', 2],
      ['premium-apps', 1],
    ]);

    const checkout = await owner.post(
      api(studio, 'subscription-period/shopping-cart/checkout'),
      {
        plan: 'pro',
        addOns: ['sms-500', 'sms-500', 'premium-apps'],
      },
      withKey(),
    );
    expect(checkout.status, checkout.text).toBe(201);
    expect(checkout.body.redirectUrl).toContain('/app/test-provider/');
    const awaiting = await owner.get(
      api(
        studio,
        `subscription-period/shopping-cart/status?studioSubscriptionPeriod=${checkout.body.periodId}`,
      ),
    );
    expect(awaiting.body).toMatchObject({
      period: { status: 'awaiting', invoice: null },
      payment: { status: 'pending' },
    });

    const { returnUrl } = await payAtBank(owner, checkout.body.redirectUrl, 'succeeded');
    const target = await followReturn(app, returnUrl);
    expect(target).toBe(`/${studio.id}/backoffice#/settings/subscription?period=${checkout.body.periodId}`);

    const status = await owner.get(
      api(
        studio,
        `subscription-period/shopping-cart/status?studioSubscriptionPeriod=${checkout.body.periodId}`,
      ),
    );
    expect(status.body).toMatchObject({
      period: {
        status: 'paid',
        period: '2026-11',
        invoice: { number: expect.stringMatching(/^SUB\/2026\/\d{5}$/) },
      },
      payment: { status: 'succeeded' },
      // Trial + the plan's 3000 e-mails, 100 SMS and 2 × 500 SMS.
      credits: { email: 1000 + 3000, sms: 50 + 100 + 1000 },
    });
    const after = await owner.get(api(studio, 'studio-subscription/init'));
    expect(after.body).toMatchObject({
      status: 'active',
      paidThrough: '2026-11',
      premiumApps: true,
      subscription: { planCode: 'pro' },
    });
    const periods = await owner.get(api(studio, `studio-subscription/${after.body.subscription.id}/periods`));
    expect(periods.body.items).toHaveLength(1);

    const pdf = await owner.get(api(studio, `studio-subscription-period/${checkout.body.periodId}/invoice`));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.text.startsWith('%PDF')).toBe(true);

    // The next renewal is for December; a decline reported by the bank's notification fails it.
    const next = await owner.post(
      api(studio, 'subscription-period/shopping-cart/checkout'),
      {
        plan: 'start',
      },
      withKey(),
    );
    const declined = await payAtBank(owner, next.body.redirectUrl, 'failed');
    const note = await deliverNotification(app, studio.id, declined.transactionId, 'failed');
    expect(note.body.result).toBe('applied');
    const failed = await owner.get(
      api(studio, `subscription-period/shopping-cart/status?studioSubscriptionPeriod=${next.body.periodId}`),
    );
    expect(failed.body.period).toMatchObject({ period: '2026-12', status: 'failed', invoice: null });
    // Its return changes nothing more.
    await followReturn(app, declined.returnUrl);
    expect((await owner.get(api(studio, 'studio-subscription/init'))).body.paidThrough).toBe('2026-11');
  });

  it('refuses an SMS campaign beyond the credits with the reason, sends once credits are bought', async () => {
    const { studio, owner } = await ownerStudio();
    await smsAudience(studio);
    // The trial's 50 SMS spent but 2 by an earlier campaign.
    await app.knex('subscription_credit_entries').insert({
      id: uuidv7(),
      studioId: studio.id,
      service: 'sms',
      amount: -48,
      sourceKey: `campaign:${uuidv7()}`,
    });
    const created = await owner.post(api(studio, 'campaign'), {
      name: 'Promo',
      type: CampaignType.sms,
      content: { pl: { subject: '', body: 'Jutro zajęcia!' } },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    const refused = await owner.patch(api(studio, `campaign/${id}`), { action: 'send' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      key: 'subscription.smsCreditsExhausted',
      code: 3230,
      message: expect.stringContaining('needs 3 SMS credits and the studio has 2 left'),
    });
    expect((await owner.get(api(studio, `campaign/${id}`))).body.status).toBe(0); // still a draft

    const bought = await owner.post(
      api(studio, 'subscription-period/shopping-cart/checkout'),
      {
        addOns: ['sms-500'],
      },
      withKey(),
    );
    expect(bought.status, bought.text).toBe(201);
    const paid = await payAtBank(owner, bought.body.redirectUrl, 'succeeded');
    await followReturn(app, paid.returnUrl);
    expect((await owner.get(api(studio, 'studio-subscription/init'))).body.credits.sms).toBe(502);

    const sent = await owner.patch(api(studio, `campaign/${id}`), { action: 'send' });
    expect(sent.status, sent.text).toBe(200);
    for (let i = 0; i < 20; i += 1) if ((await app.drainJobs()) === 0) break;
    expect((await owner.get(api(studio, `campaign/${id}`))).body).toMatchObject({ status: 1 });
    // Spent when sent: 3 messages of one part each.
    expect((await owner.get(api(studio, 'studio-subscription/init'))).body.credits.sms).toBe(499);
  });

  it('checks a scheduled campaign again when it starts, and the client list bulk e-mail', async () => {
    const { studio, owner } = await ownerStudio();
    const clients = await smsAudience(studio);
    const created = await owner.post(api(studio, 'campaign'), {
      name: 'Later',
      type: CampaignType.sms,
      content: { pl: { subject: '', body: 'Jutro zajęcia!' } },
    });
    const id = created.body.id as string;
    // Scheduled while the trial's 50 SMS cover it …
    const scheduled = await owner.patch(api(studio, `campaign/${id}`), {
      action: 'schedule',
      scheduledAt: new Date(NOW.getTime() + 3600_000).toISOString(),
    });
    expect(scheduled.status, scheduled.text).toBe(200);
    // … then another campaign spends all but 2 before it starts: at its time it is refused.
    await spendDownTo(studio, 'sms', 2);
    for (let i = 0; i < 10; i += 1) if ((await app.drainJobs()) === 0) break;
    const stopped = await owner.get(api(studio, `campaign/${id}`));
    expect(stopped.body).toMatchObject({
      status: 0, // a draft again
      scheduledAt: null,
      startedAt: null,
      stopReason: { key: 'smsCreditsExhausted', needed: 3, available: 2 },
      stats: { recipients: 0, sent: 0 },
    });
    const listed = await owner.get(api(studio, 'campaign/all'));
    expect(listed.body.items.find((c: { id: string }) => c.id === id).stopReason.key).toBe(
      'smsCreditsExhausted',
    );
    expect((await owner.get(api(studio, 'studio-subscription/init'))).body.credits.sms).toBe(2);

    // The client list's bulk e-mail: one e-mail credit per chosen client, refused with the reason.
    await spendDownTo(studio, 'email', 2);
    const refused = await owner.post(api(studio, 'client/bulk'), {
      action: 'message',
      clientIds: clients,
      subject: 'Closed on Monday',
      content: 'See you Tuesday',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      key: 'subscription.emailCreditsExhausted',
      message: expect.stringContaining('needs 3 e-mail credits and the studio has 2 left'),
    });
    expect(await app.knex('client_message_requests').where({ studioId: studio.id })).toHaveLength(0);
    const accepted = await owner.post(api(studio, 'client/bulk'), {
      action: 'message',
      clientIds: clients.slice(0, 2),
      subject: 'Closed on Monday',
      content: 'See you Tuesday',
    });
    expect(accepted.status, accepted.text).toBe(200);
  });
});
