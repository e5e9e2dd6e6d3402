import { SegmentedControl, type SegmentedControlProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LOCALES, isLocale } from '../../shared/i18n/locales';
import { changeLocale, currentLocale, preloadLocale } from '../lib/i18n';

/**
 * EN/PL switch: changes i18next's language at once and writes the `locale` cookie so the server
 * renders the next page (and reloads) in the same language. Only the page language is downloaded
 * up front; pointing at (or focusing) the switch fetches the others, so the click is instant.
 */
export function LanguageSwitch(props: Omit<SegmentedControlProps, 'data' | 'value' | 'onChange'>) {
  const { t, i18n } = useTranslation('common');
  const warmOthers = () => LOCALES.filter((l) => l !== currentLocale(i18n)).forEach(preloadLocale);
  return (
    <SegmentedControl
      size="xs"
      aria-label={t('language.label')}
      data-testid="language-switch"
      onPointerEnter={warmOthers}
      onFocus={warmOthers}
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
