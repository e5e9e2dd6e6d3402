import type { TFunction } from 'i18next';
import { CURRENCIES } from '../../../shared/contracts/api/studio-admin';
import { LOCALES } from '../../../shared/i18n/locales';

/** The time zones offered first (the studio's own, when another, is added in front). */
const TIME_ZONES = [
  'Europe/Warsaw',
  'Europe/Berlin',
  'Europe/London',
  'Europe/Prague',
  'Europe/Vilnius',
  'UTC',
];

type Option = { value: string; label: string };

/**
 * The choices of a studio's language, currency and time zone, for Settings → Studio and the
 * dashboard's setup card alike (`t` of the studio-admin namespace).
 */
export function regionalOptions(
  t: TFunction,
  currentZone: string,
): { language: Option[]; currency: Option[]; timeZone: Option[] } {
  const zones = TIME_ZONES.includes(currentZone) ? TIME_ZONES : [currentZone, ...TIME_ZONES];
  return {
    language: LOCALES.map((l) => ({ value: l, label: t(`languages.${l}`) })),
    currency: CURRENCIES.map((c: string) => ({ value: c, label: c })),
    timeZone: zones.map((z) => ({ value: z, label: z })),
  };
}
