import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { v7 as uuidv7 } from 'uuid';
import type {
  FeedbackInput,
  FeedbackView,
  StudioBankAccountInput,
  StudioBankAccountPatch,
  StudioBankAccountView,
  StudioDocumentPatch,
  StudioDocumentView,
  TransferInstructions,
} from '../../../../shared/contracts/api/studio-records';
import { formatIban } from '../../../../shared/domain/invoices/iban';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type {
  StudioBankAccountsRow as StudioBankAccounts,
  StudioDocumentsRow as StudioDocuments,
} from '../../db/generated/tables';
import { fileStorage, type StorageConfig } from '../../storage/index';
import {
  ALLOWED_NAMES,
  documentTypeOf,
  needsPackageCheck,
  ooxmlPackageIs,
  type ReceivedFile,
} from '../client-records/index';
import type { Studio } from '../identity/index';

/**
 * The studio's bank accounts and documents (issue 25; README "Bank accounts and documents").
 */

const presentAccount = (row: StudioBankAccounts): StudioBankAccountView => ({
  id: row.id,
  name: row.name,
  iban: row.iban,
  ibanPrinted: formatIban(row.iban),
  bankName: row.bankName,
  currency: row.currency,
  isDefault: row.isDefault,
  createdAt: row.createdAt.toISOString(),
});

const ibanTaken = () =>
  new AppError('studio.bankAccountTaken', {
    message: 'this account is already on the list',
    fields: { iban: ['this account is already on the list'] },
  });

export async function listBankAccounts(db: Db, studioId: string): Promise<StudioBankAccountView[]> {
  const rows = await db('studio_bank_accounts')
    .where({ studioId })
    .orderBy([{ column: 'currency' }, { column: 'is_default', order: 'desc' }, { column: 'created_at' }]);
  return rows.map(presentAccount);
}

async function lockAccounts(trx: Db, studioId: string): Promise<StudioBankAccounts[]> {
  return trx('studio_bank_accounts').where({ studioId }).forUpdate();
}

/** Makes `id` the default of `currency`, the others of that currency not. */
async function setDefault(trx: Db, studioId: string, currency: string, id: string): Promise<void> {
  await trx('studio_bank_accounts')
    .where({ studioId, currency, isDefault: true })
    .whereNot({ id })
    .update({ isDefault: false });
  await trx('studio_bank_accounts').where({ studioId, id }).update({ isDefault: true });
}

export async function createBankAccount(
  trx: Db,
  studio: Studio,
  input: StudioBankAccountInput,
  now: Date,
): Promise<StudioBankAccountView> {
  const accounts = await lockAccounts(trx, studio.id);
  if (accounts.some((a) => a.iban === input.iban)) throw ibanTaken();
  const id = uuidv7();
  await trx('studio_bank_accounts').insert({
    id,
    studioId: studio.id,
    name: input.name,
    iban: input.iban,
    bankName: input.bankName ?? '',
    currency: input.currency,
    createdAt: now,
    updatedAt: now,
  });
  const firstOfCurrency = !accounts.some((a) => a.currency === input.currency);
  if (input.isDefault || firstOfCurrency) await setDefault(trx, studio.id, input.currency, id);
  return presentAccount(await trx('studio_bank_accounts').where({ id }).first().then(must));
}

function must<T>(row: T | undefined): T {
  if (!row) throw AppError.notFound('bank account');
  return row;
}

export async function patchBankAccount(
  trx: Db,
  studio: Studio,
  id: string,
  patch: StudioBankAccountPatch,
  now: Date,
): Promise<StudioBankAccountView> {
  const accounts = await lockAccounts(trx, studio.id);
  const current = must(accounts.find((a) => a.id === id));
  if (patch.iban && accounts.some((a) => a.iban === patch.iban && a.id !== id)) throw ibanTaken();
  const currency = patch.currency ?? current.currency;
  await trx('studio_bank_accounts')
    .where({ studioId: studio.id, id })
    .update({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.iban !== undefined ? { iban: patch.iban } : {}),
      ...(patch.bankName !== undefined ? { bankName: patch.bankName } : {}),
      currency,
      // Moving to another currency leaves the old one's default to the next account there.
      ...(currency !== current.currency ? { isDefault: false } : {}),
      updatedAt: now,
    });
  if (currency !== current.currency && current.isDefault)
    await promoteNext(trx, studio.id, current.currency, id);
  const stillAlone = !accounts.some((a) => a.id !== id && a.currency === currency);
  if (patch.isDefault || stillAlone) await setDefault(trx, studio.id, currency, id);
  return presentAccount(await trx('studio_bank_accounts').where({ id }).first().then(must));
}

/** The oldest other account of the currency becomes its default (a currency with accounts has one). */
async function promoteNext(trx: Db, studioId: string, currency: string, leaving: string): Promise<void> {
  const next = await trx('studio_bank_accounts')
    .where({ studioId, currency })
    .whereNot({ id: leaving })
    .orderBy('created_at')
    .first('id');
  if (next) await setDefault(trx, studioId, currency, next.id);
}

export async function deleteBankAccount(trx: Db, studio: Studio, id: string): Promise<void> {
  const accounts = await lockAccounts(trx, studio.id);
  const current = must(accounts.find((a) => a.id === id));
  await trx('studio_bank_accounts').where({ studioId: studio.id, id }).delete();
  if (current.isDefault) await promoteNext(trx, studio.id, current.currency, id);
}

export async function transferInstructions(db: Db, studio: Studio): Promise<TransferInstructions> {
  const rows = await db('studio_bank_accounts')
    .where({ studioId: studio.id, isDefault: true })
    // The studio's own currency first.
    .orderByRaw('currency = ? desc, currency', [studio.currency]);
  const profile = (studio.settings.profile ?? {}) as { legalName?: unknown };
  return {
    recipient: typeof profile.legalName === 'string' && profile.legalName ? profile.legalName : studio.name,
    address: [studio.addressLine, [studio.postalCode, studio.city].filter(Boolean).join(' ')]
      .filter(Boolean)
      .join(', '),
    accounts: rows.map((r) => ({
      name: r.name,
      ibanPrinted: formatIban(r.iban),
      bankName: r.bankName,
      currency: r.currency,
    })),
  };
}

// -------------------------------------------------------------------------------- documents

export const studioDocumentKey = (studioId: string, id: string) => `studio-documents/${studioId}/${id}`;

function presentDocument(row: StudioDocuments, asClient = false): StudioDocumentView {
  return {
    id: row.id,
    name: row.name,
    fileName: row.fileName,
    contentType: row.contentType,
    sizeBytes: Number(row.sizeBytes),
    published: row.publishedAt !== null,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    downloadPath: `/v4/${row.studioId}/studio-document/${row.id}/${asClient ? 'file' : 'download'}`,
  };
}

const order = [
  { column: 'created_at', order: 'desc' as const },
  { column: 'id', order: 'desc' as const },
];

export async function listStudioDocuments(db: Db, studioId: string): Promise<StudioDocumentView[]> {
  const rows = await db('studio_documents').where({ studioId }).orderBy(order).limit(500);
  return rows.map((r) => presentDocument(r));
}

export async function publishedStudioDocuments(db: Db, studioId: string): Promise<StudioDocumentView[]> {
  const rows = await db('studio_documents')
    .where({ studioId })
    .whereNotNull('published_at')
    .orderBy(order)
    .limit(500);
  return rows.map((r) => presentDocument(r, true));
}

/**
 * Accepts an upload (the kinds client documents accept, told by their bytes), named after its file
 * and unpublished. The caller removes the stored file again if the transaction fails (`stored`).
 */
export async function addStudioDocument(
  trx: Db,
  config: StorageConfig,
  studio: Studio,
  actorId: string,
  file: ReceivedFile | null,
  stored: (key: string) => void,
  now: Date,
): Promise<StudioDocumentView> {
  if (!file) throw AppError.invalid({ file: ['choose a file'] });
  if (file.sizeBytes === 0) throw AppError.invalid({ file: ['the file is empty'] });
  let contentType = documentTypeOf(file.head, file.fileName);
  if (
    contentType &&
    needsPackageCheck(contentType) &&
    !ooxmlPackageIs(await fsp.readFile(file.tmpPath), contentType)
  )
    contentType = null;
  if (!contentType)
    throw AppError.invalid({ file: [`this kind of file is not accepted (${ALLOWED_NAMES})`] });
  const id = uuidv7();
  const name = file.fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '').slice(0, 200) || file.fileName.slice(0, 200);
  const [row] = await trx('studio_documents')
    .insert({
      id,
      studioId: studio.id,
      uploadedBy: actorId,
      name,
      fileName: file.fileName,
      contentType,
      sizeBytes: file.sizeBytes,
      sha256: file.sha256,
      createdAt: now,
      updatedAt: now,
    })
    .returning('*');
  const key = studioDocumentKey(studio.id, id);
  await fileStorage(config).putFile(key, file.tmpPath, contentType);
  stored(key);
  return presentDocument(row!);
}

export async function patchStudioDocument(
  trx: Db,
  studio: Studio,
  id: string,
  patch: StudioDocumentPatch,
  now: Date,
): Promise<StudioDocumentView> {
  const current = must(await trx('studio_documents').where({ studioId: studio.id, id }).forUpdate().first());
  const [row] = await trx('studio_documents')
    .where({ id })
    .update({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.published !== undefined
        ? { publishedAt: patch.published ? (current.publishedAt ?? now) : null }
        : {}),
      updatedAt: now,
    })
    .returning('*');
  return presentDocument(row!);
}

/** Deletes the row; returns the file's key, which the caller removes after commit. */
export async function deleteStudioDocument(trx: Db, studio: Studio, id: string): Promise<string> {
  const deleted = await trx('studio_documents').where({ studioId: studio.id, id }).delete();
  if (deleted === 0) throw AppError.notFound('document');
  return studioDocumentKey(studio.id, id);
}

export async function openStudioDocument(
  db: Db,
  config: StorageConfig,
  studio: Studio,
  id: string,
  publishedOnly: boolean,
): Promise<{ document: StudioDocumentView; stream: Readable }> {
  const query = db('studio_documents').where({ studioId: studio.id, id });
  if (publishedOnly) query.whereNotNull('published_at');
  const row = await query.first();
  if (!row) throw AppError.notFound('document');
  const stream = await fileStorage(config).get(studioDocumentKey(studio.id, id));
  if (!stream) throw AppError.notFound('document file');
  return { document: presentDocument(row, publishedOnly), stream };
}

// --------------------------------------------------------------------------------- feedback

const feedbackRows = (db: Db, studioId: string) =>
  db('client_feedback as f')
    .leftJoin('users as u', 'u.id', 'f.client_id')
    .where('f.studio_id', studioId)
    .select('f.id', 'f.message', 'f.rating', 'f.client_id', 'u.first_name', 'u.last_name', 'f.created_at');

type FeedbackRow = {
  id: string;
  message: string;
  rating: number | null;
  clientId: string | null;
  firstName: string | null;
  lastName: string | null;
  createdAt: Date;
};

const presentFeedback = (r: FeedbackRow): FeedbackView => ({
  id: r.id,
  message: r.message,
  rating: r.rating,
  client: r.clientId ? { id: r.clientId, firstName: r.firstName ?? '', lastName: r.lastName ?? '' } : null,
  createdAt: r.createdAt.toISOString(),
});

export async function addFeedback(
  trx: Db,
  studio: Studio,
  clientId: string,
  input: FeedbackInput,
  now: Date,
): Promise<FeedbackView> {
  const id = uuidv7();
  await trx('client_feedback').insert({
    id,
    studioId: studio.id,
    clientId,
    message: input.message,
    rating: input.rating ?? null,
    createdAt: now,
  });
  return presentFeedback((await feedbackRows(trx, studio.id).where('f.id', id).first()) as FeedbackRow);
}

export async function listFeedback(db: Db, studio: Studio): Promise<FeedbackView[]> {
  const rows = (await feedbackRows(db, studio.id)
    .orderBy([
      { column: 'f.created_at', order: 'desc' },
      { column: 'f.id', order: 'desc' },
    ])
    .limit(200)) as FeedbackRow[];
  return rows.map(presentFeedback);
}
