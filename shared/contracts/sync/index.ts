export * from './bootstrap';
export * from './commands';
export * from './devices';
export * from './outcomes';
export * from './pull';
export * from './push';
export * from './sales';
export * from './tables';
