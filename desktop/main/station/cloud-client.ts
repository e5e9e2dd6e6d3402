import {
  AUTH_HEADER,
  CSRF_HEADER,
  REQUESTED_WITH_HEADER,
  REQUESTED_WITH_VALUE,
  authHeaderValue,
} from '../../../shared/contracts/page-context';
import { LoginResultSchema, type LoginInput, type LoginResult } from '../../../shared/contracts/api/auth';
import type { ApiRequestInput, ApiResponse } from '../../../shared/contracts/ipc';
import { isErrorEnvelope, type ErrorEnvelope } from '../../../shared/errors/app-error';

/** The cloud answered with an error status; the envelope is passed on to the renderer as it came. */
export class CloudHttpError extends Error {
  constructor(
    readonly status: number,
    readonly envelope: ErrorEnvelope | null,
  ) {
    super(envelope?.error.message ?? `cloud answered HTTP ${status}`);
    this.name = 'CloudHttpError';
  }
}

/** No HTTP answer at all (offline, DNS, refused, timed out). */
export class CloudUnreachableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CloudUnreachableError';
  }
}

export interface StaffCredentials {
  userId: string;
  sessionId: string;
  csrfToken: string;
}

/** The cookie value the cloud sets for a session (`sp_session`), for calls outside /api. */
export const staffSessionCookie = (c: Pick<StaffCredentials, 'userId' | 'sessionId'>) =>
  encodeURIComponent(authHeaderValue(c.userId, c.sessionId));

/** A /health slower than this is no answer (issue 26: a silent cloud is offline within 3 s). */
export const HEALTH_TIMEOUT_MS = 1_800;

const TEXT_TYPES = /^(application\/(json|problem\+json|xml)|text\/)/i;

export interface CloudClientOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
  /**
   * How long /health may take before the cloud counts as away (default 1.8 s): a cloud that accepts
   * the connection and never answers is seen offline within the probe's interval plus this.
   */
  healthTimeoutMs?: number;
  /** Called with every outcome: an answer means online, no answer means offline. */
  onReachability?: (reachable: boolean, error?: unknown) => void;
}

/**
 * The station's HTTP client of the cloud (plain Node fetch): sign-in, sign-out and the API calls the
 * renderer asks main to forward, with the spec's headers (§6) filled from main's credentials.
 */
export class CloudClient {
  readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;

  constructor(
    baseUrl: string,
    private readonly options: CloudClientOptions = {},
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  private async send(url: string, init: RequestInit, timeoutMs = this.timeoutMs): Promise<Response> {
    try {
      const response = await this.fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      this.options.onReachability?.(true);
      return response;
    } catch (cause) {
      this.options.onReachability?.(false, cause);
      throw new CloudUnreachableError(`no answer from ${this.baseUrl}`, { cause });
    }
  }

  private static headers(credentials: StaffCredentials | null, csrf?: string): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      [REQUESTED_WITH_HEADER]: REQUESTED_WITH_VALUE,
    };
    if (credentials) {
      headers[AUTH_HEADER] = authHeaderValue(credentials.userId, credentials.sessionId);
      headers[CSRF_HEADER] = credentials.csrfToken;
    } else if (csrf) {
      headers[CSRF_HEADER] = csrf;
    }
    return headers;
  }

  private static async readJson(response: Response): Promise<unknown> {
    const text = await response.text();
    if (!text) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return null;
    }
  }

  private static async fail(response: Response): Promise<never> {
    const payload = await CloudClient.readJson(response);
    throw new CloudHttpError(response.status, isErrorEnvelope(payload) ? payload : null);
  }

  async health(): Promise<boolean> {
    try {
      const response = await this.send(
        `${this.baseUrl}/health`,
        { method: 'GET' },
        this.options.healthTimeoutMs ?? HEALTH_TIMEOUT_MS,
      );
      await response.body?.cancel();
      return response.ok;
    } catch {
      return false;
    }
  }

  /** auth/login with the anonymous double-submit CSRF token (GET auth/csrf sets its cookie). */
  async login(input: LoginInput): Promise<LoginResult> {
    const csrfResponse = await this.send(`${this.baseUrl}/api/v4/auth/csrf`, {
      method: 'GET',
      headers: CloudClient.headers(null),
    });
    if (!csrfResponse.ok) return CloudClient.fail(csrfResponse);
    const { token } = (await csrfResponse.json()) as { token: string };
    const cookie = (csrfResponse.headers.getSetCookie?.() ?? [])
      .map((line) => line.split(';')[0])
      .filter(Boolean)
      .join('; ');
    const response = await this.send(`${this.baseUrl}/api/v4/auth/login`, {
      method: 'POST',
      headers: { ...CloudClient.headers(null, token), 'content-type': 'application/json', cookie },
      body: JSON.stringify(input),
    });
    if (!response.ok) return CloudClient.fail(response);
    return LoginResultSchema.parse(await response.json());
  }

  async logout(credentials: StaffCredentials): Promise<void> {
    const response = await this.send(`${this.baseUrl}/api/v4/auth/logout`, {
      method: 'POST',
      headers: { ...CloudClient.headers(credentials), 'content-type': 'application/json' },
    });
    // A session the cloud already forgot is signed out as far as we are concerned.
    if (!response.ok && response.status !== 401) return CloudClient.fail(response);
  }

  /** One forwarded API call; every HTTP answer (errors too) is returned, never thrown. */
  async forward(credentials: StaffCredentials, request: ApiRequestInput): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...CloudClient.headers(credentials) };
    if (request.accept) headers.accept = request.accept;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.send(`${this.baseUrl}/api/${request.path}`, {
      method: request.method,
      headers,
      body: request.body,
    });
    const contentType = response.headers.get('content-type');
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = !contentType || TEXT_TYPES.test(contentType);
    return {
      status: response.status,
      contentType,
      contentDisposition: response.headers.get('content-disposition'),
      encoding: text ? 'utf8' : 'base64',
      body: bytes.toString(text ? 'utf8' : 'base64'),
    };
  }

  /**
   * POST /sync/devices with the staff session (the sync module's endpoint). Answers null when this
   * cloud has no such endpoint yet (404/405), so the station can work and register later.
   */
  async registerDevice(
    credentials: StaffCredentials,
    body: { deviceId: string; name: string; studioUuid?: string },
  ): Promise<DeviceRegistration | null> {
    const response = await this.send(`${this.baseUrl}/sync/devices`, {
      method: 'POST',
      headers: {
        ...CloudClient.headers(credentials),
        'content-type': 'application/json',
        cookie: `sp_session=${staffSessionCookie(credentials)}`,
      },
      body: JSON.stringify(body),
    });
    if (response.status === 404 || response.status === 405) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) return CloudClient.fail(response);
    return parseDeviceRegistration(await response.json());
  }
}

/** The answer of POST /sync/devices (201). */
export interface DeviceRegistration {
  deviceToken: string;
  deviceId: string;
  studioUuid: string;
  scope?: unknown;
}

export function parseDeviceRegistration(value: unknown): DeviceRegistration {
  const v = value as Partial<DeviceRegistration> | null;
  if (
    !v ||
    typeof v.deviceToken !== 'string' ||
    typeof v.deviceId !== 'string' ||
    typeof v.studioUuid !== 'string'
  )
    throw new Error('POST /sync/devices answered without deviceToken, deviceId and studioUuid');
  return { deviceToken: v.deviceToken, deviceId: v.deviceId, studioUuid: v.studioUuid, scope: v.scope };
}
