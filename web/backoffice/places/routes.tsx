import { Navigate, type RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const PlacesScreen = lazyScreen(() => import('./PlacesScreen'), 'PlacesScreen');

/** The Places section below the back-office shell (hash routes). */
export const placesRoutes: RouteObject[] = [
  { path: 'places', element: <Navigate to="/places/locations" replace /> },
  { path: 'places/locations', element: <PlacesScreen page="locations" /> },
  { path: 'places/services', element: <PlacesScreen page="services" /> },
];
