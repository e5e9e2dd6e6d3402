import { hostname } from 'node:os';
import { v7 as uuidv7 } from 'uuid';
import type {
  ApiRequestInput,
  ApiResponse,
  StationSignInInput,
  StationSignInResult,
  StationStaff,
  StationState,
  SyncStatus,
} from '../../../shared/contracts/ipc';
import type { Locale } from '../../../shared/i18n/locales';
import { AppError } from '../../../shared/errors/app-error';
import { CloudHttpError, CloudUnreachableError, staffSessionCookie, type CloudClient } from './cloud-client';
import type { StudioPictures } from './studio-pictures';
import type { OfflineApi } from './offline-api';
import { hashPin, verifyPin } from './pin';
import type { StationFile, StationStore, StoredStaff } from './station-store';
import { normaliseSyncStatus, type ReachabilityProbe, type SyncEnginePort } from './sync-port';

export interface StationServiceOptions {
  store: StationStore;
  cloud: CloudClient;
  probe: ReachabilityProbe;
  sync?: SyncEnginePort | null;
  /** Answers the offline subset of the API from the station's SQLite mirror (none: every call needs the cloud). */
  offline?: OfflineApi | null;
  /** The studio's appearance and logo, fetched by main and kept on disk (the renderer cannot load them itself). */
  pictures?: StudioPictures | null;
  /** Wrong PINs in a row before the PIN is dropped and a full sign-in is needed. */
  maxPinAttempts?: number;
  now?: () => Date;
}

/** Calls that are not the studio's own but that the back-office screens make. */
const UNSCOPED_PATHS = new Set(['v4/auth/me']);
const LOGOUT_PATH = 'v4/auth/logout';

/**
 * The station: who works at it, its registration as a device, PIN switching, and the API calls it
 * forwards to the cloud on their behalf. Every change is saved before it is answered, and mutating
 * calls run one at a time (two PIN attempts cannot both read the same failure count).
 */
export class StationService {
  private readonly store: StationStore;
  private readonly cloud: CloudClient;
  private readonly probe: ReachabilityProbe;
  private readonly sync: SyncEnginePort | null;
  private readonly offline: OfflineApi | null;
  private readonly pictures: StudioPictures | null;
  private readonly maxPinAttempts: number;
  private readonly now: () => Date;
  private data: StationFile;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: StationServiceOptions) {
    this.store = options.store;
    this.cloud = options.cloud;
    this.probe = options.probe;
    this.sync = options.sync ?? null;
    this.offline = options.offline ?? null;
    this.pictures = options.pictures ?? null;
    this.maxPinAttempts = options.maxPinAttempts ?? 5;
    this.now = options.now ?? (() => new Date());
    this.data = this.store.load();
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private save(next: StationFile): void {
    this.store.save(next);
    this.data = next;
  }

  get studioUuid(): string | null {
    return this.data.device?.studioUuid ?? null;
  }

  state(): StationState {
    const { device, staff, currentUserId, locale } = this.data;
    const view = (s: StoredStaff): StationStaff => ({
      userId: s.userId,
      firstName: s.firstName,
      lastName: s.lastName,
      emailAddress: s.emailAddress,
      hasPin: s.pinHash !== null,
    });
    const current = staff.find((s) => s.userId === currentUserId) ?? null;
    return {
      registered: device !== null,
      device: device
        ? {
            deviceId: device.deviceId,
            name: device.name,
            studioUuid: device.studioUuid,
            studioName: device.studioName,
            registeredAt: device.registeredAt,
          }
        : null,
      staff: current ? view(current) : null,
      switchable: staff
        .filter((s) => s.pinHash !== null)
        .map(view)
        .sort((a, b) => `${a.firstName} ${a.lastName}`.localeCompare(`${b.firstName} ${b.lastName}`)),
      locale,
    };
  }

  signIn(input: StationSignInInput): Promise<StationSignInResult> {
    return this.serial(async () => {
      const device = this.data.device;
      const wanted = device?.studioUuid ?? input.studioUuid;
      const login = await this.cloud.login({
        emailAddress: input.emailAddress,
        password: input.password,
        ...(wanted ? { studioUuid: wanted } : {}),
      });
      const credentials = { userId: login.userId, sessionId: login.sessionId, csrfToken: login.token };
      const staffStudios = login.me.memberships.filter((m) => m.isMember);
      const refuse = async (error: AppError) => {
        await this.cloud.logout(credentials).catch(() => undefined);
        throw error;
      };

      let studio = wanted ? staffStudios.find((m) => m.studioUuid === wanted) : staffStudios[0];
      if (!wanted && staffStudios.length > 1) {
        await this.cloud.logout(credentials).catch(() => undefined);
        return {
          outcome: 'chooseStudio',
          studios: staffStudios.map((m) => ({ studioUuid: m.studioUuid, studioName: m.studioName })),
        };
      }
      if (!studio) {
        return refuse(
          new AppError('station.notStaffHere', {
            message: 'this person is not staff of the station’s studio',
          }),
        );
      }

      const next: StationFile = structuredClone(this.data);
      const engineUnregistered = this.sync?.isRegistered ? !this.sync.isRegistered() : false;
      if (!device || device.deviceToken === null || engineUnregistered) {
        const name = input.stationName ?? device?.name ?? hostname();
        const deviceId = device?.deviceId ?? uuidv7();
        let registration;
        try {
          registration = this.sync
            ? await this.sync.registerDevice(this.cloud.baseUrl, staffSessionCookie(credentials), name, {
                studioUuid: studio.studioUuid,
              })
            : await this.cloud.registerDevice(credentials, { deviceId, name, studioUuid: studio.studioUuid });
        } catch (error) {
          await this.cloud.logout(credentials).catch(() => undefined);
          throw error;
        }
        if (registration && registration.studioUuid !== studio.studioUuid) {
          const other = staffStudios.find((m) => m.studioUuid === registration.studioUuid);
          if (!other || device) {
            return refuse(
              new AppError('station.notStaffHere', {
                message: 'the device was registered for another studio',
              }),
            );
          }
          studio = other;
        }
        next.device = {
          deviceId: registration?.deviceId ?? deviceId,
          name,
          studioUuid: studio.studioUuid,
          studioName: studio.studioName,
          deviceToken: registration?.deviceToken ?? null,
          ...(registration?.scope !== undefined ? { scope: registration.scope } : {}),
          registeredAt: device?.registeredAt ?? this.now().toISOString(),
        };
      }

      const previous = next.staff.find((s) => s.userId === login.userId);
      if (previous && previous.sessionId !== login.sessionId) {
        // The older session of the same person is no longer needed: end it on the cloud.
        await this.cloud
          .logout({ userId: previous.userId, sessionId: previous.sessionId, csrfToken: previous.csrfToken })
          .catch(() => undefined);
      }
      const entry: StoredStaff = {
        userId: login.userId,
        firstName: login.me.firstName,
        lastName: login.me.lastName,
        emailAddress: login.me.emailAddress,
        sessionId: login.sessionId,
        csrfToken: login.token,
        pinHash: previous?.pinHash ?? null,
        failedPins: 0,
        signedInAt: this.now().toISOString(),
      };
      next.staff = [...next.staff.filter((s) => s.userId !== login.userId), entry];
      next.currentUserId = login.userId;
      this.save(next);
      return { outcome: 'signedIn', state: this.state() };
    });
  }

  setPin(pin: string): Promise<StationState> {
    return this.serial(async () => {
      const current = this.requireCurrent();
      const pinHash = await hashPin(pin);
      const next = structuredClone(this.data);
      next.staff = next.staff.map((s) =>
        s.userId === current.userId ? { ...s, pinHash, failedPins: 0 } : s,
      );
      this.save(next);
      return this.state();
    });
  }

  switchStaff(userId: string, pin: string): Promise<StationState> {
    return this.serial(async () => {
      const entry = this.data.staff.find((s) => s.userId === userId && s.pinHash !== null);
      if (!entry?.pinHash) {
        throw new AppError('station.unknownStaff', { message: 'no PIN is set for this person here' });
      }
      const ok = await verifyPin(pin, entry.pinHash);
      const next = structuredClone(this.data);
      const stored = next.staff.find((s) => s.userId === userId) as StoredStaff;
      if (!ok) {
        stored.failedPins += 1;
        const left = this.maxPinAttempts - stored.failedPins;
        if (left <= 0) {
          stored.pinHash = null;
          stored.failedPins = 0;
          if (next.currentUserId === userId) next.currentUserId = null;
          this.save(next);
          throw new AppError('station.pinLocked', {
            message: 'too many wrong PINs: sign in with your password',
          });
        }
        this.save(next);
        throw new AppError('station.wrongPin', {
          message: `wrong PIN (${left} left)`,
          fields: { pin: ['wrong pin'] },
        });
      }
      stored.failedPins = 0;
      next.currentUserId = userId;
      this.save(next);
      return this.state();
    });
  }

  lock(): Promise<StationState> {
    return this.serial(async () => {
      this.save({ ...this.data, currentUserId: null });
      return this.state();
    });
  }

  /** Ends the current person's cloud session and forgets them here (PIN included). */
  signOut(): Promise<StationState> {
    return this.serial(async () => {
      const current = this.data.staff.find((s) => s.userId === this.data.currentUserId);
      if (current) {
        await this.cloud
          .logout({ userId: current.userId, sessionId: current.sessionId, csrfToken: current.csrfToken })
          .catch(() => undefined); // offline: the session expires on its own; it is gone from here
      }
      this.save({
        ...this.data,
        staff: this.data.staff.filter((s) => s.userId !== current?.userId),
        currentUserId: null,
      });
      return this.state();
    });
  }

  setLocale(locale: Locale): Promise<StationState> {
    return this.serial(async () => {
      this.save({ ...this.data, locale });
      return this.state();
    });
  }

  /** The cloud's answer, or CloudUnreachableError as soon as the probe says the cloud is away. */
  private async raceOffline(forwarded: Promise<ApiResponse>): Promise<ApiResponse> {
    const away = this.probe.nextOffline();
    try {
      return await Promise.race([
        forwarded,
        away.promise.then(() => {
          forwarded.catch(() => undefined);
          throw new CloudUnreachableError('the cloud went silent');
        }),
      ]);
    } finally {
      away.cancel();
    }
  }

  async forwardApi(request: ApiRequestInput): Promise<ApiResponse> {
    const device = this.data.device;
    // The studio's public look (colours, a logo the screens show as an <img>): main's copy, online or
    // not, also with nobody at the desk (the kiosk's header).
    if (device && this.pictures?.handles(request, device.studioUuid))
      return this.pictures.answer(request, device.studioUuid);
    const current = this.requireCurrent();
    if (!device) throw new AppError('station.notRegistered', { message: 'the station is not registered' });
    const pathOnly = request.path.split('?')[0] ?? '';
    if (pathOnly === LOGOUT_PATH && request.method === 'POST') {
      await this.signOut();
      return { status: 204, contentType: null, contentDisposition: null, encoding: 'utf8', body: '' };
    }
    assertStudioPath(pathOnly, device.studioUuid);
    // Offline-capable calls are answered from SQLite while the cloud is away. A write goes local only
    // when the cloud was already known to be away: a write that failed on its way might have arrived.
    const offline = this.offline?.handles(request, device.studioUuid) ? this.offline : null;
    const cloudAway = !this.probe.isOnline;
    if (offline && cloudAway) {
      const local = offline.answer(request, device.studioUuid, current.userId);
      if (local) return local;
    }
    try {
      const forwarded = this.cloud.forward(
        { userId: current.userId, sessionId: current.sessionId, csrfToken: current.csrfToken },
        request,
      );
      // A read the desk can answer itself does not wait for a silent cloud: once the probe finds it
      // away (≤ 3 s), the read fails over to the station's copy below (issue 26).
      const response = offline?.isRead(request, device.studioUuid)
        ? await this.raceOffline(forwarded)
        : await forwarded;
      if (response.status === 401) await this.dropSession(current.userId);
      else offline?.remember(current.userId, device.studioUuid, request, response);
      return response;
    } catch (error) {
      if (error instanceof CloudUnreachableError) {
        if (offline?.isRead(request, device.studioUuid)) {
          const local = offline.answer(request, device.studioUuid, current.userId);
          if (local) return local;
        }
        throw new AppError('station.cloudUnreachable', { message: 'the cloud cannot be reached' });
      }
      throw error;
    }
  }

  /**
   * With the engine: its waiting changes, last sync and error; "online" from the probe, which hears
   * every forwarded call and /health every few seconds (the engine notices only at its next round).
   */
  async syncStatus(): Promise<SyncStatus> {
    if (!this.sync) return this.probe.status();
    const engine = normaliseSyncStatus(await this.sync.status());
    const online = this.probe.isOnline;
    return {
      ...engine,
      online,
      lastError: online ? engine.lastError : (this.probe.status().lastError ?? engine.lastError),
    };
  }

  /** The cloud no longer knows this session: the person must sign in with the password again. */
  private dropSession(userId: string): Promise<void> {
    return this.serial(async () => {
      this.save({
        ...this.data,
        staff: this.data.staff.filter((s) => s.userId !== userId),
        currentUserId: this.data.currentUserId === userId ? null : this.data.currentUserId,
      });
    });
  }

  private requireCurrent(): StoredStaff {
    const current = this.data.staff.find((s) => s.userId === this.data.currentUserId);
    if (!current)
      throw new AppError('station.notSignedIn', { message: 'nobody is signed in at the station' });
    return current;
  }
}

/**
 * Forwarded calls stay inside the station's studio: `v4/{studio}/...` or `v2/{studio}/...`, plus the
 * few unscoped reads the screens need. Dot segments and encoded slashes or dots are refused outright
 * (the cloud would otherwise resolve them to another path than the one checked here).
 */
export function assertStudioPath(pathOnly: string, studioUuid: string): void {
  const segments = pathOnly.split('/');
  const suspicious =
    segments.some((s) => s === '' || s === '.' || s === '..') ||
    /%(2e|2f|5c)/i.test(pathOnly) ||
    pathOnly.includes('\\');
  const scoped =
    (segments[0] === 'v4' || segments[0] === 'v2') && segments[1] === studioUuid && segments.length > 2;
  if (suspicious || (!scoped && !UNSCOPED_PATHS.has(pathOnly))) {
    throw new AppError('station.pathNotAllowed', { message: 'this call is not allowed from the station' });
  }
}

export { CloudHttpError };
