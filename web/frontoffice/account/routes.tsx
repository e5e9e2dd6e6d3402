import type { RouteObject } from 'react-router-dom';
import { AccountLayout } from './AccountLayout';
import { IdentityScreen } from './IdentityScreen';
import { MessagesScreen, NotificationsScreen } from './InboxScreens';
import { LinksScreen } from './LinksScreen';
import { ProfileScreen } from './ProfileScreen';
import { SecurityScreen } from './SecurityScreen';
import { SettingsScreen } from './SettingsScreen';
import { SignupScreen } from './SignupScreen';
import { ACCOUNT_SLUGS } from './slugs';

/** The client-account routes of the front office (children of its layout route). */
export const accountRoutes: RouteObject[] = [
  { path: ACCOUNT_SLUGS.signup, element: <SignupScreen /> },
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
    ],
  },
];
