import type {
  PricingOptionInput,
  PricingOptionView,
  PromotionInput,
  TaxInput,
} from '../../../shared/contracts/api/catalog';
import type { LocalDate } from '../../../shared/domain/entitlements/local-dates';
import { parsePriceInput } from '../../../shared/domain/money';
import { PricingOptionExpirationType } from '../../../shared/enums/pricing-options';
import {
  problemCollector,
  sellablePayload,
  sellableValuesOf,
  wholeNumber,
  type FieldProblems,
  type MappingResult,
  type SellableFormValues,
} from './sellable-form';

/**
 * The pricing-option editor as plain data: what the form holds (texts as typed, choices as ids), how
 * an option fills it, and how it becomes the API payload. Kept out of the components so the mapping
 * is unit-tested without a DOM. Problems found while mapping come back per payload field, as
 * translation keys of the `catalog` namespace.
 */

export type ValidityUnit = 'day' | 'week' | 'month';

export interface PricingOptionFormValues extends SellableFormValues {
  /** '' = no category. */
  categoryId: string;
  /** '' = the studio's default tax (new options) / no tax. */
  taxId: string;
  unlimited: boolean;
  entries: string;
  /** Spec §3 pricing option expiration type, as a string for the select. */
  expirationType: string;
  validityCount: string;
  validityUnit: ValidityUnit;
  validUntil: string;
  /** '' = no limit. */
  limitPerClient: string;
  shareable: boolean;
  /** '' = any number of linked accounts. */
  shareLimit: string;
  position: string;
}

/** Which validity inputs an expiration type shows (and sends). */
export function validityFieldsOf(expirationType: number): {
  count: 'required' | 'months' | null;
  unit: boolean;
  date: boolean;
} {
  switch (expirationType) {
    case PricingOptionExpirationType.saleDate:
    case PricingOptionExpirationType.firstVisit:
      return { count: 'required', unit: true, date: false };
    case PricingOptionExpirationType.calendarMonth:
      // Through the end of the month of activation, or N months counting that one (default 1).
      return { count: 'months', unit: false, date: false };
    case PricingOptionExpirationType.specificDate:
      return { count: null, unit: false, date: true };
    default:
      return { count: null, unit: false, date: false };
  }
}

export function emptyPricingOptionForm(): PricingOptionFormValues {
  return {
    nameEn: '',
    namePl: '',
    descriptionEn: '',
    descriptionPl: '',
    categoryId: '',
    price: '',
    taxId: '',
    unlimited: false,
    entries: '10',
    expirationType: String(PricingOptionExpirationType.saleDate),
    validityCount: '30',
    validityUnit: 'day',
    validUntil: '',
    serviceTypes: ['classroomPricingOption'],
    classServiceIds: [],
    locationIds: [],
    tagIds: [],
    timeWindows: [],
    sellAtDesk: true,
    sellOnline: true,
    limitPerClient: '',
    shareable: false,
    shareLimit: '',
    position: '0',
  };
}

export function formFromPricingOption(option: PricingOptionView, language = 'en'): PricingOptionFormValues {
  return {
    ...sellableValuesOf(option, language),
    categoryId: option.categoryId ?? '',
    taxId: option.taxId ?? '',
    unlimited: option.entries === null,
    entries: option.entries === null ? '' : String(option.entries),
    expirationType: String(option.expirationType),
    validityCount: option.validityCount === null ? '' : String(option.validityCount),
    validityUnit: option.validityUnit ?? 'day',
    validUntil: option.validUntil ?? '',
    limitPerClient: option.limitPerClient === null ? '' : String(option.limitPerClient),
    shareable: option.shareable,
    shareLimit: option.shareLimit === null ? '' : String(option.shareLimit),
    position: String(option.position),
  };
}

/**
 * The form as `POST pricing-option` (and `PATCH`, which takes the same whole shape). Only the
 * validity fields the expiration type uses are sent (the others as null, so switching a type clears
 * them); restrictions are always sent whole. Range checks stay with the server's schema.
 */
export function pricingOptionPayload(
  values: PricingOptionFormValues,
  options: { isNew: boolean },
): MappingResult<PricingOptionInput> {
  const { fields, problem } = problemCollector();
  const shared = sellablePayload(values, problem);

  let entries: number | null = null;
  if (!values.unlimited) {
    const parsed = wholeNumber(values.entries, null);
    if (parsed === null || parsed === 'invalid' || parsed < 1) problem('entries', 'errors.entries');
    else entries = parsed;
  }

  const expirationType = Number(values.expirationType);
  const shown = validityFieldsOf(expirationType);
  let validityCount: number | null = null;
  if (shown.count) {
    const parsed = wholeNumber(values.validityCount, null);
    if (parsed === 'invalid' || (parsed !== null && parsed < 1))
      problem('validityCount', 'errors.wholePositive');
    else if (parsed === null && shown.count === 'required') problem('validityCount', 'errors.required');
    else validityCount = parsed;
  }
  const validUntil = shown.date ? values.validUntil.trim() || null : null;
  if (shown.date && !validUntil) problem('validUntil', 'errors.required');

  const limitPerClient = wholeNumber(values.limitPerClient, null);
  if (limitPerClient === 'invalid' || limitPerClient === 0) problem('limitPerClient', 'errors.wholePositive');
  const shareLimit = values.shareable ? wholeNumber(values.shareLimit, null) : null;
  if (shareLimit === 'invalid' || shareLimit === 0) problem('shareLimit', 'errors.wholePositive');
  const position = wholeNumber(values.position, 0);
  if (position === 'invalid') problem('position', 'errors.wholePositive');

  if (Object.keys(fields).length > 0) return { ok: false, fields };

  const payload: PricingOptionInput = {
    ...shared,
    categoryId: values.categoryId || null,
    entries,
    expirationType: expirationType as PricingOptionInput['expirationType'],
    validityCount,
    validityUnit: shown.unit ? values.validityUnit : null,
    validUntil,
    limitPerClient: limitPerClient as number | null,
    shareable: values.shareable,
    shareLimit: shareLimit as number | null,
    position: position as number,
  };
  // A new option without a chosen tax gets the studio's default; an edit sends what is chosen.
  if (values.taxId || !options.isNew) payload.taxId = values.taxId || null;
  return { ok: true, payload };
}

export interface PromotionFormValues {
  price: string;
  startsOn: LocalDate | '';
  endsOn: LocalDate | '';
}

export function promotionPayload(values: PromotionFormValues): MappingResult<PromotionInput> {
  const fields: FieldProblems = {};
  const price = parsePriceInput(values.price);
  if (price === null || price < 0) fields.price = ['errors.price'];
  if (!values.startsOn) fields.startsOn = ['errors.required'];
  if (!values.endsOn) fields.endsOn = ['errors.required'];
  else if (values.startsOn && values.endsOn < values.startsOn) fields.endsOn = ['errors.endBeforeStart'];
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return { ok: true, payload: { price: price!, startsOn: values.startsOn, endsOn: values.endsOn } };
}

// ---------------------------------------------------------------------------------------- taxes

export interface TaxFormValues {
  name: string;
  /** Percent as typed: "23", "5,5"; ignored when exempt. */
  rate: string;
  exempt: boolean;
  fiscalSlot: string;
  isDefault: boolean;
}

/** "23" → 2300, "5,5" → 550, "0" → 0 basis points; null when not a percentage with ≤ 2 decimals. */
export function parsePercentToBp(text: string): number | null {
  const match = /^(\d{1,3})(?:[.,](\d{1,2}))?$/.exec(text.trim().replace(/\s*%$/, ''));
  if (!match) return null;
  const bp = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return bp <= 10000 ? bp : null;
}

export function bpToPercentText(bp: number, language = 'en'): string {
  const text = (bp / 100).toString();
  return language.startsWith('pl') ? text.replace('.', ',') : text;
}

export function taxPayload(values: TaxFormValues): MappingResult<TaxInput> {
  const fields: FieldProblems = {};
  if (!values.name.trim()) fields.name = ['errors.required'];
  const rateBp = values.exempt ? null : parsePercentToBp(values.rate);
  if (!values.exempt && rateBp === null) fields.rateBp = ['errors.percent'];
  if (!values.fiscalSlot) fields.fiscalSlot = ['errors.required'];
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return {
    ok: true,
    payload: {
      name: values.name.trim(),
      rateBp,
      fiscalSlot: values.fiscalSlot as TaxInput['fiscalSlot'],
      isDefault: values.isDefault,
    },
  };
}

// ----------------------------------------------------------------------------- pass changes

export interface PassChangeFormValues {
  kind: 'extend' | 'freeze' | 'entries';
  extendDays: string;
  freezeFrom: string;
  freezeTo: string;
  /** Signed: "+2", "-1", "3". */
  entriesDelta: string;
  note: string;
}

export interface PassChangePayload {
  extendDays?: number;
  freeze?: { from: string; to: string };
  entriesDelta?: number;
  note?: string;
}

/** One staff change (extend, freeze or entries) with its reason, as `PATCH client-pricing-option`. */
export function passChangePayload(values: PassChangeFormValues): MappingResult<PassChangePayload> {
  const fields: FieldProblems = {};
  const payload: PassChangePayload = {};
  if (values.kind === 'extend') {
    const days = wholeNumber(values.extendDays, null);
    if (days === null || days === 'invalid' || days < 1) fields.extendDays = ['errors.wholePositive'];
    else payload.extendDays = days;
  } else if (values.kind === 'freeze') {
    if (!values.freezeFrom) fields['freeze.from'] = ['errors.required'];
    if (!values.freezeTo) fields['freeze.to'] = ['errors.required'];
    else if (values.freezeFrom && values.freezeTo < values.freezeFrom)
      fields['freeze.to'] = ['errors.endBeforeStart'];
    if (values.freezeFrom && values.freezeTo)
      payload.freeze = { from: values.freezeFrom, to: values.freezeTo };
  } else {
    const match = /^([+-])?\s*(\d+)$/.exec(values.entriesDelta.trim());
    const delta = match ? Number(match[2]) * (match[1] === '-' ? -1 : 1) : NaN;
    if (!Number.isFinite(delta) || delta === 0) fields.entriesDelta = ['errors.delta'];
    else payload.entriesDelta = delta;
  }
  if (!values.note.trim()) fields.note = ['errors.reasonRequired'];
  else payload.note = values.note.trim();
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return { ok: true, payload };
}
