import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The Ministry of Finance's FA(3) schema (`shared/spec/ksef`, kept beside the clone): the first such
 * folder walking up from here, so a clone at `/work/main` and a worktree at `/work/wt/<name>` both
 * find `/work/shared/spec/ksef`. `KSEF_SPEC_DIR` overrides.
 */
function ksefSpecDir(): string {
  if (process.env.KSEF_SPEC_DIR) return process.env.KSEF_SPEC_DIR;
  let dir = path.resolve(__dirname, '../../../../..');
  for (;;) {
    const candidate = path.join(dir, 'shared/spec/ksef');
    if (existsSync(path.join(candidate, 'catalog.xml'))) return candidate;
    const up = path.dirname(dir);
    if (up === dir) return path.resolve(__dirname, '../../../../../..', 'shared/spec/ksef');
    dir = up;
  }
}

export const KSEF_SPEC = ksefSpecDir();
const SCHEMA = path.join(KSEF_SPEC, 'schemat_FA(3)_v1-0E.xsd');
const CATALOG = path.join(KSEF_SPEC, 'catalog.xml');

/** xmllint's verdict per file: 'validates', else its errors (a missing xmllint fails every file). */
export function validateFa3(files: Record<string, string>): Record<string, string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fa3-'));
  try {
    const paths = Object.entries(files).map(([name, xml]) => {
      const file = path.join(dir, `${name}.xml`);
      writeFileSync(file, xml);
      return [name, file] as const;
    });
    const run = spawnSync('xmllint', ['--noout', '--nonet', '--schema', SCHEMA, ...paths.map(([, f]) => f)], {
      env: { ...process.env, XML_CATALOG_FILES: CATALOG },
      encoding: 'utf8',
    });
    const output = `${run.stderr ?? ''}${run.error ? String(run.error) : ''}`;
    return Object.fromEntries(
      paths.map(([name, file]) => {
        const lines = output.split('\n').filter((l) => l.startsWith(file));
        return [name, lines.includes(`${file} validates`) ? 'validates' : lines.join('\n') || output];
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
