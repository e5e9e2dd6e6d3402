import fs from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server, type DataStore, type Upload } from '@tus/server';
import type Koa from 'koa';
import { VIDEO_LIMITS } from '../../../../shared/contracts/api/videos';
import { AppError } from '../../../../shared/errors';
import { transactionWithRetry } from '../../db/transaction';
import { assertAbility } from '../../http/abilities';
import type { AppCustom, AppState, Deps } from '../../http/context';
import { loadStudioScope } from '../../http/studio-scope';
import { fileStorage } from '../../storage/index';
import { LeaseLocker, StorageUploadStore } from './video-upload-store';
import { videoKeys } from './video-transcode';
import { queueTranscode } from './videos.service';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UPLOAD_PATH = new RegExp(`^/api/v4/(${UUID})/video/upload(?:/(${UUID}))?/?$`, 'i');

/** `/api/v4/{uuid}/video/upload[/{video}]`: the tus endpoint (its PATCH bodies are not JSON). */
export function isVideoUploadPath(p: string): boolean {
  return UPLOAD_PATH.test(p);
}

type TusError = { status_code: number; body: string };
const refuse = (status_code: number, body: string): TusError => ({ status_code, body });

/**
 * Resumable video upload with tus (@tus/server). The upload's id is the video's id (created first
 * with `POST video`, sent as the `videoId` metadata), so the URL is `…/video/upload/{video}` and a
 * client resumes by asking its offset (HEAD) and sending the rest (PATCH). Partial files sit in
 * DATA_DIR/video-uploads (FileStore, which keeps each upload's offset beside it); a finished one is
 * moved to the storage and its transcode queued in one transaction. Only staff with `settings.edit`
 * of the path's studio reach the tus server; the video must be that studio's.
 */
/**
 * Where partial uploads live: with the S3 driver, in the storage itself (`StorageUploadStore`: any
 * instance takes the next PATCH); with the local disk, tus's FileStore in DATA_DIR/video-uploads
 * (several instances share it when they share DATA_DIR). One per configuration, like the storage.
 */
const stores = new WeakMap<object, DataStore>();
export function videoUploadStore(config: Deps['config']): DataStore {
  let store = stores.get(config);
  if (!store) {
    store =
      config.STORAGE_DRIVER === 's3'
        ? new StorageUploadStore(fileStorage(config), path.join(config.dataDir, 'video-uploads-tmp'))
        : new FileStore({ directory: path.join(config.dataDir, 'video-uploads') });
    stores.set(config, store);
  }
  return store;
}

export function videoUploadMiddleware(deps: Deps): Koa.Middleware<AppState, AppCustom> {
  const directory = path.join(deps.config.dataDir, 'video-uploads');
  const storage = fileStorage(deps.config);
  const datastore = videoUploadStore(deps.config);
  const studioOf = (url: string) => UPLOAD_PATH.exec(new URL(url, 'http://x').pathname)?.[1] ?? '';

  const tus = new Server({
    path: '/api/v4/video-upload',
    datastore,
    // The lock of an upload is shared by the instances (a lease in the database), not in memory.
    locker: new LeaseLocker(deps.knex),
    maxSize: VIDEO_LIMITS.sizeMax,
    relativeLocation: true,
    respectForwardedHeaders: false,
    generateUrl: (req, { id }) => `/api/v4/${studioOf(req.url)}/video/upload/${id}`,
    getFileIdFromRequest: (req) => UPLOAD_PATH.exec(new URL(req.url).pathname)?.[2],
    namingFunction: async (req, metadata) => {
      const videoId = metadata?.videoId ?? '';
      if (!new RegExp(`^${UUID}$`, 'i').test(videoId)) throw refuse(400, 'videoId metadata required\n');
      const row = await deps
        .knex('videos')
        .where({ studioId: studioOf(req.url), id: videoId })
        .first('status');
      if (!row) throw refuse(404, 'video not found\n');
      if (row.status !== 'init') throw refuse(409, 'this video already has its file\n');
      return videoId;
    },
    onUploadCreate: async (req, upload) => {
      const studioId = studioOf(req.url);
      const row = await deps.knex('videos').where({ studioId, id: upload.id }).first('sizeBytes');
      if (!row) throw refuse(404, 'video not found\n');
      if (upload.size !== undefined && upload.size !== Number(row.sizeBytes))
        throw refuse(400, 'the file size differs from the video created\n');
      await deps.knex('videos').where({ studioId, id: upload.id, status: 'init' }).update({
        status: 'uploading',
        updatedAt: deps.clock.now(),
      });
      return {};
    },
    onUploadFinish: async (req, upload: Upload) => {
      const studioId = studioOf(req.url);
      const original = videoKeys(studioId, upload.id).original;
      if (datastore instanceof StorageUploadStore) {
        // The pieces, in order, into one local file, sent as one (multipart) object; then removed.
        const assembled = path.join(deps.config.dataDir, 'video-uploads-tmp', `${upload.id}.original`);
        await datastore.assemble(upload.id, assembled);
        await storage.putFile(original, assembled);
        await datastore.remove(upload.id);
      } else {
        await storage.putFile(original, path.join(directory, upload.id));
        await fs.rm(path.join(directory, `${upload.id}.json`), { force: true });
      }
      await transactionWithRetry(deps.knex, (trx) =>
        queueTranscode(trx, studioId, upload.id, deps.clock.now()),
      );
      return {};
    },
  });

  return async (ctx, next) => {
    const match = UPLOAD_PATH.exec(ctx.path);
    if (!match) return next();
    if (ctx.method !== 'OPTIONS') {
      if (!ctx.state.auth) throw new AppError('auth.required', { message: 'sign in required' });
      const scope = await loadStudioScope(ctx, deps.knex, match[1]!, 'staff');
      await assertAbility(deps.knex, scope.membership, 'settings.edit');
      if (match[2]) {
        const video = await deps.knex('videos').where({ studioId: match[1], id: match[2] }).first('status');
        if (!video) throw AppError.notFound('video');
        // The upload is alive: the sweep of abandoned uploads goes by the last PATCH.
        if (ctx.method === 'PATCH')
          await deps
            .knex('videos')
            .where({ studioId: match[1], id: match[2], status: 'uploading' })
            .update({ updatedAt: deps.clock.now() });
      }
    }
    ctx.respond = false;
    await tus.handle(ctx.req, ctx.res);
  };
}
