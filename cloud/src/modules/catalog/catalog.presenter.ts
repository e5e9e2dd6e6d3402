import type {
  PricingOptionCategoryView,
  PricingOptionView,
  PromotionView,
} from '../../../../shared/contracts/api/catalog';
import type { LocaleText } from '../../../../shared/domain/locale-text/locale-text';
import type { ValidityUnit } from '../../../../shared/domain/entitlements/pass-validity';
import type { FiscalSlot, TaxView } from '../../../../shared/contracts/api/catalog';
import type { PricingOptionCategoriesRow, TaxesRow } from '../../db/generated/tables';

export const iso = (value: Date | string): string =>
  (value instanceof Date ? value : new Date(value)).toISOString();

export type TaxRow = Pick<
  TaxesRow,
  'id' | 'studioId' | 'name' | 'rateBp' | 'fiscalSlot' | 'isDefault' | 'createdAt'
>;

export function presentTax(row: TaxRow): TaxView {
  return {
    id: row.id,
    name: row.name,
    rateBp: row.rateBp,
    fiscalSlot: row.fiscalSlot as FiscalSlot,
    isDefault: row.isDefault,
    createdAt: iso(row.createdAt),
  };
}

type NameJson = Record<string, { value: string }>;
const localeText = (value: unknown): NameJson =>
  (typeof value === 'string' ? JSON.parse(value) : (value ?? {})) as NameJson;

/** A `date` column as 'YYYY-MM-DD' whatever the driver made of it. */
export const dateOnly = (value: Date | string | null): string | null => {
  if (value === null) return null;
  if (typeof value === 'string') return value.slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
};

export type CategoryRow = Pick<PricingOptionCategoriesRow, 'id' | 'name' | 'position' | 'archivedAt'>;

export function presentCategory(row: CategoryRow): PricingOptionCategoryView {
  return {
    id: row.id,
    name: localeText(row.name),
    position: row.position,
    archived: row.archivedAt !== null,
  };
}

export interface PromotionRow {
  id: string;
  pricingOptionId: string;
  price: number;
  startsOn: Date | string;
  endsOn: Date | string;
}

export function presentPromotion(row: PromotionRow): PromotionView {
  return { id: row.id, price: row.price, startsOn: dateOnly(row.startsOn)!, endsOn: dateOnly(row.endsOn)! };
}

export interface PricingOptionRow {
  id: string;
  studioId: string;
  name: LocaleText;
  description: LocaleText;
  categoryId: string | null;
  price: number;
  taxId: string | null;
  taxRateBp: number;
  /** From the joined tax: null when exempt or when the option has no tax row. */
  joinedTaxRateBp?: number | null;
  entries: number | null;
  expirationType: number;
  validityCount: number | null;
  validityUnit: string | null;
  validUntil: Date | string | null;
  serviceTypes: string[];
  restrictions: Partial<PricingOptionView['restrictions']>;
  sellAtDesk: boolean;
  sellOnline: boolean;
  limitPerClient: number | null;
  shareable: boolean;
  shareLimit: number | null;
  position: number;
  archivedAt: Date | null;
}

/** The price on a studio's calendar day: a promotion running that day, else the list price. */
export function priceOn(listPrice: number, promotions: PromotionView[], day: string): number {
  const running = promotions.find((p) => p.startsOn <= day && day <= p.endsOn);
  return running ? running.price : listPrice;
}

export function presentPricingOption(
  row: PricingOptionRow,
  promotions: PromotionView[],
  currency: string,
  today: string,
): PricingOptionView {
  const r = row.restrictions ?? {};
  return {
    id: row.id,
    name: localeText(row.name),
    description: localeText(row.description),
    categoryId: row.categoryId,
    price: row.price,
    currentPrice: priceOn(row.price, promotions, today),
    currency,
    taxId: row.taxId,
    taxRateBp: row.taxId ? (row.joinedTaxRateBp ?? null) : row.taxRateBp,
    entries: row.entries,
    expirationType: row.expirationType,
    validityCount: row.validityCount,
    validityUnit: row.validityUnit as ValidityUnit | null,
    validUntil: dateOnly(row.validUntil),
    serviceTypes: row.serviceTypes,
    restrictions: {
      classServiceIds: r.classServiceIds ?? [],
      locationIds: r.locationIds ?? [],
      timeWindows: r.timeWindows ?? [],
      tagIds: r.tagIds ?? [],
    },
    sellAtDesk: row.sellAtDesk,
    sellOnline: row.sellOnline,
    limitPerClient: row.limitPerClient,
    shareable: row.shareable,
    shareLimit: row.shareLimit,
    position: row.position,
    archived: row.archivedAt !== null,
    promotions,
  };
}
