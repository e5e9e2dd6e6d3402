import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { FRONTOFFICE_NAV, isActiveNav, visibleNav } from './nav';

/** The label of `key` (`nav.x` in the frontoffice namespace, or `namespace:path.to.key`) in a locale. */
function lookup(locale: 'en' | 'pl', key: string): unknown {
  const [ns, path] = key.includes(':') ? (key.split(':', 2) as [string, string]) : ['frontoffice', key];
  const dict: unknown = JSON.parse(
    readFileSync(new URL(`../../locales/${locale}/${ns}.json`, import.meta.url), 'utf8'),
  );
  return path
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], dict);
}

describe('front-office menu', () => {
  it('shows account screens to signed-in clients and the sign-up only to visitors', () => {
    const visitor = visibleNav(FRONTOFFICE_NAV, false).map((i) => i.path);
    const client = visibleNav(FRONTOFFICE_NAV, true).map((i) => i.path);
    expect(visitor).toContain('timetable');
    expect(visitor).toContain('signup');
    expect(visitor).not.toContain('profile');
    expect(client).toContain('timetable');
    expect(client).toContain('profile');
    expect(client).not.toContain('signup');
  });

  it('has a label in English and Polish for every entry and no duplicate paths', () => {
    for (const item of FRONTOFFICE_NAV) {
      expect(typeof lookup('en', item.labelKey), `en ${item.labelKey}`).toBe('string');
      expect(typeof lookup('pl', item.labelKey), `pl ${item.labelKey}`).toBe('string');
    }
    expect(new Set(FRONTOFFICE_NAV.map((i) => i.path)).size).toBe(FRONTOFFICE_NAV.length);
  });

  it('marks only the current entry: the price lists of passes and contracts are siblings', () => {
    expect(isActiveNav('/pricing/contracts', 'pricing/contracts')).toBe(true);
    expect(isActiveNav('/pricing/contracts', 'pricing/pricing-options')).toBe(false);
    expect(isActiveNav('/passes/0190a', 'passes')).toBe(true);
    expect(isActiveNav('/visits/', 'visits')).toBe(true);
    expect(isActiveNav('/passes-old', 'passes')).toBe(false);
  });
});
