import type { RouteObject } from 'react-router-dom';
import { RoleEditorScreen } from './RoleEditorScreen';
import { StaffScreen } from './StaffScreen';

/** The Staff section's screens, below the back-office shell (hash routes). */
export const staffRoutes: RouteObject[] = [
  { path: 'staff', element: <StaffScreen tab="members" /> },
  { path: 'staff/roles', element: <StaffScreen tab="roles" /> },
  { path: 'staff/roles/new', element: <RoleEditorScreen /> },
  { path: 'staff/roles/:roleId', element: <RoleEditorScreen /> },
];
