/**
 * An invoice keeps its units in its own language ("szt.", "usł.", or "szt./pcs" on a bilingual one);
 * a screen names them in the viewer's (issue 25: no "usł." on an English screen). Units typed by hand
 * that are not one of these are shown as typed.
 */
const UNITS: Record<string, { en: string; pl: string }> = {
  'szt.': { en: 'pcs', pl: 'szt.' },
  'usł.': { en: 'service', pl: 'usł.' },
  'szt./pcs': { en: 'pcs', pl: 'szt.' },
  'usł./service': { en: 'service', pl: 'usł.' },
};

export function unitLabel(unit: string, language: string): string {
  const known = UNITS[unit.trim()];
  if (!known) return unit;
  return language.startsWith('pl') ? known.pl : known.en;
}
