import { AppError } from '../../../../../shared/errors';
import type { Locale } from '../../../../../shared/i18n/locales';
import type { MachineTranslator } from './machine-translator';

/**
 * DeepL's REST API v2, `POST /v2/translate` (developers.deepl.com/api-reference/translate): JSON body
 * `{ text: [..], source_lang, target_lang }`, header `Authorization: DeepL-Auth-Key <key>`, answer
 * `{ translations: [{ detected_source_language, text }] }`. Free-plan keys (suffix `:fx`) live on
 * api-free.deepl.com. English as a target needs a variant: EN-GB (the studios are European).
 * 429 (too many requests) and 456 (quota exceeded) are "try later"; anything else is unavailable.
 */
const SOURCE: Record<Locale, string> = { en: 'EN', pl: 'PL' };
const TARGET: Record<Locale, string> = { en: 'EN-GB', pl: 'PL' };
const TIMEOUT_MS = 10_000;

export function deeplTranslator(options: {
  apiKey: string;
  baseUrl?: string;
  fetchImpl?: typeof fetch;
}): MachineTranslator {
  const base = (
    options.baseUrl ??
    (options.apiKey.endsWith(':fx') ? 'https://api-free.deepl.com' : 'https://api.deepl.com')
  ).replace(/\/+$/, '');
  const doFetch = options.fetchImpl ?? fetch;
  return {
    driver: 'deepl',
    async translate(text, from, to) {
      let response: Response;
      try {
        response = await doFetch(`${base}/v2/translate`, {
          method: 'POST',
          headers: {
            authorization: `DeepL-Auth-Key ${options.apiKey}`,
            'content-type': 'application/json',
            'user-agent': 'studio-platform/1',
          },
          body: JSON.stringify({ text: [text], source_lang: SOURCE[from], target_lang: TARGET[to] }),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch {
        throw new AppError('translator.unavailable', { message: 'the translation service did not answer' });
      }
      if (response.status === 429 || response.status === 456)
        throw new AppError('translator.quotaExceeded', {
          message: 'the translation service has no quota left for now',
        });
      if (!response.ok)
        throw new AppError('translator.unavailable', {
          message: `the translation service answered ${response.status}`,
        });
      const body = (await response.json().catch(() => null)) as {
        translations?: Array<{ text?: unknown }>;
      } | null;
      const translated = body?.translations?.[0]?.text;
      if (typeof translated !== 'string')
        throw new AppError('translator.unavailable', { message: 'the translation service answered nothing' });
      return translated;
    },
  };
}
