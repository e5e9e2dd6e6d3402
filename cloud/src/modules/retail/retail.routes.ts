import type Router from '@koa/router';
import type {
  ReceiptBatchInit,
  ReceiptCollection,
  ReceiptPrintResult,
  RetailCheckoutResult,
  RetailInit,
  RetailQuote,
} from '../../../../shared/contracts/api/retail';
import { RetailApi } from '../../../../shared/contracts/http/retail';
import type { Db, Knex } from '../../db/knex';
import type { AppCustom, AppState } from '../../http/context';
import { pageLocale } from '../../http/pages';
import { defineRoute } from '../../http/route';
import { once } from '../sales/index';
import { batchInit, listReceipts, printOrderReceipt, printReceipts } from './receipts.service';
import { checkoutBasket, publicQuote, quoteBasket, retailInit } from './retail.service';

/** Mutating routes run in a transaction: `db` is one there. */
const trx = (db: Db) => db as Knex.Transaction;

/**
 * The back-office point of sale and the receipts of desk sales (spec §7 Retail; client-order
 * print-receipt; fiscal-receipt-batch-print). Selling and printing need `sales.sell`, reading the
 * receipts `sales.view`. `retail/voucher-redeem` and `retail/fiscal-printer-status` are served by the
 * products and fiscal-printers modules.
 */
export function registerRetailRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...RetailApi.getRetailInit,
    handle: async ({ db, studio, ctx, deps, query }): Promise<RetailInit> =>
      retailInit(db, studio, query.locale ?? pageLocale(ctx, studio), deps.clock.now()),
  });

  /** Prices the basket and lists every problem; changes nothing (the voucher check is rolled back). */
  defineRoute(router, {
    ...RetailApi.postRetailValidate,
    handle: async ({ db, studio, body, ctx, deps, query }): Promise<RetailQuote> =>
      publicQuote(
        await quoteBasket(db, studio, body, query.locale ?? pageLocale(ctx, studio), deps.clock.now()),
      ),
  });

  /** Sells once per Idempotency-Key: a retry gets the first answer back and charges nothing more. */
  defineRoute(router, {
    ...RetailApi.postRetailCheckout,
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
    ...RetailApi.postClientOrderPrintReceipt,
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
    ...RetailApi.getFiscalReceiptBatchPrintInit,
    handle: async ({ db, studio }): Promise<ReceiptBatchInit> => batchInit(db, studio),
  });

  defineRoute(router, {
    ...RetailApi.getFiscalReceiptBatchPrintCollection,
    handle: async ({ db, studio, query }): Promise<ReceiptCollection> => listReceipts(db, studio, query),
  });

  defineRoute(router, {
    ...RetailApi.postFiscalReceiptBatchPrintPrint,
    handle: async ({ db, studio, body, deps }): Promise<ReceiptPrintResult> =>
      printReceipts(trx(db), studio, body.receiptIds, body.stationSlug, deps.clock.now()),
  });
}
