import { formatPriceIn, type FormatPriceOptions } from '../../shared/domain/money';

/**
 * Prices on every web screen, in the language on screen (issue 26: one price format per language —
 * the front office showed "10.50 zł" to Polish clients while the back office showed "10,50 zł", the
 * donation page "10,000 zł"). The language follows the app's i18next instance (web/lib/i18n.ts sets
 * it at start and on every switch); the screens re-render on a switch through their `t`.
 */
let language = 'en';

export function setPriceLanguage(next: string): void {
  language = next;
}

/** 1050 PLN → "10,50 zł" in Polish, "10.50 zł" in English (shared/domain/money/format-price.ts). */
export function formatMoney(
  amountInMinorUnits: number,
  currency: string,
  options: Pick<FormatPriceOptions, 'keepTrailingZeros'> = {},
): string {
  return formatPriceIn(language, amountInMinorUnits, currency, options);
}
