import { describe, expect, it } from 'vitest';
import enFrontoffice from '../../locales/en/frontoffice.json';
import plFrontoffice from '../../locales/pl/frontoffice.json';
import { FRONTOFFICE_NAV, visibleNav } from './nav';

const lookup = (dict: unknown, key: string) =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], dict);

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
      expect(typeof lookup(enFrontoffice, item.labelKey), `en ${item.labelKey}`).toBe('string');
      expect(typeof lookup(plFrontoffice, item.labelKey), `pl ${item.labelKey}`).toBe('string');
    }
    expect(new Set(FRONTOFFICE_NAV.map((i) => i.path)).size).toBe(FRONTOFFICE_NAV.length);
  });
});
