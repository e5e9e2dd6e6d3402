import { useTranslation } from 'react-i18next';
import { useBackoffice } from './backoffice.api';

/** A date and time in the studio's time zone and the interface language. */
export function useStudioDateTime(): (iso: string) => string {
  const { i18n } = useTranslation();
  const { studio } = useBackoffice();
  const format = new Intl.DateTimeFormat(i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: studio.timeZone,
  });
  return (iso) => format.format(new Date(iso));
}
