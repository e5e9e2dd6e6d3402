import {
  keepPreviousData,
  queryOptions,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type { BookingResult, ClientSchedule } from '../../../shared/contracts/api/bookings';
import { ClientVisitStatus } from '../../../shared/enums/visits';
import { ScheduleApi } from '../../../shared/contracts/http/schedule';
import { FRONT_OFFICE_QUERY } from '../../../shared/contracts/routes';
import { localDateOf } from '../../../shared/domain/entitlements/local-dates';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient, useSession } from '../../lib/app-context';
import type { FormErrorOptions } from '../../lib/form-errors';
import { useStudioUuid } from '../studio';
import { BookingsApi } from '../../../shared/contracts/http/bookings';

/** The signed-in client's booking calls (front office, cloud/src/modules/bookings/README.md). */
export const clientBookingKeys = {
  all: (studio: string) => ['client-bookings', studio] as const,
  schedule: (studio: string, from: string, to: string) =>
    ['client-bookings', studio, 'schedule', from, to] as const,
  visits: (studio: string, when: string) => ['client-bookings', studio, 'visits', when] as const,
};

export function useSignedIn(): boolean {
  const session = useSession();
  return Boolean(session.userId && session.sessionId);
}

/** The client's layer over a week of the timetable: places left and their own standing per class. */
export function useClientSchedule(from: string, to: string) {
  const api = useApiClient();
  const studio = useStudioUuid();
  const signedIn = useSignedIn();
  return useQuery({
    ...clientScheduleQuery(api, studio, from, to),
    enabled: signedIn,
    placeholderData: keepPreviousData,
  });
}

/** `booking/schedule` of a week: the timetable's query, and the route's prefetch on a first load. */
export function clientScheduleQuery(api: ApiClient, studio: string, from: string, to: string) {
  return queryOptions({
    queryKey: clientBookingKeys.schedule(studio, from, to),
    queryFn: ({ signal }) =>
      api.call(BookingsApi.postBookingSchedule, { params: { uuid: studio }, body: { from, to }, signal }),
    // Staff members browsing the front office are not clients: no booking layer, no retries.
    retry: false,
  });
}

export function useMyVisits(when: 'upcoming' | 'past') {
  const api = useApiClient();
  const studio = useStudioUuid();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: clientBookingKeys.visits(studio, when),
    queryFn: ({ signal }) =>
      api.call(BookingsApi.postClientVisitsInit, {
        params: { uuid: studio },
        body: { when, limit: 100 },
        signal,
      }),
    enabled: signedIn,
  });
}

/** The studio's time zone (the public timetable says it; the page context does not). */
export function useStudioTimeZone(): string {
  const api = useApiClient();
  const studio = useStudioUuid();
  const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const today = localDateOf(new Date(), browser);
  const answer = useQuery({
    queryKey: ['studio-time-zone', studio],
    queryFn: ({ signal }) =>
      api.call(ScheduleApi.publicSchedule, {
        params: { uuid: studio },
        body: { from: today, to: today },
        signal,
      }),
    staleTime: Infinity,
  });
  return answer.data?.timeZone ?? browser;
}

/**
 * Puts a booking call's answer into the cached timetable layers at once (the card says "booked"
 * without waiting for `booking/schedule` again); the caller still refetches them in the background
 * for places left as others see them.
 */
export function applyBookingResult(client: QueryClient, studio: string, result: BookingResult): void {
  const { visit } = result;
  const holds = (status: number | undefined) =>
    status === ClientVisitStatus.booked ||
    status === ClientVisitStatus.unconfirmed ||
    status === ClientVisitStatus.present ||
    status === ClientVisitStatus.absent;
  client.setQueriesData<ClientSchedule>(
    { queryKey: [...clientBookingKeys.all(studio), 'schedule'] },
    (data) => {
      if (!data?.items.some((i) => i.scheduleEventId === visit.event.id)) return data;
      return {
        items: data.items.map((item) => {
          if (item.scheduleEventId !== visit.event.id) return item;
          const before = holds(item.myVisit?.status);
          const after = holds(visit.status);
          return {
            ...item,
            placesLeft: Math.max(0, item.placesLeft + (before ? 1 : 0) - (after ? 1 : 0)),
            myVisit: { id: visit.id, status: visit.status, waitingPosition: visit.waitingPosition },
            // Booked or waiting: no second booking. Cancelled: what booking again gives is for the refetch to say.
            bookOutcome: after || visit.status === ClientVisitStatus.waitingList ? null : item.bookOutcome,
            canCancel: visit.canCancel,
            cancelIsLate: visit.cancelIsLate,
          };
        }),
      };
    },
  );
}

export function useInvalidateClientBookings(): () => Promise<void> {
  const client = useQueryClient();
  const studio = useStudioUuid();
  return () => client.invalidateQueries({ queryKey: clientBookingKeys.all(studio) });
}

export function clientBookingCalls(api: ApiClient, studio: string) {
  return {
    book: (scheduleEventId: string, waitingList = true) =>
      api.call(BookingsApi.postBookingClassroomBook, {
        params: { uuid: studio },
        body: { scheduleEventId, waitingList },
      }),
    cancel: (clientVisitId: string) =>
      api.call(BookingsApi.postBookingClassroomCancel, { params: { uuid: studio }, body: { clientVisitId } }),
    joinWaitingList: (scheduleEventId: string) =>
      api.call(BookingsApi.postWaitinglist, {
        params: { uuid: studio },
        body: { action: 'join', scheduleEventId },
      }),
    leaveWaitingList: (scheduleEventId: string) =>
      api.call(BookingsApi.postWaitinglist, {
        params: { uuid: studio },
        body: { action: 'leave', scheduleEventId },
      }),
  };
}

/** The front-office sign-in that brings the visitor back to `back` (a path inside the front office). */
export function loginPath(back: string): string {
  return `/login?${new URLSearchParams({ [FRONT_OFFICE_QUERY.redirectAfterLogin]: back })}`;
}

const REFUSAL_KEYS = [
  'classFull',
  'alreadyBooked',
  'bookingNotOpen',
  'bookingClosed',
  'notBookableOnline',
  'notAccessible',
  'noPass',
  'conflict',
  'classCancelled',
  'classStarted',
  'notCancellable',
  'statusNotAllowed',
  'notWaiting',
] as const;

export const CLIENT_BOOKING_ERROR_OPTIONS: FormErrorOptions = {
  unexpected: 'withCode',
  messagesByKey: {
    ...Object.fromEntries(REFUSAL_KEYS.map((k) => [`visit.${k}`, `bookings-ui:client.errors.${k}`])),
    // A course's class is booked with the whole course (`booking/course/book`), not on its own.
    'course.bookAsWhole': 'bookings-ui:client.errors.courseBookAsWhole',
  },
};
