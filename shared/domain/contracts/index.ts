export * from './periods';
export * from './schedule';
export * from './termination';
export * from './suspension';
export * from './entitlement';
export * from './visit-entitlement';
