import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { type EnrollInput, type EnrollmentAction } from '../../../../shared/contracts/api/bookings';
import type { ApiClient } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/app-context';
import type { FormErrorOptions } from '../../../lib/form-errors';
import { useStudioUuid } from '../schedule.api';
import { BookingsApi } from '../../../../shared/contracts/http/bookings';
import { ClientsApi } from '../../../../shared/contracts/http/clients';

/** The bookings module's staff calls for one event (cloud/src/modules/bookings/README.md). */
export const eventBookingKeys = {
  all: (studio: string) => ['event-bookings', studio] as const,
  event: (studio: string, eventId: string) => ['event-bookings', studio, eventId] as const,
  search: (studio: string, q: string) => ['event-bookings', studio, 'search', q] as const,
};

export function useEventEnrollments(eventId: string) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: eventBookingKeys.event(studio, eventId),
    queryFn: ({ signal }) =>
      api.call(BookingsApi.getScheduleEventEnrollmentsInit, {
        params: { uuid: studio, scheduleEvent: eventId },
        signal,
      }),
  });
}

/** Client search for enrolling (name, email or phone); starts at 2 characters. */
export function useClientSearch(q: string) {
  const api = useApiClient();
  const studio = useStudioUuid();
  const query = q.trim();
  return useQuery({
    queryKey: eventBookingKeys.search(studio, query),
    queryFn: ({ signal }) =>
      api.call(ClientsApi.getClientSearch, {
        params: { uuid: studio },
        signal,
        query: { q: query, limit: 10 },
      }),
    enabled: query.length >= 2,
    placeholderData: keepPreviousData,
  });
}

export function useInvalidateEventBookings(): () => Promise<void> {
  const client = useQueryClient();
  const studio = useStudioUuid();
  return () => client.invalidateQueries({ queryKey: eventBookingKeys.all(studio) });
}

export function eventBookingCalls(api: ApiClient, studio: string, eventId: string) {
  const params = { uuid: studio, scheduleEvent: eventId };
  return {
    enroll: (input: Partial<EnrollInput> & { clientId: string }) =>
      api.call(BookingsApi.postScheduleEventEnrollmentEnroll, { params, body: input }),
    checkIn: (clientId: string) =>
      api.call(BookingsApi.postScheduleEventCheckIn, { params, body: { clientId } }),
    status: (clientVisitIds: string[], action: EnrollmentAction) =>
      api.call(BookingsApi.postClientEnrollmentStatus, {
        params: { uuid: studio },
        body: { clientVisitIds, action },
      }),
    promote: (clientVisitId: string) =>
      api.call(BookingsApi.postScheduleEventWaitingListPromote, { params, body: { clientVisitId } }),
    move: (clientVisitId: string, position: number) =>
      api.call(BookingsApi.postScheduleEventWaitingListMove, { params, body: { clientVisitId, position } }),
  };
}

const VISIT_ERROR_KEYS = [
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
  'overrideForbidden',
  'tooEarly',
] as const;

/** Booking refusals in the screen's language (labels owned by the bookings module's namespace). */
export const BOOKING_ERROR_OPTIONS: FormErrorOptions = {
  unexpected: 'withCode',
  messagesByKey: Object.fromEntries(VISIT_ERROR_KEYS.map((k) => [`visit.${k}`, `bookings-ui:errors.${k}`])),
};
