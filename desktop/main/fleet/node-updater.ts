import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { NsisUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter';
import { ElectronHttpExecutor } from 'electron-updater/out/electronHttpExecutor';

/**
 * electron-updater's own executor (its `download` with sha512 checks and redirects) over Node's
 * http(s).request instead of Electron's `net`.
 */
class NodeHttpExecutor extends ElectronHttpExecutor {
  override createRequest(
    options: http.RequestOptions & { protocol?: string },
    callback: (res: unknown) => void,
  ) {
    const request = (options.protocol === 'http:' ? http.request : https.request)(options, callback);
    return request as unknown as Electron.ClientRequest;
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
  // What electron-builder writes into the app's resources (electron-builder.yml "publish").
  fs.writeFileSync(
    path.join(options.dir, 'app-update.yml'),
    'provider: generic\nurl: http://127.0.0.1/desktop/updates/stable\nupdaterCacheDirName: studio-desk-updater\n',
  );
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
  (updater as unknown as { httpExecutor: ElectronHttpExecutor }).httpExecutor = new NodeHttpExecutor();
  // electron-updater's own hook for the platform the feed file is for: latest.yml (Windows), as the
  // desks run; the process's own platform would ask for latest-linux.yml.
  (updater as unknown as { _testOnlyOptions: { platform: string } })._testOnlyOptions = { platform: 'win32' };
  updater.logger = null;
  updater.disableDifferentialDownload = true;
  return updater;
}
