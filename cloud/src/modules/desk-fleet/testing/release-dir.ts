import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';

/**
 * electron-builder's output as `npm run package:desktop` leaves it in release/: the Windows feed file
 * (latest.yml) and the NSIS installer it names (on disk with the product name's space, in the feed
 * with a dash), plus the macOS feed (latest-mac.yml) and its zip. The installers are a few bytes of
 * stand-in: what matters is that their sha512 matches the feed.
 */
export function makeReleaseDir(version: string, options: { mac?: boolean } = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `desk-release-${version}-`));
  const write = (feed: string, diskName: string, url: string) => {
    const bytes = Buffer.from(`installer ${url} ${version} ${'x'.repeat(2048)}`);
    fs.writeFileSync(path.join(dir, diskName), bytes);
    const sha512 = createHash('sha512').update(bytes).digest('base64');
    fs.writeFileSync(
      path.join(dir, feed),
      yaml.dump({
        version,
        files: [{ url, sha512, size: bytes.length }],
        path: url,
        sha512,
        releaseDate: '2026-11-28T08:00:00.000Z',
      }),
    );
  };
  write('latest.yml', `Studio Desk-Setup-${version}.exe`, `Studio-Desk-Setup-${version}.exe`);
  if (options.mac)
    write('latest-mac.yml', `Studio Desk-${version}-arm64.zip`, `Studio-Desk-${version}-arm64.zip`);
  return dir;
}
