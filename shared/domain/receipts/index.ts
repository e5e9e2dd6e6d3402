export * from './fiscal-outcome';
export * from './quantity';
export * from './receipt-totals';
export * from './vat-rate';
