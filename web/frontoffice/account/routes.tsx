import type { RouteObject } from 'react-router-dom';
import { ACCOUNT_SLUGS } from './slugs';
import { lazyScreen } from '../../lib/lazy-screen';

const AccountLayout = lazyScreen(() => import('./AccountLayout'), 'AccountLayout');
const IdentityScreen = lazyScreen(() => import('./IdentityScreen'), 'IdentityScreen');
const MessagesScreen = lazyScreen(() => import('./InboxScreens'), 'MessagesScreen');
const NotificationsScreen = lazyScreen(() => import('./InboxScreens'), 'NotificationsScreen');
const LinksScreen = lazyScreen(() => import('./LinksScreen'), 'LinksScreen');
const ProfileScreen = lazyScreen(() => import('./ProfileScreen'), 'ProfileScreen');
const SecurityScreen = lazyScreen(() => import('./SecurityScreen'), 'SecurityScreen');
const SettingsScreen = lazyScreen(() => import('./SettingsScreen'), 'SettingsScreen');
const SignupScreen = lazyScreen(() => import('./SignupScreen'), 'SignupScreen');
const FeedbackScreen = lazyScreen(() => import('./FeedbackScreen'), 'FeedbackScreen');
const VerifyEmailScreen = lazyScreen(() => import('./EmailVerification'), 'VerifyEmailScreen');

/** The client-account routes of the front office (children of its layout route). */
export const accountRoutes: RouteObject[] = [
  { path: ACCOUNT_SLUGS.signup, element: <SignupScreen /> },
  { path: 'verify-email', element: <VerifyEmailScreen /> },
  {
    element: <AccountLayout />,
    children: [
      { path: ACCOUNT_SLUGS.profile, element: <ProfileScreen /> },
      { path: ACCOUNT_SLUGS.security, element: <SecurityScreen /> },
      { path: ACCOUNT_SLUGS.settings, element: <SettingsScreen /> },
      { path: ACCOUNT_SLUGS.identity, element: <IdentityScreen /> },
      { path: ACCOUNT_SLUGS.links, element: <LinksScreen /> },
      { path: ACCOUNT_SLUGS.messages, element: <MessagesScreen /> },
      { path: ACCOUNT_SLUGS.notifications, element: <NotificationsScreen /> },
      { path: ACCOUNT_SLUGS.feedback, element: <FeedbackScreen /> },
    ],
  },
];
