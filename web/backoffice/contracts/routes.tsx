import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const ContractEditorScreen = lazyScreen(() => import('./ContractEditor'), 'ContractEditorScreen');
const ContractsScreen = lazyScreen(() => import('./ContractsScreen'), 'ContractsScreen');

/** The Contracts section (memberships): the list and the editor. */
export const contractsRoutes: RouteObject[] = [
  { path: 'contracts', element: <ContractsScreen /> },
  { path: 'contracts/:id', element: <ContractEditorScreen /> },
];
