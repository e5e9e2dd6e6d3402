import type Router from '@koa/router';
import {
  type DonationInit,
  type DonationStatusView,
  type BulkChargeResult,
  type CartView,
  type CheckoutResult,
  type ClientWalletInit,
  type OrderDetail,
  type OrderList,
  type OrderStatusView,
  type PaymentOptionView,
  type PaymentProviderView,
  type PaymentProviderTestResult,
  type PurchasesView,
  type RefundView,
  type WalletEntryView,
  type WalletView,
} from '../../../../shared/contracts/api/sales';
import { PaymentMethod, isOnlinePaymentMethod } from '../../../../shared/enums';
import { AppError } from '../../../../shared/errors';
import { can } from '../../../../shared/policies/abilities';
import type { Db, Knex } from '../../db/knex';
import { abilitiesOf, assertAbility } from '../../http/abilities';
import type { AppContext, AppCustom, AppState, Deps } from '../../http/context';
import { pageLocale } from '../../http/pages';
import { defineRoute } from '../../http/route';
import { findStudio, type Membership, type Studio } from '../identity/index';
import { tFor } from '../../i18n';
import { studioOfApiKey } from '../identity/index';
import {
  cartStatus,
  checkout,
  once,
  prepareCart,
  purchases,
  redeemCartVoucher,
  topUpWallet,
  walletView,
} from './cart.service';
import { donationCheckout, donationInit, donationStatus } from './donation.service';
import { paymentOfRedirect, requestProviderPayment } from './online-payments';
import { PROVIDERS, providerViews, saveProviderChoice } from './providers';
import { encryptCredentials, secretKeyHint } from './providers/credentials';
import { registerPaymentCardRoutes } from './providers/payment-cards.routes';
import { presentWalletEntry } from './sales.presenter';
import { assertOrdersOf, bulkCharge } from './card-charges';
import { finishRefund, refundOrder } from './refunds.service';
import {
  applyStatusAction,
  listOrders,
  orderDetail,
  orderStatusView,
  patchOrder,
  payVisits,
  recordDeskPayment,
} from './sales.service';
import { SalesApi } from '../../../../shared/contracts/http/sales';

/** Mutating routes run in a transaction: `db` is one there. */
const trx = (db: Db) => db as Knex.Transaction;

/** An API key changes order statuses like staff with `sales.sell`; refunds stay with staff. */
const API_KEY_ORDER_ABILITIES = { refund: false, changeStatus: true } as const;

/** A public route's studio: 404 when the uuid names none. */
async function publicStudio(db: Db, uuid: string): Promise<Studio> {
  const studio = await findStudio(db, uuid);
  if (!studio) throw AppError.notFound('studio');
  return studio;
}

async function assertClientOf(db: Db, studio: Studio, userId: string): Promise<void> {
  const row = await db('memberships').where({ studioId: studio.id, userId, isClient: true }).first('id');
  if (!row) throw AppError.notFound('client');
}

async function orderAbilities(db: Db, membership: Membership) {
  const abilities = await abilitiesOf(db, membership);
  return { refund: can(abilities, 'sales.refund'), changeStatus: can(abilities, 'sales.sell') };
}

/**
 * What the browser should come back to: the request's own scheme and host (the host the client is
 * on, so its session cookie comes back with it). Not Koa's `ctx.origin`, which is the Origin header.
 */
const originOf = (ctx: AppContext) => `${ctx.protocol}://${ctx.host}`;

/**
 * After the checkout committed (no row lock held): the provider's transaction for the payment the
 * answer sends the browser to (`online-payments.ts`). A retried checkout answered from its stored
 * result makes the call only if it never succeeded.
 */
async function callProvider(result: CheckoutResult, { ctx, deps }: { ctx: AppContext; deps: Deps }) {
  const paymentId = paymentOfRedirect(result.redirectUrl);
  if (paymentId) await requestProviderPayment(deps.knex, paymentId, originOf(ctx), ctx.state.log);
  return result;
}
const localeOf = (ctx: AppContext, studio: Studio) => pageLocale(ctx, studio);

async function clientWalletEntries(db: Db, studio: Studio, userId: string): Promise<WalletEntryView[]> {
  const rows = await db('client_wallet_payments')
    .where({ studioId: studio.id, clientId: userId })
    .orderBy('id', 'desc')
    .limit(200);
  return (rows as Parameters<typeof presentWalletEntry>[0][]).map(presentWalletEntry);
}

/** The studio's payment methods: its enabled online providers' first, then the desk's. */
async function paymentOptions(db: Db, studio: Studio): Promise<PaymentOptionView[]> {
  const providers = (await providerViews(db, studio.id)).filter((p) => p.enabled);
  const desk = [
    PaymentMethod.cash,
    PaymentMethod.terminal,
    PaymentMethod.bankTransfer,
    PaymentMethod.wallet,
    PaymentMethod.gift,
    PaymentMethod.other,
    PaymentMethod.none,
  ].map((method) => ({ method, online: isOnlinePaymentMethod(method), provider: null }));
  return [...providers.map((p) => ({ method: p.method, online: true, provider: p.provider })), ...desk];
}

/**
 * Orders, payments, refunds, wallet and the shopping cart. Staff read orders with `sales.view`,
 * take payments and change statuses with `sales.sell`, refund with `sales.refund`; providers are
 * `settings.view` / `settings.edit`. The cart, checkout, wallet and purchases are the signed-in
 * client's own (front office).
 */
export function registerSalesRoutes(router: Router<AppState, AppCustom>): void {
  // ---------------------------------------------------------------------------------- orders (staff)

  defineRoute(router, {
    ...SalesApi.getClientOrderAll,
    handle: async ({ db, studio, query }): Promise<OrderList> => listOrders(db, studio, query),
  });

  defineRoute(router, {
    ...SalesApi.getClientClientOrderAll,
    handle: async ({ db, studio, query, params }): Promise<OrderList> => {
      await assertClientOf(db, studio, params.user);
      return listOrders(db, studio, { ...query, clientId: params.user });
    },
  });

  defineRoute(router, {
    ...SalesApi.postClientOrderBulkCharge,
    // Checked in the request's transaction; charged after it (`present`): each order in its own short
    // transactions, the provider asked outside them (card-charges.ts).
    handle: async ({ db, studio, body }) => assertOrdersOf(db, studio, body.orderIds),
    present: async (_checked, { db, studio, body, auth, deps, ctx }): Promise<BulkChargeResult> =>
      bulkCharge(db as Knex, studio, body.orderIds, auth.user.id, deps.clock.now(), ctx.state.log),
  });

  defineRoute(router, {
    ...SalesApi.getClientOrderInit,
    handle: async ({ ctx, db, studio, params, membership }): Promise<OrderDetail> =>
      orderDetail(
        db,
        studio,
        params.clientOrder,
        await orderAbilities(db, membership),
        localeOf(ctx, studio),
      ),
  });

  /** Staff (sales.view) or the client the order belongs to: the return page polls this. */
  defineRoute(router, {
    ...SalesApi.getClientOrderStatus,
    handle: async ({ db, studio, params, membership, auth }): Promise<OrderStatusView> => {
      if (membership.isMember) {
        const abilities = await abilitiesOf(db, membership);
        if (can(abilities, 'sales.view')) return orderStatusView(db, studio.id, params.clientOrder);
      }
      if (!membership.isClient) await assertAbility(db, membership, 'sales.view');
      return orderStatusView(db, studio.id, params.clientOrder, auth.user.id);
    },
  });

  /** The §4 actions: change to unpaid, enable the payment reminder, mark as paid. */
  defineRoute(router, {
    ...SalesApi.postClientOrderStatus,
    handle: async ({ db, studio, params, body, membership, deps, ctx }): Promise<OrderDetail> => {
      await applyStatusAction(
        trx(db),
        studio,
        params.clientOrder,
        body.action,
        deps.clock.now(),
        ctx.state.log,
      );
      return orderDetail(
        db,
        studio,
        params.clientOrder,
        await orderAbilities(db, membership),
        localeOf(ctx, studio),
      );
    },
  });

  defineRoute(router, {
    ...SalesApi.postClientOrderPayment,
    handle: async ({ db, studio, params, body, membership, auth, deps, ctx }): Promise<OrderDetail> => {
      await recordDeskPayment(
        trx(db),
        studio,
        params.clientOrder,
        body,
        auth.user.id,
        deps.clock.now(),
        ctx.state.log,
      );
      return orderDetail(
        db,
        studio,
        params.clientOrder,
        await orderAbilities(db, membership),
        localeOf(ctx, studio),
      );
    },
  });

  defineRoute(router, {
    ...SalesApi.postClientOrderRefund,
    // Recorded in the request's transaction; an online payment's provider is asked after the commit.
    handle: async ({ db, studio, params, body, auth, deps }) =>
      refundOrder(trx(db), studio, params.clientOrder, body, auth.user.id, deps.clock.now()),
    present: async (request, { db, deps, ctx }): Promise<RefundView> =>
      finishRefund(db as Knex, request, deps.clock.now(), ctx.state.log),
  });

  defineRoute(router, {
    ...SalesApi.getClientOrder,
    handle: async ({ ctx, db, studio, params, membership }): Promise<OrderDetail> =>
      orderDetail(
        db,
        studio,
        params.clientOrder,
        await orderAbilities(db, membership),
        localeOf(ctx, studio),
      ),
  });

  // ------------------------------------------------------------------ public API (x-api-key)

  /**
   * The public API's order (spec §7 "GET and PATCH client-order/{clientOrder}"): a partner's server
   * with the studio's API key (`x-api-key`, `studio-api` keys) reads an order and applies the same
   * §4 changes staff make (paid, unpaid, payment reminder). No session, no CSRF (an API-key call
   * carries no cookie); a missing or revoked key is 401, another studio's order 404.
   */
  defineRoute(router, {
    ...SalesApi.getPublicClientOrder,
    handle: async ({ db, ctx, params }): Promise<OrderDetail> =>
      orderDetail(db, await studioOfApiKey(ctx, db), params.clientOrder, API_KEY_ORDER_ABILITIES),
  });

  defineRoute(router, {
    ...SalesApi.patchPublicClientOrder,
    handle: async ({ db, ctx, params, body, deps }): Promise<OrderDetail> => {
      const studio = await studioOfApiKey(ctx, db);
      await patchOrder(trx(db), studio, params.clientOrder, body, deps.clock.now());
      return orderDetail(db, studio, params.clientOrder, API_KEY_ORDER_ABILITIES);
    },
  });

  /** Spec §7 public API "GET payment-option all": the studio's payment methods, online ones marked. */
  defineRoute(router, {
    ...SalesApi.getPublicPaymentOptionAll,
    handle: async ({ db, ctx }): Promise<{ items: PaymentOptionView[]; next: null }> => ({
      items: await paymentOptions(db, await studioOfApiKey(ctx, db)),
      next: null,
    }),
  });

  /** The same PATCH for staff sessions (the back office), with `sales.sell`. */
  defineRoute(router, {
    ...SalesApi.patchClientOrder,
    handle: async ({ ctx, db, studio, params, body, membership, deps }): Promise<OrderDetail> => {
      await patchOrder(trx(db), studio, params.clientOrder, body, deps.clock.now());
      return orderDetail(
        db,
        studio,
        params.clientOrder,
        await orderAbilities(db, membership),
        localeOf(ctx, studio),
      );
    },
  });

  defineRoute(router, {
    ...SalesApi.postClientVisitsPay,
    handle: async ({ db, studio, body, auth, deps, ctx }): Promise<{ orderId: string }> =>
      payVisits(trx(db), studio, body, auth.user.id, deps.clock.now(), ctx.state.log),
  });

  // ---------------------------------------------------------------------------------- providers

  registerPaymentCardRoutes(router);

  defineRoute(router, {
    ...SalesApi.getPaymentProviderAll,
    handle: async ({ db, studio }): Promise<{ items: PaymentProviderView[]; next: null }> => ({
      items: await providerViews(db, studio.id),
      next: null,
    }),
  });

  defineRoute(router, {
    ...SalesApi.postPaymentProviderTestConnection,
    handle: async ({ db, studio, body }): Promise<PaymentProviderTestResult> => {
      if (body.credentials && body.provider !== 'stripe')
        throw AppError.invalid({ credentials: ['this provider takes no keys'] });
      const result = await PROVIDERS[body.provider].testConnection(db, studio.id, body.credentials);
      return { reason: null, ...result } as PaymentProviderTestResult;
    },
  });

  defineRoute(router, {
    ...SalesApi.patchPaymentProvider,
    handle: async ({ db, studio, params, body }): Promise<PaymentProviderView> => {
      const current = (await providerViews(db, studio.id)).find((p) => p.provider === params.provider)!;
      const patch: Record<string, unknown> = {};
      if (body.refundError !== undefined) patch.refundError = body.refundError;
      if (body.credentials && !current.needsCredentials)
        throw AppError.invalid({ credentials: ['this provider takes no keys'] });
      if (body.credentials) {
        // Stored encrypted; only a hint of the key is readable afterwards.
        patch.credentials = encryptCredentials(studio.id, params.provider, body.credentials);
        patch.secretKeyHint = secretKeyHint(body.credentials.secretKey);
      }
      if (body.enabled && current.needsCredentials && !current.configured && !body.credentials)
        throw AppError.invalid({ enabled: ['save the provider keys first'] });
      await saveProviderChoice(db, studio.id, params.provider, body.enabled ?? current.enabled, patch);
      return (await providerViews(db, studio.id)).find((p) => p.provider === params.provider)!;
    },
  });

  defineRoute(router, {
    ...SalesApi.getPaymentOptionAll,
    handle: async ({ db, studio }): Promise<{ items: PaymentOptionView[]; next: null }> => ({
      items: await paymentOptions(db, studio),
      next: null,
    }),
  });

  defineRoute(router, {
    ...SalesApi.getPaymentOptionInit,
    handle: async ({ db, studio }) => ({
      currency: studio.currency,
      options: await paymentOptions(db, studio),
      onlineMethods: [PaymentMethod.online, PaymentMethod.paymentCard],
    }),
  });

  // ---------------------------------------------------------------------------------- wallet (staff)

  defineRoute(router, {
    ...SalesApi.getClientWalletInit,
    handle: async ({ db, studio, params }): Promise<ClientWalletInit> => {
      await assertClientOf(db, studio, params.user);
      const user = (await db('users')
        .where({ id: params.user })
        .first('id', 'firstName', 'lastName', 'email')) as {
        id: string;
        firstName: string;
        lastName: string;
        email: string | null;
      };
      return { client: user, wallet: await walletView(db, studio, params.user) };
    },
  });

  defineRoute(router, {
    ...SalesApi.getClientClientWalletPaymentAll,
    handle: async ({ db, studio, params }): Promise<{ items: WalletEntryView[]; next: null }> => {
      await assertClientOf(db, studio, params.user);
      return { items: await clientWalletEntries(db, studio, params.user), next: null };
    },
  });

  // ---------------------------------------------------------------------------------- front office

  defineRoute(router, {
    ...SalesApi.getWalletInit,
    handle: async ({ db, studio, auth }): Promise<WalletView> => walletView(db, studio, auth.user.id),
  });

  defineRoute(router, {
    ...SalesApi.postWalletTopUp,
    handle: async ({ db, studio, auth, body, ctx }): Promise<CheckoutResult> =>
      once(
        trx(db),
        { studioId: studio.id, userId: auth.user.id },
        ctx.get('idempotency-key') || undefined,
        ['top-up', body],
        () =>
          topUpWallet(trx(db), studio, auth.user.id, body, {
            label: tFor(body.locale ?? localeOf(ctx, studio))('sales:wallet.topUpLine'),
            locale: body.locale ?? localeOf(ctx, studio),
          }),
      ),
    present: callProvider,
  });

  defineRoute(router, {
    ...SalesApi.getShoppingCartStatus,
    handle: async ({ db, studio, auth, ctx, deps }): Promise<CartView> =>
      cartStatus(db, studio, auth.user.id, localeOf(ctx, studio), deps.clock.now()),
  });

  defineRoute(router, {
    ...SalesApi.postShoppingCartPrepare,
    handle: async ({ db, studio, auth, body, ctx, deps }): Promise<CartView> =>
      prepareCart(trx(db), studio, auth.user.id, body.items, localeOf(ctx, studio), deps.clock.now()),
  });

  defineRoute(router, {
    ...SalesApi.postShoppingCartVoucherRedeem,
    handle: async ({ db, studio, auth, body, ctx, deps }): Promise<CartView> =>
      redeemCartVoucher(trx(db), studio, auth.user.id, body.code, localeOf(ctx, studio), deps.clock.now()),
  });

  /** Charges once per Idempotency-Key: a retry gets the first answer back. */
  defineRoute(router, {
    ...SalesApi.postShoppingCartCheckout,
    handle: async ({ db, studio, auth, body, ctx, deps }): Promise<CheckoutResult> =>
      once(
        trx(db),
        { studioId: studio.id, userId: auth.user.id },
        ctx.get('idempotency-key') || undefined,
        ['checkout', body],
        () =>
          checkout(trx(db), studio, auth.user.id, body, {
            locale: body.locale ?? localeOf(ctx, studio),
            now: deps.clock.now(),
            log: ctx.state.log,
          }),
      ),
    present: callProvider,
  });

  // ---------------------------------------------------------------------------------- donations (public)

  defineRoute(router, {
    ...SalesApi.postDonationInit,
    handle: async ({ db, params, auth }): Promise<DonationInit> =>
      donationInit(db, await publicStudio(db, params.uuid), auth?.user.id ?? null),
  });

  /** Anyone may donate (no account needed); once per Idempotency-Key. */
  defineRoute(router, {
    ...SalesApi.postDonationCheckout,
    handle: async ({ db, params, auth, body, ctx }): Promise<CheckoutResult> => {
      const studio = await publicStudio(db, params.uuid);
      const locale = localeOf(ctx, studio);
      return donationCheckout(trx(db), studio, auth?.user.id ?? null, body, {
        key: ctx.get('idempotency-key') || undefined,
        label: tFor(locale)('sales:donation.line'),
        locale,
      });
    },
    present: callProvider,
  });

  defineRoute(router, {
    ...SalesApi.getDonationPaymentStatus,
    handle: async ({ db, params, query }): Promise<DonationStatusView> =>
      donationStatus(db, await publicStudio(db, params.uuid), query.payment),
  });

  defineRoute(router, {
    ...SalesApi.postPurchases,
    handle: async ({ db, studio, auth, body }): Promise<PurchasesView> =>
      purchases(db, studio, auth.user.id, body),
  });
}
