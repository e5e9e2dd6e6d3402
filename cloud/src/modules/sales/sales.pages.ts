import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import { v7 as uuidv7 } from 'uuid';
import { formatPriceIn } from '../../../../shared/domain/money';
import type { PaymentOutcome } from '../../../../shared/domain/payments';
import { AppError } from '../../../../shared/errors';
import type { AppContext, AppCustom, AppState } from '../../http/context';
import { LOCALE_COOKIE } from '../../http/cookies';
import { pageLocale } from '../../http/pages';
import { isLocale } from '../../../../shared/i18n/locales';
import { tFor } from '../../i18n';
import type { ProviderRedirect } from './payment-provider';
import { isProviderName, PROVIDERS } from './providers';
import type { PaymentRow } from './sales.presenter';
import { applyPaymentOutcome } from './sales.service';
import {
  decideTestTransaction,
  sendTestNotification,
  signedNotification,
  testTransaction,
  verifyTransactionSignature,
} from './test-provider';
import { requestProviderPayment } from './online-payments';
import { applyForeignNotification } from './foreign-payments';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Reads an application/x-www-form-urlencoded body (the JSON body parser leaves it alone). */
async function formBody(ctx: AppContext): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded')) return new URLSearchParams();
  let text = '';
  for await (const chunk of ctx.req) {
    text += String(chunk);
    if (text.length > 10_000) throw new AppError('request.tooLarge', { message: 'form too large' });
  }
  return new URLSearchParams(text);
}

function page(
  ctx: AppContext,
  title: string,
  body: string,
  options: { nonce?: string; formAction?: string } = {},
) {
  const locale = pageLocale(ctx);
  ctx.set('Cache-Control', 'no-store');
  // Our own CSP for these pages: one nonce'd inline script at most, forms only to where we say.
  ctx.set(
    'Content-Security-Policy',
    [
      "default-src 'none'",
      "style-src 'unsafe-inline'",
      options.nonce ? `script-src 'nonce-${options.nonce}'` : "script-src 'none'",
      `form-action 'self'${options.formAction ? ` ${options.formAction}` : ''}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
  );
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1b1e}
.card{border:1px solid #dee2e6;border-radius:12px;padding:1.5rem}.amount{font-size:2rem;font-weight:700;margin:.5rem 0 1.5rem}
button{display:block;width:100%;padding:.8rem;margin:.5rem 0;border-radius:8px;border:1px solid #ced4da;background:#fff;font-size:1rem;cursor:pointer}
button.primary{background:#228be6;border-color:#228be6;color:#fff}.muted{color:#868e96;font-size:.875rem}</style></head>
<body>${body}</body></html>`;
}

async function paymentOf(ctx: AppContext, id: unknown): Promise<PaymentRow | undefined> {
  if (typeof id !== 'string' || !UUID_RE.test(id)) return undefined;
  return (await ctx.deps.knex('client_order_payments').where({ id }).first()) as PaymentRow | undefined;
}

function notFound(ctx: AppContext) {
  const t = tFor(pageLocale(ctx));
  ctx.status = 404;
  page(ctx, t('sales:pages.notFound'), `<h1>${escapeHtml(t('sales:pages.notFound'))}</h1>`);
}

/** Applies a provider's outcome in its own transaction (the page and webhook routes are not API routes). */
async function apply(ctx: AppContext, paymentId: string, outcome: PaymentOutcome) {
  await ctx.deps.knex.transaction((trx) =>
    applyPaymentOutcome(trx, paymentId, outcome, ctx.deps.clock.now(), ctx.state.log),
  );
}

/** A same-site path to return to, with the order and payment appended. */
function returnTarget(payment: PaymentRow): string {
  const path = payment.returnUrl && /^\/[^/\\]/.test(payment.returnUrl) ? payment.returnUrl : '/';
  const url = new URL(path, 'http://local');
  // The language went into the locale cookie (`/app/return`): not repeated in the address.
  url.searchParams.delete('lang');
  url.searchParams.set('order', payment.orderId);
  url.searchParams.set('payment', payment.id);
  return `${url.pathname}${url.search}`;
}

/**
 * Spec §2 server pages of the online payment flow:
 * - `/app/form-redirect?payment=…` posts the provider's form (an auto-submitted form: most providers
 *   take the payer by POST), with a button for browsers without script;
 * - `/app/return?payment=…` is where the provider sends the payer back: it asks the provider for the
 *   transaction's state (a notification may be late or lost), applies it and goes on to the page the
 *   checkout named (front-office purchases or wallet);
 * - `/app/payment-notification/{provider}` receives the provider's asynchronous notifications
 *   (webhook; outside `/api`, so no session or CSRF: the provider's signature is the check);
 * - `/app/test-provider/{transaction}` is the test provider's hosted "bank" page.
 * Registered before the generic page routes, which would otherwise serve the entry app there.
 */
export function registerSalesPageRoutes(router: Router<AppState, AppCustom>): void {
  router.all('/app/form-redirect', async (ctx, next) => {
    // Without a payment id these are the entry app's pages (spec: /app/* opens the login entry).
    if (ctx.query.payment === undefined) return next();
    let payment = await paymentOf(ctx, ctx.query.payment);
    // The checkout committed but its call to the provider never happened (the process died between
    // the two): made now, outside any transaction.
    if (payment?.status === 'pending' && !payment.redirectUrl) {
      try {
        await requestProviderPayment(
          ctx.deps.knex,
          payment.id,
          `${ctx.protocol}://${ctx.host}`,
          ctx.state.log,
        );
      } catch (err) {
        // The payment is failed now: the return page tells the payer.
        ctx.state.log.warn({ err, payment: payment.id }, 'payment provider refused the transaction');
      }
      payment = await paymentOf(ctx, ctx.query.payment);
    }
    if (!payment || !payment.redirectUrl) return notFound(ctx);
    if (payment.status !== 'pending') return ctx.redirect(`/app/return?payment=${payment.id}`);
    const redirect = JSON.parse(payment.redirectUrl) as ProviderRedirect;
    if (redirect.method === 'GET') return ctx.redirect(redirect.url);
    const t = tFor(pageLocale(ctx));
    const nonce = randomBytes(16).toString('base64');
    const fields = Object.entries(redirect.fields)
      .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
      .join('');
    page(
      ctx,
      t('sales:pages.redirecting'),
      `<form id="f" method="post" action="${escapeHtml(redirect.url)}">${fields}
<p>${escapeHtml(t('sales:pages.redirecting'))}</p><button class="primary" type="submit">${escapeHtml(t('sales:pages.continue'))}</button></form>
<script nonce="${nonce}">document.getElementById('f').submit()</script>`,
      { nonce, formAction: new URL(redirect.url).origin },
    );
  });

  router.all('/app/return', async (ctx, next) => {
    if (ctx.query.payment === undefined) return next();
    const payment = await paymentOf(ctx, ctx.query.payment);
    if (!payment) return notFound(ctx);
    if (payment.status === 'pending' && payment.provider && isProviderName(payment.provider)) {
      const provider = PROVIDERS[payment.provider];
      // The provider's "back to the shop" link: the payer gave up, so the provider ends the transaction.
      const state =
        ctx.query.cancelled === '1' && provider.cancelPayment
          ? await provider.cancelPayment(ctx.deps.knex, payment.studioId, payment.providerRef ?? '')
          : await provider.fetchStatus(ctx.deps.knex, payment.studioId, payment.providerRef ?? '');
      if (state && state !== 'pending') await apply(ctx, payment.id, state);
    }
    // Back in the language the payer paid in (the payment page may have had its own).
    const lang = new URL(payment.returnUrl ?? '/', 'http://local').searchParams.get('lang');
    if (isLocale(lang))
      ctx.cookies.set(LOCALE_COOKIE, lang, { httpOnly: false, sameSite: 'lax', maxAge: 365 * 24 * 3600_000 });
    ctx.redirect(returnTarget(payment));
  });

  router.post('/app/payment-notification/:provider', async (ctx) => {
    const name = ctx.params.provider ?? '';
    if (!isProviderName(name)) throw AppError.notFound('provider');
    const provider = PROVIDERS[name];
    const body = (ctx.request as { body?: unknown }).body;
    const notification = await provider.verifyNotification(ctx.deps.knex, body, {
      rawBody: (ctx.request as { rawBody?: string }).rawBody ?? '',
      headers: ctx.headers,
      query: ctx.query,
    });
    if (!notification)
      throw new AppError('payment.notificationInvalid', { message: 'not a valid notification' });
    if (notification === 'ignored') {
      // Genuine, but about nothing we follow: acknowledged so the provider stops resending it.
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { received: true, result: 'ignored' };
      return;
    }
    const result = await ctx.deps.knex.transaction(async (trx) => {
      // Each event is applied once, however often the provider repeats it. Event ids are the
      // provider account's, and each studio has its own account: the key is per studio.
      const fresh = (await trx.raw(
        `insert into payment_notifications (id, provider, event_id, payload)
         values (?, ?, ?, ?::jsonb) on conflict do nothing returning id`,
        [uuidv7(), name, `${notification.studioId}:${notification.eventId}`, JSON.stringify(body)],
      )) as { rows: unknown[] };
      if (fresh.rows.length === 0) return 'duplicate';
      const payment = (await trx('client_order_payments')
        .where({ studioId: notification.studioId, provider: name, providerRef: notification.providerRef })
        .first('id')) as { id: string } | undefined;
      if (!payment)
        return (
          (await applyForeignNotification(
            trx,
            { provider: name, ...notification },
            ctx.deps.clock.now(),
            ctx.state.log,
          )) ?? 'unknown'
        );
      const { changed } = await applyPaymentOutcome(
        trx,
        payment.id,
        notification.outcome,
        ctx.deps.clock.now(),
        ctx.state.log,
      );
      return changed ? 'applied' : 'ignored';
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { received: true, result };
  });

  // ---------------------------------------------------------------------------------- test bank

  const bankPage = async (ctx: AppContext & { params: Record<string, string> }) => {
    const form = ctx.method === 'POST' ? await formBody(ctx) : new URLSearchParams();
    const sig = form.get('sig') ?? (typeof ctx.query.sig === 'string' ? ctx.query.sig : '');
    const id = ctx.params.transaction ?? '';
    const tx = UUID_RE.test(id) ? await testTransaction(ctx.deps.knex, id) : undefined;
    if (!tx || !(await verifyTransactionSignature(ctx.deps.knex, tx, sig))) return notFound(ctx);
    const locale = pageLocale(ctx);
    const t = tFor(locale);
    const amount = formatPriceIn(locale, tx.amount, tx.currency);
    const decided = tx.status !== 'new';
    const action = `/app/test-provider/${tx.id}/decide`;
    const button = (outcome: string, label: string, primary = false) =>
      `<form method="post" action="${action}"><input type="hidden" name="sig" value="${escapeHtml(sig)}"><input type="hidden" name="outcome" value="${outcome}"><button type="submit"${primary ? ' class="primary"' : ''} data-outcome="${outcome}">${escapeHtml(label)}</button></form>`;
    page(
      ctx,
      t('sales:testProvider.title'),
      `<div class="card"><p class="muted">${escapeHtml(t('sales:testProvider.banner'))}</p>
<h1>${escapeHtml(t('sales:testProvider.title'))}</h1><div class="amount" data-amount>${escapeHtml(amount)}</div>
${
  decided
    ? `<p>${escapeHtml(t(`sales:testProvider.decided.${tx.status}`))}</p>${
        tx.status === 'succeeded' ? button('chargeback', t('sales:testProvider.chargeback')) : ''
      }`
    : `${button('succeeded', t('sales:testProvider.pay'), true)}${button('failed', t('sales:testProvider.decline'))}${button('cancelled', t('sales:testProvider.cancel'))}`
}</div>`,
    );
  };
  router.get('/app/test-provider/:transaction', bankPage);
  router.post('/app/test-provider/:transaction', bankPage);

  router.post('/app/test-provider/:transaction/decide', async (ctx) => {
    const form = await formBody(ctx);
    const sig = form.get('sig') ?? '';
    const outcome = form.get('outcome') ?? '';
    const id = ctx.params.transaction ?? '';
    const tx = UUID_RE.test(id) ? await testTransaction(ctx.deps.knex, id) : undefined;
    if (!tx || !(await verifyTransactionSignature(ctx.deps.knex, tx, sig))) return notFound(ctx);
    if (!['succeeded', 'failed', 'cancelled', 'chargeback'].includes(outcome))
      throw AppError.invalid({ outcome: ['unknown outcome'] });
    const decided = await ctx.deps.knex.transaction((trx) =>
      decideTestTransaction(trx, tx.id, outcome as PaymentOutcome),
    );
    if (decided) {
      // The bank tells the shop asynchronously, after the payer has been sent back.
      const body = await signedNotification(ctx.deps.knex, tx, outcome as PaymentOutcome);
      const skip = ctx.query.notify === 'never';
      // The simulated bank lives in this server: it notifies the host the payer was served from.
      if (!skip) sendTestNotification(`${ctx.protocol}://${ctx.host}/app/payment-notification/test`, body);
    }
    if (outcome === 'chargeback') {
      ctx.redirect(`/app/test-provider/${tx.id}?sig=${encodeURIComponent(sig)}`);
      return;
    }
    ctx.redirect(tx.returnUrl);
  });
}
