/**
 * The desk renderer's chunks (desktop/renderer, the bundle electron-vite packs and desktop/host
 * serves): builds it into a scratch directory and prints each JS chunk's raw and gzip KB, and what the
 * first screen loads (index.html's entry and its static imports) against the rest (lazy screens).
 * Prints figures; never passes or fails on size.
 *
 *   npm run bench:desk-bundle
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Manifest } from 'vite';
import { rendererConfig } from '../../desktop/renderer/vite.config';

async function main(): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), 'desk-bundle-'));
  try {
    await build({
      ...rendererConfig,
      configFile: false,
      logLevel: 'warn',
      build: { ...rendererConfig.build, outDir, emptyOutDir: true, manifest: true, sourcemap: false },
    });
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
    const kb = (n: number) => (n / 1024).toFixed(1);
    const size = (file: string) => {
      const bytes = readFileSync(join(outDir, file));
      return { raw: bytes.length, gzip: gzipSync(bytes, { level: 6 }).length };
    };
    const first = new Set<string>();
    const walk = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || first.has(chunk.file)) return;
      first.add(chunk.file);
      for (const imported of chunk.imports ?? []) walk(imported);
    };
    const entry = Object.entries(manifest).find(([, c]) => c.isEntry)![0];
    walk(entry);
    const chunks = [...new Set(Object.values(manifest).map((c) => c.file))]
      .filter((f) => f.endsWith('.js'))
      .map((file) => ({ file, ...size(file) }))
      .sort((a, b) => b.raw - a.raw);
    let firstRaw = 0;
    let firstGzip = 0;
    let restRaw = 0;
    for (const c of chunks) {
      if (first.has(c.file)) {
        firstRaw += c.raw;
        firstGzip += c.gzip;
      } else restRaw += c.raw;
    }
    console.log(`desk renderer: ${chunks.length} JS chunks`);
    for (const c of chunks.slice(0, 12))
      console.log(
        `  ${first.has(c.file) ? '*' : ' '} ${c.file.padEnd(48)} ${kb(c.raw).padStart(8)} KB  ${kb(c.gzip).padStart(7)} KB gzip`,
      );
    console.log(
      `first load (*): ${kb(firstRaw)} KB (${kb(firstGzip)} KB gzip); lazy rest: ${kb(restRaw)} KB`,
    );
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

await main();
