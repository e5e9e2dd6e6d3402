import type { SmartLockTestReason } from '../../contracts/api/kiosk';

/**
 * Smart locks behind one interface: the kiosk asks "open" after a successful check-in, the back
 * office asks "test". Shared by the cloud (online kiosks) and the desktop kiosk station (its door
 * while the cloud is away, desktop/README.md): one relay protocol, over the global fetch. The HTTP relay is the one real driver (a relay board or a lock bridge that
 * takes an HTTP call); tests use the fake, or a real relay server on the loopback address.
 */
export interface HttpRelayConfig {
  url: string;
  method: 'POST' | 'GET';
  secret: string | null;
  openSeconds: number;
}

export interface SmartLockTarget {
  id: string;
  driver: 'httpRelay';
  config: HttpRelayConfig;
}

export interface SmartLockAnswer {
  ok: boolean;
  /** What happened, as a code the back office translates (EN/PL): `admin.lockResult.<reason>`. */
  reason: SmartLockTestReason;
  /** The relay's HTTP status (reasons `ok` and `httpStatus`). */
  httpStatus: number | null;
  /** The same in plain English with the technical detail (logs, API clients). */
  message: string;
}

export interface SmartLockDriver {
  open(
    lock: SmartLockTarget,
    context: { reason: 'checkIn' | 'entry'; clientId: string },
  ): Promise<SmartLockAnswer>;
  test(lock: SmartLockTarget): Promise<SmartLockAnswer>;
}

/** Long enough for a relay on a slow network, short enough that a client at the door is not left waiting. */
export const RELAY_TIMEOUT_MS = 4000;

/**
 * Calls the relay's URL: POST with `{ action, seconds, reason }` as JSON, or GET with the same as
 * query parameters (many relay boards only take GET). A 2xx answer is success; anything else,
 * a time-out or a refused connection is a failure with the reason in the message.
 */
export class HttpRelayDriver implements SmartLockDriver {
  constructor(private readonly fetchImpl: typeof fetch = (input, init) => globalThis.fetch(input, init)) {}

  open(lock: SmartLockTarget, context: { reason: 'checkIn' | 'entry' }): Promise<SmartLockAnswer> {
    return this.call(lock, {
      action: 'open',
      seconds: String(lock.config.openSeconds),
      reason: context.reason,
    });
  }

  test(lock: SmartLockTarget): Promise<SmartLockAnswer> {
    return this.call(lock, { action: 'test' });
  }

  private async call(lock: SmartLockTarget, payload: Record<string, string>): Promise<SmartLockAnswer> {
    const { url, method, secret } = lock.config;
    const headers: Record<string, string> = { accept: 'application/json, text/plain, */*' };
    if (secret) headers.authorization = `Bearer ${secret}`;
    let target = url;
    let body: string | undefined;
    if (method === 'GET') {
      const u = new URL(url);
      for (const [k, v] of Object.entries(payload)) u.searchParams.set(k, v);
      target = u.toString();
    } else {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(payload.seconds ? { ...payload, seconds: Number(payload.seconds) } : payload);
    }
    try {
      const res = await this.fetchImpl(target, {
        method,
        headers,
        body,
        redirect: 'error',
        signal: AbortSignal.timeout(RELAY_TIMEOUT_MS),
      });
      await res.body?.cancel().catch(() => undefined);
      return res.ok
        ? { ok: true, reason: 'ok', httpStatus: res.status, message: `HTTP ${res.status}` }
        : {
            ok: false,
            reason: 'httpStatus',
            httpStatus: res.status,
            message: `the relay answered HTTP ${res.status}`,
          };
    } catch (err) {
      const name = err instanceof Error ? err.name : '';
      if (name === 'TimeoutError' || name === 'AbortError')
        return {
          ok: false,
          reason: 'timeout',
          httpStatus: null,
          message: `no answer within ${RELAY_TIMEOUT_MS / 1000} s`,
        };
      const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
      return {
        ok: false,
        reason: 'unreachable',
        httpStatus: null,
        message: `could not reach the relay (${cause})`.slice(0, 300),
      };
    }
  }
}

/** Records what it was asked; answers as told. For tests and demos without hardware. */
export class FakeSmartLockDriver implements SmartLockDriver {
  readonly opened: Array<{ lockId: string; reason: string; clientId: string }> = [];
  readonly tested: string[] = [];
  answer: SmartLockAnswer = { ok: true, reason: 'ok', httpStatus: 200, message: 'fake lock' };

  async open(lock: SmartLockTarget, context: { reason: 'checkIn' | 'entry'; clientId: string }) {
    this.opened.push({ lockId: lock.id, reason: context.reason, clientId: context.clientId });
    return this.answer;
  }

  async test(lock: SmartLockTarget) {
    this.tested.push(lock.id);
    return this.answer;
  }
}
