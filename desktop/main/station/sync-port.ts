import type { SyncStatus } from '../../../shared/contracts/ipc';
import type { CloudClient, DeviceRegistration } from './cloud-client';

/**
 * What the station needs from the sync engine (desktop/main/sync, built separately): its status for
 * the renderer's indicator, and the device registration (POST /sync/devices with the staff session).
 * Anything with this shape can be passed to `createMainServices({ sync })`.
 */
export interface SyncEnginePort {
  status():
    | {
        online: boolean;
        pending: number;
        lastSyncAt: string | number | Date | null;
        lastError: string | { message?: string } | null;
      }
    | Promise<{
        online: boolean;
        pending: number;
        lastSyncAt: string | number | Date | null;
        lastError: string | { message?: string } | null;
      }>;
  /** The fourth argument is extra: the studio the staff member chose (needed when they work in several). */
  registerDevice(
    cloudUrl: string,
    staffSessionCookie: string,
    name: string,
    options?: { studioUuid?: string },
  ): Promise<DeviceRegistration | null>;
  /** False when the engine has no device token of its own yet (the station then registers again). */
  isRegistered?(): boolean;
  /** Sync now rather than at the next poll: called when the cloud answers again after being away. */
  kick?(): void;
  /** Starts the background loop (the engine waits for a device token before it really starts). */
  start?(): void;
  stop?(): void | Promise<void>;
}

export function normaliseSyncStatus(raw: Awaited<ReturnType<SyncEnginePort['status']>>): SyncStatus {
  const at = raw.lastSyncAt;
  const lastError = raw.lastError;
  return {
    online: Boolean(raw.online),
    pending: Math.max(0, Math.trunc(raw.pending ?? 0)),
    lastSyncAt: at === null || at === undefined ? null : new Date(at).toISOString(),
    lastError:
      lastError === null || lastError === undefined
        ? null
        : typeof lastError === 'string'
          ? lastError
          : (lastError.message ?? 'sync error'),
  };
}

/**
 * "Online" is what the cloud itself says: every forwarded call reports whether an answer came, and
 * /health is probed every few seconds while the station is idle — faster than the sync engine's poll,
 * so the badge turns within seconds either way (and a return wakes the engine, see services.ts).
 * Without the engine, `pending` and `lastSyncAt` stay null: nothing is queued locally.
 */
export class ReachabilityProbe {
  private online = false;
  private lastError: string | null = null;
  private lastAnswerAt: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private cloud: CloudClient | null = null;
  private probing = false;
  private readonly offlineWaiters = new Set<() => void>();

  constructor(
    /** 1 s: with /health's own 1.8 s limit a silent cloud is offline within 3 s (issue 26). */
    private readonly intervalMs = 1_000,
    /** Called when the answer changes (offline → online or back). */
    private readonly onChange?: (online: boolean) => void,
  ) {}

  get isOnline(): boolean {
    return this.online;
  }

  attach(cloud: CloudClient): void {
    this.cloud = cloud;
  }

  report(reachable: boolean, error?: unknown): void {
    const changed = this.online !== reachable;
    this.online = reachable;
    if (reachable) {
      this.lastError = null;
      this.lastAnswerAt = new Date().toISOString();
    } else {
      this.lastError =
        error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : 'offline';
    }
    if (!reachable) {
      for (const wake of this.offlineWaiters) wake();
      this.offlineWaiters.clear();
    }
    if (changed) this.onChange?.(reachable);
  }

  /** Resolves when a probe or a call next finds the cloud away (a read waiting on a silent cloud). */
  nextOffline(): { promise: Promise<void>; cancel(): void } {
    let wake: () => void = () => undefined;
    const promise = new Promise<void>((resolve) => {
      wake = resolve;
      this.offlineWaiters.add(resolve);
    });
    return { promise, cancel: () => this.offlineWaiters.delete(wake) };
  }

  start(): void {
    if (this.timer) return;
    // One probe at a time: a silent cloud must not pile up waiting requests.
    const tick = async () => {
      if (!this.cloud || this.probing) return;
      this.probing = true;
      try {
        await this.cloud.health();
      } finally {
        this.probing = false;
      }
    };
    void tick();
    this.timer = setInterval(() => void tick(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  status(): SyncStatus & { lastAnswerAt: string | null } {
    return {
      online: this.online,
      pending: null,
      lastSyncAt: null,
      lastError: this.online ? null : this.lastError,
      lastAnswerAt: this.lastAnswerAt,
    };
  }
}
