export * from './payment-status';
export * from './refunds';
