import type { DesktopApi } from '../../shared/contracts/ipc';
import type { PosStationSink } from '../../web/backoffice/pos/station-sink';
import { call } from './bridge';

/** The POS screen's sink over the station's `pos*` IPC channels. */
export function createStationPosSink(bridge: DesktopApi): PosStationSink {
  return {
    state: () => call(bridge, 'posState', {}),
    catalog: (locale) => call(bridge, 'posCatalog', { locale }),
    chooseStation: (posId) => call(bridge, 'posChooseStation', { posId }),
    openShift: (float) => call(bridge, 'posOpenShift', { float }),
    cash: (input) => call(bridge, 'posCashMovement', input),
    close: (input) => call(bridge, 'posCloseShift', input),
    sell: (input) => call(bridge, 'posSell', input),
    openDrawer: () => call(bridge, 'posOpenDrawer', {}),
    resolvePending: (saleId) => call(bridge, 'posResolvePending', { saleId }),
    confirmReceipt: (input) => call(bridge, 'posConfirmReceipt', input),
    saleOrders: (saleId) => call(bridge, 'posSaleOrders', { saleId }),
    invoicePdf: (invoiceId) => call(bridge, 'posInvoicePdf', { invoiceId }),
  };
}
