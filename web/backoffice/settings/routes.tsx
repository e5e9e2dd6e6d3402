import { Navigate, type RouteObject } from 'react-router-dom';
import { lazyScreen } from '../../lib/lazy-screen';

const ClientFieldsScreen = lazyScreen(() => import('./ClientFieldsScreen'), 'ClientFieldsScreen');
const FiscalPrintersScreen = lazyScreen(() => import('./FiscalPrintersScreen'), 'FiscalPrintersScreen');
const PaymentProvidersScreen = lazyScreen(() => import('./PaymentProvidersScreen'), 'PaymentProvidersScreen');
const CheckInScreen = lazyScreen(() => import('./CheckInScreen'), 'CheckInScreen');
const StationsScreen = lazyScreen(() => import('./StationsScreen'), 'StationsScreen');
const StudioProfileScreen = lazyScreen(
  () => import('../studio-admin/StudioProfileScreen'),
  'StudioProfileScreen',
);
const PoliciesScreen = lazyScreen(() => import('../studio-admin/PoliciesScreen'), 'PoliciesScreen');
const AppearanceScreen = lazyScreen(() => import('../studio-admin/AppearanceScreen'), 'AppearanceScreen');
const AgreementsScreen = lazyScreen(() => import('../studio-admin/AgreementsScreen'), 'AgreementsScreen');
const BankAccountsScreen = lazyScreen(
  () => import('../studio-admin/BankAccountsScreen'),
  'BankAccountsScreen',
);
const StudioDocumentsScreen = lazyScreen(
  () => import('../studio-admin/StudioDocumentsScreen'),
  'StudioDocumentsScreen',
);
const PremiumAppsScreen = lazyScreen(() => import('../studio-admin/PremiumAppsScreen'), 'PremiumAppsScreen');

const SubscriptionScreen = lazyScreen(
  () => import('../subscription/SubscriptionScreen'),
  'SubscriptionScreen',
);
const TranslationsScreen = lazyScreen(
  () => import('../translations/TranslationsScreen'),
  'TranslationsScreen',
);

/** The Settings area below the back-office shell; the studio's profile is its first page. */
export const settingsRoutes: RouteObject[] = [
  { path: 'settings', element: <Navigate to="/settings/studio" replace /> },
  { path: 'settings/studio', element: <StudioProfileScreen /> },
  { path: 'settings/policies', element: <PoliciesScreen /> },
  { path: 'settings/appearance', element: <AppearanceScreen /> },
  { path: 'settings/agreements', element: <AgreementsScreen /> },
  { path: 'settings/bank-accounts', element: <BankAccountsScreen /> },
  { path: 'settings/documents', element: <StudioDocumentsScreen /> },
  { path: 'settings/translations', element: <TranslationsScreen /> },
  { path: 'settings/premium-apps', element: <PremiumAppsScreen /> },
  { path: 'settings/fiscal-printers', element: <FiscalPrintersScreen /> },
  { path: 'settings/client-fields', element: <ClientFieldsScreen /> },
  { path: 'settings/stations', element: <StationsScreen /> },
  { path: 'settings/payment-providers', element: <PaymentProvidersScreen /> },
  { path: 'settings/check-in', element: <CheckInScreen /> },
  { path: 'settings/subscription', element: <SubscriptionScreen /> },
];
