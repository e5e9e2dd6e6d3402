/**
 * Phone numbers as clients type them: "+48 600 100 200", "600-100-200", "0048600100200",
 * "(0) 7700 900123". Two numbers are the same person's when their MATCH KEYS are equal: the last nine
 * digits. National numbers are nine digits or longer in most countries (PL, FR, ES, DE, GB, US...), so
 * the key ignores however the country code or trunk prefix was written (+48, 0048, 0 ...) without a
 * table of calling codes. The price is a rare false positive across countries: duplicates by phone
 * are only ever reported ("possible duplicates"), never refused.
 *
 * The database computes the same values in generated columns of `clients` (phone_digits, phone_key;
 * migration 0007): keep both in step.
 */
export const PHONE_MATCH_DIGITS = 9;
/** Fewer digits than this is not a phone number (an extension, a typo): no match key. */
export const PHONE_MIN_DIGITS = 6;
export const PHONE_MAX_DIGITS = 15;

/** Characters a typed phone number may hold besides digits. */
const PHONE_CHARS = /^[+\d\s().\-/]*$/;

export function phoneDigits(raw: string | null | undefined): string | null {
  const digits = (raw ?? '').replace(/\D/g, '');
  return digits === '' ? null : digits;
}

/** The key two numbers are compared by, or null when the value holds too few digits. */
export function phoneMatchKey(raw: string | null | undefined): string | null {
  const digits = phoneDigits(raw);
  if (!digits || digits.length < PHONE_MIN_DIGITS) return null;
  return digits.slice(-PHONE_MATCH_DIGITS);
}

/** A plausible phone number as typed: only phone characters, 6 to 15 digits (E.164 allows 15). */
export function isPlausiblePhone(raw: string): boolean {
  if (!PHONE_CHARS.test(raw)) return false;
  const count = (phoneDigits(raw) ?? '').length;
  return count >= PHONE_MIN_DIGITS && count <= PHONE_MAX_DIGITS;
}

/** Whether a search query is a phone number (or the start of one) rather than a name or email. */
export function looksLikePhoneQuery(query: string): boolean {
  return PHONE_CHARS.test(query) && (phoneDigits(query) ?? '').length >= 3;
}
