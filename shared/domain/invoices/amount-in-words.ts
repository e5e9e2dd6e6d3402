/**
 * The amount due in Polish words ("słownie"), as invoices print it: "sto dwadzieścia trzy złote
 * 45/100". The law does not require it; buyers and accountants expect it. Złoty and grosz take the
 * Polish plural forms (1 złoty, 2–4 złote, 5+ złotych, with 12–14 in the third form); euro and the
 * usual foreign currencies by name ("sto euro 00/100"), any other by its code.
 */
const UNITS = ['', 'jeden', 'dwa', 'trzy', 'cztery', 'pięć', 'sześć', 'siedem', 'osiem', 'dziewięć'];
const TEENS = [
  'dziesięć',
  'jedenaście',
  'dwanaście',
  'trzynaście',
  'czternaście',
  'piętnaście',
  'szesnaście',
  'siedemnaście',
  'osiemnaście',
  'dziewiętnaście',
];
const TENS = [
  '',
  '',
  'dwadzieścia',
  'trzydzieści',
  'czterdzieści',
  'pięćdziesiąt',
  'sześćdziesiąt',
  'siedemdziesiąt',
  'osiemdziesiąt',
  'dziewięćdziesiąt',
];
const HUNDREDS = [
  '',
  'sto',
  'dwieście',
  'trzysta',
  'czterysta',
  'pięćset',
  'sześćset',
  'siedemset',
  'osiemset',
  'dziewięćset',
];
/** [1, 2–4, 5+] forms of each power of a thousand. */
const GROUPS: [string, string, string][] = [
  ['', '', ''],
  ['tysiąc', 'tysiące', 'tysięcy'],
  ['milion', 'miliony', 'milionów'],
  ['miliard', 'miliardy', 'miliardów'],
];

/** 0 → the first form (1), 1 → 2–4, 2 → 5+ (and 0, 12–14). */
export function polishPluralForm(n: number): 0 | 1 | 2 {
  if (n === 1) return 0;
  const lastTwo = n % 100;
  const last = n % 10;
  if (last >= 2 && last <= 4 && (lastTwo < 12 || lastTwo > 14)) return 1;
  return 2;
}

function below1000(n: number): string[] {
  const words: string[] = [];
  words.push(HUNDREDS[Math.trunc(n / 100)]!);
  const rest = n % 100;
  if (rest >= 10 && rest < 20) words.push(TEENS[rest - 10]!);
  else words.push(TENS[Math.trunc(rest / 10)]!, UNITS[rest % 10]!);
  return words.filter((w) => w !== '');
}

/** A whole number 0 … 999 999 999 999 in Polish words ("zero", "tysiąc dwieście"). */
export function polishNumberInWords(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0 || value >= 1e12)
    throw new RangeError(`out of range: ${value}`);
  if (value === 0) return 'zero';
  const words: string[] = [];
  let rest = value;
  const parts: number[] = [];
  while (rest > 0) {
    parts.push(rest % 1000);
    rest = Math.trunc(rest / 1000);
  }
  for (let power = parts.length - 1; power >= 0; power--) {
    const part = parts[power]!;
    if (part === 0) continue;
    // "tysiąc", not "jeden tysiąc"; but "sto jeden tysięcy".
    if (!(part === 1 && power > 0)) words.push(...below1000(part));
    if (power > 0) words.push(GROUPS[power]![polishPluralForm(part)]);
  }
  return words.join(' ');
}

/**
 * The currency's name in the three Polish plural forms (1, 2–4, 5+). "euro" does not decline. Other
 * currencies print their ISO code.
 */
const CURRENCY_WORDS: Record<string, readonly [string, string, string]> = {
  PLN: ['złoty', 'złote', 'złotych'],
  EUR: ['euro', 'euro', 'euro'],
  USD: ['dolar amerykański', 'dolary amerykańskie', 'dolarów amerykańskich'],
  GBP: ['funt szterling', 'funty szterlingi', 'funtów szterlingów'],
  CHF: ['frank szwajcarski', 'franki szwajcarskie', 'franków szwajcarskich'],
  CZK: ['korona czeska', 'korony czeskie', 'koron czeskich'],
};

/** "sto dwadzieścia trzy złote 45/100" for 12345 PLN; the sign is dropped (the label says which way). */
export function amountInPolishWords(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not minor units: ${minor}`);
  const abs = Math.abs(minor);
  const units = Math.trunc(abs / 100);
  const cents = String(abs % 100).padStart(2, '0');
  const forms = CURRENCY_WORDS[currency];
  const name = forms ? forms[polishPluralForm(units)] : currency;
  // "jedno euro": euro is neuter (only the bare 1 shows it; 21 is "dwadzieścia jeden").
  const words = currency === 'EUR' && units === 1 ? 'jedno' : polishNumberInWords(units);
  return `${words} ${name} ${cents}/100`;
}
