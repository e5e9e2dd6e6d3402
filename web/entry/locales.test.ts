import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** locales/{en,pl}/entry.json: the same keys, none empty, and every key the entry code uses exists. */
const ROOT = join(import.meta.dirname, '../..');
const read = (lang: string) =>
  JSON.parse(readFileSync(join(ROOT, 'locales', lang, 'entry.json'), 'utf8')) as Record<string, unknown>;

function flatten(value: unknown, prefix = ''): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return { [prefix]: value };
  return Object.assign(
    {},
    ...Object.entries(value).map(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k)),
  ) as Record<string, unknown>;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('entry translations', () => {
  const en = flatten(read('en'));
  const pl = flatten(read('pl'));

  it('en and pl have the same keys, none empty', () => {
    expect(Object.keys(pl).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of [...Object.entries(en), ...Object.entries(pl)]) {
      expect(typeof text === 'string' && text.trim().length > 0, key).toBe(true);
    }
  });

  it('Polish is Polish (diacritics), with the same placeholders', () => {
    expect(Object.values(pl).join(' ')).toMatch(/[ąćęłńóśźż]/);
    for (const key of Object.keys(en)) {
      const names = (text: unknown) => [...String(text).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      expect(names(pl[key]), key).toEqual(names(en[key]));
    }
  });

  it('the §8 messages', () => {
    expect(en['lookup.noAccount']).toMatch(/no account associated with this email address/i);
    expect(en['errors.general']).toMatch(/an error occurred.*\{\{code\}\}.*if it persists.*contact support/i);
    expect(en['validation.kioskInvalid']).toMatch(/invalid uuid or kiosk key/i);
    expect(en['search.noResults']).toMatch(
      /unfortunately,? we could not find any studio with the provided name/i,
    );
  });

  it('every literal key used by the entry code exists', () => {
    const used = new Set<string>();
    for (const file of sources(import.meta.dirname)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([a-zA-Z][\w.:]*)'/g)) {
        const key = match[1]!;
        if (!key.includes(':')) used.add(key);
        else if (key.startsWith('entry:')) used.add(key.slice('entry:'.length));
      }
      for (const match of readFileSync(file, 'utf8').matchAll(/'entry:([\w.]+)'/g)) used.add(match[1]!);
    }
    expect(used.size).toBeGreaterThan(30);
    for (const key of used) expect(en, key).toHaveProperty([key]);
    // Keys built from the purpose (login/delete): both variants exist.
    for (const purpose of ['login', 'delete']) {
      for (const key of ['title', 'subtitle', 'pickTitle', 'pickSubtitle'])
        expect(en).toHaveProperty([`${purpose}.${key}`]);
    }
  });
});
