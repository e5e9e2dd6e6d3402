import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const CatalogScreen = lazyScreen(() => import('./CatalogScreen'), 'CatalogScreen');
const PricingOptionEditorScreen = lazyScreen(
  () => import('./PricingOptionEditor'),
  'PricingOptionEditorScreen',
);

/** The Catalog section (pricing options, categories, taxes, the bulk change tool). */
export const catalogRoutes: RouteObject[] = [
  { path: 'catalog', element: <CatalogScreen tab="options" /> },
  { path: 'catalog/categories', element: <CatalogScreen tab="categories" /> },
  { path: 'catalog/taxes', element: <CatalogScreen tab="taxes" /> },
  { path: 'catalog/bulk-change', element: <CatalogScreen tab="bulk" /> },
  { path: 'catalog/pricing-options/:id', element: <PricingOptionEditorScreen /> },
];
