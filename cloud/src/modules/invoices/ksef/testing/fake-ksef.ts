import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  constants,
  createDecipheriv,
  createHash,
  privateDecrypt,
  randomBytes,
  randomUUID,
  X509Certificate,
} from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KSEF_SPEC } from '../../testing/fa3-schema';
import { composeKsefNumber } from '../ksef-crypto';
import { upoDocument } from '../ksef-upo';

/**
 * A local stand-in for the KSeF API 2.0 (tests only), written against the Ministry's OpenAPI
 * (CIRFMF/ksef-docs `open-api.json`) and its documents: the calls a studio makes to send an invoice,
 * with the same paths, fields and status codes. It holds its own "Ministry" RSA key (a self-signed
 * test certificate beside this file), decrypts what the client encrypted, checks every invoice
 * against the FA(3) schema with xmllint (`../shared/spec/ksef`), and answers as KSeF does:
 * - auth: 450 "Nieprawidłowy token" for a token it does not know for the NIP; 21111 for a stale challenge;
 * - invoice status: 100 → 150 → 200 with a KSeF number (NIP-date-12 hex-CRC-8) and a UPO (v4-3);
 *   430 (schema), 410 (seller NIP is not the session's context), 440 duplicate (same seller, kind and
 *   number already accepted, with `originalKsefNumber`);
 * - `reachable = false`: every connection is dropped (KSeF down).
 */

const here = path.dirname(new URL(import.meta.url).pathname);
const CERT_PEM = readFileSync(path.join(here, 'fake-mf.cert.pem'), 'utf8');
const KEY_PEM = readFileSync(path.join(here, 'fake-mf.key.pem'), 'utf8');

export interface FakeKsefInvoice {
  sessionReference: string;
  referenceNumber: string;
  xml: string;
  offlineMode: boolean;
  hashOfCorrectedInvoice: string | null;
  invoiceHash: string;
  status: { code: number; description: string; details?: string[]; extensions?: Record<string, string> };
  ksefNumber?: string;
  invoiceNumber?: string;
  polls: number;
  receivedAt: Date;
}

const refNumber = (date = new Date()) =>
  `${date.toISOString().slice(0, 10).replace(/-/g, '')}-SE-${randomBytes(5).toString('hex').toUpperCase()}-${randomBytes(
    5,
  )
    .toString('hex')
    .toUpperCase()}-${randomBytes(1).toString('hex').toUpperCase()}`;

const run = promisify(execFile);

/** xmllint's first complaint about the document, or null when it validates (asynchronous: the fake shares the test's event loop). */
async function validateFa3(xml: string): Promise<string | null> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fake-ksef-'));
  try {
    const file = path.join(dir, 'invoice.xml');
    writeFileSync(file, xml);
    await run(
      'xmllint',
      ['--noout', '--nonet', '--schema', path.join(KSEF_SPEC, 'schemat_FA(3)_v1-0E.xsd'), file],
      {
        env: { ...process.env, XML_CATALOG_FILES: path.join(KSEF_SPEC, 'catalog.xml') },
      },
    );
    return null;
  } catch (err) {
    const stderr = String((err as { stderr?: string }).stderr ?? err);
    return stderr.split('\n').filter((l) => l && !l.endsWith('fails to validate'))[0] ?? 'invalid';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const tag = (xml: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml)?.[1];

export class FakeKsef {
  reachable = true;
  /** Status polls an invoice stays "processing" (150) before its outcome. */
  processingPolls = 1;
  /** Valid KSeF tokens per NIP (the context). */
  readonly tokens = new Map<string, string>();
  readonly invoices: FakeKsefInvoice[] = [];
  readonly requests: string[] = [];
  private server: Server | null = null;
  private challenges = new Map<string, number>();
  private auths = new Map<
    string,
    { nip: string; ok: boolean; detail?: string; redeemed: boolean; ref: string }
  >();
  private accessTokens = new Map<string, string>();
  private sessions = new Map<string, { nip: string; key: Buffer; iv: Buffer; open: boolean }>();
  url = '';

  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/v2`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    if (!this.reachable) {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const url = new URL(req.url ?? '/', 'http://fake');
    const p = url.pathname.replace(/^\/v2/, '');
    this.requests.push(`${req.method} ${p}`);
    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(value === undefined ? '' : JSON.stringify(value));
    };
    const exception = (code: number, description: string, details: string[] = []) =>
      json(400, {
        exception: {
          exceptionDetailList: [{ exceptionCode: code, exceptionDescription: description, details }],
          timestamp: new Date().toISOString(),
        },
      });
    const unauthorized = () =>
      json(401, {
        title: 'Unauthorized',
        status: 401,
        detail: 'invalid token',
        timestamp: new Date().toISOString(),
      });
    let m: RegExpExecArray | null;

    if (req.method === 'GET' && p === '/security/public-key-certificates') {
      const der = new X509Certificate(CERT_PEM).raw;
      const publicKeyId = createHash('sha256')
        .update(new X509Certificate(CERT_PEM).publicKey.export({ type: 'spki', format: 'der' }))
        .digest('base64');
      const entry = (usage: string) => ({
        certificate: der.toString('base64'),
        certificateId: createHash('sha256').update(der).digest('base64'),
        publicKeyId,
        validFrom: '2025-01-01T00:00:00+00:00',
        validTo: '2035-01-01T00:00:00+00:00',
        usage: [usage],
      });
      return json(200, [entry('KsefTokenEncryption'), entry('SymmetricKeyEncryption')]);
    }
    if (req.method === 'POST' && p === '/auth/challenge') {
      const now = new Date();
      const challenge = `${now.toISOString().slice(0, 10).replace(/-/g, '')}-CR-${randomBytes(13).toString('hex').toUpperCase().slice(0, 25)}`;
      this.challenges.set(challenge, now.getTime());
      return json(200, {
        challenge,
        timestamp: now.toISOString(),
        timestampMs: now.getTime(),
        clientIp: '127.0.0.1',
      });
    }
    if (req.method === 'POST' && p === '/auth/ksef-token') {
      const challenge = String(body.challenge);
      const issued = this.challenges.get(challenge);
      if (issued === undefined) return exception(21111, 'Nieprawidłowe wyzwanie autoryzacyjne.');
      this.challenges.delete(challenge);
      const nip = String((body.contextIdentifier as { value?: string } | undefined)?.value ?? '');
      let ok = false;
      let detail = 'Nieprawidłowy token';
      try {
        const plain = privateDecrypt(
          { key: KEY_PEM, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
          Buffer.from(String(body.encryptedToken), 'base64'),
        ).toString('utf8');
        // A KSeF token itself holds '|' (`<ref>|nip-<NIP>|<secret>`): the timestamp is after the last one.
        const cut = plain.lastIndexOf('|');
        const token = plain.slice(0, cut);
        const ts = plain.slice(cut + 1);
        if (Number(ts) !== issued) detail = 'Nieprawidłowy czas tokena';
        else ok = this.tokens.get(nip) === token;
      } catch {
        ok = false;
      }
      const ref = refNumber();
      const authToken = `auth.${randomUUID()}`;
      this.auths.set(authToken, { nip, ok, detail, redeemed: false, ref });
      return json(202, {
        referenceNumber: ref,
        authenticationToken: { token: authToken, validUntil: new Date(Date.now() + 600_000).toISOString() },
      });
    }
    if (req.method === 'GET' && (m = /^\/auth\/([^/]+)$/.exec(p))) {
      const auth = this.auths.get(bearer);
      if (!auth || auth.ref !== m[1]) return unauthorized();
      return json(200, {
        startDate: new Date().toISOString(),
        authenticationMethod: 'Token',
        authenticationMethodInfo: { category: 'Token', code: 'token.ksef', displayName: 'Token KSeF' },
        status: auth.ok
          ? { code: 200, description: 'Uwierzytelnianie zakończone sukcesem' }
          : {
              code: 450,
              description: 'Uwierzytelnianie zakończone niepowodzeniem z powodu błędnego tokenu',
              details: [auth.detail],
            },
      });
    }
    if (req.method === 'POST' && p === '/auth/token/redeem') {
      const auth = this.auths.get(bearer);
      if (!auth) return unauthorized();
      if (!auth.ok || auth.redeemed)
        return exception(21301, 'Brak autoryzacji.', ['Tokeny zostały już pobrane.']);
      auth.redeemed = true;
      const access = `access.${randomUUID()}`;
      this.accessTokens.set(access, auth.nip);
      const validUntil = new Date(Date.now() + 900_000).toISOString();
      return json(200, {
        accessToken: { token: access, validUntil },
        refreshToken: { token: `refresh.${randomUUID()}`, validUntil },
      });
    }
    const nip = this.accessTokens.get(bearer);
    if (!nip) return unauthorized();

    if (req.method === 'POST' && p === '/sessions/online') {
      const form = body.formCode as
        { systemCode?: string; schemaVersion?: string; value?: string } | undefined;
      if (form?.systemCode !== 'FA (3)' || form.schemaVersion !== '1-0E' || form.value !== 'FA')
        return exception(21405, 'Błąd walidacji danych wejściowych.', ['formCode']);
      const enc = body.encryption as { encryptedSymmetricKey: string; initializationVector: string };
      let key: Buffer;
      try {
        key = privateDecrypt(
          { key: KEY_PEM, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
          Buffer.from(enc.encryptedSymmetricKey, 'base64'),
        );
      } catch {
        return exception(21405, 'Błąd walidacji danych wejściowych.', ['encryptedSymmetricKey']);
      }
      const iv = Buffer.from(enc.initializationVector, 'base64');
      if (key.length !== 32 || iv.length !== 16)
        return exception(21405, 'Błąd walidacji danych wejściowych.', ['encryption']);
      const ref = refNumber();
      this.sessions.set(ref, { nip, key, iv, open: true });
      return json(201, {
        referenceNumber: ref,
        validUntil: new Date(Date.now() + 12 * 3600_000).toISOString(),
      });
    }
    if (req.method === 'POST' && (m = /^\/sessions\/online\/([^/]+)\/invoices$/.exec(p))) {
      const session = this.sessions.get(m[1]!);
      if (!session || session.nip !== nip)
        return exception(21173, 'Brak sesji o wskazanym numerze referencyjnym.');
      if (!session.open) return exception(21180, 'Status sesji nie pozwala na wykonanie operacji.');
      const encrypted = Buffer.from(String(body.encryptedInvoiceContent), 'base64');
      if (encrypted.length !== body.encryptedInvoiceSize)
        return exception(21402, 'Nieprawidłowy rozmiar pliku.');
      if (createHash('sha256').update(encrypted).digest('base64') !== body.encryptedInvoiceHash)
        return exception(21403, 'Nieprawidłowy skrót pliku.');
      const reference = refNumber();
      const record: FakeKsefInvoice = {
        sessionReference: m[1]!,
        referenceNumber: reference,
        xml: '',
        offlineMode: body.offlineMode === true,
        hashOfCorrectedInvoice: (body.hashOfCorrectedInvoice as string | undefined) ?? null,
        invoiceHash: String(body.invoiceHash),
        status: { code: 100, description: 'Faktura przyjęta do dalszego przetwarzania' },
        polls: 0,
        receivedAt: new Date(),
      };
      this.invoices.push(record);
      try {
        const decipher = createDecipheriv('aes-256-cbc', session.key, session.iv);
        const plain = Buffer.concat([decipher.update(encrypted), decipher.final()]);
        if (
          plain.length !== body.invoiceSize ||
          createHash('sha256').update(plain).digest('base64') !== body.invoiceHash
        )
          throw new Error('hash');
        record.xml = plain.toString('utf8');
      } catch {
        record.status = { code: 435, description: 'Błąd odszyfrowania pliku' };
        return json(202, { referenceNumber: reference });
      }
      await this.decide(record, nip);
      return json(202, { referenceNumber: reference });
    }
    if (req.method === 'POST' && (m = /^\/sessions\/online\/([^/]+)\/close$/.exec(p))) {
      const session = this.sessions.get(m[1]!);
      if (!session) return exception(21173, 'Brak sesji o wskazanym numerze referencyjnym.');
      session.open = false;
      res.writeHead(204).end();
      return;
    }
    if (req.method === 'GET' && (m = /^\/sessions\/([^/]+)\/invoices\/([^/]+)(\/upo)?$/.exec(p))) {
      const record = this.invoices.find((i) => i.sessionReference === m![1] && i.referenceNumber === m![2]);
      if (!record || this.sessions.get(record.sessionReference)?.nip !== nip)
        return exception(21405, 'Błąd walidacji danych wejściowych.', ['referenceNumber']);
      const processing = record.status.code === 200 && record.polls < this.processingPolls;
      if (m[3]) {
        if (record.status.code !== 200 || processing) return exception(21178, 'Nie znaleziono UPO.');
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(this.upo(record, nip));
        return;
      }
      record.polls += 1;
      return json(200, {
        ordinalNumber: this.invoices.indexOf(record) + 1,
        referenceNumber: record.referenceNumber,
        invoiceHash: record.invoiceHash,
        invoicingDate: record.receivedAt.toISOString(),
        invoicingMode: record.offlineMode ? 'Offline' : 'Online',
        ...(record.invoiceNumber ? { invoiceNumber: record.invoiceNumber } : {}),
        ...(processing
          ? { status: { code: 150, description: 'Trwa przetwarzanie' } }
          : {
              status: record.status,
              ...(record.ksefNumber
                ? { ksefNumber: record.ksefNumber, acquisitionDate: record.receivedAt.toISOString() }
                : {}),
            }),
      });
    }
    return json(404, { title: 'Not Found', status: 404 });
  }

  private async decide(record: FakeKsefInvoice, contextNip: string) {
    const invalid = await validateFa3(record.xml);
    if (invalid) {
      record.status = { code: 430, description: 'Błąd weryfikacji pliku faktury', details: [invalid] };
      return;
    }
    const seller = /<Podmiot1>[\s\S]*?<NIP>(\d+)<\/NIP>/.exec(record.xml)?.[1];
    const number = tag(record.xml, 'P_2');
    const kind = tag(record.xml, 'RodzajFaktury');
    record.invoiceNumber = number;
    if (seller !== contextNip) {
      record.status = { code: 410, description: 'Nieprawidłowy zakres uprawnień' };
      return;
    }
    const original = this.invoices.find(
      (i) =>
        i !== record &&
        i.ksefNumber &&
        i.invoiceNumber === number &&
        tag(i.xml, 'RodzajFaktury') === kind &&
        /<Podmiot1>[\s\S]*?<NIP>(\d+)<\/NIP>/.exec(i.xml)?.[1] === seller,
    );
    if (original) {
      record.status = {
        code: 440,
        description: 'Duplikat faktury',
        extensions: {
          originalSessionReferenceNumber: original.sessionReference,
          originalKsefNumber: original.ksefNumber!,
        },
      };
      return;
    }
    record.ksefNumber = composeKsefNumber(seller, record.receivedAt, randomBytes(6).toString('hex'));
    record.status = { code: 200, description: 'Sukces' };
  }

  private upo(record: FakeKsefInvoice, nip: string): string {
    return upoDocument({
      receiver: 'Ministerstwo Finansów - środowisko testowe (TE) [fake]',
      sessionReference: record.sessionReference,
      nip,
      authenticationHash: createHash('sha256').update(record.sessionReference).digest('base64'),
      ksefNumber: record.ksefNumber!,
      invoiceNumber: record.invoiceNumber ?? '',
      issueDate: tag(record.xml, 'P_1') ?? '',
      receivedAt: record.receivedAt,
      invoiceHash: record.invoiceHash,
      offline: record.offlineMode,
    });
  }
}
