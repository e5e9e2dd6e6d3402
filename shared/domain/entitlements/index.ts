export * from './local-dates';
export * from './pass-validity';
export * from './pass-choice';
