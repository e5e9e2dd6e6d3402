import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GenerateResultSchema,
  ScheduleEventListSchema,
  ScheduleEventSchema,
  ScheduleInitSchema,
  ScheduleMetaSchema,
  type ScheduleEventPatch,
  type ScheduleMetaCreateInput,
  type ScheduleMetaPatch,
} from '../../../shared/contracts/api/schedule';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import type { FormErrorOptions } from '../../lib/form-errors';
import { useStudioUuid } from '../staff/staff.api';

export { useCan, usePhone, useStudioUuid } from '../staff/staff.api';

/** The spec's private v2 calls sit beside v4; the client's root is /api/v4, so v2 is one level up. */
const v2 = (studio: string, path: string) => `../v2/${studio}/${path}`;

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
    queryFn: ({ signal }) => api.get(`${studio}/schedule/init`, { schema: ScheduleInitSchema, signal }),
    staleTime: 60_000,
  });
}

export function useEvents(filters: EventFilters) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: scheduleKeys.events(studio, filters),
    queryFn: ({ signal }) =>
      api.post(`${studio}/schedule/find`, filters, { schema: ScheduleEventListSchema, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useMeta(id: string | null) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: scheduleKeys.meta(studio, id ?? ''),
    queryFn: ({ signal }) =>
      api.get(v2(studio, `schedule-metas/${id}`), { schema: ScheduleMetaSchema, signal }),
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
  return {
    createMeta: (classServiceId: string, input: Partial<ScheduleMetaCreateInput>) =>
      api.post(v2(studio, `class-services/${classServiceId}/schedule-metas`), input, {
        schema: ScheduleMetaSchema,
      }),
    updateMeta: (id: string, patch: ScheduleMetaPatch) =>
      api.patch(v2(studio, `schedule-metas/${id}`), patch, { schema: ScheduleMetaSchema }),
    deleteMeta: (id: string) => api.delete(v2(studio, `schedule-metas/${id}`)),
    generate: (input: { scheduleMetaIds?: string[]; from?: string; to?: string } = {}) =>
      api.post(v2(studio, 'schedule-events/generate'), input, { schema: GenerateResultSchema }),
    action: (eventId: string, segment: EventActionSegment) =>
      api.post(v2(studio, `schedule-events/${eventId}/${segment}`), undefined, {
        schema: ScheduleEventSchema,
      }),
    bulkAction: (ids: string[], segment: EventActionSegment) =>
      api.post(v2(studio, `schedule-events/${segment}/bulk`), { ids }, { schema: ScheduleEventListSchema }),
    patchEvent: (eventId: string, patch: ScheduleEventPatch) =>
      api.patch(v2(studio, `schedule-events/${eventId}`), patch, { schema: ScheduleEventSchema }),
    livestream: (eventId: string, url: string | null) =>
      api.post(v2(studio, `schedule-events/${eventId}/livestream`), { url }, { schema: ScheduleEventSchema }),
  };
}

export const SCHEDULE_ERROR_OPTIONS: FormErrorOptions = {
  messagesByKey: { 'scheduleEvent.actionNotAllowed': 'schedule:errors.actionNotAllowed' },
};
