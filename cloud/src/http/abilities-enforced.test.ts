import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ABILITY_AREAS, ALL_ABILITIES, type Ability } from '../../../shared/policies/abilities';
import { describeApiRoutes } from '../app';

/**
 * Every ability a role can be given must be checked by the server somewhere, or a role editor offers
 * a right that changes nothing (`sales.discount` was one: a front desk sold passes at any price).
 * An ability counts as enforced when a route of the catalog declares it (`ability:`), or a named
 * check in the cloud's source asks for it (`assertAbility(…, 'x.y')` or `can(…, 'x.y')` — for the
 * rules inside a route, like a price that differs from the list price).
 */
const SOURCE_ROOT = path.resolve(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

/**
 * Abilities a named check asks for: `assertAbility(..., 'a.b')`, `can(..., 'a.b')`, or the same with a
 * constant of the file (`const OVERRIDE: Ability = 'a.b'`).
 */
function namedChecks(): Map<Ability, string[]> {
  const found = new Map<Ability, string[]>();
  const check = /\b(?:assertAbility|can)\(((?:[^()]|\([^()]*\))*)\)/g;
  const constant = /\bconst\s+(\w+)(?:\s*:\s*Ability)?\s*=\s*'([a-zA-Z]+\.[a-zA-Z]+)'/g;
  for (const file of sourceFiles(SOURCE_ROOT)) {
    const text = fs.readFileSync(file, 'utf8');
    const constants = [...text.matchAll(constant)].map((c) => ({ name: c[1]!, value: c[2]! }));
    for (const m of text.matchAll(check)) {
      const args = m[1]!;
      for (const ability of ALL_ABILITIES) {
        const named = constants.some((c) => c.value === ability && new RegExp(`\\b${c.name}\\b`).test(args));
        if (args.includes(`'${ability}'`) || named) {
          found.set(ability, [...(found.get(ability) ?? []), path.relative(SOURCE_ROOT, file)]);
        }
      }
    }
  }
  return found;
}

/**
 * Areas whose module does not exist yet: the role editor lists them (the spec's campaigns), no route
 * serves them. The test below fails as soon as a route of such an area appears, so the area leaves
 * this list with its module and its abilities are then held to the same rule.
 */
const AREAS_WITHOUT_ROUTES: Record<string, RegExp> = {};

describe('every ability is enforced', () => {
  const routes = describeApiRoutes();
  const byRoute = new Set(routes.flatMap((r) => (r.ability ? [r.ability] : [])));
  const byName = namedChecks();

  it.each(ALL_ABILITIES.filter((a) => !(a.split('.')[0]! in AREAS_WITHOUT_ROUTES)))(
    '%s: a route declares it or a named check asks for it',
    (ability) => {
      expect(
        byRoute.has(ability) || byName.has(ability),
        `${ability} is listed in shared/policies/abilities.ts but no route checks it`,
      ).toBe(true);
    },
  );

  it('sales.discount is checked by the pass sale (a price other than the list price)', () => {
    expect(byName.get('sales.discount')).toContain(path.join('modules', 'catalog', 'catalog.routes.ts'));
  });

  it('areas without routes have none yet, and are still listed', () => {
    for (const [area, pathPattern] of Object.entries(AREAS_WITHOUT_ROUTES)) {
      expect(area in ABILITY_AREAS).toBe(true);
      expect(routes.filter((r) => pathPattern.test(r.fullPath)).map((r) => r.fullPath)).toEqual([]);
    }
  });

  it('no route names an ability outside the list', () => {
    for (const r of routes) if (r.ability) expect(ALL_ABILITIES).toContain(r.ability);
  });
});
