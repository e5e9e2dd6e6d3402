/** A translatable value the studio typed in several languages (spec §3), keyed by locale. */
export type LocaleText = Partial<Record<string, { value: string }>>;

/**
 * Spec §3: the user's locale first, then the studio's default locale. Beyond the spec, a regional
 * user locale ("pl-PL") also tries its language ("pl"), and when neither locale has a value the first
 * non-empty one is used, so a user never sees a blank class or pass name. '' only when there is none.
 * Whitespace-only values count as empty.
 */
export function resolveLocaleText(
  text: LocaleText | null | undefined,
  userLocale: string | null | undefined,
  studioDefaultLocale: string | null | undefined,
): string {
  if (!text) return '';
  for (const locale of localesToTry(userLocale, studioDefaultLocale)) {
    const value = valueIn(text, locale);
    if (value !== undefined) return value;
  }
  for (const locale of Object.keys(text)) {
    const value = valueIn(text, locale);
    if (value !== undefined) return value;
  }
  return '';
}

function localesToTry(...locales: (string | null | undefined)[]): string[] {
  return locales.flatMap((locale) => {
    if (!locale) return [];
    const language = locale.split('-')[0];
    return language && language !== locale ? [locale, language] : [locale];
  });
}

function valueIn(text: LocaleText, locale: string): string | undefined {
  const value = text[locale]?.value;
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * A text derived in every language the source has (a line name "<class> <date>" from the class's
 * names), so each viewer still reads it in theirs. Empty values are left out.
 */
export function mapLocaleText(
  text: LocaleText | null | undefined,
  derive: (value: string, locale: string) => string,
): LocaleText {
  const out: LocaleText = {};
  for (const locale of Object.keys(text ?? {})) {
    const value = valueIn(text!, locale);
    if (value !== undefined) out[locale] = { value: derive(value, locale) };
  }
  return out;
}
