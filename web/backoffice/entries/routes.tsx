import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const EntriesScreen = lazyScreen(() => import('./EntriesScreen'), 'EntriesScreen');

/** Entry services and the desk's entries, below the back-office shell. */
export const entriesRoutes: RouteObject[] = [{ path: 'entries', element: <EntriesScreen /> }];
