import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const ProductsScreen = lazyScreen(() => import('./ProductsScreen'), 'ProductsScreen');

/** The Products section (products by category, vouchers), below the back-office shell. */
export const productRoutes: RouteObject[] = [
  { path: 'products', element: <ProductsScreen tab="products" /> },
  { path: 'products/vouchers', element: <ProductsScreen tab="vouchers" /> },
];
