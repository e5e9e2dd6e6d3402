import { Suspense, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, RouterProvider, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { PROFILE_DELETION_SLUG, frontOfficePath } from '../../shared/contracts/routes';
import { AppFrame } from '../ui/AppFrame';
import { RouteFallback } from '../ui/RouteFallback';
import { CenteredMessage } from '../ui/CenteredMessage';
import { useDocumentTitle } from '../ui/use-document-title';
import { FrontofficeHome } from './screens/FrontofficeHome';
import { NotFoundScreen } from './screens/NotFoundScreen';
import { StudioUuidProvider } from './studio';
import { accountRoutes } from './account/routes';
import { FrontofficeMenu } from './FrontofficeMenu';
import { createRoutePreloader, lazyScreen, preloadLinksProps, preloadRoute } from '../lib/lazy-screen';
import { StudioLogo, useApplyBranding, useStudioAppearance } from '../features/branding/StudioBranding';
import { useStudioInterfaceTexts } from '../features/translations/StudioInterfaceTexts';
import { useStudioUuid } from './studio';
import { AgreementsGate } from './staff/AgreementsGate';
import { FrontofficeSignOut } from './FrontofficeSignOut';

// Every screen but the landing one is a chunk of its own (the account routes too); pointing at a
// link preloads the screen behind it.
const routePreloader = createRoutePreloader();
const LoginScreen = lazyScreen(() => import('./screens/LoginScreen'), 'LoginScreen');
const ProfileDeletionScreen = lazyScreen(
  () => import('./screens/ProfileDeletionScreen'),
  'ProfileDeletionScreen',
);
const ResetPasswordScreen = lazyScreen(() => import('./screens/ResetPasswordScreen'), 'ResetPasswordScreen');
const TimetableScreen = lazyScreen(() => import('./timetable/TimetableScreen'), 'TimetableScreen');
const CoursesScreen = lazyScreen(() => import('./courses/CoursesScreen'), 'CoursesScreen');
const CourseScreen = lazyScreen(() => import('./courses/CourseScreen'), 'CourseScreen');
const VisitsScreen = lazyScreen(() => import('./visits/VisitsScreen'), 'VisitsScreen');
const AppointmentsScreen = lazyScreen(
  () => import('./appointments/AppointmentsScreen'),
  'AppointmentsScreen',
);
const PriceListScreen = lazyScreen(() => import('./pricing/PriceListScreen'), 'PriceListScreen');
const MyPassesScreen = lazyScreen(() => import('./passes/MyPassesScreen'), 'MyPassesScreen');
const CartScreen = lazyScreen(() => import('./cart/CartScreen'), 'CartScreen');
const WalletScreen = lazyScreen(() => import('./wallet/WalletScreen'), 'WalletScreen');
const PurchasesScreen = lazyScreen(() => import('./purchases/PurchasesScreen'), 'PurchasesScreen');
const FrontofficeDonation = lazyScreen(() => import('./donation/DonationScreen'), 'FrontofficeDonation');
const VideoCoursesScreen = lazyScreen(() => import('./videos/VideoCoursesScreen'), 'VideoCoursesScreen');
const VideoCourseScreen = lazyScreen(() => import('./videos/VideoCoursesScreen'), 'VideoCourseScreen');
const WatchScreen = lazyScreen(() => import('./videos/WatchScreen'), 'WatchScreen');
const UnsubscribeScreen = lazyScreen(() => import('./unsubscribe/UnsubscribeScreen'), 'UnsubscribeScreen');
const DocumentsScreen = lazyScreen(() => import('./documents/DocumentsScreen'), 'DocumentsScreen');
const ContractPriceListScreen = lazyScreen(
  () => import('./pricing-contracts/ContractPriceListScreen'),
  'ContractPriceListScreen',
);

/** The screens under the layout (module level, so a first load can preload its screen before rendering). */
const screenRoutes: RouteObject[] = [
  { index: true, element: <FrontofficeHome /> },
  { path: 'login', element: <LoginScreen /> },
  { path: 'reset-password', element: <ResetPasswordScreen /> },
  { path: PROFILE_DELETION_SLUG, element: <ProfileDeletionScreen /> },
  { path: 'timetable', element: <TimetableScreen /> },
  { path: 'courses', element: <CoursesScreen /> },
  { path: 'course/:slug', element: <CourseScreen /> },
  { path: 'video-courses', element: <VideoCoursesScreen /> },
  { path: 'video-courses/:slug', element: <VideoCourseScreen /> },
  { path: 'video-courses/:slug/watch/:videoEvent', element: <WatchScreen /> },
  { path: 'pricing/pricing-options', element: <PriceListScreen /> },
  { path: 'pricing/contracts', element: <ContractPriceListScreen /> },
  { path: 'passes', element: <MyPassesScreen /> },
  { path: 'visits', element: <VisitsScreen /> },
  { path: 'appointments', element: <AppointmentsScreen /> },
  { path: 'cart', element: <CartScreen /> },
  { path: 'wallet', element: <WalletScreen /> },
  { path: 'purchases', element: <PurchasesScreen /> },
  { path: 'documents', element: <DocumentsScreen /> },
  { path: 'donation', element: <FrontofficeDonation /> },
  { path: 'donation/payment-status', element: <FrontofficeDonation status /> },
  ...accountRoutes,
  { path: 'unsubscribe/:token', element: <UnsubscribeScreen /> },
  // A screen clients should reach also gets a menu entry in nav.ts.
  { path: '*', element: <NotFoundScreen /> },
];

/** Starts loading the lazy screen of a front-office path (`/timetable`) — see prefetch.ts. */
export function preloadFrontofficeScreen(path: string): void {
  preloadRoute([{ children: screenRoutes }], path);
}

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
                element: <Layout basename={frontOfficePath(studioUuid)} preload={routePreloader.preload} />,
                children: screenRoutes,
              },
            ],
            { basename: frontOfficePath(studioUuid) },
          )
        : null,
    [studioUuid],
  );
  useEffect(() => {
    if (router) routePreloader.attach(router);
  }, [router]);

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

function Layout({ basename, preload }: { basename: string; preload: (path: string) => void }) {
  const { t } = useTranslation('frontoffice');
  const preloadProps = useMemo(() => preloadLinksProps(preload, basename), [preload, basename]);
  const studioUuid = useStudioUuid();
  const appearance = useStudioAppearance(studioUuid).data;
  useApplyBranding(appearance);
  useStudioInterfaceTexts(studioUuid);
  return (
    // display: contents — only listens (delegated link intent), adds no box to the layout.
    <div style={{ display: 'contents' }} {...preloadProps}>
      {/* The studio's own name and logo head every screen of its client zone (issue 26). */}
      <AppFrame
        title={<span data-testid="frontoffice-studio-name">{appearance?.name ?? t('title')}</span>}
        logo={<StudioLogo appearance={appearance} />}
        actions={<FrontofficeSignOut />}
        size="md"
      >
        <FrontofficeMenu />
        <AgreementsGate />
        <Suspense fallback={<RouteFallback />}>
          <Outlet />
        </Suspense>
      </AppFrame>
    </div>
  );
}
