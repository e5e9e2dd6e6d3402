/** Where the currency sign goes relative to the amount (spec §9). */
export type CurrencySignPosition = 'before' | 'beforeWithSpace' | 'after';

export interface CurrencyDisplay {
  sign: string;
  position: CurrencySignPosition;
}

/**
 * The spec fixes only the positions; the signs are ours. Local signs where the currency has one
 * ("zł", "kr", "Kč"), "A$"/"C$"/"S$" so dollar currencies stay distinguishable in multi-currency
 * views, and "CHF" because that is how Swiss prices are written.
 */
export const CURRENCY_DISPLAY: Readonly<Record<string, CurrencyDisplay>> = {
  NOK: { sign: 'kr', position: 'after' },
  HUF: { sign: 'Ft', position: 'after' },
  PLN: { sign: 'zł', position: 'after' },
  SEK: { sign: 'kr', position: 'after' },
  DKK: { sign: 'kr', position: 'after' },
  HRK: { sign: 'kn', position: 'after' },
  CZK: { sign: 'Kč', position: 'after' },
  CHF: { sign: 'CHF', position: 'after' },
  AED: { sign: 'د.إ', position: 'before' },
  GBP: { sign: '£', position: 'before' },
  AUD: { sign: 'A$', position: 'before' },
  USD: { sign: '$', position: 'before' },
  CAD: { sign: 'C$', position: 'before' },
  EUR: { sign: '€', position: 'before' },
  INR: { sign: '₹', position: 'before' },
  SGD: { sign: 'S$', position: 'before' },
  BAM: { sign: 'KM', position: 'beforeWithSpace' },
  BRL: { sign: 'R$', position: 'beforeWithSpace' },
  ZAR: { sign: 'R', position: 'beforeWithSpace' },
};

/** Spec §9: any other currency takes the default position, after the amount; its code is the sign. */
export function currencyDisplayOf(currency: string): CurrencyDisplay {
  const code = currency.trim().toUpperCase();
  return CURRENCY_DISPLAY[code] ?? { sign: code, position: 'after' };
}
