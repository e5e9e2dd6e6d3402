export * from './currencies';
export * from './format-price';
export * from './parse-price-input';
