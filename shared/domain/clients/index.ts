export * from './birthday';
export * from './csv';
export * from './cursor';
export * from './phone';
export * from './search';
