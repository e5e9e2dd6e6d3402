import { queryOptions } from '@tanstack/react-query';
import { ScheduleApi } from '../../../shared/contracts/http/schedule';
import { isLocalDate } from '../../../shared/domain/entitlements/local-dates';
import type { ApiClient } from '../../lib/api-client';
import { todayIn, visibleDays } from '../../features/schedule/week';

/** The browser's zone until the first answer tells us the studio's (the page context does not carry it). */
export const BROWSER_TZ = Intl.DateTimeFormat().resolvedOptions().timeZone;

export interface TimetableFilters {
  locationId?: string;
  classServiceId?: string;
  instructorId?: string;
}

/** The public timetable of one week (`POST schedule`): the screen's query, and the route's prefetch. */
export function timetableQuery(
  api: ApiClient,
  studio: string,
  week: readonly string[],
  filters: TimetableFilters,
) {
  return queryOptions({
    queryKey: ['timetable', studio, week[0], filters],
    queryFn: ({ signal }) =>
      api.call(ScheduleApi.publicSchedule, {
        params: { uuid: studio },
        body: { from: week[0]!, to: week[6]!, ...filters },
        signal,
      }),
  });
}

/** The day the timetable opens on: `?date=` (back from the sign-in), else today. */
export function timetableAnchor(search: URLSearchParams): string {
  const date = search.get('date');
  return date && isLocalDate(date) ? date : todayIn(BROWSER_TZ);
}

/** The week the timetable opens on (the query always asks for the whole week). */
export const timetableWeek = (anchor: string) => visibleDays(anchor, 'week');
