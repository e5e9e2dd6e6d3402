// Fetches Electron's binary after `npm install` without ever failing the install.
//
// npm 11 runs no dependency install scripts unless package.json's allowScripts lists them; electron
// is denied there on purpose, because its own postinstall fails the whole install on a machine that
// cannot reach Electron's download host. This root postinstall runs the same download instead: with
// internet the binary arrives as usual; offline (or with ELECTRON_SKIP_BINARY_DOWNLOAD=1) the install
// still succeeds, the cloud and web apps work, and only `electron` itself is missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) process.exit(0);

let installer;
try {
  installer = require.resolve('electron/install.js');
} catch {
  process.exit(0); // production install without devDependencies
}
if (!existsSync(installer)) process.exit(0);

const result = spawnSync(process.execPath, [installer], { stdio: 'inherit', timeout: 10 * 60_000 });
if (result.status !== 0) {
  console.warn(
    '\n[postinstall] Electron’s binary could not be downloaded (offline?). Everything but the desktop\n' +
      '              window works; when online, run `node node_modules/electron/install.js`.\n',
  );
}
process.exit(0);
