import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local fake of the part of Stripe's API the Stripe provider calls, for tests and local
 * development: the official SDK is pointed at it with `STRIPE_API_URL` (host, port, protocol).
 * It speaks the SDK's wire format (form-encoded requests with bracketed keys, JSON answers, the
 * `{ error: { type, code, message } }` envelope and status codes the SDK turns into its error
 * classes, `Idempotency-Key` replays) and serves a hosted Checkout page (`/pay/{session}`) with Pay,
 * Decline and Cancel. Events are signed exactly as Stripe signs them
 * (`webhooks.generateTestHeaderString` with the account's webhook secret); tests deliver them when
 * they choose (`deliver`), or the fake posts them itself when `autoDeliver` is on.
 *
 * Endpoints: GET /v1/balance; POST /v1/customers; POST/GET /v1/checkout/sessions (list by
 * payment_intent), GET /v1/checkout/sessions/{id}, POST …/{id}/expire; GET/POST /v1/payment_intents;
 * GET /v1/payment_methods/{id}, POST …/{id}/detach; POST /v1/refunds.
 */

export interface FakeStripeAccount {
  secretKey: string;
  webhookSecret: string;
  /** Where events go (what the studio entered as the endpoint in Stripe's dashboard). */
  webhookUrl?: string;
  /** The account's balance cannot cover refunds (Stripe: `balance_insufficient`). */
  balanceInsufficient?: boolean;
}

type Obj = Record<string, unknown> & { id: string; account: string };

interface FakeEvent {
  id: string;
  object: 'event';
  type: string;
  account: string;
  created: number;
  livemode: boolean;
  api_version: string;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: Record<string, unknown> };
}

class FakeError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string | undefined,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/** `a[b][0][c]=v` → `{ a: { b: [{ c: 'v' }] } }`, the way Stripe reads the SDK's form bodies. */
export function parseStripeForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1]!);
      const slot = node as Record<string, unknown>;
      if (last) slot[part] = value;
      else {
        slot[part] ??= nextIsIndex ? [] : {};
        node = slot[part] as Record<string, unknown>;
      }
    });
  }
  return root;
}

export class FakeStripe {
  readonly accounts = new Map<string, FakeStripeAccount>();
  readonly sessions = new Map<string, Obj>();
  readonly paymentIntents = new Map<string, Obj>();
  readonly charges = new Map<string, Obj>();
  readonly customers = new Map<string, Obj>();
  readonly paymentMethods = new Map<string, Obj>();
  readonly refunds = new Map<string, Obj>();
  readonly events: FakeEvent[] = [];
  /** Every API request, for tests that assert what was (not) called. */
  readonly requests: Array<{ method: string; path: string; body: Record<string, unknown> }> = [];
  autoDeliver = false;
  private readonly idempotent = new Map<string, { status: number; body: unknown }>();
  private readonly signer = new Stripe('sk_test_fake_signer');

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  /** Listens on 127.0.0.1 (`port` 0: any free one). */
  static async start(port = 0): Promise<FakeStripe> {
    const holder: { fake?: FakeStripe } = {};
    const server = http.createServer((req, res) => void holder.fake!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
    const address = server.address() as AddressInfo;
    holder.fake = new FakeStripe(server, `http://127.0.0.1:${address.port}`);
    return holder.fake;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** A fresh Stripe account with test keys. */
  addAccount(options: Partial<FakeStripeAccount> = {}): FakeStripeAccount {
    const account: FakeStripeAccount = {
      secretKey: `sk_test_${randomBytes(12).toString('hex')}`,
      webhookSecret: `whsec_${randomBytes(16).toString('hex')}`,
      ...options,
    };
    this.accounts.set(account.secretKey, account);
    return account;
  }

  // ------------------------------------------------------------------------- the payer and the bank

  /** The payer pays on the hosted page. With `saveCard` sessions the card is attached to the customer. */
  pay(sessionId: string, card: { declineOffSession?: boolean; last4?: string } = {}): FakeEvent[] {
    const session = this.mustGet(this.sessions, sessionId);
    if (session.status !== 'open') throw new Error(`session ${sessionId} is ${String(session.status)}`);
    const intentData = (session.payment_intent_data ?? {}) as Record<string, unknown>;
    const saving = Boolean(session.customer) && intentData.setup_future_usage === 'off_session';
    const pm = this.createPaymentMethod(session.account, saving ? (session.customer as string) : null, card);
    const pi = this.createIntent(session.account, {
      amount: session.amount_total,
      currency: session.currency,
      customer: session.customer ?? null,
      metadata: intentData.metadata ?? {},
      payment_method: pm.id,
      status: 'succeeded',
    });
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: pi.id });
    return [
      this.emit(session.account, 'payment_intent.succeeded', pi),
      this.emit(session.account, 'checkout.session.completed', session),
    ];
  }

  /** The card is declined on the hosted page (the session stays open: the payer may try again). */
  decline(sessionId: string): FakeEvent[] {
    const session = this.mustGet(this.sessions, sessionId);
    const intentData = (session.payment_intent_data ?? {}) as Record<string, unknown>;
    const pi = this.createIntent(session.account, {
      amount: session.amount_total,
      currency: session.currency,
      customer: session.customer ?? null,
      metadata: intentData.metadata ?? {},
      payment_method: null,
      status: 'requires_payment_method',
      last_payment_error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
    });
    session.payment_intent = pi.id;
    return [this.emit(session.account, 'payment_intent.payment_failed', pi)];
  }

  /** The card holder disputes a payment with their bank. */
  dispute(paymentIntentId: string): FakeEvent[] {
    const pi = this.mustGet(this.paymentIntents, paymentIntentId);
    const charge = this.mustGet(this.charges, pi.latest_charge as string);
    charge.disputed = true;
    const dispute = {
      id: id('dp'),
      object: 'dispute',
      amount: charge.amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: pi.id,
      reason: 'fraudulent',
      status: 'needs_response',
      created: now(),
      livemode: false,
    };
    return [this.emit(pi.account, 'charge.dispute.created', dispute)];
  }

  /** A refund made in Stripe's dashboard, outside the studio's system. */
  refundOutside(paymentIntentId: string, amount: number): void {
    const pi = this.mustGet(this.paymentIntents, paymentIntentId);
    const charge = this.mustGet(this.charges, pi.latest_charge as string);
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
  }

  /** Posts an event to the account's webhook, signed with its secret (or the one given). */
  async deliver(
    event: FakeEvent,
    options: { secret?: string; url?: string; tamper?: (payload: string) => string } = {},
  ): Promise<{ status: number; body: unknown }> {
    const account = this.accounts.get(event.account)!;
    const url = options.url ?? account.webhookUrl;
    if (!url) throw new Error('no webhook endpoint configured for this account');
    const { account: _owner, ...wire } = event;
    const payload = JSON.stringify(wire, null, 2);
    const header = this.signer.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? account.webhookSecret,
    });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: options.tamper ? options.tamper(payload) : payload,
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body };
  }

  // ------------------------------------------------------------------------- objects

  private mustGet(map: Map<string, Obj>, key: string): Obj {
    const obj = map.get(key);
    if (!obj) throw new Error(`fake stripe: no ${key}`);
    return obj;
  }

  private createPaymentMethod(
    account: string,
    customer: string | null,
    card: { declineOffSession?: boolean; last4?: string },
  ): Obj {
    const pm: Obj = {
      id: id('pm'),
      object: 'payment_method',
      account,
      type: 'card',
      customer,
      card: { brand: 'visa', last4: card.last4 ?? '4242', exp_month: 12, exp_year: 2030, funding: 'credit' },
      created: now(),
      livemode: false,
      declineOffSession: Boolean(card.declineOffSession),
    };
    this.paymentMethods.set(pm.id, pm);
    return pm;
  }

  private createIntent(account: string, fields: Record<string, unknown>): Obj {
    const piId = id('pi');
    const chargeId = id('ch');
    const pi: Obj = {
      id: piId,
      object: 'payment_intent',
      account,
      created: now(),
      livemode: false,
      last_payment_error: null,
      latest_charge: fields.status === 'succeeded' ? chargeId : null,
      ...fields,
    };
    this.paymentIntents.set(pi.id, pi);
    if (fields.status === 'succeeded')
      this.charges.set(chargeId, {
        id: chargeId,
        object: 'charge',
        account,
        amount: fields.amount,
        currency: fields.currency,
        amount_refunded: 0,
        disputed: false,
        payment_intent: piId,
      });
    return pi;
  }

  private emit(account: string, type: string, object: Record<string, unknown>): FakeEvent {
    const event: FakeEvent = {
      id: id('evt'),
      object: 'event',
      type,
      account,
      created: now(),
      livemode: false,
      api_version: '2025-01-01',
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: present(object) },
    };
    this.events.push(event);
    if (this.autoDeliver && this.accounts.get(account)?.webhookUrl) {
      // After the payer has been sent back, like Stripe: a moment later, retried on failure.
      const attempt = (left: number) =>
        setTimeout(() => {
          this.deliver(event).then(
            (r) => r.status >= 500 && left > 0 && attempt(left - 1),
            () => left > 0 && attempt(left - 1),
          );
        }, 150);
      attempt(3);
    }
    return event;
  }

  // ------------------------------------------------------------------------- HTTP

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const url = new URL(req.url ?? '/', this.url);
    try {
      if (url.pathname.startsWith('/pay/')) {
        this.hostedPage(req, res, url, text);
        return;
      }
      const key = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const account = this.accounts.get(key);
      if (!account)
        throw new FakeError(
          401,
          'invalid_request_error',
          undefined,
          `Invalid API Key provided: ${mask(key)}`,
        );
      const body = req.method === 'GET' ? parseStripeForm(url.search.slice(1)) : parseStripeForm(text);
      this.requests.push({ method: req.method ?? 'GET', path: url.pathname, body });
      const idem = req.method === 'POST' ? req.headers['idempotency-key'] : undefined;
      const idemKey = typeof idem === 'string' ? `${key}|${idem}` : null;
      const replay = idemKey ? this.idempotent.get(idemKey) : undefined;
      if (replay) return send(res, replay.status, replay.body, { 'idempotent-replayed': 'true' });
      let status = 200;
      let answer: unknown;
      try {
        answer = present(this.route(account, req.method ?? 'GET', url.pathname, body));
      } catch (err) {
        if (!(err instanceof FakeError)) throw err;
        status = err.status;
        answer = { error: { type: err.type, code: err.code, message: err.message, ...err.extra } };
      }
      if (idemKey) this.idempotent.set(idemKey, { status, body: answer });
      send(res, status, answer);
    } catch (err) {
      if (err instanceof FakeError)
        return send(res, err.status, { error: { type: err.type, code: err.code, message: err.message } });
      send(res, 500, { error: { type: 'api_error', message: String(err) } });
    }
  }

  private owned(map: Map<string, Obj>, key: string | undefined, account: FakeStripeAccount, what: string) {
    const obj = key ? map.get(key) : undefined;
    if (!obj || obj.account !== account.secretKey)
      throw new FakeError(404, 'invalid_request_error', 'resource_missing', `No such ${what}: '${key}'`, {
        param: 'id',
      });
    return obj;
  }

  private route(account: FakeStripeAccount, method: string, path: string, body: Record<string, unknown>) {
    const parts = path.split('/').filter(Boolean); // ['v1', ...]
    const [, resource, sub, third] = parts;
    const mine = account.secretKey;
    if (method === 'GET' && resource === 'balance')
      return {
        object: 'balance',
        livemode: account.secretKey.startsWith('sk_live_'),
        available: [{ amount: account.balanceInsufficient ? 0 : 100_000, currency: 'pln' }],
        pending: [],
      };
    if (method === 'POST' && resource === 'customers' && !sub) {
      const customer: Obj = {
        id: id('cus'),
        object: 'customer',
        account: mine,
        email: body.email ?? null,
        name: body.name ?? null,
        metadata: body.metadata ?? {},
        created: now(),
      };
      this.customers.set(customer.id, customer);
      return customer;
    }
    if (resource === 'checkout' && sub === 'sessions') {
      if (method === 'POST' && !third) return this.createSession(account, body);
      if (method === 'GET' && !third) {
        const data = [...this.sessions.values()].filter(
          (s) => s.account === mine && (!body.payment_intent || s.payment_intent === body.payment_intent),
        );
        return { object: 'list', url: '/v1/checkout/sessions', has_more: false, data };
      }
      const session = this.owned(this.sessions, third, account, 'checkout.session');
      if (method === 'GET' && parts.length === 4) return session;
      if (method === 'POST' && parts[4] === 'expire') {
        if (session.status !== 'open')
          throw new FakeError(
            400,
            'invalid_request_error',
            'checkout_session_not_open',
            `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".`,
          );
        session.status = 'expired';
        this.emit(mine, 'checkout.session.expired', session);
        return session;
      }
    }
    if (resource === 'payment_intents') {
      if (method === 'POST' && !sub) return this.chargeSavedCard(account, body);
      if (method === 'GET') return this.owned(this.paymentIntents, sub, account, 'payment_intent');
    }
    if (resource === 'payment_methods') {
      const pm = this.owned(this.paymentMethods, sub, account, 'payment_method');
      if (method === 'GET' && !third) return pm;
      if (method === 'POST' && third === 'detach') {
        pm.customer = null;
        return pm;
      }
    }
    if (method === 'POST' && resource === 'refunds' && !sub) return this.refund(account, body);
    throw new FakeError(
      404,
      'invalid_request_error',
      'resource_missing',
      `Unrecognized request URL (${method}: ${path})`,
    );
  }

  private createSession(account: FakeStripeAccount, body: Record<string, unknown>): Obj {
    const missing = ['success_url', 'cancel_url', 'mode', 'line_items'].filter((k) => body[k] === undefined);
    if (missing.length)
      throw new FakeError(
        400,
        'invalid_request_error',
        'parameter_missing',
        `Missing required param: ${missing[0]}.`,
        {
          param: missing[0],
        },
      );
    const items = body.line_items as Array<{ quantity: string; price_data: Record<string, unknown> }>;
    const currency = String(items[0]!.price_data.currency);
    const amount = items.reduce((s, i) => s + Number(i.price_data.unit_amount) * Number(i.quantity), 0);
    if (body.customer) this.owned(this.customers, body.customer as string, account, 'customer');
    const sessionId = `cs_test_${randomBytes(16).toString('hex')}`;
    const session: Obj = {
      id: sessionId,
      object: 'checkout.session',
      account: account.secretKey,
      mode: body.mode,
      status: 'open',
      payment_status: 'unpaid',
      amount_total: amount,
      currency,
      customer: body.customer ?? null,
      client_reference_id: body.client_reference_id ?? null,
      metadata: body.metadata ?? {},
      payment_intent: null,
      payment_intent_data: body.payment_intent_data ?? {},
      success_url: body.success_url,
      cancel_url: body.cancel_url,
      url: `${this.url}/pay/${sessionId}`,
      created: now(),
      livemode: false,
    };
    this.sessions.set(sessionId, session);
    return session;
  }

  private chargeSavedCard(account: FakeStripeAccount, body: Record<string, unknown>): Obj {
    const pm = this.owned(this.paymentMethods, body.payment_method as string, account, 'payment_method');
    if (!body.customer || pm.customer !== body.customer)
      throw new FakeError(
        400,
        'invalid_request_error',
        'payment_method_not_attached',
        'The provided PaymentMethod is not attached to this customer.',
      );
    if (pm.declineOffSession)
      throw new FakeError(402, 'card_error', 'card_declined', 'Your card has insufficient funds.', {
        decline_code: 'insufficient_funds',
      });
    return this.createIntent(account.secretKey, {
      amount: Number(body.amount),
      currency: body.currency,
      customer: body.customer,
      metadata: body.metadata ?? {},
      payment_method: pm.id,
      status: 'succeeded',
      off_session: true,
    });
  }

  private refund(account: FakeStripeAccount, body: Record<string, unknown>): Obj {
    const pi = this.owned(this.paymentIntents, body.payment_intent as string, account, 'payment_intent');
    if (pi.status !== 'succeeded')
      throw new FakeError(
        400,
        'invalid_request_error',
        'payment_intent_unexpected_state',
        'This PaymentIntent does not have a successful charge to refund.',
      );
    const charge = this.mustGet(this.charges, pi.latest_charge as string);
    const left = (charge.amount as number) - (charge.amount_refunded as number);
    const amount = body.amount === undefined ? left : Number(body.amount);
    if (charge.disputed)
      throw new FakeError(
        400,
        'invalid_request_error',
        'charge_disputed',
        `Charge ${charge.id} has been disputed.`,
      );
    if (left <= 0)
      throw new FakeError(
        400,
        'invalid_request_error',
        'charge_already_refunded',
        `Charge ${charge.id} has already been refunded.`,
      );
    if (amount > left)
      throw new FakeError(
        400,
        'invalid_request_error',
        'amount_too_large',
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
      );
    if (account.balanceInsufficient)
      throw new FakeError(
        400,
        'invalid_request_error',
        'balance_insufficient',
        'You have insufficient funds in your Stripe account for this transfer.',
      );
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    const refund: Obj = {
      id: id('re'),
      object: 'refund',
      account: account.secretKey,
      amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: pi.id,
      status: 'succeeded',
      created: now(),
    };
    this.refunds.set(refund.id, refund);
    return refund;
  }

  /** The hosted Checkout page: GET shows it, POST with `outcome` decides and sends the payer back. */
  private hostedPage(req: http.IncomingMessage, res: http.ServerResponse, url: URL, text: string): void {
    const sessionId = url.pathname.split('/')[2] ?? '';
    const session = this.sessions.get(sessionId);
    if (!session) return send(res, 404, 'no such checkout session', {}, 'text/plain');
    if (req.method === 'POST') {
      const outcome = new URLSearchParams(text).get('outcome');
      if (session.status === 'open' && outcome === 'pay') this.pay(session.id);
      else if (session.status === 'open' && outcome === 'decline') this.decline(session.id);
      const back = outcome === 'pay' ? session.success_url : session.cancel_url;
      res.writeHead(303, { location: String(back) });
      res.end();
      return;
    }
    const amount = `${((session.amount_total as number) / 100).toFixed(2)} ${String(session.currency).toUpperCase()}`;
    const button = (outcome: string, label: string) =>
      `<form method="post"><input type="hidden" name="outcome" value="${outcome}"><button data-outcome="${outcome}">${label}</button></form>`;
    send(
      res,
      200,
      `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Fake Stripe Checkout</title></head>
<body style="font-family:system-ui;max-width:26rem;margin:3rem auto;padding:0 1rem"><p>Fake Stripe Checkout (local test double)</p>
<h1 data-amount>${amount}</h1>${
        session.status === 'open'
          ? button('pay', 'Pay') + button('decline', 'Pay with a declined card') + button('cancel', 'Back')
          : `<p>${String(session.status)}</p>`
      }</body></html>`,
      {},
      'text/html; charset=utf-8',
    );
  }
}

/** Our bookkeeping fields stay in the fake. */
function present(obj: unknown): Record<string, unknown> {
  if (!obj || typeof obj !== 'object') return obj as Record<string, unknown>;
  const { account: _a, declineOffSession: _d, ...rest } = obj as Record<string, unknown>;
  return rest;
}

const mask = (key: string) => (key.length > 8 ? `${key.slice(0, 8)}****${key.slice(-4)}` : '****');

function send(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  type = 'application/json',
) {
  res.writeHead(status, { 'content-type': type, 'request-id': id('req'), ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}
