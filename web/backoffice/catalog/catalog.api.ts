import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { type ManagerPassQuery } from '../../../shared/contracts/api/catalog-screens';
import { resolveLocaleText, type LocaleText } from '../../../shared/domain/locale-text';
import type { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { problemsError as fieldProblemsError } from '../../lib/form-errors';
import { useStructuredSubmit } from '../../ui/use-structured-submit';
import { useBackoffice } from '../backoffice.api';
import type { FieldProblems } from './sellable-form';
import { CatalogApi } from '../../../shared/contracts/http/catalog';
import type { ContractBody } from '../../../shared/contracts/http/define';
import { CatalogScreensApi } from '../../../shared/contracts/http/catalog-screens';

/** The body of a catalog call (the forms build it; the server validates it field by field). */
type BodyOf<K extends keyof typeof CatalogApi> = ContractBody<(typeof CatalogApi)[K]>;

export { formatDateTime, formatDay, price } from '../../features/catalog/labels';

/** Catalog calls (spec §7 "Payments and catalog", client pricing options, manager tools). */
export const catalogKeys = {
  all: (studio: string) => ['catalog', studio] as const,
  options: (studio: string, filters: { categoryId?: string; archived: string }) =>
    ['catalog', studio, 'options', filters] as const,
  init: (studio: string, id?: string) => ['catalog', studio, 'init', id ?? null] as const,
  categories: (studio: string) => ['catalog', studio, 'categories'] as const,
  taxes: (studio: string) => ['catalog', studio, 'taxes'] as const,
  managerPasses: (studio: string, query: ManagerPassQuery) =>
    ['catalog', studio, 'manager-passes', query] as const,
  // Client passes live under the client, so a change refreshes the profile's lists too.
  clientPasses: (studio: string, user: string) => ['catalog', studio, 'client-passes', user] as const,
  pass: (studio: string, id: string) => ['catalog', studio, 'pass', id] as const,
};

export function useStudio() {
  return useBackoffice().studio;
}

export function useCan(ability: string): boolean {
  return useBackoffice().member.abilities.includes(ability);
}

export function usePricingOptions(filters: {
  categoryId?: string;
  archived: 'exclude' | 'only' | 'include';
}) {
  const api = useApiClient();
  const studio = useStudio().uuid;
  return useQuery({
    queryKey: catalogKeys.options(studio, filters),
    queryFn: ({ signal }) =>
      api.call(CatalogApi.getPricingOptionAll, {
        params: { uuid: studio },
        query: { categoryId: filters.categoryId, archived: filters.archived },
        signal,
      }),
  });
}

export function usePricingOptionInit(id?: string) {
  const api = useApiClient();
  const studio = useStudio().uuid;
  return useQuery({
    queryKey: catalogKeys.init(studio, id),
    queryFn: ({ signal }) =>
      api.call(CatalogApi.getPricingOptionInit, {
        params: { uuid: studio },
        query: { pricingOption: id },
        signal,
      }),
  });
}

export function useCategories() {
  const api = useApiClient();
  const studio = useStudio().uuid;
  return useQuery({
    queryKey: catalogKeys.categories(studio),
    queryFn: ({ signal }) =>
      api.call(CatalogApi.getPricingOptionCategoryAll, { params: { uuid: studio }, signal }),
  });
}

export function useTaxes() {
  const api = useApiClient();
  const studio = useStudio().uuid;
  return useQuery({
    queryKey: catalogKeys.taxes(studio),
    queryFn: ({ signal }) => api.call(CatalogApi.getTaxCollection, { params: { uuid: studio }, signal }),
  });
}

export function useManagerPasses(query: ManagerPassQuery, enabled: boolean) {
  const api = useApiClient();
  const studio = useStudio().uuid;
  return useQuery({
    queryKey: catalogKeys.managerPasses(studio, query),
    queryFn: ({ signal }) =>
      api.call(CatalogScreensApi.getManagerToolsClientPricingOptionCollection, {
        params: { uuid: studio },
        signal,
        query: { pricingOptionId: query.pricingOptionId, status: query.status },
      }),
    enabled,
  });
}

export function useClientPasses(user: string) {
  const api = useApiClient();
  const studio = useStudio().uuid;
  return useQuery({
    queryKey: catalogKeys.clientPasses(studio, user),
    queryFn: async ({ signal }) => {
      const [own, shared] = await Promise.all([
        api.call(CatalogApi.getClientClientPricingOptionAll, { params: { uuid: studio, user }, signal }),
        api.call(CatalogApi.getClientClientPricingOptionSharedForMe, {
          params: { uuid: studio, user },
          signal,
        }),
      ]);
      return { own: own.items, shared: shared.items };
    },
  });
}

export function usePassDetail(id: string | null) {
  const api = useApiClient();
  const studio = useStudio().uuid;
  return useQuery({
    queryKey: catalogKeys.pass(studio, id ?? ''),
    queryFn: async ({ signal }) => {
      const [init, visits] = await Promise.all([
        api.call(CatalogApi.getClientPricingOptionInit, { params: { uuid: studio, id: id ?? '' }, signal }),
        api.call(CatalogScreensApi.getClientPricingOptionVisitCollection, {
          params: { uuid: studio, id: id ?? '' },
          signal,
        }),
      ]);
      return { ...init, visits: visits.items };
    },
    enabled: id !== null,
  });
}

export function useInvalidateCatalog(): () => Promise<void> {
  const queryClient = useQueryClient();
  const studio = useStudio().uuid;
  return () => queryClient.invalidateQueries({ queryKey: catalogKeys.all(studio) });
}

export const catalogCalls = {
  createOption: (api: ReturnType<typeof useApiClient>, studio: string, body: unknown) =>
    api.call(CatalogApi.postPricingOption, {
      params: { uuid: studio },
      body: body as BodyOf<'postPricingOption'>,
    }),
  updateOption: (api: ReturnType<typeof useApiClient>, studio: string, id: string, body: unknown) =>
    api.call(CatalogApi.patchPricingOption, {
      params: { uuid: studio, pricingOption: id },
      body: body as BodyOf<'patchPricingOption'>,
    }),
  addPromotion: (api: ReturnType<typeof useApiClient>, studio: string, id: string, body: unknown) =>
    api.call(CatalogApi.postPricingOptionPromotion, {
      params: { uuid: studio, pricingOption: id },
      body: body as BodyOf<'postPricingOptionPromotion'>,
    }),
  deletePromotion: (api: ReturnType<typeof useApiClient>, studio: string, id: string, promotion: string) =>
    api.call(CatalogApi.deletePricingOptionPromotion, {
      params: { uuid: studio, pricingOption: id, promotion },
    }),
  createCategory: (api: ReturnType<typeof useApiClient>, studio: string, body: unknown) =>
    api.call(CatalogApi.postPricingOptionCategory, {
      params: { uuid: studio },
      body: body as BodyOf<'postPricingOptionCategory'>,
    }),
  updateCategory: (api: ReturnType<typeof useApiClient>, studio: string, id: string, body: unknown) =>
    api.call(CatalogApi.patchPricingOptionCategory, {
      params: { uuid: studio, category: id },
      body: body as BodyOf<'patchPricingOptionCategory'>,
    }),
  createTax: (api: ReturnType<typeof useApiClient>, studio: string, body: unknown) =>
    api.call(CatalogApi.postTax, { params: { uuid: studio }, body: body as BodyOf<'postTax'> }),
  updateTax: (api: ReturnType<typeof useApiClient>, studio: string, id: string, body: unknown) =>
    api.call(CatalogApi.patchTax, { params: { uuid: studio, tax: id }, body: body as BodyOf<'patchTax'> }),
  deleteTax: (api: ReturnType<typeof useApiClient>, studio: string, id: string) =>
    api.call(CatalogApi.deleteTax, { params: { uuid: studio, tax: id } }),
  changePass: (api: ReturnType<typeof useApiClient>, studio: string, id: string, body: unknown) =>
    api.call(CatalogApi.patchClientPricingOption, {
      params: { uuid: studio, id },
      body: body as BodyOf<'patchClientPricingOption'>,
    }),
  sharePass: (
    api: ReturnType<typeof useApiClient>,
    studio: string,
    id: string,
    userId: string,
    shared: boolean,
  ) =>
    api.call(CatalogApi.postClientPricingOptionShare, {
      params: { uuid: studio, id },
      body: { userId, shared },
    }),
  bulkChange: (api: ReturnType<typeof useApiClient>, studio: string, body: unknown) =>
    api.call(CatalogApi.postManagerToolsClientPricingOptionBulkChange, {
      params: { uuid: studio },
      body: body as BodyOf<'postManagerToolsClientPricingOptionBulkChange'>,
    }),
};

/**
 * Server field messages of the catalog (English constants of the shared schemas and services), by
 * translation key of the `catalog` namespace; the form then speaks the screen's language.
 */
const SERVER_MESSAGES: Record<string, string> = {
  required: 'errors.required',
  'a number is required': 'errors.number',
  'at least 1': 'errors.wholePositive',
  'must not be negative': 'errors.price',
  'in minor units (grosze, cents)': 'errors.price',
  'too large': 'errors.tooLarge',
  'invalid date (YYYY-MM-DD)': 'errors.date',
  'must end after it starts': 'errors.timeOrder',
  'must not end before it starts': 'errors.endBeforeStart',
  'choose at least one day': 'errors.weekdays',
  'choose at least one kind of service': 'errors.serviceTypes',
  'unknown in this studio': 'errors.unknownChoice',
  'another promotion runs in this period': 'errors.promotionOverlap',
  'another tax already uses this fiscal slot': 'errors.slotTaken',
  'a tax with this name already exists': 'errors.taxNameTaken',
  'this tax is still used by the catalog': 'errors.taxInUse',
  'this pass has unlimited entries': 'errors.unlimitedEntries',
  'must not be 0': 'errors.delta',
  'choose a change: extend, freeze or entries': 'errors.chooseChange',
  'this pass cannot be shared': 'errors.notShareable',
  'not a linked account of the pass owner in this studio': 'errors.notLinked',
  'shared with as many accounts as allowed': 'errors.shareLimit',
  'choose at least one pass': 'errors.choosePasses',
  'a whole number of basis points': 'errors.percent',
  'at most 100 %': 'errors.percent',
  'this pricing option is archived': 'errors.archivedOption',
  'this pricing option is not sold at the desk': 'errors.notAtDesk',
  'this pricing option’s validity date has passed': 'errors.datePassed',
  'the client has bought this as many times as allowed': 'errors.limitReached',
};

export function translateServerMessage(t: TFunction, message: string): string {
  const key = SERVER_MESSAGES[message];
  if (key) return t(`catalog:${key}`);
  const fewer = /^would leave fewer entries than the (\d+) already used$/.exec(message);
  if (fewer) return t('catalog:errors.belowUsed', { used: fewer[1] });
  if (message.startsWith('at most ')) return t('catalog:errors.tooLarge');
  return message;
}

/** A failed mapping (client-side problems, as catalog keys) as the 400 the server would give. */
export function problemsError(t: TFunction, fields: FieldProblems): ApiError {
  return fieldProblemsError((key) => t(`catalog:${key}`), fields);
}

/** The structured submit (web/ui) with the catalog's server messages in the screen's language. */
export function useCatalogSubmit(fieldNames: readonly string[]) {
  return useStructuredSubmit(fieldNames, { translateServerMessage });
}

/** 2300 → "23%", 550 → "5.5%" ("5,5%" in Polish); null → the exempt label. */
export function percent(bp: number | null, language: string, exempt: string): string {
  if (bp === null) return exempt;
  const text = (bp / 100).toString();
  return `${language.startsWith('pl') ? text.replace('.', ',') : text}%`;
}

export function useLocaleName() {
  const { i18n } = useTranslation();
  const studio = useStudio();
  return (text: Record<string, { value: string }> | undefined) =>
    resolveLocaleText(text as LocaleText, i18n.language, studio.defaultLocale);
}
