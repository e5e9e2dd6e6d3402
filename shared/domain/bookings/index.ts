export * from './visit-status';
export * from './timing';
export * from './booking-decision';
export * from './fees';
