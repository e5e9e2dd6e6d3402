import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const RoleEditorScreen = lazyScreen(() => import('./RoleEditorScreen'), 'RoleEditorScreen');
const StaffScreen = lazyScreen(() => import('./StaffScreen'), 'StaffScreen');

/** The Staff section's screens, below the back-office shell (hash routes). */
export const staffRoutes: RouteObject[] = [
  { path: 'staff', element: <StaffScreen tab="members" /> },
  { path: 'staff/roles', element: <StaffScreen tab="roles" /> },
  { path: 'staff/roles/new', element: <RoleEditorScreen /> },
  { path: 'staff/roles/:roleId', element: <RoleEditorScreen /> },
];
