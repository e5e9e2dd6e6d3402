import { createContext, useContext } from 'react';
import type {
  PosCatalog,
  PosConfirmReceiptInput,
  PosInvoicePdf,
  PosSaleOrders,
  PosSellInput,
  PosSellResult,
  PosShift,
  PosState,
} from '../../../shared/contracts/ipc/pos';
import type { Locale } from '../../../shared/i18n/locales';

/**
 * Where the POS screen sells. In the browser there is none (sales go to the cloud's retail/checkout);
 * in the desktop app the renderer provides the station's sink (desktop/renderer/pos-sink.ts): sales
 * are recorded in the station's SQLite first, printed on its fiscal printer, and synced once; the
 * shift is the station's own (it works offline).
 */
export interface PosStationSink {
  state(): Promise<PosState>;
  catalog(locale: Locale): Promise<PosCatalog>;
  chooseStation(posId: string): Promise<PosState>;
  openShift(float: number): Promise<PosState>;
  cash(input: { kind: 'in' | 'out'; amount: number; reason?: string }): Promise<PosState>;
  close(input: { counted: number; note?: string }): Promise<{ shift: PosShift; state: PosState }>;
  sell(input: PosSellInput): Promise<PosSellResult>;
  openDrawer(): Promise<{ opened: boolean }>;
  resolvePending(saleId: string): Promise<PosState>;
  /** The cashier settles by hand a receipt the printer cannot identify (read from the roll). */
  confirmReceipt(input: PosConfirmReceiptInput): Promise<PosState>;
  /** The cloud's orders of a sale made here (for its invoice); pushed first when still waiting. */
  saleOrders(saleId: string): Promise<PosSaleOrders>;
  invoicePdf(invoiceId: string): Promise<PosInvoicePdf>;
}

const PosStationContext = createContext<PosStationSink | null>(null);
export const PosStationProvider = PosStationContext.Provider;

/** The station's sink in the desktop app; null in the browser. */
export function usePosStation(): PosStationSink | null {
  return useContext(PosStationContext);
}

export const posStationKeys = {
  all: ['pos-station'] as const,
  state: ['pos-station', 'state'] as const,
  catalog: (locale: Locale) => ['pos-station', 'catalog', locale] as const,
};
