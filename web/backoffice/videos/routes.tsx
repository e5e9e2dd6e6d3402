import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const VideosScreen = lazyScreen(() => import('./VideosScreen'), 'VideosScreen');

/** Videos and video courses, below the back-office shell. */
export const videoRoutes: RouteObject[] = [{ path: 'videos', element: <VideosScreen /> }];
