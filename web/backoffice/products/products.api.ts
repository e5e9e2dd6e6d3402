import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type {
  ProductCreateInput,
  ProductPatch,
  StockMovementInput,
  VoucherCreateInput,
  VoucherPatch,
} from '../../../shared/contracts/api/products';
import type { ContractQuery } from '../../../shared/contracts/http/define';
import { ProductsApi } from '../../../shared/contracts/http/products';
import { formatPriceIn } from '../../../shared/domain/money';
import { ApiError, type ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';

type VoucherListQueryInput = NonNullable<ContractQuery<typeof ProductsApi.getVoucherAll>>;

/** Products and vouchers calls (spec §7) and their react-query keys. */
export const productKeys = {
  all: (studio: string) => ['products', studio] as const,
  list: (studio: string, filters: { q?: string; categoryId?: string; status: string }) =>
    ['products', studio, 'list', filters] as const,
  init: (studio: string) => ['products', studio, 'init'] as const,
  vouchers: (studio: string, filters: { q?: string; status: string }) =>
    ['products', studio, 'vouchers', filters] as const,
  restrictionInit: (studio: string) => ['products', studio, 'restriction-init'] as const,
};

export function useStudioUuid(): string {
  return useBackoffice().studio.uuid;
}

export function useCanEdit(): boolean {
  return useBackoffice().member.abilities.includes('settings.edit');
}

export function useProducts(filters: {
  q?: string;
  categoryId?: string;
  status: 'active' | 'archived' | 'all';
}) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useInfiniteQuery({
    queryKey: productKeys.list(studio, filters),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.call(ProductsApi.getProductCollection, {
        params: { uuid: studio },
        signal,
        query: {
          q: filters.q || undefined,
          categoryId: filters.categoryId || undefined,
          status: filters.status,
          limit: 100,
          cursor: pageParam,
        },
      }),
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

export function useProductInit() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: productKeys.init(studio),
    queryFn: ({ signal }) => api.call(ProductsApi.getProductInit, { params: { uuid: studio }, signal }),
  });
}

export function useVouchers(filters: { q?: string; status: string }) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useInfiniteQuery({
    queryKey: productKeys.vouchers(studio, filters),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.call(ProductsApi.getVoucherAll, {
        params: { uuid: studio },
        signal,
        query: {
          q: filters.q || undefined,
          // The screen's select offers the schema's statuses; the server refuses any other.
          status: filters.status as VoucherListQueryInput['status'],
          limit: 100,
          cursor: pageParam,
        },
      }),
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

export function useRestrictionInit(enabled: boolean) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: productKeys.restrictionInit(studio),
    queryFn: ({ signal }) =>
      api.call(ProductsApi.getVoucherRestrictionInit, { params: { uuid: studio }, signal }),
    enabled,
  });
}

export function useInvalidateProducts(): () => Promise<void> {
  const queryClient = useQueryClient();
  const studio = useStudioUuid();
  return () => queryClient.invalidateQueries({ queryKey: productKeys.all(studio) });
}

/**
 * The module's server field messages (English constants of the shared schemas and services), by
 * translation key: the form then shows them in the screen's language.
 */
const SERVER_MESSAGES: Record<string, string> = {
  'the check digit is wrong': 'products:errors.checkDigit',
  'a barcode is 8, 12 or 13 digits (EAN-8, UPC-A, EAN-13)': 'products:errors.barcodeFormat',
  'another product has this barcode': 'products:errors.barcodeTaken',
  'another product has this SKU': 'products:errors.skuTaken',
  'another voucher has this code': 'products:errors.codeTaken',
  'this name is taken': 'products:errors.nameTaken',
  'a number is required': 'products:errors.number',
  'a whole number': 'products:errors.number',
  'at least 0': 'products:errors.notNegative',
  'at least 1': 'products:errors.positive',
  'letters, digits and hyphens, 4 to 32 characters': 'products:errors.codeFormat',
  'a percentage is at most 10000 basis points (100 %)': 'products:errors.percentMax',
  'the last day is before the first day': 'products:errors.validity',
  'choose at least one category, product or pricing option': 'products:errors.targets',
  'invalid date (YYYY-MM-DD)': 'products:errors.date',
  'required: the studio has no tax rates yet': 'products:errors.noTaxes',
};

/** Rethrows an ApiError with its field messages translated where the module knows them. */
export async function translated<T>(t: TFunction, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ApiError) || !error.envelope) throw error;
    const fields = Object.fromEntries(
      Object.entries(error.fields).map(([path, messages]) => [
        path,
        messages.map((m) => {
          const key =
            SERVER_MESSAGES[m] ?? (m.startsWith('at most ') ? 'products:errors.tooLarge' : undefined);
          return key ? t(key) : m;
        }),
      ]),
    );
    throw new ApiError(error.status, { error: { ...error.envelope.error, fields } });
  }
}

export const productCalls = {
  createProduct: (api: ApiClient, studio: string, input: ProductCreateInput) =>
    api.call(ProductsApi.postProduct, { params: { uuid: studio }, body: input }),
  updateProduct: (api: ApiClient, studio: string, id: string, input: ProductPatch) =>
    api.call(ProductsApi.patchProduct, { params: { uuid: studio, product: id }, body: input }),
  recordStock: (api: ApiClient, studio: string, id: string, input: StockMovementInput) =>
    api.call(ProductsApi.postProductStockMovement, { params: { uuid: studio, product: id }, body: input }),
  createVoucher: (api: ApiClient, studio: string, input: VoucherCreateInput) =>
    api.call(ProductsApi.postVoucher, { params: { uuid: studio }, body: input }),
  updateVoucher: (api: ApiClient, studio: string, id: string, input: VoucherPatch) =>
    api.call(ProductsApi.patchVoucher, { params: { uuid: studio, voucher: id }, body: input }),
};

/** Prices as the studio's language writes them ("1 234,50 zł" in Polish). */
export function price(amount: number, currency: string, language: string): string {
  return formatPriceIn(language, amount, currency);
}

/** 2300 → "23%", 550 → "5.5%" ("5,5%" in Polish). */
export function percent(bp: number, language: string): string {
  const text = (bp / 100).toString();
  return `${language.startsWith('pl') ? text.replace('.', ',') : text}%`;
}
