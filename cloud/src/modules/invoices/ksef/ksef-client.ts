import {
  encryptInvoice,
  encryptKsefToken,
  newSessionKey,
  type KsefPublicKeyCertificate,
  type SessionKey,
} from './ksef-crypto';

/**
 * A client of the KSeF API 2.0 (the Ministry of Finance's OpenAPI, CIRFMF/ksef-docs `open-api.json`),
 * the calls an invoicing studio needs: authentication with a KSeF token, an interactive session,
 * sending one invoice, its status and its UPO. Endpoints, field names and status codes as published.
 *
 * Failures are of two kinds: `KsefUnreachable` (no answer, a timeout, 5xx, 429) — KSeF is not there
 * and the invoice waits in offline mode; `KsefRefusal` (a 4xx answer or a refusing status) — KSeF
 * answered no, with its code and description.
 */

export class KsefUnreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KsefUnreachable';
  }
}

/** KSeF no longer takes this access token (expired meanwhile): the job is retried, nothing is refused. */
export class KsefUnauthorized extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KsefUnauthorized';
  }
}

export class KsefRefusal extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly details: string[] = [],
  ) {
    super(`${code} ${description}${details.length ? `: ${details.join('; ')}` : ''}`);
    this.name = 'KsefRefusal';
  }
}

export interface KsefStatus {
  code: number;
  description: string;
  details?: string[] | null;
  extensions?: Record<string, string | null> | null;
}

export interface SessionInvoiceStatus {
  referenceNumber: string;
  ksefNumber?: string;
  invoiceHash: string;
  status: KsefStatus;
  invoicingMode?: 'Online' | 'Offline';
}

export const FA3_FORM_CODE = { systemCode: 'FA (3)', schemaVersion: '1-0E', value: 'FA' } as const;

type ExceptionResponse = {
  exception?: {
    exceptionDetailList?: { exceptionCode?: number; exceptionDescription?: string; details?: string[] }[];
  };
};

export class KsefClient {
  constructor(
    private readonly baseUrl: string,
    private readonly options: { timeoutMs?: number; fetch?: typeof fetch } = {},
  ) {}

  private async call<T>(
    method: 'GET' | 'POST',
    path: string,
    init: { bearer?: string; body?: unknown; accept?: 'json' | 'xml' } = {},
  ): Promise<{ status: number; body: T }> {
    let res: Response;
    try {
      res = await (this.options.fetch ?? fetch)(`${this.baseUrl}${path}`, {
        method,
        headers: {
          accept: init.accept === 'xml' ? 'application/xml' : 'application/json',
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(init.bearer ? { authorization: `Bearer ${init.bearer}` } : {}),
        },
        body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (err) {
      throw new KsefUnreachable(`${method} ${path}: ${(err as Error).message}`);
    }
    const text = await res.text().catch(() => '');
    if (res.status >= 500 || res.status === 429)
      throw new KsefUnreachable(`${method} ${path}: HTTP ${res.status}`);
    if (res.status === 401) throw new KsefUnauthorized(`${method} ${path}: HTTP 401`);
    if (res.status >= 400) {
      let detail: { exceptionCode?: number; exceptionDescription?: string; details?: string[] } | undefined;
      try {
        detail = (JSON.parse(text) as ExceptionResponse).exception?.exceptionDetailList?.[0];
      } catch {
        /* not JSON */
      }
      throw new KsefRefusal(
        detail?.exceptionCode ?? res.status,
        detail?.exceptionDescription ?? `HTTP ${res.status}`,
        detail?.details ?? [],
      );
    }
    if (init.accept === 'xml') return { status: res.status, body: text as T };
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  async publicKeyCertificates(): Promise<KsefPublicKeyCertificate[]> {
    return (await this.call<KsefPublicKeyCertificate[]>('GET', '/security/public-key-certificates')).body;
  }

  /** `POST /auth/challenge` → `POST /auth/ksef-token` → `GET /auth/{ref}` until 200 → `POST /auth/token/redeem`. */
  async authenticateWithToken(
    token: string,
    nip: string,
    certificates: KsefPublicKeyCertificate[],
    poll: { attempts: number; delayMs: number } = { attempts: 20, delayMs: 500 },
  ): Promise<string> {
    const cert = pick(certificates, 'KsefTokenEncryption');
    const challenge = (
      await this.call<{ challenge: string; timestampMs: number }>('POST', '/auth/challenge', { body: {} })
    ).body;
    const init = (
      await this.call<{ referenceNumber: string; authenticationToken: { token: string } }>(
        'POST',
        '/auth/ksef-token',
        {
          body: {
            challenge: challenge.challenge,
            contextIdentifier: { type: 'Nip', value: nip },
            encryptedToken: encryptKsefToken(token, challenge.timestampMs, cert.certificate),
            ...(cert.publicKeyId ? { publicKeyId: cert.publicKeyId } : {}),
          },
        },
      )
    ).body;
    const authToken = init.authenticationToken.token;
    for (let i = 0; ; i++) {
      const { status } = (
        await this.call<{ status: KsefStatus }>('GET', `/auth/${init.referenceNumber}`, { bearer: authToken })
      ).body;
      if (status.code === 200) break;
      if (status.code !== 100) throw new KsefRefusal(status.code, status.description, status.details ?? []);
      if (i + 1 >= poll.attempts) throw new KsefUnreachable('authentication still in progress');
      await sleep(poll.delayMs);
    }
    const tokens = (
      await this.call<{ accessToken: { token: string } }>('POST', '/auth/token/redeem', { bearer: authToken })
    ).body;
    return tokens.accessToken.token;
  }

  /** `POST /sessions/online` with a fresh AES key encrypted with the Ministry's key. */
  async openOnlineSession(
    accessToken: string,
    certificates: KsefPublicKeyCertificate[],
  ): Promise<{ referenceNumber: string; key: SessionKey }> {
    const cert = pick(certificates, 'SymmetricKeyEncryption');
    const key = newSessionKey(cert.certificate);
    const res = await this.call<{ referenceNumber: string }>('POST', '/sessions/online', {
      bearer: accessToken,
      body: {
        formCode: FA3_FORM_CODE,
        encryption: {
          encryptedSymmetricKey: key.encryptedSymmetricKey,
          initializationVector: key.initializationVector,
          ...(cert.publicKeyId ? { publicKeyId: cert.publicKeyId } : {}),
        },
      },
    });
    return { referenceNumber: res.body.referenceNumber, key };
  }

  /** `POST /sessions/online/{ref}/invoices`: the invoice encrypted with the session's key. */
  async sendInvoice(
    accessToken: string,
    session: { referenceNumber: string; key: SessionKey },
    xml: Buffer,
    options: { offlineMode: boolean; hashOfCorrectedInvoice?: string | null },
  ): Promise<string> {
    const res = await this.call<{ referenceNumber: string }>(
      'POST',
      `/sessions/online/${session.referenceNumber}/invoices`,
      {
        bearer: accessToken,
        body: {
          ...encryptInvoice(xml, session.key),
          offlineMode: options.offlineMode,
          ...(options.hashOfCorrectedInvoice
            ? { hashOfCorrectedInvoice: options.hashOfCorrectedInvoice }
            : {}),
        },
      },
    );
    return res.body.referenceNumber;
  }

  async closeOnlineSession(accessToken: string, sessionReference: string): Promise<void> {
    await this.call('POST', `/sessions/online/${sessionReference}/close`, { bearer: accessToken });
  }

  async invoiceStatus(
    accessToken: string,
    sessionRef: string,
    invoiceRef: string,
  ): Promise<SessionInvoiceStatus> {
    return (
      await this.call<SessionInvoiceStatus>('GET', `/sessions/${sessionRef}/invoices/${invoiceRef}`, {
        bearer: accessToken,
      })
    ).body;
  }

  async invoiceUpo(accessToken: string, sessionRef: string, invoiceRef: string): Promise<string> {
    return (
      await this.call<string>('GET', `/sessions/${sessionRef}/invoices/${invoiceRef}/upo`, {
        bearer: accessToken,
        accept: 'xml',
      })
    ).body;
  }
}

function pick(certificates: KsefPublicKeyCertificate[], usage: string): KsefPublicKeyCertificate {
  const now = Date.now();
  const found = certificates.find(
    (c) =>
      c.usage.includes(usage) &&
      (!c.validFrom || Date.parse(c.validFrom) <= now) &&
      (!c.validTo || Date.parse(c.validTo) > now),
  );
  if (!found) throw new KsefUnreachable(`KSeF lists no valid public key for ${usage}`);
  return found;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
