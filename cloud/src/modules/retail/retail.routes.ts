import type Router from '@koa/router';
import { z } from 'zod';
import {
  PrintReceiptSchema,
  ReceiptBatchPrintSchema,
  ReceiptCollectionQuerySchema,
  RetailBasketSchema,
  RetailCheckoutSchema,
  RetailLocaleQuerySchema,
  type ReceiptBatchInit,
  type ReceiptCollection,
  type ReceiptPrintResult,
  type RetailCheckoutResult,
  type RetailInit,
  type RetailQuote,
} from '../../../../shared/contracts/api/retail';
import type { Db, Knex } from '../../db/knex';
import type { AppCustom, AppState } from '../../http/context';
import { pageLocale } from '../../http/pages';
import { defineRoute } from '../../http/route';
import { once } from '../sales/cart.service';
import { batchInit, listReceipts, printOrderReceipt, printReceipts } from './receipts.service';
import { checkoutBasket, publicQuote, quoteBasket, retailInit } from './retail.service';

/** Mutating routes run in a transaction: `db` is one there. */
const trx = (db: Db) => db as Knex.Transaction;

const StudioParams = z.object({ uuid: z.string() });
const OrderParams = z.object({ uuid: z.string(), clientOrder: z.uuid() });

/**
 * The back-office point of sale and the receipts of desk sales (spec §7 Retail; client-order
 * print-receipt; fiscal-receipt-batch-print). Selling and printing need `sales.sell`, reading the
 * receipts `sales.view`. `retail/voucher-redeem` and `retail/fiscal-printer-status` are served by the
 * products and fiscal-printers modules.
 */
export function registerRetailRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/retail/init',
    access: 'staff',
    ability: 'sales.sell',
    params: StudioParams,
    query: RetailLocaleQuerySchema,
    handle: async ({ db, studio, ctx, deps, query }): Promise<RetailInit> =>
      retailInit(db, studio, query.locale ?? pageLocale(ctx, studio), deps.clock.now()),
  });

  /** Prices the basket and lists every problem; changes nothing (the voucher check is rolled back). */
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/retail/validate',
    access: 'staff',
    ability: 'sales.sell',
    params: StudioParams,
    body: RetailBasketSchema,
    query: RetailLocaleQuerySchema,
    handle: async ({ db, studio, body, ctx, deps, query }): Promise<RetailQuote> =>
      publicQuote(
        await quoteBasket(db, studio, body, query.locale ?? pageLocale(ctx, studio), deps.clock.now()),
      ),
  });

  /** Sells once per Idempotency-Key: a retry gets the first answer back and charges nothing more. */
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/retail/checkout',
    access: 'staff',
    ability: 'sales.sell',
    params: StudioParams,
    body: RetailCheckoutSchema,
    query: RetailLocaleQuerySchema,
    status: 201,
    handle: async ({ db, studio, body, auth, ctx, deps, query }): Promise<RetailCheckoutResult> =>
      once(
        trx(db),
        { studioId: studio.id, userId: auth.user.id },
        ctx.get('idempotency-key') || undefined,
        ['retail-checkout', body],
        () =>
          checkoutBasket(
            trx(db),
            studio,
            body,
            auth.user.id,
            query.locale ?? pageLocale(ctx, studio),
            deps.clock.now(),
            ctx.state.log,
          ),
      ),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/client-order/:clientOrder/print-receipt',
    access: 'staff',
    ability: 'sales.sell',
    params: OrderParams,
    body: PrintReceiptSchema,
    handle: async ({ db, studio, params, body, auth, deps }): Promise<ReceiptPrintResult> =>
      printOrderReceipt(
        trx(db),
        studio,
        params.clientOrder,
        body.stationSlug,
        auth.user.id,
        deps.clock.now(),
      ),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/fiscal-receipt-batch-print/init',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    handle: async ({ db, studio }): Promise<ReceiptBatchInit> => batchInit(db, studio),
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/fiscal-receipt-batch-print/collection',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    query: ReceiptCollectionQuerySchema,
    handle: async ({ db, studio, query }): Promise<ReceiptCollection> => listReceipts(db, studio, query),
  });

  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/fiscal-receipt-batch-print/print',
    access: 'staff',
    ability: 'sales.sell',
    params: StudioParams,
    body: ReceiptBatchPrintSchema,
    handle: async ({ db, studio, body, deps }): Promise<ReceiptPrintResult> =>
      printReceipts(trx(db), studio, body.receiptIds, body.stationSlug, deps.clock.now()),
  });
}
