import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { v7 as uuidv7 } from 'uuid';
import type { ClientDocumentView } from '../../../../shared/contracts/api/client-records';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { assertClient } from './client-fields.service';
import { presentDocument, type DocumentRow } from './client-records.presenter';
import { ALLOWED_NAMES, documentTypeOf, needsPackageCheck, ooxmlPackageIs } from './document-kind';
import { fileStorage, type StorageConfig } from '../../storage';
import { documentKey, storeFile, type ReceivedFile } from './document-storage';

const selectDocuments = (db: Db, studioId: string) =>
  db('client_documents as d')
    .leftJoin('users as u', 'u.id', 'd.uploaded_by')
    .where('d.studio_id', studioId)
    .select(
      'd.id',
      'd.client_id',
      'd.file_name',
      'd.content_type',
      'd.size_bytes',
      'd.sha256',
      'd.uploaded_by',
      'u.first_name as uploader_first_name',
      'u.last_name as uploader_last_name',
      'd.created_at',
    );

/** A client's documents, newest first (at most 500: documents are few per person). */
export async function listDocuments(db: Db, studioId: string, userId: string): Promise<ClientDocumentView[]> {
  await assertClient(db, studioId, userId);
  const rows = (await selectDocuments(db, studioId)
    .where('d.client_id', userId)
    .orderBy([
      { column: 'd.created_at', order: 'desc' },
      { column: 'd.id', order: 'desc' },
    ])
    .limit(500)) as DocumentRow[];
  return rows.map(presentDocument);
}

/**
 * Accepts an upload: the client must be the studio's, the file present and of an allowed kind
 * (told by its bytes, see document-kind.ts). The row and the file's move happen in the request's
 * transaction; the caller removes the file again if that transaction fails (`stored`).
 */
export async function addDocument(
  trx: Db,
  config: StorageConfig,
  studioId: string,
  userId: string,
  actorId: string,
  file: ReceivedFile | null,
  stored: (path: string) => void,
): Promise<ClientDocumentView> {
  await assertClient(trx, studioId, userId);
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
  await trx('client_documents').insert({
    id,
    studioId,
    clientId: userId,
    uploadedBy: actorId,
    fileName: file.fileName,
    contentType,
    sizeBytes: file.sizeBytes,
    sha256: file.sha256,
  });
  stored(await storeFile(fileStorage(config), file, studioId, id, contentType));
  const row = (await selectDocuments(trx, studioId).where('d.id', id).first()) as DocumentRow;
  return presentDocument(row);
}

export async function openDocument(
  db: Db,
  config: StorageConfig,
  studioId: string,
  documentId: string,
): Promise<{ document: ClientDocumentView; stream: Readable }> {
  const row = (await selectDocuments(db, studioId).where('d.id', documentId).first()) as
    DocumentRow | undefined;
  if (!row) throw AppError.notFound('document');
  // Opened before answering, so a missing file is a clean 404 rather than a broken download.
  const stream = await fileStorage(config).get(documentKey(studioId, documentId));
  if (!stream) throw AppError.notFound('document file');
  return { document: presentDocument(row), stream };
}

/** Deletes the row now; returns the file's storage key, which the caller removes after commit. */
export async function deleteDocument(trx: Db, studioId: string, documentId: string): Promise<string> {
  const deleted = await trx('client_documents').where({ studioId, id: documentId }).delete();
  if (deleted === 0) throw AppError.notFound('document');
  return documentKey(studioId, documentId);
}

/** A temporary upload of this instance's disk. */
export const removeFile = (file: string) => fsp.rm(file, { force: true });
