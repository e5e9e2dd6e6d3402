import { EventEmitter } from 'node:events';
import { installVerdict, type InstallState, type InstallVerdict } from './update-policy';

/** What DeskUpdater needs of electron-updater's AppUpdater (the real one in the app, NodeUpdater in tests). */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  disableWebInstaller: boolean;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdates(): Promise<unknown>;
  on(event: 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'update-available', listener: (info: { version: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export type UpdateState =
  | { phase: 'idle' }
  | { phase: 'downloading'; version: string }
  | { phase: 'ready'; version: string; waiting: Exclude<InstallVerdict, { install: true }>['why'] | null }
  | { phase: 'installing'; version: string }
  | { phase: 'failed'; message: string };

export interface DeskUpdaterOptions {
  updater: UpdaterLike;
  /** The desk's state the install rule looks at (update-policy.ts). */
  state(): InstallState;
  /** The studio's IANA time zone (night is the studio's). */
  timeZone(): string;
  /** Quits and runs the installer: `autoUpdater.quitAndInstall(true, true)` in the app. */
  install(): void;
  now?: () => Date;
}

/**
 * The desk's update decision: electron-updater checks the feed of the studio's channel (the cloud
 * says which at each contact, `feed(url)`), applies the staged rollout with the station's id and
 * downloads in the background (`autoDownload`); the installer runs only when `installVerdict` allows
 * it, checked at each `tick()` (the station's report loop, every minute) — never on quit by itself
 * (`autoInstallOnAppQuit` off: a desk closed mid-shift must not install then).
 */
export class DeskUpdater extends EventEmitter {
  private current: UpdateState = { phase: 'idle' };
  private feedUrl: string | null = null;
  private readonly now: () => Date;

  constructor(private readonly options: DeskUpdaterOptions) {
    super();
    this.now = options.now ?? (() => new Date());
    const u = options.updater;
    u.autoDownload = true;
    u.autoInstallOnAppQuit = false;
    u.disableWebInstaller = true;
    u.on('update-available', (info) => this.set({ phase: 'downloading', version: info.version }));
    u.on('update-downloaded', (info) => {
      this.set({ phase: 'ready', version: info.version, waiting: null });
      this.tick();
    });
    u.on('error', (error) => this.set({ phase: 'failed', message: error.message }));
  }

  state(): UpdateState {
    return this.current;
  }

  /** Points the updater at a channel's feed (`<cloud>/desktop/updates/<channel>`). */
  feed(url: string): void {
    if (url === this.feedUrl) return;
    this.feedUrl = url;
    this.options.updater.setFeedURL({ provider: 'generic', url });
  }

  /** Asks the feed; a found update downloads in the background. Errors are the state, not thrown. */
  async check(): Promise<void> {
    if (!this.feedUrl || this.current.phase === 'installing') return;
    try {
      const result = (await this.options.updater.checkForUpdates()) as {
        downloadPromise?: Promise<unknown> | null;
      } | null;
      await result?.downloadPromise;
    } catch (error) {
      this.set({ phase: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Installs a downloaded update if the rule allows it now; answers the verdict. */
  tick(): InstallVerdict | null {
    const s = this.current;
    if (s.phase !== 'ready') return null;
    const verdict = installVerdict(this.options.state(), this.now(), this.options.timeZone());
    if (!verdict.install) {
      if (s.waiting !== verdict.why) this.set({ ...s, waiting: verdict.why });
      return verdict;
    }
    this.set({ phase: 'installing', version: s.version });
    this.options.install();
    return verdict;
  }

  private set(state: UpdateState): void {
    this.current = state;
    this.emit('state', state);
  }
}
