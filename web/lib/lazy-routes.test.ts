import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linkPath } from './lazy-screen';

const WEB = join(import.meta.dirname, '..');
/** Landing screens (and tiny ones used by many routes) stay in the first load on purpose. */
const EAGER = new Set(['Dashboard', 'SectionPlaceholder', 'FrontofficeHome', 'NotFoundScreen']);

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return name === 'routes.tsx' || name === 'router.tsx' || name === 'FrontofficeApp.tsx' ? [full] : [];
  });
}

describe('lazy routes', () => {
  // A screen imported statically by a route file lands in every visitor's first load.
  it.each(
    routeFiles(join(WEB, 'backoffice'))
      .concat(routeFiles(join(WEB, 'frontoffice')))
      .map((f) => relative(WEB, f)),
  )('%s imports its screens through lazyScreen', (file) => {
    const source = readFileSync(join(WEB, file), 'utf8');
    const eager = [...source.matchAll(/^import \{([^}]*)\} from '\.[^']*';$/gm)]
      .flatMap((m) => (m[1] ?? '').split(',').map((name) => name.trim()))
      .filter((name) => /^[A-Z]\w*(Screen|Layout|Donation)$/.test(name) && !EAGER.has(name));
    expect(eager).toEqual([]);
  });

  it('maps link hrefs to router paths', () => {
    const here = 'https://studio.test/u1/frontoffice/timetable';
    expect(linkPath('#/clients/7', 'https://studio.test/u1/backoffice')).toBe('/clients/7');
    expect(linkPath('#', 'https://studio.test/u1/backoffice')).toBe('/');
    expect(linkPath('/u1/frontoffice/passes', here, '/u1/frontoffice')).toBe('/passes');
    expect(linkPath('/u1/frontoffice', here, '/u1/frontoffice')).toBe('/');
    expect(linkPath('/u2/frontoffice/passes', here, '/u1/frontoffice')).toBeNull();
    expect(linkPath('https://elsewhere.test/u1/frontoffice', here, '/u1/frontoffice')).toBeNull();
  });
});
