import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, RouterProvider, createBrowserRouter } from 'react-router-dom';
import { PROFILE_DELETION_SLUG, frontOfficePath } from '../../shared/contracts/routes';
import { AppFrame } from '../ui/AppFrame';
import { CenteredMessage } from '../ui/CenteredMessage';
import { useDocumentTitle } from '../ui/use-document-title';
import { FrontofficeHome } from './screens/FrontofficeHome';
import { LoginScreen } from './screens/LoginScreen';
import { NotFoundScreen } from './screens/NotFoundScreen';
import { ProfileDeletionScreen } from './screens/ProfileDeletionScreen';
import { ResetPasswordScreen } from './screens/ResetPasswordScreen';
import { StudioUuidProvider } from './studio';
import { TimetableScreen } from './timetable/TimetableScreen';
import { CoursesScreen } from './courses/CoursesScreen';
import { VisitsScreen } from './visits/VisitsScreen';
import { accountRoutes } from './account/routes';
import { FrontofficeMenu } from './FrontofficeMenu';
import { PriceListScreen } from './pricing/PriceListScreen';
import { MyPassesScreen } from './passes/MyPassesScreen';
import { CartScreen } from './cart/CartScreen';
import { WalletScreen } from './wallet/WalletScreen';
import { PurchasesScreen } from './purchases/PurchasesScreen';
import { FrontofficeDonation } from './donation/DonationScreen';
import { ContractPriceListScreen } from './pricing-contracts/ContractPriceListScreen';

/**
 * Client-facing app, history routing under `/{uuid}/frontoffice` (the server serves this HTML for
 * every path below it). `profile/delete` is where the entry app's /delete flow lands after sign-in.
 */
export function FrontofficeApp({ studioUuid }: { studioUuid: string | null }) {
  const { t } = useTranslation('frontoffice');
  useDocumentTitle(t('title'));
  const router = useMemo(
    () =>
      studioUuid
        ? createBrowserRouter(
            [
              {
                element: <Layout />,
                children: [
                  { index: true, element: <FrontofficeHome /> },
                  { path: 'login', element: <LoginScreen /> },
                  { path: 'reset-password', element: <ResetPasswordScreen /> },
                  { path: PROFILE_DELETION_SLUG, element: <ProfileDeletionScreen /> },
                  { path: 'timetable', element: <TimetableScreen /> },
                  { path: 'courses', element: <CoursesScreen /> },
                  { path: 'pricing/pricing-options', element: <PriceListScreen /> },
                  { path: 'pricing/contracts', element: <ContractPriceListScreen /> },
                  { path: 'passes', element: <MyPassesScreen /> },
                  { path: 'visits', element: <VisitsScreen /> },
                  { path: 'cart', element: <CartScreen /> },
                  { path: 'wallet', element: <WalletScreen /> },
                  { path: 'purchases', element: <PurchasesScreen /> },
                  { path: 'donation', element: <FrontofficeDonation /> },
                  { path: 'donation/payment-status', element: <FrontofficeDonation status /> },
                  ...accountRoutes,
                  // A screen clients should reach also gets a menu entry in nav.ts.
                  { path: '*', element: <NotFoundScreen /> },
                ],
              },
            ],
            { basename: frontOfficePath(studioUuid) },
          )
        : null,
    [studioUuid],
  );

  if (!studioUuid || !router) {
    return (
      <AppFrame title={t('title')}>
        <CenteredMessage title={t('notFound.title')}>{t('notFound.text')}</CenteredMessage>
      </AppFrame>
    );
  }
  return (
    <StudioUuidProvider value={studioUuid}>
      <RouterProvider router={router} />
    </StudioUuidProvider>
  );
}

function Layout() {
  const { t } = useTranslation('frontoffice');
  return (
    <AppFrame title={t('title')} size="md">
      <FrontofficeMenu />
      <Outlet />
    </AppFrame>
  );
}
