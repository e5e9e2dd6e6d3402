export * from './connection';
export * from './escpos/escpos-ticket-printer';
export * from './escpos/interfaces';
export * from './fiscal-printer';
export * from './i18n';
export {
  FiscalPrinterUnavailableError,
  PosnetFiscalPrinter,
  DEFAULT_POSNET_TIMING,
} from './posnet/posnet-printer';
export type { PosnetPrinterOptions, PosnetTiming } from './posnet/posnet-printer';
export * from './posnet/serial-transport';
export * from './posnet/tcp-transport';
export type { Transport } from './posnet/transport';
export { VatRateNotOnPrinterError } from './posnet/vat-table';
export * from './ticket-printer';
export * from './cloud-settings';
