/** "12,50" or "12.5" → 1250 minor units; null when it is not an amount. */
export function parseAmount(text: string): number | null {
  const match = /^\s*(\d{1,7})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** 1250 → "12.50" (the amount field's text; the screen shows prices with formatPrice). */
export function amountText(minor: number, language: string): string {
  const text = (minor / 100).toFixed(2);
  return language.startsWith('pl') ? text.replace('.', ',') : text;
}
