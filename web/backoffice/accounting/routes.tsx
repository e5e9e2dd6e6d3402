import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const AccountingScreen = lazyScreen(() => import('./AccountingScreen'), 'AccountingScreen');

/** The accountant's files (JPK, the sales register), below the back-office shell. */
export const accountingRoutes: RouteObject[] = [{ path: 'accounting', element: <AccountingScreen /> }];
