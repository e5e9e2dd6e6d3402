export * from './order-status-rules';
export * from './order-lines';
export * from './order-actions';
