import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import {
  ClassServiceInitSchema,
  ExperienceLevelReorderResultSchema,
  PlaceCategoryListSchema,
  PlaceCategorySchema,
  PlaceClassServiceListSchema,
  PlaceClassServiceSchema,
  PlaceLocationListSchema,
  PlaceLocationSchema,
  PlaceRoomSchema,
  type CategoryInput,
  type ClassServiceCreateInput,
  type ClassServicePatch,
  type LocationCreateInput,
  type LocationPatch,
  type RoomInput,
} from '../../../shared/contracts/api/places';
import type { ServiceType } from '../../../shared/enums/services';
import { ApiError, type ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import type { FormErrorOptions } from '../../lib/form-errors';
import { useStudioUuid } from '../staff/staff.api';

export { useCan, usePhone, useStudioUuid } from '../staff/staff.api';

export type PlacesStatus = 'active' | 'archived';

/** The spec's private v2 calls sit beside v4; the client's root is /api/v4, so v2 is one level up. */
const v2 = (studio: string, path: string) => `../v2/${studio}/${path}`;

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
      api.get(`${studio}/location/all`, { schema: PlaceLocationListSchema, signal, query: { status } }),
  });
}

export function useClassServices(status: PlacesStatus) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: placesKeys.services(studio, status),
    queryFn: ({ signal }) =>
      api.get(`${studio}/class-service/all`, {
        schema: PlaceClassServiceListSchema,
        signal,
        query: { status },
      }),
  });
}

export function useCategories() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: placesKeys.categories(studio),
    queryFn: ({ signal }) =>
      api.get(`${studio}/class-service-category/all`, {
        schema: PlaceCategoryListSchema,
        signal,
        query: { status: 'all' },
      }),
  });
}

export function useClassServiceInit() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: placesKeys.init(studio),
    queryFn: ({ signal }) =>
      api.get(`${studio}/class-service/init`, { schema: ClassServiceInitSchema, signal }),
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
  return {
    createLocation: (input: LocationCreateInput) =>
      api.post(`${studio}/location`, input, { schema: PlaceLocationSchema }),
    updateLocation: (id: string, patch: LocationPatch) =>
      api.patch(`${studio}/location/${id}`, patch, { schema: PlaceLocationSchema }),
    archiveLocation: (id: string, archive: boolean) =>
      api.post(`${studio}/location/${id}/${archive ? 'archive' : 'restore'}`, undefined, {
        schema: PlaceLocationSchema,
      }),
    createRoom: (locationId: string, input: RoomInput) =>
      api.post(`${studio}/location/${locationId}/location-room`, input, { schema: PlaceRoomSchema }),
    updateRoom: (id: string, patch: Partial<RoomInput>) =>
      api.patch(`${studio}/location-room/${id}`, patch, { schema: PlaceRoomSchema }),
    archiveRoom: (id: string, archive: boolean) =>
      api.post(`${studio}/location-room/${id}/${archive ? 'archive' : 'restore'}`, undefined, {
        schema: PlaceRoomSchema,
      }),
    createCategory: (input: CategoryInput) =>
      api.post(`${studio}/class-service-category`, input, { schema: PlaceCategorySchema }),
    updateCategory: (id: string, patch: Partial<CategoryInput>) =>
      api.patch(`${studio}/class-service-category/${id}`, patch, { schema: PlaceCategorySchema }),
    archiveCategory: (id: string, archive: boolean) =>
      api.post(`${studio}/class-service-category/${id}/${archive ? 'archive' : 'restore'}`, undefined, {
        schema: PlaceCategorySchema,
      }),
    createService: (input: ClassServiceCreateInput) =>
      api.post(`${studio}/class-service`, input, { schema: PlaceClassServiceSchema }),
    updateService: (id: string, patch: ClassServicePatch) =>
      api.patch(`${studio}/class-service/${id}`, patch, { schema: PlaceClassServiceSchema }),
    archiveService: (id: string, archive: boolean) =>
      api.post(`${studio}/class-service/${id}/${archive ? 'archive' : 'restore'}`, undefined, {
        schema: PlaceClassServiceSchema,
      }),
    createLevel: (serviceType: ServiceType, name: string) =>
      api.post(v2(studio, 'experience-levels'), { serviceType, name }),
    reorderLevels: (serviceType: ServiceType, ids: string[]) =>
      api.post(
        v2(studio, 'experience-levels/reorder'),
        { serviceType, ids },
        {
          schema: ExperienceLevelReorderResultSchema,
        },
      ),
    deleteLevel: (id: string) => api.delete<void>(v2(studio, `experience-levels/${id}`)),
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
