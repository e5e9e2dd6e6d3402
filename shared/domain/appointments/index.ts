export * from './slots';
export * from './appointment-status';
