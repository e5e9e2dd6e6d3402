import type { ContractInput, ContractView } from '../../../shared/contracts/api/contracts';
import { parsePriceInput } from '../../../shared/domain/money';
import {
  priceText,
  problemCollector,
  sellablePayload,
  sellableValuesOf,
  wholeNumber,
  type MappingResult,
  type SellableFormValues,
} from '../catalog/sellable-form';

/**
 * The contract editor as plain data: what the form holds (texts as typed), how a contract fills it
 * and how it becomes the `POST contract` / `PATCH contract/{contract}` payload. Problems found while
 * mapping come back per payload field as keys of the `contracts` namespace; range checks stay with
 * the server's schema (its messages are translated by the screen).
 */
export interface ContractFormValues extends SellableFormValues {
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
  position: string;
}

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
    ...sellableValuesOf(contract, language),
    periodUnit: contract.periodUnit,
    periodLength: String(contract.periodLength),
    openEnded: contract.durationPeriods === null,
    durationPeriods: contract.durationPeriods === null ? '' : String(contract.durationPeriods),
    activationType: String(contract.activationType),
    proRata: contract.proRata,
    noticePeriods: String(contract.noticePeriods),
    signUpFee: contract.signUpFee === 0 ? '' : priceText(contract.signUpFee, language),
    taxId: contract.taxId ?? '',
    position: String(contract.position),
  };
}

/**
 * The form as the API payload. An open-ended contract sends `durationPeriods: null`; pro rata only
 * means something when billing starts on the first day of the month, so it is sent false otherwise.
 */
export function contractPayload(
  values: ContractFormValues,
  options: { isNew: boolean },
): MappingResult<ContractInput> {
  const { fields, problem } = problemCollector();
  const shared = sellablePayload(values, problem);
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
  if (Object.keys(fields).length > 0) return { ok: false, fields };

  const activationType = Number(values.activationType) as ContractInput['activationType'];
  const payload: ContractInput = {
    ...shared,
    periodUnit: values.periodUnit,
    periodLength: periodLength as number,
    durationPeriods,
    activationType,
    proRata: activationType === 1 ? values.proRata : false,
    noticePeriods: noticePeriods as number,
    signUpFee: signUpFee!,
    position: position as number,
  };
  // A new contract without a chosen tax gets the studio's default; an edit sends what is chosen.
  if (values.taxId || !options.isNew) payload.taxId = values.taxId || null;
  return { ok: true, payload };
}
