import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import {
  type CategoryInput,
  type ClassServiceCreateInput,
  type ClassServicePatch,
  type LocationCreateInput,
  type LocationPatch,
  type RoomInput,
} from '../../../shared/contracts/api/places';
import { PlacesApi } from '../../../shared/contracts/http/places';
import { ScheduleApi } from '../../../shared/contracts/http/schedule';
import type { ServiceType } from '../../../shared/enums/services';
import { ApiError, type ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import type { FormErrorOptions } from '../../lib/form-errors';
import { useStudioUuid } from '../staff/staff.api';

export { useCan, usePhone, useStudioUuid } from '../staff/staff.api';

export type PlacesStatus = 'active' | 'archived';

export const placesKeys = {
  all: (studio: string) => ['places', studio] as const,
  locations: (studio: string, status: PlacesStatus) => ['places', studio, 'locations', status] as const,
  services: (studio: string, status: PlacesStatus) => ['places', studio, 'services', status] as const,
  categories: (studio: string) => ['places', studio, 'categories'] as const,
  init: (studio: string) => ['places', studio, 'init'] as const,
};

export function useLocations(status: PlacesStatus) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: placesKeys.locations(studio, status),
    queryFn: ({ signal }) =>
      api.call(PlacesApi.getLocationAll, { params: { uuid: studio }, query: { status }, signal }),
  });
}

export function useClassServices(status: PlacesStatus) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: placesKeys.services(studio, status),
    queryFn: ({ signal }) =>
      api.call(PlacesApi.getClassServiceAll, { params: { uuid: studio }, query: { status }, signal }),
  });
}

export function useCategories() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: placesKeys.categories(studio),
    queryFn: ({ signal }) =>
      api.call(PlacesApi.getClassServiceCategoryAll, {
        params: { uuid: studio },
        query: { status: 'all' },
        signal,
      }),
  });
}

export function useClassServiceInit() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: placesKeys.init(studio),
    queryFn: ({ signal }) => api.call(PlacesApi.getClassServiceInit, { params: { uuid: studio }, signal }),
  });
}

/** Places feed the schedule's pickers too: refresh both. */
export function useInvalidatePlaces(): () => Promise<void> {
  const client = useQueryClient();
  const studio = useStudioUuid();
  return async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: placesKeys.all(studio) }),
      client.invalidateQueries({ queryKey: ['schedule', studio] }),
    ]);
  };
}

export function placesCalls(api: ApiClient, studio: string) {
  const at = { uuid: studio };
  return {
    createLocation: (input: LocationCreateInput) =>
      api.call(PlacesApi.postLocation, { params: at, body: input }),
    updateLocation: (id: string, patch: LocationPatch) =>
      api.call(PlacesApi.patchLocation, { params: { ...at, location: id }, body: patch }),
    archiveLocation: (id: string, archive: boolean) =>
      api.call(archive ? PlacesApi.archiveLocation : PlacesApi.restoreLocation, {
        params: { ...at, location: id },
      }),
    createRoom: (locationId: string, input: RoomInput) =>
      api.call(PlacesApi.postLocationRoom, { params: { ...at, location: locationId }, body: input }),
    updateRoom: (id: string, patch: Partial<RoomInput>) =>
      api.call(PlacesApi.patchLocationRoom, { params: { ...at, room: id }, body: patch }),
    archiveRoom: (id: string, archive: boolean) =>
      api.call(archive ? PlacesApi.archiveLocationRoom : PlacesApi.restoreLocationRoom, {
        params: { ...at, room: id },
      }),
    createCategory: (input: CategoryInput) =>
      api.call(PlacesApi.postClassServiceCategory, { params: at, body: input }),
    updateCategory: (id: string, patch: Partial<CategoryInput>) =>
      api.call(PlacesApi.patchClassServiceCategory, { params: { ...at, category: id }, body: patch }),
    archiveCategory: (id: string, archive: boolean) =>
      api.call(archive ? PlacesApi.archiveClassServiceCategory : PlacesApi.restoreClassServiceCategory, {
        params: { ...at, category: id },
      }),
    createService: (input: ClassServiceCreateInput) =>
      api.call(PlacesApi.postClassService, { params: at, body: input }),
    updateService: (id: string, patch: ClassServicePatch) =>
      api.call(PlacesApi.patchClassService, { params: { ...at, classService: id }, body: patch }),
    archiveService: (id: string, archive: boolean) =>
      api.call(archive ? PlacesApi.archiveClassService : PlacesApi.restoreClassService, {
        params: { ...at, classService: id },
      }),
    createLevel: (serviceType: ServiceType, name: string) =>
      api.call(ScheduleApi.createExperienceLevel, { params: at, body: { serviceType, name } }),
    reorderLevels: (serviceType: ServiceType, ids: string[]) =>
      api.call(PlacesApi.postExperienceLevelsReorder, { params: at, body: { serviceType, ids } }),
    deleteLevel: (id: string) =>
      api.call(PlacesApi.deleteExperienceLevel, { params: { ...at, experienceLevelGuid: id } }),
  };
}

export const PLACES_ERROR_OPTIONS: FormErrorOptions = {
  messagesByKey: {
    'places.inUse': 'places:errors.inUse',
    'places.archived': 'places:errors.archived',
  },
};

/** Field messages the places module sends, translated; others pass as sent. */
const SERVER_MESSAGES: Record<string, string> = {
  'this name is taken': 'places:errors.nameTaken',
  'listed twice': 'places:errors.listedTwice',
  'this category is archived': 'places:errors.categoryArchived',
  'unknown in this studio': 'places:errors.unknown',
  'a colour like #228be6': 'places:errors.color',
  'a whole number': 'places:errors.wholeNumber',
  'a number is required': 'places:errors.wholeNumber',
};

/** Rethrows an ApiError with its field messages translated where this module knows them. */
export async function translated<T>(t: TFunction, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ApiError) || !error.envelope) throw error;
    const fields = Object.fromEntries(
      Object.entries(error.fields).map(([path, messages]) => [
        path,
        messages.map((m) => {
          const range = /^at (least|most) (\d+)$/.exec(m);
          if (range)
            return t(range[1] === 'least' ? 'places:errors.atLeast' : 'places:errors.atMost', {
              n: range[2],
            });
          if (m.startsWith('not a level of')) return t('places:errors.levelKind');
          const key = SERVER_MESSAGES[m];
          return key ? t(key) : m;
        }),
      ]),
    );
    throw new ApiError(error.status, { error: { ...error.envelope.error, fields } });
  }
}

/** A studio text in the screen's language, else any filled one. */
export function localeValue(text: Record<string, { value: string } | undefined>, language: string): string {
  const lang = language.slice(0, 2);
  return (
    text[lang]?.value ||
    text.en?.value ||
    text.pl?.value ||
    Object.values(text).find((v) => v?.value)?.value ||
    ''
  );
}

/** A form's EN/PL pair as the API's locale text (empty languages left out). */
export function toLocaleText(en: string, pl: string): { en?: { value: string }; pl?: { value: string } } {
  return { ...(en ? { en: { value: en } } : {}), ...(pl ? { pl: { value: pl } } : {}) };
}
