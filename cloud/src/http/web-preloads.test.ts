import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWebPreloads, injectModulePreloads } from './web-preloads';

function distWith(manifest: object): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'web-preloads-'));
  mkdirSync(path.join(dir, '.vite'));
  writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

const manifest = {
  'frontoffice/index.html': { file: 'assets/frontoffice-1.js', imports: ['_react-1.js'] },
  '_react-1.js': { file: 'assets/react-1.js' },
  'lib/locale-bundles/pl.ts': { file: 'assets/pl-1.js', imports: ['_locales-pl-1.js'] },
  '_locales-pl-1.js': { file: 'assets/locales-pl-1.js' },
  'frontoffice/timetable/TimetableScreen.tsx': {
    file: 'assets/TimetableScreen-1.js',
    imports: ['_react-1.js', '_week-1.js', 'frontoffice/index.html'],
  },
  '_week-1.js': { file: 'assets/week-1.js' },
};
const STUDIO = '/2f1d3c4b-0000-4000-8000-000000000001';

describe('modulepreload links of a first load', () => {
  it('lists the page language chunk and the opened screen with what they import', () => {
    const preloads = createWebPreloads(distWith(manifest));
    expect(preloads('frontoffice', `${STUDIO}/frontoffice/timetable`, 'pl')).toEqual([
      '/assets/pl-1.js',
      '/assets/locales-pl-1.js',
      '/assets/TimetableScreen-1.js',
      '/assets/react-1.js',
      '/assets/week-1.js',
      '/assets/frontoffice-1.js',
    ]);
    // Another path (no screen of its own in the table) and the hash-routed back office: strings only.
    expect(preloads('frontoffice', `${STUDIO}/frontoffice`, 'pl')).toEqual([
      '/assets/pl-1.js',
      '/assets/locales-pl-1.js',
    ]);
    expect(preloads('backoffice', `${STUDIO}/backoffice`, 'pl')).toEqual([
      '/assets/pl-1.js',
      '/assets/locales-pl-1.js',
    ]);
  });

  it('adds only links the page does not have yet, and nothing without a manifest', () => {
    const html = '<html><head><script type="module" src="/assets/frontoffice-1.js"></script></head></html>';
    expect(injectModulePreloads(html, ['/assets/frontoffice-1.js', '/assets/pl-1.js'])).toBe(
      '<html><head><script type="module" src="/assets/frontoffice-1.js"></script><link rel="modulepreload" crossorigin href="/assets/pl-1.js"></head></html>',
    );
    const none = createWebPreloads(mkdtempSync(path.join(os.tmpdir(), 'web-preloads-')));
    expect(none('frontoffice', `${STUDIO}/frontoffice/timetable`, 'en')).toEqual([]);
  });
});
