export * from './barcode';
export * from './stock';
