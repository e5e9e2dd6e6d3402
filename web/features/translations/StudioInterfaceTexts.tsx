import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { TranslationsApi } from '../../../shared/contracts/http/translations';
import { isLocale } from '../../../shared/i18n/locales';
import { useApiClient } from '../../lib/app-context';

/**
 * Lays the studio's own wording of interface texts (Settings → Translations → Interface texts) over
 * ours, in the page's language, on the front office and the kiosk (issue 25). The texts are added
 * to i18next's store and the screens re-render once (react-i18next listens to `languageChanged`).
 */
export function useStudioInterfaceTexts(uuid: string | null): void {
  const api = useApiClient();
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const locale = isLocale(language) ? language : null;
  const texts = useQuery({
    queryKey: ['studio-interface-texts', uuid, locale],
    queryFn: ({ signal }) =>
      api.call(TranslationsApi.publicInterfaceTexts, {
        params: { uuid: uuid! },
        query: { locale: locale! },
        signal,
      }),
    enabled: Boolean(uuid && locale),
    staleTime: 60_000,
  }).data;
  useEffect(() => {
    if (!texts || Object.keys(texts.texts).length === 0) return;
    for (const [fullKey, value] of Object.entries(texts.texts)) {
      const at = fullKey.indexOf(':');
      if (at > 0) i18n.addResource(texts.locale, fullKey.slice(0, at), fullKey.slice(at + 1), value);
    }
    if (i18n.language === texts.locale) i18n.emit('languageChanged', texts.locale);
  }, [texts, i18n]);
}
