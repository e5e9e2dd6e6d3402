export * from './locale-text';
