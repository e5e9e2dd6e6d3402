import { describe, expect, it } from 'vitest';
import { mapLocaleText, resolveLocaleText, type LocaleText } from './locale-text';

const both: LocaleText = { en: { value: 'Morning yoga' }, pl: { value: 'Poranna joga' } };

describe('resolveLocaleText', () => {
  it.each([
    ['user locale first', both, 'pl', 'en', 'Poranna joga'],
    ['user locale first (other way)', both, 'en', 'pl', 'Morning yoga'],
    [
      'studio default when user locale missing',
      { en: { value: 'Morning yoga' } },
      'pl',
      'en',
      'Morning yoga',
    ],
    [
      'studio default when user locale empty',
      { pl: { value: '' }, en: { value: 'Yoga' } },
      'pl',
      'en',
      'Yoga',
    ],
    ['whitespace counts as empty', { pl: { value: '  ' }, en: { value: 'Yoga' } }, 'pl', 'en', 'Yoga'],
    ['no user locale', both, null, 'pl', 'Poranna joga'],
    ['regional user locale tries its language', both, 'pl-PL', 'en', 'Poranna joga'],
    [
      'exact regional value wins',
      { 'pt-BR': { value: 'Ioga' }, pt: { value: 'Yoga PT' } },
      'pt-BR',
      'en',
      'Ioga',
    ],
    [
      'first non-empty value as last resort',
      { de: { value: '' }, fr: { value: 'Yoga du matin' } },
      'pl',
      'en',
      'Yoga du matin',
    ],
    ['empty object', {}, 'pl', 'en', ''],
    ['all empty', { pl: { value: '' }, en: { value: ' ' } }, 'pl', 'en', ''],
    ['undefined entry', { pl: undefined, en: { value: 'Yoga' } }, 'pl', 'de', 'Yoga'],
    ['no text', undefined, 'pl', 'en', ''],
    ['null text', null, 'pl', 'en', ''],
  ] as const)('%s', (_case, text, userLocale, studioDefaultLocale, expected) => {
    expect(resolveLocaleText(text, userLocale, studioDefaultLocale)).toBe(expected);
  });
});

describe('mapLocaleText', () => {
  it('derives a text in every language that has a value', () => {
    expect(
      mapLocaleText(
        { en: { value: 'Yoga' }, pl: { value: 'Joga' }, de: { value: ' ' } },
        (v, l) => `${v} (${l})`,
      ),
    ).toEqual({ en: { value: 'Yoga (en)' }, pl: { value: 'Joga (pl)' } });
    expect(mapLocaleText(null, (v) => v)).toEqual({});
  });
});
