import { currencyDisplayOf } from './currencies';

export interface PriceNumberFormat {
  thousandsSeparator: string;
  decimalSeparator: string;
}

/** Spec §9 number defaults, used everywhere unless a caller asks for a locale's format. */
export const DEFAULT_PRICE_NUMBER_FORMAT: PriceNumberFormat = {
  thousandsSeparator: ',',
  decimalSeparator: '.',
};

/**
 * Polish convention, offered for callers that want it. A plain space rather than a no-break space so
 * the same string works on receipts and in emails.
 */
export const POLISH_PRICE_NUMBER_FORMAT: PriceNumberFormat = {
  thousandsSeparator: ' ',
  decimalSeparator: ',',
};

export interface FormatPriceOptions extends Partial<PriceNumberFormat> {
  /** Keep ".00" on whole amounts (e.g. price columns that should line up); dropped by default. */
  keepTrailingZeros?: boolean;
}

const THOUSANDS = /\B(?=(\d{3})+(?!\d))/g;

/**
 * Formats an amount in minor units (cents) for display: 1050 USD → "$10.50", 100000 PLN → "1,000 zł",
 * -500 USD → "-$5".
 */
export function formatPrice(
  amountInMinorUnits: number,
  currency: string,
  options: FormatPriceOptions = {},
): string {
  if (!Number.isSafeInteger(amountInMinorUnits)) {
    throw new RangeError(`price must be a whole number of minor units, got ${amountInMinorUnits}`);
  }
  const { thousandsSeparator, decimalSeparator } = {
    ...DEFAULT_PRICE_NUMBER_FORMAT,
    ...definedOnly(options),
  };

  // Split on the integer so no float ever stands for money: (abs - cents) is an exact multiple of 100.
  const absolute = Math.abs(amountInMinorUnits);
  const cents = absolute % 100;
  const units = (absolute - cents) / 100;

  const whole = String(units).replace(THOUSANDS, thousandsSeparator);
  const fraction =
    cents === 0 && !options.keepTrailingZeros ? '' : decimalSeparator + String(cents).padStart(2, '0');
  const number = whole + fraction;
  const minus = amountInMinorUnits < 0 ? '-' : '';

  const { sign, position } = currencyDisplayOf(currency);
  if (sign === '') return minus + number;
  switch (position) {
    case 'before':
      return `${minus}${sign}${number}`;
    case 'beforeWithSpace':
      return `${minus}${sign} ${number}`;
    case 'after':
      return `${minus}${number} ${sign}`;
  }
}

/** The number format of a language: Polish writes "1 234,50 zł", English "1,234.50 zł". */
export function priceNumberFormatOf(language: string): PriceNumberFormat {
  return language.toLowerCase().startsWith('pl') ? POLISH_PRICE_NUMBER_FORMAT : DEFAULT_PRICE_NUMBER_FORMAT;
}

/**
 * The product's one price format per language (issue 26): every screen that shows a price to a person
 * formats it with the language that person reads ("10,50 zł" in Polish on the front office, the back
 * office, the desk and the donation page alike; "10.50 zł" in English).
 */
export function formatPriceIn(
  language: string,
  amountInMinorUnits: number,
  currency: string,
  options: Omit<FormatPriceOptions, keyof PriceNumberFormat> = {},
): string {
  return formatPrice(amountInMinorUnits, currency, { ...options, ...priceNumberFormatOf(language) });
}

/** Lets `{ decimalSeparator: undefined }` mean "default" instead of erasing the default. */
function definedOnly(options: FormatPriceOptions): Partial<PriceNumberFormat> {
  return {
    ...(options.thousandsSeparator !== undefined ? { thousandsSeparator: options.thousandsSeparator } : {}),
    ...(options.decimalSeparator !== undefined ? { decimalSeparator: options.decimalSeparator } : {}),
  };
}
