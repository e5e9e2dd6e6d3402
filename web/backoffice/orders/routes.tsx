import type { RouteObject } from 'react-router-dom';
import { OrderDetailScreen } from './OrderDetailScreen';
import { OrdersScreen } from './OrdersScreen';

/** Orders: the list and one order's detail (status changes, payments, refunds, receipt). */
export const ordersRoutes: RouteObject[] = [
  { path: 'orders', element: <OrdersScreen /> },
  { path: 'orders/:orderId', element: <OrderDetailScreen /> },
];
