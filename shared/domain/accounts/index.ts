export * from './agreements';
export * from './identity';
export * from './links';
