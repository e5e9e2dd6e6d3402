import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { HttpExecutor } from 'builder-util-runtime';
import { NsisUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter';

/** builder-util's NodeHttpExecutor, without its proxy agents: Node's http(s).request. */
class NodeHttpExecutor extends HttpExecutor<http.ClientRequest> {
  createRequest(options: http.RequestOptions & { protocol?: string }, callback: (res: unknown) => void) {
    return (options.protocol === 'http:' ? http.request : https.request)(options, callback);
  }
}

/**
 * electron-updater's own updater (NsisUpdater: latest.yml, sha512 check, staged rollout, semver)
 * run in plain Node, for tests and the host: an AppAdapter over a folder instead of Electron's
 * `app`, Node's HTTP instead of Electron's net. `userDataPath/.updaterId` holds the staging id —
 * the station's sync device id, so the cloud knows who is in a rollout. Installing is the caller's
 * (`onInstall`): nothing is spawned.
 */
export function createNodeUpdater(options: {
  version: string;
  dir: string;
  stagingId: string;
  onQuit?: () => void;
}): NsisUpdater {
  const userData = path.join(options.dir, 'userData');
  fs.mkdirSync(userData, { recursive: true });
  fs.writeFileSync(path.join(userData, '.updaterId'), options.stagingId);
  const app: AppAdapter = {
    version: options.version,
    name: 'Studio Desk',
    isPackaged: true,
    appUpdateConfigPath: path.join(options.dir, 'app-update.yml'),
    userDataPath: userData,
    baseCachePath: path.join(options.dir, 'cache'),
    whenReady: () => Promise.resolve(),
    relaunch: () => undefined,
    quit: () => options.onQuit?.(),
    onQuit: () => undefined,
  };
  const updater = new NsisUpdater(null, app);
  (updater as unknown as { httpExecutor: HttpExecutor<http.ClientRequest> }).httpExecutor = new NodeHttpExecutor();
  updater.logger = null;
  updater.disableDifferentialDownload = true;
  return updater;
}
