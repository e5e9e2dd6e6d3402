import { v7 as uuidv7 } from 'uuid';
import type { Video, VideoInput, VideoStatus } from '../../../../shared/contracts/api/videos';
import { VIDEO_STATUSES } from '../../../../shared/contracts/api/videos';
import { AppError } from '../../../../shared/errors';
import type { VideosRow } from '../../db/generated/tables';
import type { Db, Knex } from '../../db/knex';
import { enqueue } from '../../jobs/queue';
import type { JobContext } from '../../jobs/perform';
import type { Studio } from '../identity/index';
import { transcodeStoredVideo, TranscodeFailure, videoKeys, type Rendition } from './video-transcode';

export const uploadPath = (studioId: string) => `/api/v4/${studioId}/video/upload`;

function statusOf(value: string): VideoStatus {
  return (VIDEO_STATUSES as readonly string[]).includes(value) ? (value as VideoStatus) : 'failed';
}

export function renditionsOf(row: Pick<VideosRow, 'renditions'>): Rendition[] {
  return Array.isArray(row.renditions) ? (row.renditions as Rendition[]) : [];
}

export function presentVideo(row: VideosRow): Video {
  const status = statusOf(row.status);
  return {
    id: row.id,
    title: row.title,
    status,
    failureReason: row.failureReason,
    fileName: row.fileName,
    sizeBytes: Number(row.sizeBytes),
    durationSeconds: row.durationSeconds,
    renditions: renditionsOf(row),
    thumbnailUrl: row.hasThumbnail ? `/api/v4/${row.studioId}/video/${row.id}/thumbnail.jpg` : null,
    uploadUrl: status === 'init' || status === 'uploading' ? uploadPath(row.studioId) : null,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

export async function videoRow(db: Db, studio: Studio, id: string, lock = false): Promise<VideosRow> {
  const q = db('videos').where({ studioId: studio.id, id });
  const row = lock ? await q.forUpdate().first() : await q.first();
  if (!row) throw AppError.notFound('video');
  return row;
}

export async function listVideos(db: Db, studio: Studio): Promise<Video[]> {
  const rows = await db('videos').where({ studioId: studio.id }).orderBy('created_at', 'desc').limit(500);
  return rows.map(presentVideo);
}

/** A video waiting for its file: the web then uploads it with tus to `uploadUrl`, with the video's id. */
export async function createVideo(
  trx: Db,
  studio: Studio,
  input: VideoInput,
  userId: string,
): Promise<Video> {
  const id = uuidv7();
  const [row] = await trx('videos')
    .insert({
      id,
      studioId: studio.id,
      title: input.title,
      status: 'init',
      sizeBytes: input.sizeBytes,
      fileName: input.fileName,
      createdByUserId: userId,
    })
    .returning('*');
  return presentVideo(row!);
}

/** The upload finished and the file is in the storage: transcoding is queued in the same transaction. */
export async function queueTranscode(trx: Db, studioId: string, videoId: string, now: Date): Promise<void> {
  const [row] = await trx('videos')
    .where({ studioId, id: videoId })
    .update({
      status: 'transcoding',
      failureReason: null,
      updatedAt: now,
      transcodeAttempts: trx.raw('transcode_attempts + 1'),
    })
    .returning(['transcodeAttempts']);
  await enqueue(
    trx,
    'video.transcode',
    { videoId, attempt: row!.transcodeAttempts },
    {
      key: `video.transcode:${videoId}:${row!.transcodeAttempts}`,
    },
  );
}

/** A failed video goes through the transcode again (its original stays in the storage). */
export async function retryVideo(trx: Db, studio: Studio, id: string, now: Date): Promise<Video> {
  const row = await videoRow(trx, studio, id, true);
  if (row.status !== 'failed')
    throw new AppError('video.notRetryable', { message: 'only a failed video can be transcoded again' });
  await queueTranscode(trx, studio.id, id, now);
  return presentVideo(await videoRow(trx, studio, id));
}

/**
 * The `video.transcode` job: ffmpeg outside any transaction, then one write of the outcome. A file
 * ffmpeg cannot read fails the video with the reason (no retry: the same file fails the same way);
 * an outage (the storage unreachable) throws and pg-boss retries it.
 */
export async function performVideoTranscode(
  payload: { videoId: string; attempt: number },
  ctx: JobContext,
): Promise<void | { record(trx: Knex.Transaction): Promise<void> }> {
  const row = await ctx.knex('videos').where({ id: payload.videoId }).first();
  if (!row || row.status !== 'transcoding' || row.transcodeAttempts !== payload.attempt) return;
  if (!ctx.storage) throw new Error('video.transcode needs the app storage in the job context');
  const done = (
    update: Partial<Pick<VideosRow, 'status' | 'failureReason' | 'durationSeconds' | 'hasThumbnail'>> & {
      renditions?: string;
    },
  ) => ({
    async record(trx: Knex.Transaction) {
      await trx('videos')
        .where({ id: row.id, status: 'transcoding', transcodeAttempts: payload.attempt })
        .update({ ...update, updatedAt: ctx.clock.now() });
    },
  });
  try {
    const result = await transcodeStoredVideo(ctx.storage, row.studioId, row.id);
    return done({
      status: 'available',
      failureReason: null,
      durationSeconds: result.durationSeconds,
      renditions: JSON.stringify(result.renditions),
      hasThumbnail: true,
    });
  } catch (err) {
    if (!(err instanceof TranscodeFailure)) throw err;
    ctx.log.warn({ videoId: row.id, reason: err.message }, 'video transcode failed');
    return done({ status: 'failed', failureReason: err.message });
  }
}

/**
 * Deletes a video: refused while a course uses it (`video.inUse`: take it out of the course first)
 * or while it is being transcoded (`video.transcoding`: the job would write its files back). The row
 * goes in the request's transaction; its files (the original, the HLS folder, the thumbnail, a
 * partial upload) are deleted after the commit by the `video.delete-files` job.
 */
export async function deleteVideo(trx: Db, studio: Studio, id: string): Promise<void> {
  const row = await videoRow(trx, studio, id, true);
  const used = await trx('video_events').where({ studioId: studio.id, videoId: id }).first('id');
  if (used)
    throw new AppError('video.inUse', {
      message: 'a course uses this video: take it out of the course first',
      fields: { video: ['inUse'] },
    });
  if (row.status === 'transcoding')
    throw new AppError('video.transcoding', {
      message: 'the video is being transcoded: delete it when that has finished',
      fields: { video: ['transcoding'] },
    });
  await trx('videos').where({ studioId: studio.id, id }).delete();
  await enqueue(
    trx,
    'video.delete-files',
    { studioId: studio.id, videoId: id, scope: 'all' },
    { key: `video.delete-files:${id}` },
  );
}

/**
 * The `video.delete-files` job: a deleted video's folder in the storage (`videos/<studio>/<video>/…`)
 * and its partial upload — the tus FileStore's file and `.json` under DATA_DIR (the disk driver's
 * root) or the pieces in the object store (S3). Idempotent: a rerun finds nothing to delete.
 */
export async function performVideoFilesDelete(
  payload: { studioId: string; videoId: string; scope: 'all' | 'upload' },
  ctx: JobContext,
): Promise<void> {
  if (!ctx.storage) throw new Error('video.delete-files needs the app storage in the job context');
  const upload = `video-uploads/${payload.videoId}`;
  if (payload.scope === 'all')
    await ctx.storage.deletePrefix(videoKeys(payload.studioId, payload.videoId).root);
  await ctx.storage.delete(upload);
  await ctx.storage.delete(`${upload}.json`);
  await ctx.storage.deletePrefix(upload);
}

/** Uploads untouched this long (no PATCH) are abandoned: the partial file goes, the video waits anew. */
export const ABANDONED_UPLOAD_HOURS = 24;

/**
 * The `video-uploads-sweep` periodic job: each video still `uploading` whose last PATCH is older than
 * ABANDONED_UPLOAD_HOURS goes back to `init` (staff may upload its file again) and its partial upload
 * is deleted by a `video.delete-files` job queued in the same transaction. Returns how many.
 */
export async function sweepAbandonedUploads(knex: Knex, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - ABANDONED_UPLOAD_HOURS * 3_600_000);
  const rows: Array<{ id: string; studioId: string; updatedAt: Date }> = await knex('videos')
    .where({ status: 'uploading' })
    .where('updated_at', '<', cutoff)
    .orderBy('updated_at')
    .limit(500)
    .select('id', 'studio_id', 'updated_at');
  let swept = 0;
  for (const row of rows) {
    await knex.transaction(async (trx) => {
      const changed = await trx('videos')
        .where({ id: row.id, status: 'uploading' })
        .where('updated_at', '<', cutoff)
        .update({ status: 'init', updatedAt: now });
      if (!changed) return;
      swept += 1;
      await enqueue(
        trx,
        'video.delete-files',
        { studioId: row.studioId, videoId: row.id, scope: 'upload' },
        { key: `video.delete-files:${row.id}:upload:${new Date(row.updatedAt).getTime()}` },
      );
    });
  }
  return swept;
}
