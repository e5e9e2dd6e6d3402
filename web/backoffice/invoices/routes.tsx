import type { RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const InvoiceDetailScreen = lazyScreen(() => import('./InvoiceDetailScreen'), 'InvoiceDetailScreen');
const InvoicesScreen = lazyScreen(() => import('./InvoicesScreen'), 'InvoicesScreen');
const IssueInvoiceScreen = lazyScreen(() => import('./IssueInvoiceScreen'), 'IssueInvoiceScreen');

/** The Invoices section (list, settings, issue from an order, detail), below the back-office shell. */
export const invoiceRoutes: RouteObject[] = [
  { path: 'invoices', element: <InvoicesScreen tab="list" /> },
  { path: 'invoices/settings', element: <InvoicesScreen tab="settings" /> },
  { path: 'invoices/ksef', element: <InvoicesScreen tab="ksef" /> },
  { path: 'invoices/new', element: <IssueInvoiceScreen /> },
  { path: 'invoices/:invoiceId', element: <InvoiceDetailScreen /> },
];
