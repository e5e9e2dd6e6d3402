import {
  PrintReceiptSchema,
  ReceiptBatchPrintSchema,
  ReceiptCollectionQuerySchema,
  RetailBasketSchema,
  RetailCheckoutSchema,
  RetailLocaleQuerySchema,
} from '../api/retail';
import {
  ReceiptBatchInitSchema,
  ReceiptCollectionSchema,
  ReceiptPrintResultSchema,
  RetailCheckoutResultSchema,
  RetailInitSchema,
  RetailQuoteSchema,
} from '../api/retail-views';
import { contractGroup } from './define';
import { StudioParams, studioParams } from './params';

const OrderParams = studioParams('clientOrder');

/**
 * The back-office point of sale and the receipts of desk sales (spec §7 Retail; client-order
 * print-receipt; fiscal-receipt-batch-print). Selling and printing need `sales.sell`, reading the
 * receipts `sales.view`. Validate prices the basket and changes nothing; checkout sells once per
 * Idempotency-Key. `retail/voucher-redeem` and `retail/fiscal-printer-status` are the products' and
 * the fiscal printers' entries.
 */
export const RetailApi = contractGroup('retail', {
  getRetailInit: {
    method: 'get',
    path: '/v4/:uuid/retail/init',
    access: 'staff',
    ability: 'sales.sell',
    params: StudioParams,
    query: RetailLocaleQuerySchema,
    response: RetailInitSchema,
  },
  postRetailValidate: {
    method: 'post',
    path: '/v4/:uuid/retail/validate',
    access: 'staff',
    ability: 'sales.sell',
    params: StudioParams,
    query: RetailLocaleQuerySchema,
    body: RetailBasketSchema,
    response: RetailQuoteSchema,
  },
  postRetailCheckout: {
    method: 'post',
    path: '/v4/:uuid/retail/checkout',
    access: 'staff',
    ability: 'sales.sell',
    status: 201,
    params: StudioParams,
    query: RetailLocaleQuerySchema,
    body: RetailCheckoutSchema,
    response: RetailCheckoutResultSchema,
  },
  postClientOrderPrintReceipt: {
    method: 'post',
    path: '/v4/:uuid/client-order/:clientOrder/print-receipt',
    access: 'staff',
    ability: 'sales.sell',
    params: OrderParams,
    body: PrintReceiptSchema,
    response: ReceiptPrintResultSchema,
  },
  getFiscalReceiptBatchPrintInit: {
    method: 'get',
    path: '/v4/:uuid/fiscal-receipt-batch-print/init',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    response: ReceiptBatchInitSchema,
  },
  getFiscalReceiptBatchPrintCollection: {
    method: 'get',
    path: '/v4/:uuid/fiscal-receipt-batch-print/collection',
    access: 'staff',
    ability: 'sales.view',
    params: StudioParams,
    query: ReceiptCollectionQuerySchema,
    response: ReceiptCollectionSchema,
  },
  postFiscalReceiptBatchPrintPrint: {
    method: 'post',
    path: '/v4/:uuid/fiscal-receipt-batch-print/print',
    access: 'staff',
    ability: 'sales.sell',
    params: StudioParams,
    body: ReceiptBatchPrintSchema,
    response: ReceiptPrintResultSchema,
  },
});
