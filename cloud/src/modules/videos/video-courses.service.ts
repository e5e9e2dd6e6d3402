import { v7 as uuidv7 } from 'uuid';
import type {
  ClientVideo,
  VideoEvent,
  VideoService,
  VideoServiceInput,
  VideoServicePatch,
  VideoStatus,
} from '../../../../shared/contracts/api/videos';
import { VIDEO_LIMITS } from '../../../../shared/contracts/api/videos';
import { AppError } from '../../../../shared/errors';
import type { VideoServicesRow } from '../../db/generated/tables';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { deleteVideo } from './videos.service';

type LocaleText = Record<string, { value: string } | undefined>;

interface EventRow {
  id: string;
  videoServiceId: string;
  videoId: string;
  name: LocaleText;
  position: number;
  status: string;
  durationSeconds: number | null;
  clients: string | number;
  averageProgress: string | number | null;
  completed: string | number;
}

/** A course's lessons in order, with each one's watch metrics over every client. */
export async function eventsOf(
  db: Db,
  studio: Studio,
  serviceIds: string[],
): Promise<Map<string, VideoEvent[]>> {
  const out = new Map<string, VideoEvent[]>();
  if (serviceIds.length === 0) return out;
  const rows: EventRow[] = await db('video_events as e')
    .join('videos as v', 'v.id', 'e.video_id')
    .leftJoin('client_videos as cv', (j) =>
      j.on('cv.video_event_id', 'e.id').andOn('cv.studio_id', 'e.studio_id'),
    )
    .where('e.studio_id', studio.id)
    .whereIn('e.video_service_id', serviceIds)
    .groupBy('e.id', 'v.status', 'v.duration_seconds')
    .orderBy([{ column: 'e.video_service_id' }, { column: 'e.position' }])
    .select(
      'e.id',
      'e.video_service_id',
      'e.video_id',
      'e.name',
      'e.position',
      'v.status',
      'v.duration_seconds',
      db.raw('count(cv.id) as clients'),
      db.raw('coalesce(avg(cv.progress), 0) as average_progress'),
      db.raw('count(cv.completed_at) as completed'),
    );
  for (const r of rows) {
    const list = out.get(r.videoServiceId) ?? [];
    list.push({
      id: r.id,
      videoServiceId: r.videoServiceId,
      videoId: r.videoId,
      name: r.name,
      position: r.position,
      videoStatus: r.status as VideoStatus,
      durationSeconds: r.durationSeconds,
      stats: {
        clients: Number(r.clients),
        averageProgress: Math.round(Number(r.averageProgress ?? 0) * 1000) / 1000,
        completed: Number(r.completed),
      },
    });
    out.set(r.videoServiceId, list);
  }
  return out;
}

function presentService(row: VideoServicesRow, events: VideoEvent[]): VideoService {
  return {
    id: row.id,
    name: row.name as LocaleText,
    description: (row.description ?? {}) as LocaleText,
    slug: row.slug,
    published: row.published,
    price: row.price ?? null,
    vatRate: row.vatRate ?? '2300',
    events,
  };
}

export async function videoServiceInit(db: Db, studio: Studio) {
  const videos = await db('videos')
    .where({ studioId: studio.id })
    .orderBy('created_at', 'desc')
    .limit(500)
    .select('id', 'title', 'status');
  return {
    videos: videos.map((v) => ({ id: v.id, title: v.title, status: v.status as VideoStatus })),
    limits: {
      nameMax: VIDEO_LIMITS.nameMax,
      descriptionMax: VIDEO_LIMITS.descriptionMax,
      slugMax: VIDEO_LIMITS.slugMax,
      eventsMax: VIDEO_LIMITS.eventsMax,
    },
  };
}

export async function listVideoServices(db: Db, studio: Studio): Promise<VideoService[]> {
  const rows = await db('video_services').where({ studioId: studio.id }).orderBy('created_at');
  const events = await eventsOf(
    db,
    studio,
    rows.map((r) => r.id),
  );
  return rows.map((r) => presentService(r, events.get(r.id) ?? []));
}

export async function videoServiceRow(
  db: Db,
  studio: Studio,
  id: string,
  lock = false,
): Promise<VideoServicesRow> {
  const q = db('video_services').where({ studioId: studio.id, id });
  const row = lock ? await q.forUpdate().first() : await q.first();
  if (!row) throw AppError.notFound('video service');
  return row;
}

export async function videoServiceView(db: Db, studio: Studio, id: string): Promise<VideoService> {
  const row = await videoServiceRow(db, studio, id);
  return presentService(row, (await eventsOf(db, studio, [id])).get(id) ?? []);
}

export async function listVideoEvents(db: Db, studio: Studio, serviceId: string): Promise<VideoEvent[]> {
  await videoServiceRow(db, studio, serviceId);
  return (await eventsOf(db, studio, [serviceId])).get(serviceId) ?? [];
}

async function assertSlugFree(db: Db, studio: Studio, slug: string, except: string | null) {
  const q = db('video_services').where({ studioId: studio.id, slug });
  if (except) q.whereNot('id', except);
  if (await q.first('id'))
    throw new AppError('video.slugTaken', {
      message: 'another course has this address',
      fields: { slug: ['taken'] },
    });
}

/**
 * Replaces the course's lessons with `events` in order. A lesson keeps its id (and its clients'
 * metrics) when the same video stays in the course; a lesson left out is removed with its clients'
 * access (staff are told on the screen).
 */
async function replaceEvents(
  trx: Db,
  studio: Studio,
  serviceId: string,
  events: Array<{ videoId: string; name: unknown }>,
) {
  const videoIds = [...new Set(events.map((e) => e.videoId))];
  const known = new Set(
    (await trx('videos').where({ studioId: studio.id }).whereIn('id', videoIds).select('id')).map(
      (r) => r.id,
    ),
  );
  const unknown = events.findIndex((e) => !known.has(e.videoId));
  if (unknown >= 0) throw AppError.invalid({ [`events.${unknown}.videoId`]: ['unknown video'] });
  const existing = await trx('video_events')
    .where({ studioId: studio.id, videoServiceId: serviceId })
    .select('id', 'video_id');
  const byVideo = new Map(existing.map((e) => [e.videoId, e.id]));
  const kept = new Set<string>();
  for (const [position, event] of events.entries()) {
    const id = byVideo.get(event.videoId);
    if (id && !kept.has(id)) {
      kept.add(id);
      await trx('video_events')
        .where({ id })
        .update({ name: JSON.stringify(event.name), position });
    } else {
      await trx('video_events').insert({
        id: uuidv7(),
        studioId: studio.id,
        videoServiceId: serviceId,
        videoId: event.videoId,
        name: JSON.stringify(event.name),
        position,
      });
    }
  }
  const gone = existing.filter((e) => !kept.has(e.id)).map((e) => e.id);
  if (gone.length > 0) await trx('video_events').where({ studioId: studio.id }).whereIn('id', gone).delete();
}

export async function createVideoService(
  trx: Db,
  studio: Studio,
  input: Required<VideoServiceInput>,
): Promise<VideoService> {
  await assertSlugFree(trx, studio, input.slug, null);
  const id = uuidv7();
  await trx('video_services').insert({
    id,
    studioId: studio.id,
    name: JSON.stringify(input.name),
    description: JSON.stringify(input.description),
    slug: input.slug,
    published: input.published,
    price: input.price,
    vatRate: input.vatRate,
  });
  await replaceEvents(trx, studio, id, input.events);
  return videoServiceView(trx, studio, id);
}

export async function patchVideoService(
  trx: Db,
  studio: Studio,
  id: string,
  patch: VideoServicePatch,
  now: Date,
) {
  await videoServiceRow(trx, studio, id, true);
  if (patch.slug !== undefined) await assertSlugFree(trx, studio, patch.slug, id);
  await trx('video_services')
    .where({ studioId: studio.id, id })
    .update({
      ...(patch.name !== undefined ? { name: JSON.stringify(patch.name) } : {}),
      ...(patch.description !== undefined ? { description: JSON.stringify(patch.description) } : {}),
      ...(patch.slug !== undefined ? { slug: patch.slug } : {}),
      ...(patch.published !== undefined ? { published: patch.published } : {}),
      ...(patch.price !== undefined ? { price: patch.price } : {}),
      ...(patch.vatRate !== undefined ? { vatRate: patch.vatRate } : {}),
      updatedAt: now,
    });
  if (patch.events !== undefined) await replaceEvents(trx, studio, id, patch.events);
  return videoServiceView(trx, studio, id);
}

interface ClientVideoRow {
  id: string;
  videoEventId: string;
  videoServiceId: string;
  courseName: LocaleText;
  lessonName: LocaleText;
  access: string;
  positionSeconds: number;
  watchedSeconds: number;
  progress: number;
  completedAt: Date | null;
  lastWatchedAt: Date | null;
  createdAt: Date;
}

export function presentClientVideo(r: ClientVideoRow): ClientVideo {
  return {
    id: r.id,
    videoEventId: r.videoEventId,
    videoServiceId: r.videoServiceId,
    courseName: r.courseName,
    lessonName: r.lessonName,
    access: r.access === 'contract' || r.access === 'purchase' ? r.access : 'pass',
    positionSeconds: r.positionSeconds,
    watchedSeconds: Math.round(r.watchedSeconds),
    progress: Math.round(r.progress * 1000) / 1000,
    completedAt: r.completedAt ? new Date(r.completedAt).toISOString() : null,
    lastWatchedAt: r.lastWatchedAt ? new Date(r.lastWatchedAt).toISOString() : null,
    createdAt: new Date(r.createdAt).toISOString(),
  };
}

export async function clientVideos(
  db: Db,
  studio: Studio,
  filter: { clientId?: string; id?: string },
): Promise<ClientVideo[]> {
  const q = db('client_videos as cv')
    .join('video_events as e', 'e.id', 'cv.video_event_id')
    .join('video_services as s', 's.id', 'e.video_service_id')
    .where('cv.studio_id', studio.id)
    .orderBy([
      { column: 'cv.last_watched_at', order: 'desc', nulls: 'last' },
      { column: 'cv.created_at', order: 'desc' },
    ])
    .limit(500)
    .select(
      'cv.id',
      'cv.video_event_id',
      'e.video_service_id',
      's.name as course_name',
      'e.name as lesson_name',
      'cv.access',
      'cv.position_seconds',
      'cv.watched_seconds',
      'cv.progress',
      'cv.completed_at',
      'cv.last_watched_at',
      'cv.created_at',
    );
  if (filter.clientId) q.where('cv.client_id', filter.clientId);
  if (filter.id) q.where('cv.id', filter.id);
  const rows: ClientVideoRow[] = await q;
  return rows.map(presentClientVideo);
}

/**
 * Deletes a course with its lessons and their watch metrics. Refused when clients bought it
 * (`video.coursePurchased`: their access would go — unpublish it instead). `withVideos`: its videos
 * that no other course uses go too, with their files (not one being transcoded: it stays).
 */
export async function deleteVideoService(
  trx: Db,
  studio: Studio,
  id: string,
  withVideos: boolean,
): Promise<{ videosDeleted: number }> {
  await videoServiceRow(trx, studio, id, true);
  const bought = await trx('client_video_purchases')
    .where({ studioId: studio.id, videoServiceId: id })
    .first('id');
  if (bought)
    throw new AppError('video.coursePurchased', {
      message: 'clients bought this course: hide it from clients instead of deleting it',
      fields: { videoService: ['purchased'] },
    });
  const videoIds = [
    ...new Set(
      (await trx('video_events').where({ studioId: studio.id, videoServiceId: id }).select('videoId')).map(
        (e: { videoId: string }) => e.videoId,
      ),
    ),
  ];
  await trx('video_services').where({ studioId: studio.id, id }).delete();
  let videosDeleted = 0;
  if (withVideos)
    for (const videoId of videoIds) {
      const usedElsewhere = await trx('video_events').where({ studioId: studio.id, videoId }).first('id');
      const row = await trx('videos').where({ studioId: studio.id, id: videoId }).first('status');
      if (usedElsewhere || !row || row.status === 'transcoding') continue;
      await deleteVideo(trx, studio, videoId);
      videosDeleted += 1;
    }
  return { videosDeleted };
}
