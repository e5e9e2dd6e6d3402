export * from './sql-set';
