export * from './order-status-rules';
