import type { RouteObject } from 'react-router-dom';
import { ProductsScreen } from './ProductsScreen';

/** The Products section (products by category, vouchers), below the back-office shell. */
export const productRoutes: RouteObject[] = [
  { path: 'products', element: <ProductsScreen tab="products" /> },
  { path: 'products/vouchers', element: <ProductsScreen tab="vouchers" /> },
];
