import type { RouteObject } from 'react-router-dom';
import { ContractEditorScreen } from './ContractEditor';
import { ContractsScreen } from './ContractsScreen';

/** The Contracts section (memberships): the list and the editor. */
export const contractsRoutes: RouteObject[] = [
  { path: 'contracts', element: <ContractsScreen /> },
  { path: 'contracts/:id', element: <ContractEditorScreen /> },
];
