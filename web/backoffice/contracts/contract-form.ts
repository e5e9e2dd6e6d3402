import type { ContractInput, ContractView } from '../../../shared/contracts/api/contracts';
import { parsePriceInput } from '../../../shared/domain/money';
import {
  priceText,
  timeWindowsPayload,
  timeWindowValuesOf,
  type TimeWindowValues,
} from '../catalog/pricing-option-form';

/**
 * The contract editor as plain data: what the form holds (texts as typed), how a contract fills it
 * and how it becomes the `POST contract` / `PATCH contract/{contract}` payload. Problems found while
 * mapping come back per payload field as keys of the `contracts` namespace; range checks stay with
 * the server's schema (its messages are translated by the screen).
 */
export interface ContractFormValues {
  nameEn: string;
  namePl: string;
  descriptionEn: string;
  descriptionPl: string;
  /** Price of one period, as typed ("199", "199,90"). */
  price: string;
  periodUnit: 'week' | 'month';
  periodLength: string;
  openEnded: boolean;
  /** Number of periods when not open-ended. */
  durationPeriods: string;
  /** Spec §3 contract activation type as a string for the select: "0" sale date, "1" first day of the month. */
  activationType: string;
  proRata: boolean;
  noticePeriods: string;
  /** '' = no sign-up fee. */
  signUpFee: string;
  /** '' = the studio's default tax (new contracts) / no tax. */
  taxId: string;
  serviceTypes: string[];
  classServiceIds: string[];
  locationIds: string[];
  tagIds: string[];
  /** Days and hours ("HH:MM" texts), as in the pricing-option editor. */
  timeWindows: TimeWindowValues[];
  sellAtDesk: boolean;
  sellOnline: boolean;
  position: string;
}

export type FieldProblems = Record<string, string[]>;
export type MappingResult<T> = { ok: true; payload: T } | { ok: false; fields: FieldProblems };

export function emptyContractForm(): ContractFormValues {
  return {
    nameEn: '',
    namePl: '',
    descriptionEn: '',
    descriptionPl: '',
    price: '',
    periodUnit: 'month',
    periodLength: '1',
    openEnded: false,
    durationPeriods: '12',
    activationType: '0',
    proRata: false,
    noticePeriods: '1',
    signUpFee: '',
    taxId: '',
    serviceTypes: ['classroomPricingOption'],
    classServiceIds: [],
    locationIds: [],
    tagIds: [],
    timeWindows: [],
    sellAtDesk: true,
    sellOnline: true,
    position: '0',
  };
}

export function formFromContract(contract: ContractView, language = 'en'): ContractFormValues {
  return {
    nameEn: contract.name.en?.value ?? '',
    namePl: contract.name.pl?.value ?? '',
    descriptionEn: contract.description.en?.value ?? '',
    descriptionPl: contract.description.pl?.value ?? '',
    price: priceText(contract.price, language),
    periodUnit: contract.periodUnit,
    periodLength: String(contract.periodLength),
    openEnded: contract.durationPeriods === null,
    durationPeriods: contract.durationPeriods === null ? '' : String(contract.durationPeriods),
    activationType: String(contract.activationType),
    proRata: contract.proRata,
    noticePeriods: String(contract.noticePeriods),
    signUpFee: contract.signUpFee === 0 ? '' : priceText(contract.signUpFee, language),
    taxId: contract.taxId ?? '',
    serviceTypes: [...contract.serviceTypes],
    classServiceIds: [...contract.restrictions.classServiceIds],
    locationIds: [...contract.restrictions.locationIds],
    tagIds: [...contract.restrictions.tagIds],
    timeWindows: timeWindowValuesOf(contract.restrictions.timeWindows),
    sellAtDesk: contract.sellAtDesk,
    sellOnline: contract.sellOnline,
    position: String(contract.position),
  };
}

const WHOLE = /^\d+$/;
function wholeNumber(text: string, empty: number | null): number | null | 'invalid' {
  const value = text.trim();
  if (value === '') return empty;
  return WHOLE.test(value) ? Number(value) : 'invalid';
}

function localeText(en: string, pl: string): { en?: { value: string }; pl?: { value: string } } {
  const text: { en?: { value: string }; pl?: { value: string } } = {};
  if (en.trim()) text.en = { value: en.trim() };
  if (pl.trim()) text.pl = { value: pl.trim() };
  return text;
}

/**
 * The form as the API payload. An open-ended contract sends `durationPeriods: null`; pro rata only
 * means something when billing starts on the first day of the month, so it is sent false otherwise.
 */
export function contractPayload(
  values: ContractFormValues,
  options: { isNew: boolean },
): MappingResult<ContractInput> {
  const fields: FieldProblems = {};
  const problem = (path: string, key: string) => (fields[path] ??= []).push(key);

  const name = localeText(values.nameEn, values.namePl);
  if (!name.en && !name.pl) problem('name', 'errors.nameRequired');
  const price = parsePriceInput(values.price);
  if (price === null || price < 0) problem('price', 'errors.price');
  const signUpFee = values.signUpFee.trim() === '' ? 0 : parsePriceInput(values.signUpFee);
  if (signUpFee === null || signUpFee < 0) problem('signUpFee', 'errors.price');
  const periodLength = wholeNumber(values.periodLength, null);
  if (periodLength === null || periodLength === 'invalid' || periodLength < 1)
    problem('periodLength', 'errors.wholePositive');
  let durationPeriods: number | null = null;
  if (!values.openEnded) {
    const parsed = wholeNumber(values.durationPeriods, null);
    if (parsed === null || parsed === 'invalid' || parsed < 1)
      problem('durationPeriods', 'errors.wholePositive');
    else durationPeriods = parsed;
  }
  const noticePeriods = wholeNumber(values.noticePeriods, 0);
  if (noticePeriods === 'invalid') problem('noticePeriods', 'errors.whole');
  const position = wholeNumber(values.position, 0);
  if (position === 'invalid') problem('position', 'errors.whole');
  if (values.serviceTypes.length === 0) problem('serviceTypes', 'errors.serviceTypes');
  const timeWindows = timeWindowsPayload(values.timeWindows, problem);
  if (Object.keys(fields).length > 0) return { ok: false, fields };

  const activationType = Number(values.activationType) as ContractInput['activationType'];
  const payload: ContractInput = {
    name,
    description: localeText(values.descriptionEn, values.descriptionPl),
    price: price!,
    periodUnit: values.periodUnit,
    periodLength: periodLength as number,
    durationPeriods,
    activationType,
    proRata: activationType === 1 ? values.proRata : false,
    serviceTypes: [...values.serviceTypes],
    restrictions: {
      classServiceIds: [...values.classServiceIds],
      locationIds: [...values.locationIds],
      tagIds: [...values.tagIds],
      timeWindows,
    },
    noticePeriods: noticePeriods as number,
    signUpFee: signUpFee!,
    sellAtDesk: values.sellAtDesk,
    sellOnline: values.sellOnline,
    position: position as number,
  };
  // A new contract without a chosen tax gets the studio's default; an edit sends what is chosen.
  if (values.taxId || !options.isNew) payload.taxId = values.taxId || null;
  return { ok: true, payload };
}
