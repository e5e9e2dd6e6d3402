export * from './fiscal-outcome';
export * from './quantity';
export * from './receipt-totals';
export * from './vat-rate';
export * from './vat-slots';
export * from './fiscal-outcome-values';
export * from './printer-attention';
