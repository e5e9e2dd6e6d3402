import type { QueryClient } from '@tanstack/react-query';
import type { PageContext } from '../../shared/contracts/page-context';
import { frontOfficePath } from '../../shared/contracts/routes';
import type { ApiClient } from '../lib/api-client';
import { resolveStudioUuid } from '../lib/studio-path';
import { meQuery } from '../features/auth/auth.api';
import { studioAppearanceQuery } from '../features/branding/StudioBranding';
import { timetableAnchor, timetableQuery, timetableWeek } from './timetable/timetable.queries';
import { clientScheduleQuery } from './visits/client-bookings.api';

/**
 * A first load of the front office (issue 26): before the language chunk is in, start the screen's
 * chunk (`preloadScreen`) and the queries the layout and the screen will ask for, with the keys they
 * use, so they render from the cache instead of asking one after the other. Only the route opened by
 * URL; later navigations preload on link intent.
 */
export function prefetchFrontoffice(
  { pageContext, api, queryClient }: { pageContext: PageContext; api: ApiClient; queryClient: QueryClient },
  preloadScreen: (path: string) => void,
  location: { pathname: string; search: string } = window.location,
): void {
  const studio = resolveStudioUuid(pageContext.studioUuid, location.pathname);
  if (!studio) return;
  const base = frontOfficePath(studio);
  const path = location.pathname.startsWith(base) ? location.pathname.slice(base.length) || '/' : '/';
  preloadScreen(path);
  const signedIn = Boolean(pageContext.userId && pageContext.sessionId);
  void queryClient.prefetchQuery(studioAppearanceQuery(api, studio));
  if (signedIn) void queryClient.prefetchQuery(meQuery(api, pageContext.userId));
  if (path.replace(/\/$/, '') === '/timetable') {
    const week = timetableWeek(timetableAnchor(new URLSearchParams(location.search)));
    void queryClient.prefetchQuery(timetableQuery(api, studio, week, {}));
    if (signedIn) void queryClient.prefetchQuery(clientScheduleQuery(api, studio, week[0]!, week[6]!));
  }
}
