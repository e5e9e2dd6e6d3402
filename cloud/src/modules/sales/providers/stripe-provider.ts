import type Stripe from 'stripe';
import { v7 as uuidv7 } from 'uuid';
import {
  StripeCredentialsSchema,
  type PaymentProviderTestResult,
  type StripeCredentialsInput,
} from '../../../../../shared/contracts/api/sales';
import type { PaymentOutcome } from '../../../../../shared/domain/payments';
import { type ClientOrderRefundError, PaymentMethod } from '../../../../../shared/enums';
import { AppError } from '../../../../../shared/errors';
import type { Db } from '../../../db/knex';
import { loadStripe } from '../../../libraries';
import type { PaymentProvider, ProviderRefundResult, SavedCard } from '../payment-provider';
import { credentialsOf } from './credentials';

/**
 * Stripe through its official SDK (`stripe`): a hosted Checkout Session per online payment (the
 * payer goes there by GET through `/app/form-redirect`), its state read back on `/app/return`,
 * webhooks verified with `webhooks.constructEvent` and the studio's endpoint secret, refunds, disputes
 * (chargebacks), and cards saved at checkout (a Stripe customer per client, `setup_future_usage`)
 * that staff can charge later (an off-session PaymentIntent). Each studio has its own Stripe account:
 * its keys are in `studio_payment_providers.settings.credentials`, encrypted (see credentials.ts).
 *
 * `providerRef` is the Checkout Session id (`cs_…`) for checkout payments and the PaymentIntent id
 * (`pi_…`) for saved-card charges. The webhook endpoint a studio enters in Stripe's dashboard is
 * `/app/payment-notification/stripe?studio=<studio id>` (the events do not say which studio).
 */

export type StripeCredentials = StripeCredentialsInput;

/** The SDK once a client was made (libraries.ts loads it then): what its errors are instances of. */
let sdk: typeof Stripe | undefined;

/**
 * An SDK client for a studio's key. `STRIPE_API_URL` (tests, local development) points it at another
 * host: the fake under `testing/`. Unset, it talks to api.stripe.com.
 */
export async function stripeClient(secretKey: string): Promise<Stripe> {
  const Sdk = (sdk = await loadStripe());
  const config: ConstructorParameters<typeof Stripe>[1] = {
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
  };
  const base = process.env.STRIPE_API_URL;
  if (base) {
    const url = new URL(base);
    config.host = url.hostname;
    config.port = url.port || (url.protocol === 'https:' ? 443 : 80);
    config.protocol = url.protocol === 'http:' ? 'http' : 'https';
  }
  return new Sdk(secretKey, config);
}

async function clientFor(db: Db, studioId: string): Promise<Stripe | null> {
  const credentials = await credentialsOf<StripeCredentials>(db, studioId, 'stripe');
  return credentials ? await stripeClient(credentials.secretKey) : null;
}

async function requireClient(db: Db, studioId: string): Promise<Stripe> {
  const stripe = await clientFor(db, studioId);
  if (!stripe)
    throw new AppError('payment.providerUnavailable', {
      message: 'Stripe keys are not saved for this studio',
    });
  return stripe;
}

/** An error of the SDK (none before it is loaded). */
const isStripeError = (err: unknown): err is Stripe.errors.StripeError =>
  sdk !== undefined && err instanceof sdk.errors.StripeError;

/** A failure talking to Stripe while the payer waits: 502 with Stripe's message, never a 500. */
async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!isStripeError(err)) throw err;
    throw new AppError('payment.providerError', { message: `Stripe could not ${what}: ${err.message}` });
  }
}

const idOf = (ref: string | { id: string } | null | undefined): string | null =>
  ref == null ? null : typeof ref === 'string' ? ref : ref.id;

async function intentOf(stripe: Stripe, session: Stripe.Checkout.Session) {
  const id = idOf(session.payment_intent);
  return id ? stripe.paymentIntents.retrieve(id) : null;
}

/** What a Checkout Session (and its PaymentIntent) mean for our payment. */
function sessionOutcome(
  session: Stripe.Checkout.Session,
  intent: Stripe.PaymentIntent | null,
): PaymentOutcome | 'pending' {
  if (session.status === 'complete') return session.payment_status === 'unpaid' ? 'pending' : 'succeeded'; // unpaid: a delayed method
  if (session.status === 'expired') return intent?.last_payment_error ? 'failed' : 'cancelled';
  return 'pending';
}

function intentOutcome(intent: Stripe.PaymentIntent): PaymentOutcome | 'pending' {
  if (intent.status === 'succeeded') return 'succeeded';
  if (intent.status === 'canceled') return 'cancelled';
  if (intent.status === 'requires_payment_method' && intent.last_payment_error) return 'failed';
  return 'pending';
}

/** Our reference for a PaymentIntent: its Checkout Session when it came from one, the intent itself otherwise. */
async function refForIntent(stripe: Stripe, intentId: string): Promise<string> {
  const sessions = await stripe.checkout.sessions.list({ payment_intent: intentId, limit: 1 });
  return sessions.data[0]?.id ?? intentId;
}

/** The Stripe customer a client is in the studio's account, created on first need. */
async function customerFor(db: Db, stripe: Stripe, studioId: string, clientId: string): Promise<string> {
  const find = () =>
    db('payment_provider_customers')
      .where({ studioId, clientId, provider: 'stripe' })
      .first('customerRef') as Promise<{ customerRef: string } | undefined>;
  const known = await find();
  if (known) return known.customerRef;
  const user: { email: string; firstName: string; lastName: string } | undefined = await db('users')
    .where({ id: clientId })
    .first('email', 'firstName', 'lastName');
  const customer = await call('create the customer', () =>
    stripe.customers.create(
      {
        email: user?.email,
        name: user ? `${user.firstName} ${user.lastName}`.trim() : undefined,
        metadata: { studioId, clientId },
      },
      // Two first checkouts at once make one customer.
      { idempotencyKey: `customer:${studioId}:${clientId}` },
    ),
  );
  await db.raw(
    `insert into payment_provider_customers (id, studio_id, client_id, provider, customer_ref)
     values (?, ?, ?, 'stripe', ?) on conflict (studio_id, client_id, provider) do nothing`,
    [uuidv7(), studioId, clientId, customer.id],
  );
  return (await find())!.customerRef;
}

/**
 * After a paid session that asked to keep the card: the card Stripe attached to the client's customer
 * becomes a saved card (brand, last four, expiry). The client is the one whose customer paid, never
 * what the metadata claims alone.
 */
async function rememberCard(db: Db, stripe: Stripe, studioId: string, session: Stripe.Checkout.Session) {
  const customerRef = idOf(session.customer);
  if (session.metadata?.saveCard !== '1' || !customerRef) return;
  const owner: { clientId: string } | undefined = await db('payment_provider_customers')
    .where({ studioId, provider: 'stripe', customerRef })
    .first('clientId');
  if (!owner) return;
  const intent = await intentOf(stripe, session);
  const methodId = idOf(intent?.payment_method);
  if (!methodId) return;
  const method = await stripe.paymentMethods.retrieve(methodId);
  if (!method.card || idOf(method.customer) !== customerRef) return;
  await db.raw(
    `insert into client_payment_cards
       (id, studio_id, client_id, provider, customer_ref, method_ref, brand, last4, exp_month, exp_year)
     values (?, ?, ?, 'stripe', ?, ?, ?, ?, ?, ?) on conflict (studio_id, provider, method_ref) do nothing`,
    [
      uuidv7(),
      studioId,
      owner.clientId,
      customerRef,
      method.id,
      method.card.brand,
      method.card.last4,
      method.card.exp_month,
      method.card.exp_year,
    ],
  );
}

/** Stripe's refusals in the spec's §3 refund errors. */
export function refundErrorOf(err: Stripe.errors.StripeError): ClientOrderRefundError {
  switch (err.code) {
    case 'resource_missing':
      return 'transactionNotFound';
    case 'amount_too_large':
      return 'exceededAmount';
    case 'charge_already_refunded':
    case 'charge_disputed':
    case 'payment_intent_unexpected_state':
    case 'charge_not_refundable':
      return 'cannotRefund';
    case 'balance_insufficient':
    case 'insufficient_funds':
      return 'insufficientFunds';
    default:
      return 'unknown';
  }
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export const stripeProvider: PaymentProvider = {
  name: 'stripe',
  method: PaymentMethod.online,

  async createPayment(db, request) {
    const stripe = await requireClient(db, request.studioId);
    const customer =
      request.saveCard && request.clientId
        ? await customerFor(db, stripe, request.studioId, request.clientId)
        : null;
    const metadata = { paymentId: request.paymentId, studioId: request.studioId };
    const session = await call('start the payment', () =>
      stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: request.currency.toLowerCase(),
                unit_amount: request.amount,
                product_data: { name: request.description },
              },
            },
          ],
          success_url: request.returnUrl,
          cancel_url: `${request.returnUrl}&cancelled=1`,
          client_reference_id: request.paymentId,
          metadata: { ...metadata, saveCard: customer ? '1' : '' },
          payment_intent_data: {
            metadata,
            ...(customer ? { setup_future_usage: 'off_session' as const } : {}),
          },
          ...(customer ? { customer } : {}),
        },
        { idempotencyKey: `checkout:${request.paymentId}` },
      ),
    );
    if (!session.url) throw new AppError('payment.providerError', { message: 'Stripe gave no payment page' });
    return { providerRef: session.id, redirect: { url: session.url, method: 'GET', fields: {} } };
  },

  async fetchStatus(db, studioId, providerRef) {
    const stripe = await clientFor(db, studioId);
    if (!stripe) return null;
    try {
      if (providerRef.startsWith('pi_'))
        return intentOutcome(await stripe.paymentIntents.retrieve(providerRef));
      const session = await stripe.checkout.sessions.retrieve(providerRef);
      const outcome = sessionOutcome(session, await intentOf(stripe, session));
      if (outcome === 'succeeded') await rememberCard(db, stripe, studioId, session);
      return outcome;
    } catch (err) {
      // Stripe unreachable or the session unknown: the notification will tell; the page shows pending.
      if (isStripeError(err)) return null;
      throw err;
    }
  },

  async cancelPayment(db, studioId, providerRef) {
    const stripe = await clientFor(db, studioId);
    if (!stripe || !providerRef.startsWith('cs_')) return null;
    try {
      const session = await stripe.checkout.sessions.retrieve(providerRef);
      // Expiring it means the payer cannot still pay in another tab after we called it cancelled.
      const ended = session.status === 'open' ? await stripe.checkout.sessions.expire(providerRef) : session;
      return sessionOutcome(ended, await intentOf(stripe, ended));
    } catch (err) {
      if (!isStripeError(err)) throw err;
      // Paid meanwhile (only open sessions expire): what it is now.
      return this.fetchStatus(db, studioId, providerRef);
    }
  },

  async refund(db, studioId, providerRef, amount, idempotencyKey): Promise<ProviderRefundResult> {
    const stripe = await clientFor(db, studioId);
    if (!stripe) return { status: 'failed', error: 'unknown' };
    try {
      const intentId = providerRef.startsWith('pi_')
        ? providerRef
        : idOf((await stripe.checkout.sessions.retrieve(providerRef)).payment_intent);
      if (!intentId) return { status: 'failed', error: 'cannotRefund' };
      const refund = await stripe.refunds.create({ payment_intent: intentId, amount }, { idempotencyKey });
      if (refund.status === 'succeeded') return { status: 'success', providerRef: refund.id };
      if (refund.status === 'pending' || refund.status === 'requires_action')
        return { status: 'pending', providerRef: refund.id };
      return { status: 'failed', error: 'unknown' };
    } catch (err) {
      if (!isStripeError(err)) throw err;
      return { status: 'failed', error: refundErrorOf(err) };
    }
  },

  async verifyNotification(db, _body, request) {
    const studioId = first(request.query.studio);
    const header = first(request.headers['stripe-signature']);
    if (!studioId || !UUID_RE.test(studioId) || !header) return null;
    const credentials = await credentialsOf<StripeCredentials>(db, studioId, 'stripe');
    if (!credentials) return null;
    const stripe = await stripeClient(credentials.secretKey);
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(request.rawBody, header, credentials.webhookSecret);
    } catch {
      return null;
    }
    const note = (providerRef: string, outcome: PaymentOutcome) => ({
      eventId: event.id.slice(0, 63),
      studioId,
      providerRef,
      outcome,
    });
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = event.data.object;
        if (session.payment_status === 'unpaid') return 'ignored';
        await rememberCard(db, stripe, studioId, session);
        return note(session.id, 'succeeded');
      }
      case 'checkout.session.async_payment_failed':
        return note(event.data.object.id, 'failed');
      case 'checkout.session.expired':
        return note(
          event.data.object.id,
          sessionOutcome(event.data.object, await intentOf(stripe, event.data.object)) === 'failed'
            ? 'failed'
            : 'cancelled',
        );
      case 'payment_intent.payment_failed':
        return note(await refForIntent(stripe, event.data.object.id), 'failed');
      case 'charge.dispute.created': {
        const intentId = idOf(event.data.object.payment_intent);
        return intentId ? note(await refForIntent(stripe, intentId), 'chargeback') : 'ignored';
      }
      default:
        return 'ignored';
    }
  },

  async testConnection(db, studioId, candidate): Promise<PaymentProviderTestResult> {
    const typed = StripeCredentialsSchema.safeParse(candidate);
    const credentials = typed.success
      ? typed.data
      : await credentialsOf<StripeCredentials>(db, studioId, 'stripe');
    if (!credentials) return { ok: false, message: 'no Stripe keys saved', reason: 'noCredentials' };
    try {
      const balance = await (await stripeClient(credentials.secretKey)).balance.retrieve();
      return {
        ok: true,
        message: balance.livemode ? 'connected to Stripe (live mode)' : 'connected to Stripe (test mode)',
        reason: null,
        livemode: balance.livemode,
      };
    } catch (err) {
      if (!isStripeError(err)) throw err;
      if (err.type === 'StripeAuthenticationError' || err.type === 'StripePermissionError')
        return { ok: false, message: err.message, reason: 'invalidKey' };
      if (err.type === 'StripeConnectionError')
        return { ok: false, message: 'cannot reach Stripe', reason: 'unreachable' };
      return { ok: false, message: err.message, reason: 'error' };
    }
  },

  async chargeSavedCard(db, request) {
    const stripe = await requireClient(db, request.card.studioId);
    try {
      const intent = await stripe.paymentIntents.create(
        {
          amount: request.amount,
          currency: request.currency.toLowerCase(),
          customer: request.card.customerRef,
          payment_method: request.card.methodRef,
          off_session: true,
          confirm: true,
          description: request.description,
          metadata: { paymentId: request.paymentId, studioId: request.card.studioId },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (intent.status === 'succeeded') return { status: 'succeeded', providerRef: intent.id };
      return { status: 'declined', message: `the payment needs the card holder (${intent.status})` };
    } catch (err) {
      if (!isStripeError(err)) throw err;
      if (err.type === 'StripeCardError') return { status: 'declined', message: err.message };
      throw new AppError('payment.providerError', {
        message: `Stripe could not charge the card: ${err.message}`,
      });
    }
  },

  async detachCard(db, card: SavedCard) {
    const stripe = await clientFor(db, card.studioId);
    if (!stripe) return;
    try {
      await stripe.paymentMethods.detach(card.methodRef);
    } catch (err) {
      // Already gone at Stripe (or another account now): nothing left to forget there.
      if (!isStripeError(err)) throw err;
      if (err.code !== 'resource_missing')
        throw new AppError('payment.providerError', {
          message: `Stripe could not remove the card: ${err.message}`,
        });
    }
  },
};
