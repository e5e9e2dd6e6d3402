import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const IntegrationsScreen = lazyScreen(() => import('./IntegrationsScreen'), 'IntegrationsScreen');
const DeliveryLogScreen = lazyScreen(() => import('./DeliveryLogScreen'), 'DeliveryLogScreen');

/** API keys, webhooks and a webhook's delivery log, below the back-office shell. */
export const integrationsRoutes: RouteObject[] = [
  { path: 'integrations', element: <IntegrationsScreen /> },
  { path: 'integrations/webhooks/:webhookId', element: <DeliveryLogScreen /> },
];
