/** Letters NFD does not decompose into a base letter and a mark (Polish ł, and a few neighbours). */
const LETTERS: Readonly<Record<string, string>> = {
  ł: 'l',
  đ: 'd',
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  þ: 'th',
  ı: 'i',
};

export const SLUG_BASE_MAX_LENGTH = 60;
const FALLBACK = 'studio';

/**
 * The readable part of a studio's slug: diacritics transliterated ("Łódź" → "lodz"), lower case,
 * anything else between words a single hyphen, at most 60 characters. A name with no Latin letters
 * or digits at all gives "studio".
 */
export function studioSlugBase(name: string): string {
  const ascii = name
    .toLowerCase()
    .replace(/[łđøæœßþı]/g, (c) => LETTERS[c] ?? c)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
  const slug = ascii
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_BASE_MAX_LENGTH)
    .replace(/-+$/, '');
  return slug || FALLBACK;
}

/** `base` if free, else the first of base-2, base-3, … not in `taken`. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
