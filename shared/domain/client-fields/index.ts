export * from './client-fields';
