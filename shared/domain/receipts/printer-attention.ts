import type { PrintingMessageKey } from './fiscal-outcome';

/** What a station last knew about its fiscal printer (the fields the attention rule reads). */
export interface PrinterStateForAttention {
  online: boolean;
  paperOut: boolean;
  coverOpen: boolean;
  device: 'ready' | 'busy' | 'waitingForUser';
  dailyReportNeeded: boolean;
}

/**
 * The one cashier message (namespace `printing`) a printer state calls for, most blocking first:
 * no answer, then paper, cover, the printer waiting for the user, the daily report, busy. Null when
 * the printer can print. The POS and the back office show the same words for the same state.
 */
export function printerAttentionKey(state: PrinterStateForAttention): PrintingMessageKey | null {
  if (!state.online) return 'printing:cashier.printerNotResponding';
  if (state.paperOut) return 'printing:cashier.paperOut';
  if (state.coverOpen) return 'printing:cashier.coverOpen';
  if (state.device === 'waitingForUser') return 'printing:cashier.printerWaiting';
  if (state.dailyReportNeeded) return 'printing:cashier.dailyReportMissing';
  if (state.device === 'busy') return 'printing:cashier.printerBusy';
  return null;
}
