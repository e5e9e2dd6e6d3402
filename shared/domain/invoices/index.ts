export * from './amount-in-words';
export * from './correction';
export * from './iban';
export * from './notes';
export * from './numbering';
export * from './payment';
export * from './tax-id';
export * from './totals';
