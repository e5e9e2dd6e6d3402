import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const CampaignsScreen = lazyScreen(() => import('./CampaignsScreen'), 'CampaignsScreen');
const CampaignEditor = lazyScreen(() => import('./CampaignEditor'), 'CampaignEditor');

/** Campaigns and automations (issue 23), below the back-office shell. */
export const campaignRoutes: RouteObject[] = [
  { path: 'campaigns', element: <CampaignsScreen /> },
  { path: 'campaigns/:campaign', element: <CampaignEditor /> },
];
