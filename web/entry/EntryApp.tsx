import { useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { ErrorReporting } from './reporting';
import {
  DevtoolsScreen,
  FacebookCallbackScreen,
  FileScreen,
  SwitchAccountScreen,
} from './screens/AppPageScreens';
import { DeleteScreen } from './screens/DeleteScreen';
import { KioskScreen } from './screens/KioskScreen';
import { LoginScreen } from './screens/LoginScreen';
import { FirstSegmentRoute, RouteErrorScreen } from './screens/RouteScreens';
import { SearchScreen } from './screens/SearchScreen';
import { SignupScreen } from './screens/SignupScreen';

/** The entry application: history-mode routes of spec §2. */
function createEntryRouter() {
  return createBrowserRouter([
    {
      errorElement: <RouteErrorScreen />,
      children: [
        { path: '/login', element: <LoginScreen /> },
        { path: '/signup', element: <SignupScreen /> },
        { path: '/delete', element: <DeleteScreen /> },
        { path: '/search', element: <SearchScreen /> },
        { path: '/kiosk', element: <KioskScreen /> },
        // The server's utility pages (§2) that have a screen; the other /app/* open /login.
        { path: '/app/devtools', element: <DevtoolsScreen /> },
        { path: '/app/file', element: <FileScreen /> },
        { path: '/app/auth/facebook/callback', element: <FacebookCallbackScreen /> },
        { path: '/app/switch-account', element: <SwitchAccountScreen /> },
        // `/` → /login; any other first segment is a studio uuid (see entry-routes.ts).
        { path: '*', element: <FirstSegmentRoute /> },
      ],
    },
  ]);
}

export function EntryApp() {
  const [router] = useState(createEntryRouter);
  return (
    <ErrorReporting>
      <RouterProvider router={router} />
    </ErrorReporting>
  );
}
