import type { Readable } from 'node:stream';

/**
 * One interface for every file the cloud keeps (client documents, avatars, the mail outbox of a
 * server without SMTP): the local disk under DATA_DIR by default, any S3-compatible service with
 * STORAGE_DRIVER=s3, so several instances see the same files. Keys are paths of safe segments
 * (`client-documents/<studio>/<id>`), made by the server, never typed by a user.
 */
export interface FileStorage {
  put(key: string, body: Buffer, contentType?: string): Promise<void>;
  /** Stores a local file under `key` and removes the local one (the disk driver just renames it). */
  putFile(key: string, localPath: string, contentType?: string): Promise<void>;
  /** The bytes as a stream, or null when there is no such file. */
  get(key: string): Promise<Readable | null>;
  read(key: string): Promise<Buffer | null>;
  /** Idempotent: deleting a missing file is no error. */
  delete(key: string): Promise<void>;
  /** Deletes every file under `prefix/` (a video's HLS folder); idempotent. Returns how many went. */
  deletePrefix(prefix: string): Promise<number>;
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export function assertStorageKey(key: string): void {
  const parts = key.split('/');
  if (!parts.length || !parts.every((p) => SEGMENT.test(p) && p !== '..'))
    throw new Error(`not a storage key: ${JSON.stringify(key)}`);
}
