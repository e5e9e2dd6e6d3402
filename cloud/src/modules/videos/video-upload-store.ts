import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DataStore, ERRORS, Upload, type Lock, type Locker } from '@tus/server';
import type { Knex } from '../../db/knex';
import type { FileStorage } from '../../storage/index';

interface UploadInfo {
  id: string;
  size?: number;
  offset: number;
  metadata?: Record<string, string | null>;
  creation_date?: string;
  /** What arrived, PATCH by PATCH, each stored as its own object. */
  chunks: Array<{ offset: number; length: number }>;
}

/**
 * A tus data store on the app's file storage (S3 in a deployment of several instances): each upload
 * is an `info.json` (size, offset, metadata) and the bytes of each PATCH as one object
 * (`video-uploads/<id>/chunk-<offset>`), so any instance reads the offset and takes the next PATCH —
 * no sticky sessions, nothing on one instance's disk but the PATCH in flight. What arrived before a
 * dropped connection is kept (the client asks the offset and sends the rest). When the upload is
 * complete, `assemble` writes the whole file to a local path (the S3 driver then sends it as a
 * multipart upload) and `remove` deletes the pieces. Writes of one upload are serialised by the tus
 * lock (`LeaseLocker`, across instances).
 */
export class StorageUploadStore extends DataStore {
  constructor(
    private readonly storage: FileStorage,
    private readonly tmpDir: string,
    private readonly prefix = 'video-uploads',
  ) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'termination'];
  }

  private infoKey = (id: string) => `${this.prefix}/${id}/info.json`;
  private chunkKey = (id: string, offset: number) =>
    `${this.prefix}/${id}/chunk-${String(offset).padStart(13, '0')}`;

  private async info(id: string): Promise<UploadInfo> {
    const bytes = await this.storage.read(this.infoKey(id));
    if (!bytes) throw ERRORS.FILE_NOT_FOUND;
    return JSON.parse(bytes.toString('utf8')) as UploadInfo;
  }

  private async save(info: UploadInfo): Promise<void> {
    await this.storage.put(this.infoKey(info.id), Buffer.from(JSON.stringify(info)), 'application/json');
  }

  override async create(upload: Upload): Promise<Upload> {
    await this.save({
      id: upload.id,
      ...(upload.size !== undefined ? { size: upload.size } : {}),
      offset: 0,
      ...(upload.metadata ? { metadata: upload.metadata } : {}),
      ...(upload.creation_date ? { creation_date: upload.creation_date } : {}),
      chunks: [],
    });
    return upload;
  }

  override async getUpload(id: string): Promise<Upload> {
    const info = await this.info(id);
    return new Upload({
      id,
      size: info.size,
      offset: info.offset,
      metadata: info.metadata,
      creation_date: info.creation_date,
    });
  }

  override async declareUploadLength(id: string, length: number): Promise<void> {
    const info = await this.info(id);
    await this.save({ ...info, size: length });
  }

  override async write(readable: NodeJS.ReadableStream, id: string, offset: number): Promise<number> {
    const info = await this.info(id);
    if (offset !== info.offset) throw ERRORS.INVALID_OFFSET;
    await fsp.mkdir(this.tmpDir, { recursive: true });
    const tmp = path.join(this.tmpDir, `${id}-${offset}-${randomUUID()}`);
    let received = 0;
    let failure: unknown = null;
    try {
      await pipeline(
        readable,
        new Transform({
          transform(chunk: Buffer, _enc, done) {
            received += chunk.length;
            done(null, chunk);
          },
        }),
        fs.createWriteStream(tmp),
      );
    } catch (err) {
      failure = err;
    }
    // Kept even after a dropped connection: the client resumes from the new offset.
    if (received > 0) {
      await this.storage.putFile(this.chunkKey(id, offset), tmp);
      info.chunks.push({ offset, length: received });
      info.offset = offset + received;
      await this.save(info);
    } else await fsp.rm(tmp, { force: true });
    if (failure) throw ERRORS.FILE_WRITE_ERROR;
    return info.offset;
  }

  /** The complete file, its pieces in order, written to `target` on this machine. */
  async assemble(id: string, target: string): Promise<void> {
    const info = await this.info(id);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const out = fs.createWriteStream(target);
    try {
      for (const chunk of [...info.chunks].sort((a, b) => a.offset - b.offset)) {
        const part = await this.storage.get(this.chunkKey(id, chunk.offset));
        if (!part) throw new Error(`upload ${id}: piece at ${chunk.offset} is missing`);
        await pipeline(part, out, { end: false });
      }
    } finally {
      await new Promise<void>((resolve, reject) =>
        out.end((err?: Error | null) => (err ? reject(err) : resolve())),
      );
    }
  }

  override async remove(id: string): Promise<void> {
    const info = await this.info(id);
    for (const chunk of info.chunks) await this.storage.delete(this.chunkKey(id, chunk.offset));
    await this.storage.delete(this.infoKey(id));
  }
}

const LEASE_SECONDS = 120;

/**
 * The tus lock of an upload as a lease row in the database (`video_upload_locks`), so instances
 * serialise the PATCHes of one upload between them. Taken when free or lapsed, renewed every 30 s
 * while held, released on unlock; a waiting request polls until the lock is free or tus gives up
 * (its signal). A holder that died leaves a lease that lapses within two minutes.
 */
export class LeaseLocker implements Locker {
  constructor(private readonly knex: Knex) {}

  newLock(id: string): Lock {
    const knex = this.knex;
    const holder = randomUUID();
    let renew: NodeJS.Timeout | null = null;
    return {
      async lock(signal: AbortSignal) {
        for (;;) {
          const taken = (await knex.raw(
            `insert into video_upload_locks (id, holder, expires_at)
             values (?, ?, now() + make_interval(secs => ?))
             on conflict (id) do update set holder = excluded.holder, expires_at = excluded.expires_at
               where video_upload_locks.expires_at < now()
             returning holder`,
            [id, holder, LEASE_SECONDS],
          )) as { rows: unknown[] };
          if (taken.rows.length > 0) break;
          if (signal.aborted) throw ERRORS.ERR_LOCK_TIMEOUT;
          await new Promise((r) => setTimeout(r, 100));
        }
        renew = setInterval(() => {
          void knex
            .raw(
              `update video_upload_locks set expires_at = now() + make_interval(secs => ?) where id = ? and holder = ?`,
              [LEASE_SECONDS, id, holder],
            )
            .catch(() => undefined);
        }, 30_000);
        renew.unref();
      },
      async unlock() {
        if (renew) clearInterval(renew);
        renew = null;
        await knex('video_upload_locks').where({ id, holder }).delete();
      },
    };
  }
}
