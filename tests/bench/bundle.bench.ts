/**
 * First-load weight of the web apps: builds web/ (the real config, plus a manifest) into a scratch
 * directory and prints, per app and language, the gzip KB a first visit downloads before the first
 * screen can render. Prints figures; never passes or fails on size.
 *
 *   npm run bench:bundle              (BUNDLE_APPS=backoffice,frontoffice,kiosk by default)
 *
 * "First load" = what index.html loads or preloads (the entry chunk, its static imports, CSS), plus
 * the dynamic imports the app awaits before its first render: the page language's translations
 * (web/lib/locale-bundles/<lang>.ts). Lazy screens other than the landing one are not counted; their
 * total is printed as "rest". gzip level 6 (what nginx/CDNs use by default).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Manifest } from 'vite';
import { LOCALES } from '../../shared/i18n/locales';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const APPS = (process.env.BUNDLE_APPS ?? 'backoffice,frontoffice,kiosk').split(',').filter(Boolean);
/** Modules the app awaits before rendering, besides the HTML's static graph. */
const BEFORE_RENDER = (lang: string) => [`lib/locale-bundles/${lang}.ts`];

interface Weight {
  gzip: number;
  raw: number;
}

async function main(): Promise<void> {
  const outDir = process.env.BUNDLE_OUT_DIR ?? mkdtempSync(join(tmpdir(), 'bundle-bench-'));
  await build({
    configFile: join(ROOT, 'web/vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, manifest: true },
  });
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const weights = new Map<string, Weight>();
  const weigh = (file: string): Weight => {
    let w = weights.get(file);
    if (!w) {
      const bytes = readFileSync(join(outDir, file));
      w = { raw: bytes.length, gzip: gzipSync(bytes, { level: 6 }).length };
      weights.set(file, w);
    }
    return w;
  };

  /** Output files of a manifest entry and everything it imports (statically; dynamically too with `dynamic`). */
  const filesOf = (key: string, dynamic: boolean, seen = new Set<string>(), files = new Set<string>()) => {
    if (seen.has(key)) return files;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return files;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of [...(chunk.imports ?? []), ...(dynamic ? (chunk.dynamicImports ?? []) : [])])
      filesOf(imported, dynamic, seen, files);
    return files;
  };
  const staticFiles = (key: string) => filesOf(key, false);
  /** Everything reachable, dynamic imports included (the whole app). */
  const allFiles = (key: string) => filesOf(key, true);
  const sum = (files: Iterable<string>) =>
    [...files].reduce((t, f) => ({ gzip: t.gzip + weigh(f).gzip, raw: t.raw + weigh(f).raw }), {
      gzip: 0,
      raw: 0,
    });
  const kb = (bytes: number) => (bytes / 1024).toFixed(0).padStart(4);
  /** `mantine-DkRPExoi.js` → `mantine`: the chunk family, for the breakdown. */
  const family = (file: string) => file.replace(/^assets\//, '').replace(/-[\w-]{8}\.(js|css)$/, '.$1');

  console.log(`first load, gzip KB (raw KB) — built into ${outDir}`);
  const summary: string[] = [];
  for (const app of APPS) {
    const entry = `${app}/index.html`;
    if (!manifest[entry]) {
      console.log(`${app}: no entry ${entry} in the manifest`);
      continue;
    }
    const html = staticFiles(entry);
    const everything = allFiles(entry);
    for (const lang of LOCALES) {
      const files = new Set(html);
      for (const key of BEFORE_RENDER(lang)) for (const f of staticFiles(key)) files.add(f);
      const total = sum(files);
      const rest = sum([...everything].filter((f) => !files.has(f)));
      const parts = [...files]
        .map((f) => ({ name: family(f), gzip: weigh(f).gzip }))
        .sort((a, b) => b.gzip - a.gzip)
        .slice(0, 6)
        .map((p) => `${p.name} ${kb(p.gzip).trim()}`)
        .join(', ');
      console.log(
        `${app.padEnd(12)} ${lang}: ${kb(total.gzip)} KB (${kb(total.raw).trim()} KB raw) in ${files.size} files; rest ${kb(rest.gzip).trim()} KB lazily — ${parts}`,
      );
      const js = sum([...files].filter((f) => f.endsWith('.js')));
      if (lang === LOCALES[0]) summary.push(`${app} ${kb(total.gzip).trim()} (JS ${kb(js.gzip).trim()})`);
    }
  }
  console.log(`first load gzip KB (en): ${summary.join(', ')}`);
  if (!process.env.BUNDLE_OUT_DIR) rmSync(outDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
