import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ScheduleEventPatch,
  ScheduleMetaCreateInput,
  ScheduleMetaPatch,
} from '../../../shared/contracts/api/schedule';
import {
  ScheduleApi,
  ScheduleBulkEventActionApi,
  ScheduleEventActionApi,
} from '../../../shared/contracts/http/schedule';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import type { FormErrorOptions } from '../../lib/form-errors';
import { useStudioUuid } from '../staff/staff.api';

export { useCan, usePhone, useStudioUuid } from '../staff/staff.api';

export const scheduleKeys = {
  all: (studio: string) => ['schedule', studio] as const,
  init: (studio: string) => ['schedule', studio, 'init'] as const,
  events: (studio: string, filters: EventFilters) => ['schedule', studio, 'events', filters] as const,
  meta: (studio: string, id: string) => ['schedule', studio, 'meta', id] as const,
};

export interface EventFilters {
  from: string;
  to: string;
  locationId?: string;
  roomId?: string;
}

export function useScheduleInit() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: scheduleKeys.init(studio),
    queryFn: ({ signal }) => api.call(ScheduleApi.init, { params: { uuid: studio }, signal }),
    staleTime: 60_000,
  });
}

export function useEvents(filters: EventFilters) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: scheduleKeys.events(studio, filters),
    queryFn: ({ signal }) => api.call(ScheduleApi.find, { params: { uuid: studio }, body: filters, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useMeta(id: string | null) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: scheduleKeys.meta(studio, id ?? ''),
    queryFn: ({ signal }) =>
      api.call(ScheduleApi.meta, { params: { uuid: studio, scheduleMetaGuid: id ?? '' }, signal }),
    enabled: Boolean(id),
  });
}

export function useInvalidateSchedule(): () => Promise<void> {
  const client = useQueryClient();
  const studio = useStudioUuid();
  return () => client.invalidateQueries({ queryKey: scheduleKeys.all(studio) });
}

export type EventActionSegment =
  'show' | 'hide' | 'cancel' | 'restore' | 'remove' | 'bookable-online' | 'unbookable-online';

/** The calls that change the timetable. */
export function scheduleCalls(api: ApiClient, studio: string) {
  const uuid = studio;
  return {
    createMeta: (classServiceId: string, input: Partial<ScheduleMetaCreateInput>) =>
      api.call(ScheduleApi.createMeta, {
        params: { uuid, classServiceGuid: classServiceId },
        // The editor sends what the person filled in; the server names what is missing.
        body: input as ScheduleMetaCreateInput,
      }),
    updateMeta: (id: string, patch: ScheduleMetaPatch) =>
      api.call(ScheduleApi.updateMeta, { params: { uuid, scheduleMetaGuid: id }, body: patch }),
    deleteMeta: (id: string) => api.call(ScheduleApi.deleteMeta, { params: { uuid, scheduleMetaGuid: id } }),
    generate: (input: { scheduleMetaIds?: string[]; from?: string; to?: string } = {}) =>
      api.call(ScheduleApi.generate, { params: { uuid }, body: input }),
    action: (eventId: string, segment: EventActionSegment) =>
      api.call(ScheduleEventActionApi[segment]!, { params: { uuid, referenceId: eventId } }),
    bulkAction: (ids: string[], segment: EventActionSegment) =>
      api.call(ScheduleBulkEventActionApi[segment]!, { params: { uuid }, body: { ids } }),
    patchEvent: (eventId: string, patch: ScheduleEventPatch) =>
      api.call(ScheduleApi.patchEvent, { params: { uuid, referenceId: eventId }, body: patch }),
    livestream: (eventId: string, url: string | null) =>
      api.call(ScheduleApi.setLivestream, { params: { uuid, referenceId: eventId }, body: { url } }),
  };
}

export const SCHEDULE_ERROR_OPTIONS: FormErrorOptions = {
  messagesByKey: { 'scheduleEvent.actionNotAllowed': 'schedule:errors.actionNotAllowed' },
};
