export * from './occurrences';
export * from './generation';
export * from './event-actions';
