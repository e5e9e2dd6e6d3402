import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ABILITY_AREAS, ALL_ABILITIES, DEFAULT_ROLE_KEYS } from '../../../shared/policies/abilities';

const LOCALES_DIR = join(import.meta.dirname, '../../../locales');

/** The role editor and the role names read these keys: each ability, area and default role has a label. */
describe.each(['en', 'pl'])('staff labels in %s', (locale) => {
  const staff = (
    JSON.parse(readFileSync(join(LOCALES_DIR, locale, 'backoffice.json'), 'utf8')) as {
      staff: Record<string, Record<string, unknown>>;
    }
  ).staff;
  const at = (path: string) =>
    path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], staff);

  it.each(ALL_ABILITIES)('ability %s', (ability) => {
    expect(typeof at(`abilities.${ability}`)).toBe('string');
  });
  it.each(Object.keys(ABILITY_AREAS))('area %s', (area) => {
    expect(typeof at(`areas.${area}`)).toBe('string');
  });
  it.each([...DEFAULT_ROLE_KEYS, 'custom'])('role %s', (key) => {
    expect(typeof at(`roleKeys.${key}`)).toBe('string');
  });
  it('the server-side copy name and invite email', () => {
    expect(at('roles.copyName')).toContain('{{name}}');
    for (const v of ['{{link}}', '{{backoffice}}', '{{hours}}', '{{studio}}'])
      expect(at('invite.body')).toContain(v);
  });
});
