export * from './input-types';
export * from './number-input';
export * from './server-errors';
export * from './tax-input';
export * from './text-input';
