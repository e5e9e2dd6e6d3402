export * from './code';
export * from './discount';
export * from './redeemability';
export * from './eligibility';
