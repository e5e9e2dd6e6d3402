import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  KIOSK_SESSION_HEADER,
  KioskCheckInResultSchema,
  KioskDeviceSchema,
  KioskDoorSchema,
  KioskSignInInputSchema,
  type KioskCheckInResult,
  type KioskDevice,
} from '../../../shared/contracts/api/kiosk';
import { KioskApi } from '../../../shared/contracts/http/kiosk';
import { pathMatcher, type AnyContract } from '../../../shared/contracts/http/define';
import type { ApiRequestInput, ApiResponse, KioskStationState } from '../../../shared/contracts/ipc';
import {
  CSRF_HEADER,
  REQUESTED_WITH_HEADER,
  REQUESTED_WITH_VALUE,
} from '../../../shared/contracts/page-context';
import { AppError, zodIssuesToFields } from '../../../shared/errors';
import type { SmartLockDriver } from '../../../shared/domain/smart-locks/http-relay';
import type { SecretBox } from '../station/station-store';
import type { StudioPictures } from '../station/studio-pictures';
import type { SyncEngine } from '../sync/engine';
import { KioskDoorKeeper } from './kiosk-door';
import { OfflineRoutes } from '../station/offline-router';
import { KioskOffline } from './kiosk-offline';
import { KioskTicketPrinter, type TicketTarget } from './kiosk-tickets';

export const KIOSK_FILE = 'kiosk.json';
/** The kiosk device's calls: a kiosk path the station does not answer with this method is a 404. */
const KIOSK_CALLS = [
  KioskApi.postKioskSession,
  KioskApi.getKioskMe,
  KioskApi.postKioskIdentify,
  KioskApi.postKioskCheckIn,
  KioskApi.postKioskEntry,
];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What main keeps of the kiosk it runs (kiosk.json, 0600 next to station.json): the session token never reaches the renderer. */
interface KioskConfig {
  studioUuid: string;
  kioskId: string;
  /** Kept so an expired session (30 days without a call) is renewed without a person. */
  kioskKey: string;
  token: string | null;
  device: KioskDevice;
}

export interface KioskStationOptions {
  dataDir: string;
  cloudUrl: string;
  mode: 'desk' | 'kiosk';
  /** The station's studio (set by the staff sign-in that registered it); null before that. */
  stationStudio: () => string | null;
  /** Nobody at the desk: a kiosk screen must not be able to use a staff session. */
  lockStaff: () => Promise<unknown>;
  /** The kiosk's language (the station's, switched on the kiosk's screen). */
  locale: () => string;
  online: () => boolean;
  report: (reachable: boolean, error?: unknown) => void;
  engine: SyncEngine | null;
  /** The slip printer; a function is asked at each slip (the kiosk's setting from the cloud). */
  ticketPrinter?: TicketTarget | null | (() => TicketTarget | null);
  /** The station's sync device token: proves this is a registered desk station (the door's relay). */
  deviceToken?: () => string | null;
  /** Seals kept secrets with the OS (Electron's safeStorage); null on the host. */
  secretBox?: SecretBox | null;
  /** The relay driver for the door offline (tests: a fake); the HTTP relay by default. */
  doorDriver?: SmartLockDriver;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** The studio's appearance and logo for the kiosk's header, kept on disk for offline. */
  pictures?: StudioPictures | null;
}

/** How often, at most, the door's relay is fetched again after an online kiosk call (a new secret, a new lock). */
const DOOR_REFRESH_MS = 5 * 60_000;

class Unreachable extends Error {}

/**
 * The desktop in kiosk mode (desktop/README.md "Kiosk mode"): the web kiosk's calls
 * (`/api/v4/{uuid}/kiosk/…`) arrive over IPC `kioskRequest`; main forwards them to the cloud with the
 * kiosk session it keeps, answers identify and check-in from the station's mirror when the cloud is
 * away (`KioskOffline`: `checkIn` facts through the sync engine), and prints the check-in slip on the
 * station's ESC/POS printer after the check-in is recorded.
 */
export class KioskStation {
  private config: KioskConfig | null;
  private readonly offline: KioskOffline | null;
  private readonly fetchImpl: typeof fetch;
  private readonly door: KioskDoorKeeper;
  private doorFetchedAt = 0;
  private csrf: { token: string; cookie: string } | null = null;

  constructor(private readonly options: KioskStationOptions) {
    this.config = this.load();
    this.offline = options.engine ? new KioskOffline(options.engine) : null;
    this.door = new KioskDoorKeeper({
      dataDir: options.dataDir,
      secretBox: options.secretBox ?? null,
      ...(options.doorDriver ? { driver: options.doorDriver } : {}),
    });
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** The slip printer as configured now (none: null). */
  private get tickets(): KioskTicketPrinter | null {
    const setting = this.options.ticketPrinter;
    const target = typeof setting === 'function' ? setting() : setting;
    return target ? new KioskTicketPrinter(target) : null;
  }

  private get file(): string {
    return path.join(this.options.dataDir, KIOSK_FILE);
  }

  private load(): KioskConfig | null {
    try {
      const raw = JSON.parse(readFileSync(this.file, 'utf8')) as KioskConfig;
      return { ...raw, device: KioskDeviceSchema.parse(raw.device) };
    } catch {
      return null;
    }
  }

  private save(config: KioskConfig | null): void {
    this.config = config;
    if (!config) return void rmSync(this.file, { force: true });
    mkdirSync(this.options.dataDir, { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(config), { mode: 0o600 });
    renameSync(temp, this.file);
  }

  /** The kiosk this station signed in as (null before sign-in); reads no printer. */
  kioskId(): string | null {
    return this.config?.kioskId ?? null;
  }

  state(): KioskStationState {
    return {
      mode: this.options.mode,
      stationReady: this.options.stationStudio() !== null,
      kioskId: this.config?.kioskId ?? null,
      signedIn: Boolean(this.config?.token),
      ticketPrinter: this.tickets !== null,
    };
  }

  /** One kiosk call of the web kiosk (path `v4/{uuid}/kiosk/{rest}`), answered as the cloud would. */
  async request(request: ApiRequestInput): Promise<ApiResponse> {
    const studio = this.options.stationStudio();
    if (!studio)
      throw new AppError('kiosk.stationNotSetUp', { message: 'staff must set up this station first' });
    // The studio's look (colours, logo): main's copy, online or not; before the kiosk's own calls.
    if (this.options.pictures?.handles(request, studio)) return this.options.pictures.answer(request, studio);
    const [pathOnly = '', search = ''] = request.path.split('?');
    const body = request.body ? parseJson(request.body) : undefined;
    const found = this.routes.find(request.method, pathOnly, studio);
    if (!found) {
      // Another method on a kiosk path is unknown; any other path is not the kiosk's to ask.
      const known = KIOSK_CALLS.some((entry) => pathMatcher(entry.path)(`/${pathOnly}`)?.uuid === studio);
      if (known) throw AppError.notFound('kiosk call');
      throw new AppError('station.pathNotAllowed', { message: 'only this studio’s kiosk calls' });
    }
    const parsed = { method: request.method, query: new URLSearchParams(search), body, userId: '' };
    return (await found.handler(found.params, parsed)) as ApiResponse;
  }

  /** The kiosk calls the station answers, by contract entry (the cloud's own routes). */
  private readonly routes = new OfflineRoutes()
    .on(KioskApi.postKioskSession, (p, r) => this.signIn(p.uuid!, r.body))
    .on(KioskApi.deleteKioskSession, () => this.signOut())
    .on(KioskApi.getKioskMe, () => this.me())
    .on(KioskApi.postKioskIdentify, (_p, r) =>
      this.kioskCall(KioskApi.postKioskIdentify, r.body, () =>
        this.offline!.identify(this.requireConfig().device, r.body),
      ),
    )
    .on(KioskApi.postKioskCheckIn, (_p, r) =>
      this.kioskCall(
        KioskApi.postKioskCheckIn,
        r.body,
        () => this.offline!.checkIn(this.requireConfig().device, r.body),
        true,
      ),
    )
    .on(KioskApi.postKioskEntry, (_p, r) =>
      this.kioskCall(
        KioskApi.postKioskEntry,
        r.body,
        () =>
          this.offline!.entry(this.requireConfig().device, r.body, {
            door: this.door.load(this.deviceToken(), this.requireConfig().kioskId) !== null,
          }),
        true,
      ),
    );

  private requireConfig(): KioskConfig {
    if (!this.config?.token)
      throw new AppError('kiosk.notSignedIn', { message: 'the kiosk is not signed in' });
    return this.config;
  }

  private async send(
    method: string,
    apiPath: string,
    body?: unknown,
    token?: string | null,
    extraHeaders: Record<string, string> = {},
  ): Promise<Response> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      [REQUESTED_WITH_HEADER]: REQUESTED_WITH_VALUE,
      ...extraHeaders,
    };
    if (method !== 'GET') {
      // Kiosk calls are CSRF-checked like any anonymous call: the double-submit cookie and its token.
      this.csrf ??= await this.fetchCsrf();
      headers[CSRF_HEADER] = this.csrf.token;
      headers.cookie = this.csrf.cookie;
    }
    if (token) headers[KIOSK_SESSION_HEADER] = token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await this.fetchImpl(`${this.options.cloudUrl.replace(/\/+$/, '')}/api/${apiPath}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
      });
      this.options.report(true);
      if (response.status === 403) {
        const text = await response.clone().text();
        if (text.includes('auth.csrf')) this.csrf = null;
      }
      return response;
    } catch (cause) {
      this.options.report(false, cause);
      throw new Unreachable('no answer from the cloud', { cause });
    }
  }

  private async fetchCsrf(): Promise<{ token: string; cookie: string }> {
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.options.cloudUrl.replace(/\/+$/, '')}/api/v4/auth/csrf`, {
        headers: { accept: 'application/json', [REQUESTED_WITH_HEADER]: REQUESTED_WITH_VALUE },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
      });
    } catch (cause) {
      this.options.report(false, cause);
      throw new Unreachable('no answer from the cloud', { cause });
    }
    const { token } = (await response.json()) as { token: string };
    const cookie = (response.headers.getSetCookie?.() ?? [])
      .map((line) => line.split(';')[0])
      .filter(Boolean)
      .join('; ');
    return { token, cookie };
  }

  /**
   * Kiosk sign-in with the station's studio and a kiosk key. The key alone names the studio's default
   * kiosk (the spec's `auth/kiosk`); a kiosk id from a set-up link names another. The staff session
   * of whoever set the station up is locked first: the kiosk screen never acts as staff.
   */
  private async signIn(studioUuid: string, body: unknown): Promise<ApiResponse> {
    const raw = (body ?? {}) as { kioskId?: unknown; kioskKey?: unknown };
    const key = typeof raw.kioskKey === 'string' ? raw.kioskKey : '';
    let kioskId = typeof raw.kioskId === 'string' && UUID.test(raw.kioskId) ? raw.kioskId : null;
    try {
      if (!kioskId) {
        const auth = await this.send('POST', 'v4/auth/kiosk', { uuid: studioUuid, kioskKey: key });
        if (!auth.ok) return toApiResponse(auth);
        kioskId = ((await auth.json()) as { studioKiosk: { guid: string } }).studioKiosk.guid;
      }
      const input = KioskSignInInputSchema.safeParse({ kioskId, kioskKey: key });
      if (!input.success) throw AppError.invalid(zodIssuesToFields(input.error.issues));
      const response = await this.send('POST', `v4/${studioUuid}/kiosk/session`, input.data);
      if (!response.ok) return toApiResponse(response);
      const result = (await response.json()) as { token: string; kiosk: unknown };
      const device = KioskDeviceSchema.parse(result.kiosk);
      await this.options.lockStaff();
      this.save({
        studioUuid,
        kioskId: device.id,
        kioskKey: input.data.kioskKey,
        token: result.token,
        device,
      });
      // Another kiosk's door must not stay on this station.
      this.door.forget();
      await this.refreshDoor(true);
      return json(200, { token: 'station', kiosk: device });
    } catch (error) {
      if (error instanceof Unreachable)
        throw new AppError('kiosk.needsConnection', { message: 'the first kiosk sign-in needs the cloud' });
      throw error;
    }
  }

  private async signOut(): Promise<ApiResponse> {
    const token = this.config?.token;
    if (token && this.config) {
      try {
        await this.send('DELETE', `v4/${this.config.studioUuid}/kiosk/session`, undefined, token);
      } catch {
        // Offline: the session dies on its own after 30 days unused; forgetting it here is what counts.
      }
    }
    this.save(null);
    this.door.forget();
    return { status: 204, contentType: null, contentDisposition: null, encoding: 'utf8', body: '' };
  }

  /** A cloud call with the kiosk session; an expired session is renewed once with the kept key. */
  private async withSession(method: string, rest: string, body?: unknown): Promise<Response> {
    const config = this.requireConfig();
    let response = await this.send(method, `v4/${config.studioUuid}/kiosk/${rest}`, body, config.token);
    if (response.status !== 401) return response;
    const renewed = await this.send('POST', `v4/${config.studioUuid}/kiosk/session`, {
      kioskId: config.kioskId,
      kioskKey: config.kioskKey,
    });
    if (!renewed.ok) {
      // The key was changed in the back office: this kiosk must be set up again.
      this.save(null);
      return response;
    }
    const fresh = (await renewed.json()) as { token: string; kiosk: unknown };
    this.save({ ...config, token: fresh.token, device: KioskDeviceSchema.parse(fresh.kiosk) });
    response = await this.send(method, `v4/${config.studioUuid}/kiosk/${rest}`, body, fresh.token);
    return response;
  }

  private async me(): Promise<ApiResponse> {
    const config = this.requireConfig();
    if (this.options.online()) {
      try {
        const response = await this.withSession('GET', 'me');
        if (!response.ok) return toApiResponse(response);
        const device = KioskDeviceSchema.parse(await response.json());
        this.save({ ...this.requireConfig(), device });
        await this.refreshDoor(true);
        return json(200, device);
      } catch (error) {
        if (!(error instanceof Unreachable)) throw error;
      }
    }
    return json(200, config.device);
  }

  /**
   * identify / check-in / entry: the cloud when it is known to answer; the mirror when it was known
   * to be away (a write that failed on its way may have arrived, so it is not repeated locally: the
   * kiosk says "no connection" once, and the next try is answered offline, as the desk does).
   */
  private async kioskCall(
    entry: AnyContract,
    body: unknown,
    local: (() => unknown) | null,
    write = false,
  ): Promise<ApiResponse> {
    const config = this.requireConfig();
    const rest = entry.path.split('/kiosk/')[1]!;
    const answerLocally = (): ApiResponse => {
      if (!local || !this.offline)
        throw new AppError('kiosk.needsConnection', { message: 'this needs the connection to the cloud' });
      return json(200, local());
    };
    if (!this.options.online()) {
      const answered = answerLocally();
      const clientId = ((body ?? {}) as { clientId?: unknown }).clientId;
      return this.printed(await this.openedDoor(answered, config, String(clientId ?? '')), config);
    }
    try {
      const response = await this.withSession(entry.method.toUpperCase(), rest, body);
      if (response.ok) void this.refreshDoor(false);
      return this.printed(await toApiResponse(response), config);
    } catch (error) {
      if (!(error instanceof Unreachable)) throw error;
      if (write) throw new AppError('station.cloudUnreachable', { message: 'no answer from the cloud' });
      return answerLocally();
    }
  }

  private deviceToken(): string | null {
    return this.options.deviceToken?.() ?? null;
  }

  /**
   * Fetches the relay of this kiosk's own lock (`GET kiosk/door`, the kiosk session and the station's
   * device token) and keeps it sealed for the door offline; a kiosk without a lock forgets it. Failures
   * keep what was kept (the door must still open offline) and are retried at the next refresh.
   */
  async refreshDoor(force: boolean): Promise<void> {
    const config = this.config;
    const token = this.deviceToken();
    if (!config?.token || !token) return;
    if (!force && Date.now() - this.doorFetchedAt < DOOR_REFRESH_MS) return;
    this.doorFetchedAt = Date.now();
    try {
      const response = await this.send('GET', `v4/${config.studioUuid}/kiosk/door`, undefined, config.token, {
        authorization: `Bearer ${token}`,
      });
      if (!response.ok) {
        // A session the cloud no longer knows or a station it does not recognise: nothing to keep.
        if (response.status === 403 || response.status === 401) this.door.forget();
        return;
      }
      const door = KioskDoorSchema.parse(await response.json());
      this.door.store(door.lock, token, config.kioskId);
    } catch (error) {
      if (!(error instanceof Unreachable)) console.warn('[kiosk] door settings not read', error);
    }
  }

  /** After a check-in or entry recorded here: the kiosk's door through its kept relay (durable first). */
  private async openedDoor(
    response: ApiResponse,
    config: KioskConfig,
    clientId: string,
  ): Promise<ApiResponse> {
    const parsed = KioskCheckInResultSchema.safeParse(safeJson(response.body));
    if (response.status !== 200 || !parsed.success) return response;
    if (parsed.data.outcome !== 'checkedIn' && parsed.data.outcome !== 'entered') return response;
    const lock = await this.door.open(this.deviceToken(), config.kioskId, {
      reason: parsed.data.outcome === 'entered' ? 'entry' : 'checkIn',
      clientId,
    });
    return json(200, { ...parsed.data, lock });
  }

  /** After a recorded check-in or entry: the slip, when the kiosk prints and the station has a printer. */
  private async printed(response: ApiResponse, config: KioskConfig): Promise<ApiResponse> {
    const tickets = this.tickets;
    if (response.status !== 200 || !tickets) return response;
    const parsed = KioskCheckInResultSchema.safeParse(safeJson(response.body));
    if (!parsed.success || !parsed.data.ticket) return response;
    const result: KioskCheckInResult = {
      ...parsed.data,
      ticketPrinted: await tickets.print(
        parsed.data.ticket,
        config.device.studio.timeZone,
        this.options.locale(),
      ),
    };
    return json(200, result);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw AppError.invalid({ '': ['not JSON'] });
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function json(status: number, value: unknown): ApiResponse {
  return {
    status,
    contentType: 'application/json; charset=utf-8',
    contentDisposition: null,
    encoding: 'utf8',
    body: JSON.stringify(value),
  };
}

async function toApiResponse(response: Response): Promise<ApiResponse> {
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    contentDisposition: null,
    encoding: 'utf8',
    body: response.status === 204 ? '' : await response.text(),
  };
}
