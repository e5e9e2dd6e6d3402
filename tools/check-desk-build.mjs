#!/usr/bin/env node
// Checks what `npm run build:desktop` (electron-vite) left in out/ against what electron-builder packs
// and the feed the cloud serves (issue 29; CI runs it after the build, .ci/run). Needs no Electron
// binary: electron-builder's own configuration loader and schema validate electron-builder.yml.
//
// - electron-builder.yml is valid for electron-builder (its scheme.json), and each `files` pattern
//   and `extraMetadata.main` exist in the build;
// - main, the sandboxed preload (one CommonJS file requiring only electron) and the renderer (its
//   CSP meta tag, scripts from the bundle only) are there;
// - the feed: a generic provider on `${STUDIO_CLOUD_URL}/desktop/updates/stable`, channel `latest`, so
//   electron-builder writes latest.yml / latest-mac.yml — the files the cloud serves per channel
//   (shared/contracts/api/desk-fleet.ts FEED_FILES) — and artifact names without spaces or `/`.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const failures = [];
const check = (ok, message) => {
  if (!ok) failures.push(message);
};

// electron-builder's own loader and validator (electron-builder depends on both packages).
const requireBuilder = createRequire(createRequire(import.meta.url).resolve('electron-builder'));
const { getConfig, validateConfiguration } = requireBuilder('app-builder-lib/out/util/config/config.js');
const { DebugLogger } = requireBuilder('builder-util');
const config = await getConfig(root, path.join(root, 'electron-builder.yml'), null);
// getConfig normalizes `files` to [{ filter: [...] }].
const filePatterns = [config.files ?? []]
  .flat()
  .flatMap((f) => (typeof f === 'string' ? [f] : [f?.filter ?? []].flat()));
try {
  await validateConfiguration(config, new DebugLogger(false));
} catch (error) {
  failures.push(`electron-builder.yml: ${error instanceof Error ? error.message : String(error)}`);
}

const out = path.join(root, 'out');
const exists = (rel) => fs.existsSync(path.join(root, rel));
check(exists('out'), 'out/ is missing: run `npm run build:desktop` first');
const main = config.extraMetadata?.main;
check(typeof main === 'string' && exists(main), `extraMetadata.main (${main}) is not in the build`);
const walk = (dir) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) =>
          e.isDirectory() ? walk(path.join(dir, e.name)) : [path.relative(root, path.join(dir, e.name))],
        )
    : [];
for (const pattern of filePatterns) {
  if (typeof pattern !== 'string' || pattern.startsWith('!')) continue;
  // `dir/**` or a plain path (the shapes electron-builder.yml uses).
  const base = pattern.replace(/\/\*\*.*$/, '');
  check(!/[*?{[]/.test(base), `files: "${pattern}" is not a shape this check reads`);
  const full = path.join(root, base);
  const packs = fs.existsSync(full) && (!fs.statSync(full).isDirectory() || walk(full).length > 0);
  check(packs, `files: "${pattern}" packs nothing`);
}

const preload = path.join(out, 'preload', 'index.cjs');
if (fs.existsSync(preload)) {
  const text = fs.readFileSync(preload, 'utf8');
  const required = [...text.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
  check(
    required.every((r) => r === 'electron'),
    `the sandboxed preload requires more than electron: ${required.join(', ')}`,
  );
} else failures.push('out/preload/index.cjs is missing');

const html = path.join(out, 'renderer', 'index.html');
if (fs.existsSync(html)) {
  const text = fs.readFileSync(html, 'utf8');
  check(/http-equiv="Content-Security-Policy"/i.test(text), 'the renderer has no CSP meta tag');
  const scripts = [...text.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
  check(scripts.length > 0, 'the renderer loads no script');
  for (const src of scripts) {
    check(!/^[a-z]+:\/\//i.test(src), `the renderer loads a script from elsewhere: ${src}`);
    check(fs.existsSync(path.join(out, 'renderer', src)), `the renderer's script ${src} is missing`);
  }
} else failures.push('out/renderer/index.html is missing');
const maps = walk(out).filter((f) => f.endsWith('.map')).length;
check(maps === 0 || filePatterns.includes('!out/**/*.map'), 'source maps are built but would be packed');

const publish = [config.publish].flat()[0];
check(publish?.provider === 'generic', `publish provider is ${publish?.provider}, not generic`);
check(
  typeof publish?.url === 'string' && /\/desktop\/updates\/(stable|beta)$/.test(publish.url),
  `publish url ${publish?.url} is not the cloud's feed (…/desktop/updates/<channel>)`,
);
check(
  (publish?.channel ?? 'latest') === 'latest',
  `publish channel ${publish?.channel}: the cloud serves latest.yml / latest-mac.yml`,
);
const contract = fs.readFileSync(path.join(root, 'shared/contracts/api/desk-fleet.ts'), 'utf8');
check(
  /FEED_FILES[^=]*=\s*\{\s*win:\s*'latest\.yml',\s*mac:\s*'latest-mac\.yml'\s*\}/.test(contract),
  'the cloud does not serve latest.yml and latest-mac.yml (FEED_FILES)',
);
for (const target of ['win', 'mac']) {
  const name = config[target]?.artifactName ?? config.artifactName;
  check(typeof name === 'string' && !name.includes('/'), `${target}.artifactName must be a file name`);
}

const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
check(
  /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(pkg.version),
  `package.json version ${pkg.version} is not semver`,
);
check(Boolean(pkg.dependencies?.['electron-updater']), 'electron-updater is not a dependency (not packed)');

if (failures.length > 0) {
  console.error(`desk build check: ${failures.length} problem(s)\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `desk build check: out/ (${walk(out).length} files) and the feed configuration are as electron-builder packs them`,
);
