import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import busboy from 'busboy';
import { DOCUMENT_MAX_BYTES } from '../../../../shared/contracts/api/client-records';
import { AppError } from '../../../../shared/errors';
import type { Config } from '../../config';
import type { FileStorage } from '../../storage';
import { cleanFileName } from './document-kind';

/**
 * Where document bytes live: the file storage (storage/: DATA_DIR or S3) under
 * `client-documents/<studio id>/<document id>`. Both parts are ids this server made (checked again
 * here), never anything a user typed. Uploads wait in DATA_DIR/client-documents/.incoming (this
 * instance's disk) until accepted.
 */
const ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const documentsRoot = (config: Pick<Config, 'dataDir'>) =>
  path.join(config.dataDir, 'client-documents');

export function documentKey(studioId: string, documentId: string): string {
  if (!ID_RE.test(studioId) || !ID_RE.test(documentId)) throw new Error('document path from a non-id');
  return `client-documents/${studioId}/${documentId}`;
}

export interface ReceivedFile {
  /** Where the bytes wait until the upload is accepted (same file system as the final place). */
  tmpPath: string;
  fileName: string;
  declaredType: string;
  sizeBytes: number;
  sha256: string;
  /** The first bytes, to tell what the file is. */
  head: Buffer;
}

const HEAD_BYTES = 4100;
// Multipart framing and a short text field or two on top of the file.
const ENVELOPE_SLACK = 64 * 1024;

const tooLarge = () =>
  new AppError('request.tooLarge', {
    message: 'the file is too large',
    fields: { file: [`at most ${DOCUMENT_MAX_BYTES / 1024 / 1024} MB`] },
  });

/**
 * Reads a `multipart/form-data` request holding one file in the part `file`, streaming it to a
 * temporary file while hashing it. 413 above the size limit (before reading when Content-Length
 * already says so), 415 when the request is not multipart, 400 when it is malformed. Null when no
 * file came (the route answers 400 on `file`).
 */
export async function receiveFile(
  req: IncomingMessage,
  config: Pick<Config, 'dataDir'>,
): Promise<ReceivedFile | null> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > DOCUMENT_MAX_BYTES + ENVELOPE_SLACK) {
    req.resume();
    throw tooLarge();
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      limits: {
        fileSize: DOCUMENT_MAX_BYTES,
        files: 1,
        fields: 5,
        parts: 6,
        fieldSize: 1024,
        headerPairs: 20,
      },
    });
  } catch {
    req.resume();
    throw new AppError('request.unsupportedMediaType', {
      message: 'send the file as multipart/form-data',
      fields: { file: ['send the file as multipart/form-data'] },
    });
  }
  const incoming = path.join(documentsRoot(config), '.incoming');
  await fsp.mkdir(incoming, { recursive: true });

  return new Promise<ReceivedFile | null>((resolve, reject) => {
    let received: ReceivedFile | null = null;
    let writing: Promise<void> | null = null;
    let truncated = false;
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume();
      const done = () => reject(err);
      if (received) void fsp.rm(received.tmpPath, { force: true }).then(done, done);
      else done();
    };

    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || received) {
        stream.resume();
        return;
      }
      const tmpPath = path.join(incoming, randomUUID());
      const hash = createHash('sha256');
      const head: Buffer[] = [];
      let headLength = 0;
      let size = 0;
      const file: ReceivedFile = {
        tmpPath,
        fileName: cleanFileName(info.filename),
        declaredType: info.mimeType,
        sizeBytes: 0,
        sha256: '',
        head: Buffer.alloc(0),
      };
      received = file;
      const out = fs.createWriteStream(tmpPath, { mode: 0o600 });
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        hash.update(chunk);
        if (headLength < HEAD_BYTES) {
          head.push(chunk);
          headLength += chunk.length;
        }
      });
      stream.on('limit', () => {
        truncated = true;
      });
      writing = new Promise<void>((done, error) => {
        out.on('finish', () => {
          file.sizeBytes = size;
          file.sha256 = hash.digest('hex');
          file.head = Buffer.concat(head).subarray(0, HEAD_BYTES);
          done();
        });
        out.on('error', error);
        stream.on('error', error);
      });
      stream.pipe(out);
    });
    parser.on('error', () =>
      fail(AppError.invalid({ file: ['the upload is malformed'] }, 'malformed multipart body')),
    );
    parser.on('close', () => {
      void (async () => {
        try {
          if (writing) await writing;
        } catch (err) {
          fail(err);
          return;
        }
        if (truncated) fail(tooLarge());
        else if (!failed) resolve(received);
      })();
    });
    req.on('aborted', () => fail(AppError.invalid({ file: ['the upload was interrupted'] })));
    req.pipe(parser);
  });
}

/** Moves an accepted upload to its place in the file storage; returns its key. */
export async function storeFile(
  storage: FileStorage,
  file: ReceivedFile,
  studioId: string,
  documentId: string,
  contentType: string,
): Promise<string> {
  const key = documentKey(studioId, documentId);
  await storage.putFile(key, file.tmpPath, contentType);
  return key;
}
