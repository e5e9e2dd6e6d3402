import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime, formatTime } from '../../shared/i18n/dates';
import { useBackoffice } from './backoffice.api';

/** A date and time in the studio's time zone and the interface language ("27.11.2026, 14:30"). */
export function useStudioDateTime(): (iso: string) => string {
  const { i18n } = useTranslation();
  const { studio } = useBackoffice();
  return (iso) => formatDateTime(iso, i18n.language, studio.timeZone);
}

/** The product's date formats (shared/i18n/dates.ts) bound to the interface language and the studio's zone. */
export function useStudioDates(): {
  date: (value: string) => string;
  time: (value: string) => string;
  dateTime: (value: string) => string;
  timeZone: string;
} {
  const { i18n } = useTranslation();
  const { studio } = useBackoffice();
  const zone = studio.timeZone;
  return {
    date: (value) => formatDate(value, i18n.language, zone),
    time: (value) => formatTime(value, i18n.language, zone),
    dateTime: (value) => formatDateTime(value, i18n.language, zone),
    timeZone: zone,
  };
}
