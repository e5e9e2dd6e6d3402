import type { RouteObject } from 'react-router-dom';
import { InvoiceDetailScreen } from './InvoiceDetailScreen';
import { InvoicesScreen } from './InvoicesScreen';
import { IssueInvoiceScreen } from './IssueInvoiceScreen';

/** The Invoices section (list, settings, issue from an order, detail), below the back-office shell. */
export const invoiceRoutes: RouteObject[] = [
  { path: 'invoices', element: <InvoicesScreen tab="list" /> },
  { path: 'invoices/settings', element: <InvoicesScreen tab="settings" /> },
  { path: 'invoices/new', element: <IssueInvoiceScreen /> },
  { path: 'invoices/:invoiceId', element: <InvoiceDetailScreen /> },
];
