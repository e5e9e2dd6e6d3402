import type { Locale } from '../../../../../shared/i18n/locales';
import type { Config } from '../../../config';
import { deeplTranslator } from './deepl-translator';

/**
 * A machine translation service behind one interface (issue 25): the back office asks it for a
 * suggestion, a person accepts it by saving. Drivers: DeepL's REST API v2 (`deepl-translator.ts`);
 * tests point that driver at a loopback fake of DeepL's endpoint (`testing/fake-deepl.ts`).
 * Errors are `AppError`s: `translator.unavailable` (refused, failed, unreadable answer) and
 * `translator.quotaExceeded`.
 */
export interface MachineTranslator {
  /** The driver's name, shown with a suggestion. */
  readonly driver: string;
  translate(text: string, from: Locale, to: Locale): Promise<string>;
}

/** The server's translator, or null when none is configured (no DEEPL_API_KEY). */
export function machineTranslator(
  config: Pick<Config, 'DEEPL_API_KEY' | 'DEEPL_API_URL'>,
): MachineTranslator | null {
  if (!config.DEEPL_API_KEY) return null;
  return deeplTranslator({ apiKey: config.DEEPL_API_KEY, baseUrl: config.DEEPL_API_URL });
}
