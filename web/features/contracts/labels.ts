import type { TFunction } from 'i18next';
import { price } from '../catalog/labels';

/**
 * How a contract's terms read on screen (back office, the client's tab, the front office's price
 * list). Keys live in the `contracts` namespace.
 */
export interface ContractTermsText {
  price: number;
  currency: string;
  periodUnit: 'week' | 'month';
  periodLength: number;
  durationPeriods: number | null;
  noticePeriods: number;
  signUpFee: number;
  proRata: boolean;
  activationType: number;
}

/** "199 zł / month", "80 zł / 2 weeks". */
export function pricePerPeriod(t: TFunction, terms: ContractTermsText, language: string): string {
  return t('contracts:terms.perPeriod', {
    price: price(terms.price, terms.currency, language),
    period: t(`contracts:terms.every.${terms.periodUnit}`, { count: terms.periodLength }),
  });
}

/** "For 12 months" (12 periods of a month), "For 24 weeks", or "Open-ended". */
export function durationLabel(t: TFunction, terms: ContractTermsText): string {
  if (terms.durationPeriods === null) return t('contracts:terms.openEnded');
  const span = t(`contracts:terms.span.${terms.periodUnit}`, {
    count: terms.durationPeriods * terms.periodLength,
  });
  return t('contracts:terms.fixed', { span });
}

export function noticeLabel(t: TFunction, terms: ContractTermsText): string {
  return terms.noticePeriods === 0
    ? t('contracts:terms.noNotice')
    : t('contracts:terms.notice', { count: terms.noticePeriods });
}

export function signUpFeeLabel(t: TFunction, terms: ContractTermsText, language: string): string {
  return terms.signUpFee === 0
    ? t('contracts:terms.noSignUpFee')
    : t('contracts:terms.signUpFee', { price: price(terms.signUpFee, terms.currency, language) });
}

/** "From the sale date" / "From the first day of the month" (+ pro rata). */
export function activationLabel(t: TFunction, terms: ContractTermsText): string {
  const base = t(`enums:contractActivationType.${terms.activationType}`);
  return terms.activationType === 1 && terms.proRata ? `${base}, ${t('contracts:terms.proRata')}` : base;
}

export const CLIENT_CONTRACT_STATUS_COLORS: Record<string, string> = {
  notStarted: 'gray',
  active: 'green',
  suspended: 'yellow',
  ending: 'orange',
  ended: 'gray',
};

export const INSTALMENT_STATUS_COLORS: Record<string, string> = {
  scheduled: 'gray',
  due: 'orange',
  ordered: 'blue',
  paid: 'green',
  suspended: 'yellow',
  cancelled: 'gray',
};
