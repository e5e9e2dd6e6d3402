import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const OrderDetailScreen = lazyScreen(() => import('./OrderDetailScreen'), 'OrderDetailScreen');
const OrdersScreen = lazyScreen(() => import('./OrdersScreen'), 'OrdersScreen');

/** Orders: the list and one order's detail (status changes, payments, refunds, receipt). */
export const ordersRoutes: RouteObject[] = [
  { path: 'orders', element: <OrdersScreen /> },
  { path: 'orders/:orderId', element: <OrderDetailScreen /> },
];
