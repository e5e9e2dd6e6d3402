import iconv from 'iconv-lite';

/**
 * Text and number fields of the POSNET protocol. Text travels in Windows-1250; amounts ("Kwota")
 * have no decimal separator (the last two digits are grosze), so they are written straight from
 * integer minor units and never pass through floating point.
 */

export const MAX_NAME_LENGTH = 80;
/** Largest value of a "Kwota" field. */
export const MAX_AMOUNT = 9_999_999_999;

export function encodeText(text: string): Buffer {
  return iconv.encode(text, 'win1250');
}

export function decodeText(bytes: Uint8Array): string {
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'win1250');
}

/**
 * An item name as the printer takes it: composed (NFC, so "ż" typed as z + combining dot becomes the
 * one Windows-1250 letter), a TAB or line break turned into a space (a TAB would end the field;
 * removing it would glue two words), other control characters removed, spaces collapsed, trimmed,
 * cut to 80 characters. `&` is left alone: it is a formatting
 * escape only in header, footer and non-fiscal texts (see escapeFormattedText).
 */
export function cleanItemName(name: string): string {
  return (
    name
      .normalize('NFC')
      // A TAB or line break separates words: a space (the TAB would end the field), never glued words.
      .replace(/[\t\r\n]/g, ' ')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, MAX_NAME_LENGTH)
      .trimEnd()
  );
}

/** Header/footer text: `&` starts a formatting code there, so a literal `&` is written `&&`. */
export function escapeFormattedText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\t\r]/g, ' ')
    .replace(/&/g, '&&');
}

/** The printed form of a formatted text: `&&` → `&`, `&x` codes (centre, bold…) dropped. */
export function stripFormatting(text: string): string {
  return text.replace(/&(.?)/gs, (_, next: string) => (next === '&' ? '&' : ''));
}

/** 1999 → "1999": a Kwota field from integer grosze. */
export function formatAmount(grosze: number): string {
  if (!Number.isSafeInteger(grosze) || grosze < 0 || grosze > MAX_AMOUNT) {
    throw new RangeError(`an amount field takes whole grosze 0..${MAX_AMOUNT}, got ${grosze}`);
  }
  return String(grosze);
}

/** A Kwota field back to grosze; null when it is not plain digits (a decimal separator included). */
export function parseAmount(text: string): number | null {
  if (!/^\d{1,11}$/.test(text)) return null;
  return Number(text);
}

/** A "Num." field with '.' or ',' as decimal separator, as an exact fraction digits / 10^scale. */
export function parseDecimal(text: string): { digits: bigint; scale: number } | null {
  const match = /^(\d{1,12})(?:[.,](\d{1,6}))?$/.exec(text);
  if (!match) return null;
  const decimals = match[2] ?? '';
  return { digits: BigInt((match[1] ?? '') + decimals), scale: decimals.length };
}

export type VatSlotValue = number | 'exempt' | 'inactive';

/** "23,00" → 2300 basis points; "100,00" → exempt; "101,00" → inactive. */
export function parseVatPercent(text: string): VatSlotValue | null {
  const decimal = parseDecimal(text);
  if (!decimal || decimal.scale > 2) return null;
  const basisPoints = Number(decimal.digits * 10n ** BigInt(2 - decimal.scale));
  if (basisPoints === 10000) return 'exempt';
  if (basisPoints === 10100) return 'inactive';
  return basisPoints < 10000 ? basisPoints : null;
}

/** 2300 → "23,00", exempt → "100,00", inactive → "101,00" (how vatget sends them). */
export function formatVatPercent(value: VatSlotValue): string {
  const basisPoints = value === 'exempt' ? 10000 : value === 'inactive' ? 10100 : value;
  return `${Math.trunc(basisPoints / 100)},${String(basisPoints % 100).padStart(2, '0')}`;
}

export const VAT_SLOT_LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
export type VatSlotLetter = (typeof VAT_SLOT_LETTERS)[number];
