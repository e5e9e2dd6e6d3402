import type { InvoiceKsefView, KsefEnvironment } from '../../../../../shared/contracts/api/ksef';
import { AppError } from '../../../../../shared/errors';
import type { InvoiceKsefRow } from '../../../db/generated/tables';
import type { Db, Knex } from '../../../db/knex';
import type { JobContext } from '../../../jobs/perform';
import { enqueue } from '../../../jobs/queue';
import { findStudio } from '../../identity/index';
import { invoiceFa3Xml } from '../ksef-fa3';
import { invoiceRow } from '../invoices.rows';
import { invoiceDetail } from '../invoices.service';
import { KsefClient, KsefRefusal, KsefUnreachable } from './ksef-client';
import { invoiceVerificationUrl, sha256Base64 } from './ksef-crypto';
import { ksefApiUrl, ksefEnvironmentOf, ksefSecrets, KSEF_QR_URLS } from './ksef-settings.service';

/**
 * Sending invoices to KSeF as background jobs (`ksef.send`, see ../README.md "KSeF"):
 * - issuing (or correcting) writes the invoice's `invoice_ksef` row (waiting) and enqueues its send,
 *   in the issuing transaction, when the studio has a KSeF token;
 * - the job builds the FA(3) document once and keeps it (its SHA-256 is KOD I's), authenticates with
 *   the token, opens an interactive session, sends the invoice encrypted, polls its status, and on
 *   200 stores the KSeF number and the UPO; a refusal stores KSeF's code and description;
 * - KSeF unreachable before the invoice went out: the invoice is in offline mode from then on (its
 *   PDF carries KOD I and KOD II) and the job fails, to be retried with backoff; when KSeF is back it
 *   goes with `offlineMode: true`;
 * - every network call runs outside any transaction; the writes are single short statements.
 */

/** A row of `invoice_ksef`, its text columns narrowed to the values the checks allow. */
export type KsefRow = Omit<InvoiceKsefRow, 'status' | 'mode' | 'environment' | 'createdAt' | 'updatedAt'> & {
  status: 'waiting' | 'sent' | 'accepted' | 'refused';
  mode: 'online' | 'offline';
  environment: KsefEnvironment;
};

/** Status polling per job run (tests shorten the delay). */
export const ksefTiming = { pollAttempts: 15, pollDelayMs: 1000, timeoutMs: 30_000 };

export const ksefJobKey = (invoiceId: string, attempt: number) => `ksef.send:${invoiceId}:${attempt}`;

export async function ksefRow(db: Db, invoiceId: string): Promise<KsefRow | undefined> {
  return (await db('invoice_ksef').where({ invoiceId }).first()) as KsefRow | undefined;
}

/** In the issuing transaction: the invoice waits for KSeF when the studio sends to it. */
export async function queueKsefSend(trx: Knex.Transaction, studioId: string, invoiceId: string, now: Date) {
  const environment = await ksefEnvironmentOf(trx, studioId);
  if (!environment) return;
  await trx('invoice_ksef').insert({
    invoiceId,
    studioId,
    environment,
    status: 'waiting',
    createdAt: now,
    updatedAt: now,
  });
  await enqueue(trx, 'ksef.send', { invoiceId, attempt: 1 }, { key: ksefJobKey(invoiceId, 1) });
}

/** Once in KSeF (or on its way), an invoice is never cancelled or edited: only corrected. */
export async function assertNotInKsef(db: Db, invoiceId: string): Promise<void> {
  const row = await ksefRow(db, invoiceId);
  if (row && row.status !== 'refused')
    throw new AppError('ksef.invoiceSent', {
      message:
        row.status === 'accepted'
          ? `the invoice is in KSeF (${row.ksefNumber}): it cannot be cancelled or edited, issue a corrective invoice`
          : 'the invoice is being sent to KSeF: it cannot be cancelled or edited, issue a corrective invoice',
    });
}

export function ksefView(
  invoiceId: string,
  row: KsefRow | undefined,
  sellerNip: string | null,
  issueDate: string,
): InvoiceKsefView {
  if (!row)
    return {
      invoiceId,
      state: 'none',
      mode: null,
      environment: null,
      ksefNumber: null,
      statusCode: null,
      reason: null,
      lastError: null,
      attempt: 0,
      sentAt: null,
      acceptedAt: null,
      upoAvailable: false,
      verificationUrl: null,
      resendable: true,
    };
  return {
    invoiceId,
    state: row.status,
    mode: row.mode,
    environment: row.environment,
    ksefNumber: row.ksefNumber,
    statusCode: row.statusCode,
    reason: row.reason,
    lastError: row.lastError,
    attempt: row.attempt,
    sentAt: row.sentAt ? new Date(row.sentAt).toISOString() : null,
    acceptedAt: row.acceptedAt ? new Date(row.acceptedAt).toISOString() : null,
    upoAvailable: Boolean(row.upo),
    verificationUrl:
      row.invoiceHash && sellerNip
        ? invoiceVerificationUrl(KSEF_QR_URLS[row.environment], sellerNip, issueDate, row.invoiceHash)
        : null,
    resendable: row.status === 'waiting' || row.status === 'refused',
  };
}

/**
 * Resend (staff): a refused invoice goes again as a new attempt (its document rebuilt, unless it was
 * issued offline: then the same document, as KSeF's technical correction of the refused one); a
 * waiting one is tried now; one never sent (issued before the token was saved) starts.
 */
export async function resendToKsef(trx: Knex.Transaction, studioId: string, invoiceId: string, now: Date) {
  const invoice = await invoiceRow(trx, studioId, invoiceId, true);
  if (invoice.status === 'cancelled')
    throw new AppError('ksef.notResendable', { message: 'a cancelled invoice is not sent to KSeF' });
  const environment = await ksefEnvironmentOf(trx, studioId);
  if (!environment)
    throw new AppError('ksef.notConfigured', {
      message: 'save the studio’s KSeF token first (KSeF settings)',
    });
  const row = (await trx('invoice_ksef').where({ invoiceId }).forUpdate().first()) as KsefRow | undefined;
  if (row && (row.status === 'accepted' || row.status === 'sent'))
    throw new AppError('ksef.notResendable', {
      message:
        row.status === 'accepted'
          ? 'the invoice is already in KSeF'
          : 'the invoice is being processed by KSeF',
    });
  const attempt = (row?.attempt ?? 0) + 1;
  if (!row)
    await trx('invoice_ksef').insert({
      invoiceId,
      studioId,
      environment,
      status: 'waiting',
      attempt,
      createdAt: now,
      updatedAt: now,
    });
  else {
    // The document stays as it is unless KSeF refused it after reading it: an online one is then
    // rebuilt; an offline one (its codes are printed) is rebuilt as KSeF's technical correction of
    // the refused one (hashOfCorrectedInvoice). Refused before KSeF read it (a wrong token): the same.
    const received = row.status === 'refused' && Boolean(row.invoiceReference);
    const keep = !received;
    await trx('invoice_ksef')
      .where({ invoiceId })
      .update({
        status: 'waiting',
        attempt,
        environment: row.status === 'refused' ? environment : row.environment,
        xml: keep ? row.xml : null,
        invoiceHash: keep ? row.invoiceHash : null,
        correctedHash: received && row.mode === 'offline' ? row.invoiceHash : row.correctedHash,
        sessionReference: null,
        invoiceReference: null,
        statusCode: null,
        reason: null,
        updatedAt: now,
      });
  }
  await enqueue(trx, 'ksef.send', { invoiceId, attempt }, { key: ksefJobKey(invoiceId, attempt) });
}

/** Raised to retry later: KSeF is processing, or a correction waits for its invoice's KSeF number. */
export class KsefNotYet extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The `ksef.send` job. */
export async function performKsefSend(
  payload: { invoiceId: string; attempt: number },
  ctx: JobContext,
): Promise<void> {
  const { knex, clock } = ctx;
  const row = await ksefRow(knex, payload.invoiceId);
  // A later attempt superseded this job, or the invoice is settled.
  if (!row || row.attempt !== payload.attempt || row.status === 'accepted' || row.status === 'refused')
    return;
  const update = (patch: Partial<KsefRow>) =>
    knex('invoice_ksef')
      .where({ invoiceId: row.invoiceId, attempt: row.attempt })
      .update({ ...patch, updatedAt: clock.now() });

  const secrets = await ksefSecrets(knex, row.studioId);
  if (!secrets) {
    await update({ lastError: 'no readable KSeF token: save it again in the KSeF settings' });
    return;
  }
  const studio = await findStudio(knex, row.studioId);
  if (!studio) return;
  const invoice = await invoiceDetail(knex, studio, row.invoiceId, clock.now());
  const sellerNip = invoice.seller.taxId ?? '';

  let xml = row.xml;
  if (!xml) {
    let correctedKsefNumber: string | undefined;
    if (invoice.kind === 'corrective' && invoice.correction) {
      const original = await ksefRow(knex, invoice.correction.correctedInvoice.id);
      // A correction goes to KSeF after its invoice has a KSeF number (tryby-offline.md).
      if (original && original.status !== 'accepted' && original.status !== 'refused')
        throw new KsefNotYet('the corrected invoice has no KSeF number yet');
      correctedKsefNumber = original?.ksefNumber ?? undefined;
    }
    xml = invoiceFa3Xml(invoice, { correctedKsefNumber });
    await update({ xml, invoiceHash: sha256Base64(Buffer.from(xml, 'utf8')) });
  }

  const client = new KsefClient(ksefApiUrl(row.environment), { timeoutMs: ksefTiming.timeoutMs });
  let accessToken = '';
  let sessionReference = row.sessionReference;
  let invoiceReference = row.invoiceReference;
  try {
    const certificates = await client.publicKeyCertificates();
    accessToken = await client.authenticateWithToken(secrets.token, sellerNip, certificates, {
      attempts: ksefTiming.pollAttempts,
      delayMs: ksefTiming.pollDelayMs,
    });
    if (!sessionReference || !invoiceReference) {
      const session = await client.openOnlineSession(accessToken, certificates);
      sessionReference = session.referenceNumber;
      invoiceReference = await client.sendInvoice(accessToken, session, Buffer.from(xml, 'utf8'), {
        offlineMode: row.mode === 'offline',
        hashOfCorrectedInvoice: row.correctedHash,
      });
      await update({
        status: 'sent',
        sessionReference,
        invoiceReference,
        sentAt: clock.now(),
        lastError: null,
      });
    }
    for (let i = 0; i < ksefTiming.pollAttempts; i++) {
      const status = await client.invoiceStatus(accessToken, sessionReference, invoiceReference);
      if (status.status.code === 200 && status.ksefNumber) {
        const upo = await client.invoiceUpo(accessToken, sessionReference, invoiceReference);
        await update({
          status: 'accepted',
          ksefNumber: status.ksefNumber,
          upo,
          acceptedAt: clock.now(),
          lastError: null,
        });
        await client.closeOnlineSession(accessToken, sessionReference).catch(() => undefined);
        return;
      }
      if (status.status.code >= 300) {
        const extensions = Object.entries(status.status.extensions ?? {}).map(([k, v]) => `${k}: ${v}`);
        await update({
          status: 'refused',
          statusCode: status.status.code,
          reason: [status.status.description, ...(status.status.details ?? []), ...extensions].join(' — '),
          lastError: null,
        });
        await client.closeOnlineSession(accessToken, sessionReference).catch(() => undefined);
        return;
      }
      await sleep(ksefTiming.pollDelayMs);
    }
    throw new KsefNotYet('KSeF is still processing the invoice');
  } catch (err) {
    if (err instanceof KsefRefusal) {
      await update({ status: 'refused', statusCode: err.code, reason: err.message, lastError: null });
      return;
    }
    if (err instanceof KsefUnreachable) {
      // Not sent yet and KSeF is not there: the invoice is issued in offline mode (KOD I + KOD II).
      const fresh = await ksefRow(knex, row.invoiceId);
      await update({
        lastError: err.message,
        ...(fresh?.status === 'waiting' && fresh.mode === 'online'
          ? { mode: 'offline' as const, offlineSince: clock.now() }
          : {}),
      });
    }
    throw err;
  }
}

/** A PDF's KSeF block: the number and KOD I once known; offline: KOD I (OFFLINE) and KOD II. */
export async function ksefPrintInfo(db: Db, invoiceId: string) {
  const row = await ksefRow(db, invoiceId);
  if (!row?.invoiceHash) return null;
  return row;
}

/** An invoice that made no progress for this long gets a fresh send job (see `ksefSweepJob`). */
export const KSEF_STALL_MS = 2 * 3600_000;

/**
 * The periodic sweep: invoices still waiting (KSeF unreachable, offline mode) or sent without an
 * outcome, whose studio has a token, untouched for two hours — their job is in a long backoff or
 * out of retries — are tried again as a new attempt. So an offline invoice goes out within ~2.5 h
 * of KSeF coming back, within the law's next-business-day term. Each row is locked (skip locked)
 * only for its own update and enqueue: no network call here.
 */
export async function requeueStalledKsefSends(knex: Knex, now: Date): Promise<number> {
  let requeued = 0;
  const stalled = (await knex('invoice_ksef as k')
    .join('studio_ksef_settings as s', 's.studio_id', 'k.studio_id')
    .whereNotNull('s.token')
    .whereIn('k.status', ['waiting', 'sent'])
    .where('k.updated_at', '<', new Date(now.getTime() - KSEF_STALL_MS))
    .orderBy('k.updated_at')
    .limit(200)
    .select('k.invoice_id')) as { invoiceId: string }[];
  for (const { invoiceId } of stalled) {
    await knex.transaction(async (trx) => {
      const row = (await trx('invoice_ksef')
        .where({ invoiceId })
        .whereIn('status', ['waiting', 'sent'])
        .where('updatedAt', '<', new Date(now.getTime() - KSEF_STALL_MS))
        .forUpdate()
        .skipLocked()
        .first('attempt')) as { attempt: number } | undefined;
      if (!row) return;
      const attempt = row.attempt + 1;
      await trx('invoice_ksef').where({ invoiceId }).update({ attempt, updatedAt: now });
      await enqueue(trx, 'ksef.send', { invoiceId, attempt }, { key: ksefJobKey(invoiceId, attempt) });
      requeued += 1;
    });
  }
  return requeued;
}
