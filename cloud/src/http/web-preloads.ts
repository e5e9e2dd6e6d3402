import fs from 'node:fs';
import path from 'node:path';
import type { WebApp } from '../../../shared/contracts/page-context';
import { FRONTOFFICE_SCREEN_SOURCES } from '../../../shared/contracts/web-screens';
import type { Locale } from '../../../shared/i18n/locales';

/** One entry of Vite's `.vite/manifest.json`. */
interface ManifestChunk {
  file: string;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/**
 * The chunks a first load needs beyond what index.html already lists (issue 26): the page
 * language's strings (`web/lib/locale-bundles/<lang>.ts`) and, for a front-office path a client
 * opens by URL, its screen — each with the chunks it imports. Without them the browser learns of
 * these only after the app's JS has run (JS → strings → screen, one after the other).
 * Paths are root-absolute (`/assets/…`), as Vite writes them into index.html.
 */
export function createWebPreloads(distDir: string) {
  let manifest: Manifest | null | undefined;
  const read = (): Manifest | null => {
    if (manifest !== undefined) return manifest;
    try {
      manifest = JSON.parse(
        fs.readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8'),
      ) as Manifest;
    } catch {
      manifest = null; // an older build without a manifest: no extra preloads
    }
    return manifest;
  };
  const cache = new Map<string, string[]>();
  return (app: WebApp, urlPath: string, locale: Locale): string[] => {
    const screen = app === 'frontoffice' ? frontofficeScreen(urlPath) : null;
    const key = `${app} ${locale} ${screen ?? ''}`;
    const cached = cache.get(key);
    if (cached) return cached;
    const m = read();
    if (!m) return [];
    const files = new Set<string>();
    const add = (id: string) => {
      const chunk = m[id];
      if (!chunk || files.has(`/${chunk.file}`)) return;
      files.add(`/${chunk.file}`);
      for (const dep of chunk.imports ?? []) add(dep);
    };
    add(`lib/locale-bundles/${locale}.ts`);
    if (screen) add(screen);
    const list = [...files];
    cache.set(key, list);
    return list;
  };
}

/** `/{uuid}/frontoffice/timetable` → the timetable screen's source (manifest key), else null. */
function frontofficeScreen(urlPath: string): string | null {
  const match = /^\/[^/]+\/frontoffice\/(.+?)\/?$/.exec(urlPath);
  return match ? (FRONTOFFICE_SCREEN_SOURCES[match[1]!] ?? null) : null;
}

/** Adds modulepreload links for `files` not already in the page, before `</head>`. */
export function injectModulePreloads(html: string, files: readonly string[]): string {
  const links = files
    .filter((f) => !html.includes(`"${f}"`))
    .map((f) => `<link rel="modulepreload" crossorigin href="${f}">`)
    .join('');
  return links ? html.replace('</head>', `${links}</head>`) : html;
}
