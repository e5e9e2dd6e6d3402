import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FRONTOFFICE_SCREEN_SOURCES } from '../../shared/contracts/web-screens';

const WEB = join(import.meta.dirname, '..');
const app = readFileSync(join(WEB, 'frontoffice', 'FrontofficeApp.tsx'), 'utf8');

// The cloud preloads these files' chunks for these paths: a stale entry would preload the wrong screen.
describe('front-office screen sources (modulepreload on a first load)', () => {
  it.each(Object.entries(FRONTOFFICE_SCREEN_SOURCES))('%s → %s', (route, source) => {
    expect(existsSync(join(WEB, source))).toBe(true);
    const module = `./${source.replace(/^frontoffice\//, '').replace(/\.tsx$/, '')}`;
    const screen = new RegExp(
      `const (\\w+) = lazyScreen\\(\\s*\\(\\) => import\\('${module.replace(/[./]/g, '\\$&')}'\\)`,
    ).exec(app)?.[1];
    expect(screen, `FrontofficeApp lazy-loads ${module}`).toBeDefined();
    expect(app).toContain(`{ path: '${route}', element: <${screen} /> }`);
  });
});
