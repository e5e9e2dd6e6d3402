import { describe, expect, it } from 'vitest';
import { printerAttentionKey, type PrinterStateForAttention } from './printer-attention';

const ready: PrinterStateForAttention = {
  online: true,
  paperOut: false,
  coverOpen: false,
  device: 'ready',
  dailyReportNeeded: false,
};

describe('printerAttentionKey', () => {
  it.each([
    [{}, null],
    [{ online: false, paperOut: true }, 'printing:cashier.printerNotResponding'],
    [{ paperOut: true, coverOpen: true }, 'printing:cashier.paperOut'],
    [{ coverOpen: true, dailyReportNeeded: true }, 'printing:cashier.coverOpen'],
    [{ device: 'waitingForUser', dailyReportNeeded: true }, 'printing:cashier.printerWaiting'],
    [{ dailyReportNeeded: true, device: 'busy' }, 'printing:cashier.dailyReportMissing'],
    [{ device: 'busy' }, 'printing:cashier.printerBusy'],
  ] as const)('%o → %s', (change, key) => {
    expect(printerAttentionKey({ ...ready, ...change })).toBe(key);
  });
});
