import { SegmentedControl, type SegmentedControlProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LOCALES, isLocale } from '../../shared/i18n/locales';
import { changeLocale, currentLocale } from '../lib/i18n';

/**
 * EN/PL switch: changes i18next's language at once and writes the `locale` cookie so the server
 * renders the next page (and reloads) in the same language.
 */
export function LanguageSwitch(props: Omit<SegmentedControlProps, 'data' | 'value' | 'onChange'>) {
  const { t, i18n } = useTranslation('common');
  return (
    <SegmentedControl
      size="xs"
      aria-label={t('language.label')}
      data-testid="language-switch"
      value={currentLocale(i18n)}
      onChange={(value) => {
        if (isLocale(value)) void changeLocale(i18n, value);
      }}
      data={LOCALES.map((locale) => ({
        value: locale,
        label: <span title={t(`language.names.${locale}`)}>{t(`language.short.${locale}`)}</span>,
      }))}
      {...props}
    />
  );
}
