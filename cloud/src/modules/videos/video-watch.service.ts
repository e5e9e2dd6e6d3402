import { createHmac, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { v7 as uuidv7 } from 'uuid';
import type {
  ClientVideo,
  VideoCourse,
  VideoMetricInput,
  VideoWatch,
} from '../../../../shared/contracts/api/videos';
import { chooseEntitlementForVisit } from '../../../../shared/domain/contracts/visit-entitlement';
import { localDateOf } from '../../../../shared/domain/entitlements';
import { AppError } from '../../../../shared/errors';
import { safeEqual } from '../identity/index';
import type { ClientVideosRow } from '../../db/generated/tables';
import type { Db } from '../../db/knex';
import { readAll } from '../../db/read-all';
import type { FileStorage } from '../../storage/index';
import { clientTagIds } from '../bookings/index';
import { passCandidatesFor } from '../catalog/index';
import { contractEntitlementsFor } from '../contracts/index';
import type { Studio } from '../identity/index';
import { clientVideos } from './video-courses.service';
import { videoKeys } from './video-transcode';

type LocaleText = Record<string, { value: string } | undefined>;

/** How long a watch link (playlists and segments) stays valid: a long lesson with pauses. */
export const STREAM_LINK_SECONDS = 4 * 3600;
/** Watched this far, a lesson counts as completed (credits and the last seconds are often skipped). */
export const COMPLETED_AT = 0.9;

type Access =
  | {
      granted: true;
      via: 'pass' | 'contract' | 'purchase';
      passId: string | null;
      contractId: string | null;
    }
  | { granted: false; reason: string };

/**
 * Whether a client may watch a course now: bought on its own (for good), else a covering contract,
 * else a pass (the booking rule).
 */
export async function courseAccess(
  db: Db,
  studio: Studio,
  clientId: string,
  videoServiceId: string,
  now: Date,
): Promise<Access> {
  const bought = await db('client_video_purchases')
    .where({ studioId: studio.id, clientId, videoServiceId })
    .first('id');
  if (bought) return { granted: true, via: 'purchase', passId: null, contractId: null };
  const [contracts, passes, tags] = await readAll(db, [
    () => contractEntitlementsFor(db, studio, clientId, localDateOf(now, studio.timeZone)),
    () => passCandidatesFor(db, studio, clientId),
    () => clientTagIds(db, studio.id, clientId),
  ]);
  const choice = chooseEntitlementForVisit(
    { contracts, passes },
    { serviceType: 'video', serviceId: videoServiceId, locationId: null, startsAt: now, clientTagIds: tags },
    studio.timeZone,
  );
  if (!choice.ok) return { granted: false, reason: choice.reason };
  return choice.kind === 'contract'
    ? { granted: true, via: 'contract', passId: null, contractId: choice.clientContractId }
    : { granted: true, via: 'pass', passId: choice.passId, contractId: null };
}

const thumbUrl = (studioId: string, videoId: string | null, has: boolean) =>
  videoId && has ? `/api/v4/${studioId}/video/${videoId}/thumbnail.jpg` : null;

interface LessonRow {
  id: string;
  videoServiceId: string;
  videoId: string;
  name: LocaleText;
  position: number;
  status: string;
  durationSeconds: number | null;
  hasThumbnail: boolean;
  progress: number | null;
}

async function lessonsOf(db: Db, studio: Studio, clientId: string, serviceIds: string[]) {
  if (serviceIds.length === 0) return [];
  const rows: LessonRow[] = await db('video_events as e')
    .join('videos as v', 'v.id', 'e.video_id')
    .leftJoin('client_videos as cv', (j) =>
      j
        .on('cv.video_event_id', 'e.id')
        .andOn('cv.studio_id', 'e.studio_id')
        .andOnVal('cv.client_id', clientId),
    )
    .where('e.studio_id', studio.id)
    .whereIn('e.video_service_id', serviceIds)
    .orderBy([{ column: 'e.video_service_id' }, { column: 'e.position' }])
    .select(
      'e.id',
      'e.video_service_id',
      'e.video_id',
      'e.name',
      'e.position',
      'v.status',
      'v.duration_seconds',
      'v.has_thumbnail',
      'cv.progress',
    );
  return rows;
}

function presentLesson(studio: Studio, r: LessonRow) {
  return {
    id: r.id,
    name: r.name,
    position: r.position,
    available: r.status === 'available',
    durationSeconds: r.durationSeconds,
    thumbnailUrl: thumbUrl(studio.id, r.videoId, r.hasThumbnail),
    progress: r.progress === null ? null : Math.round(r.progress * 1000) / 1000,
  };
}

/** Published courses with their lessons and whether this client may watch them. */
export async function videoCourses(
  db: Db,
  studio: Studio,
  clientId: string,
  now: Date,
  slug?: string,
): Promise<VideoCourse[]> {
  const q = db('video_services').where({ studioId: studio.id, published: true }).orderBy('created_at');
  if (slug !== undefined) q.where({ slug });
  const services = await q;
  const lessons = await lessonsOf(
    db,
    studio,
    clientId,
    services.map((s) => s.id),
  );
  const out: VideoCourse[] = [];
  for (const s of services) {
    const own = lessons.filter((l) => l.videoServiceId === s.id);
    const access = await courseAccess(db, studio, clientId, s.id, now);
    const first = own.find((l) => l.hasThumbnail);
    out.push({
      id: s.id,
      slug: s.slug,
      name: s.name as LocaleText,
      description: (s.description ?? {}) as LocaleText,
      thumbnailUrl: first ? thumbUrl(studio.id, first.videoId, true) : null,
      lessons: own.map((l) => presentLesson(studio, l)),
      access: access.granted
        ? { granted: true, via: access.via, reason: null }
        : { granted: false, via: null, reason: access.reason },
      price: s.price ?? null,
      currency: studio.currency,
    });
  }
  return out;
}

export async function videoCourse(
  db: Db,
  studio: Studio,
  clientId: string,
  slug: string,
  now: Date,
): Promise<VideoCourse> {
  const [course] = await videoCourses(db, studio, clientId, now, slug);
  if (!course) throw AppError.notFound('video course');
  return course;
}

async function publishedEvent(db: Db, studio: Studio, eventId: string) {
  const row: (LessonRow & { published: boolean }) | undefined = await db('video_events as e')
    .join('videos as v', 'v.id', 'e.video_id')
    .join('video_services as s', 's.id', 'e.video_service_id')
    .where({ 'e.studio_id': studio.id, 'e.id': eventId })
    .first(
      'e.id',
      'e.video_service_id',
      'e.video_id',
      'e.name',
      'e.position',
      'v.status',
      'v.duration_seconds',
      'v.has_thumbnail',
      's.published',
    );
  if (!row || !row.published) throw AppError.notFound('video');
  return row;
}

/**
 * `booking/video/book`: the client's access to one lesson, recorded once with what granted it. The
 * access is checked again at every watch (a pass that ran out stops the watching).
 */
export async function bookVideo(
  trx: Db,
  studio: Studio,
  clientId: string,
  eventId: string,
  now: Date,
): Promise<string> {
  const event = await publishedEvent(trx, studio, eventId);
  const access = await courseAccess(trx, studio, clientId, event.videoServiceId, now);
  if (!access.granted)
    throw new AppError('video.noAccess', {
      message: `no pass or contract covers this course (${access.reason})`,
      fields: { videoEventId: [access.reason] },
    });
  const existing = await trx('client_videos')
    .where({ studioId: studio.id, clientId, videoEventId: eventId })
    .first('id');
  if (existing) return existing.id;
  const id = uuidv7();
  await trx('client_videos')
    .insert({
      id,
      studioId: studio.id,
      clientId,
      videoEventId: eventId,
      access: access.via,
      clientPricingOptionId: access.passId,
      clientContractId: access.contractId,
      streamSecret: randomBytes(32).toString('base64url'),
    })
    .onConflict(['studio_id', 'client_id', 'video_event_id'])
    .ignore();
  const row = await trx('client_videos')
    .where({ studioId: studio.id, clientId, videoEventId: eventId })
    .first('id');
  return row!.id;
}

export async function clientVideoView(db: Db, studio: Studio, id: string): Promise<ClientVideo> {
  const [found] = await clientVideos(db, studio, { id });
  if (!found) throw AppError.notFound('client video');
  return found;
}

const sign = (secret: string, clientVideoId: string, expires: number) =>
  createHmac('sha256', secret).update(`${clientVideoId}:${expires}`).digest('base64url');

export function streamSignature(row: Pick<ClientVideosRow, 'id' | 'streamSecret'>, expires: number): string {
  return `${expires}.${sign(row.streamSecret, row.id, expires)}`;
}

/** The watch answer: a signed link of the master playlist, valid STREAM_LINK_SECONDS. */
export async function watchVideo(
  trx: Db,
  studio: Studio,
  clientId: string,
  eventId: string,
  now: Date,
): Promise<VideoWatch> {
  const event = await publishedEvent(trx, studio, eventId);
  if (event.status !== 'available')
    throw new AppError('video.notAvailable', {
      message: 'this video is not ready yet',
      fields: { videoEvent: [event.status] },
    });
  const id = await bookVideo(trx, studio, clientId, eventId, now);
  const row = await trx('client_videos').where({ studioId: studio.id, id }).first();
  const expires = Math.floor(now.getTime() / 1000) + STREAM_LINK_SECONDS;
  return {
    clientVideoId: id,
    playlistUrl: `/api/v4/${studio.id}/video-stream/${id}/${streamSignature(row!, expires)}/master.m3u8`,
    expiresAt: new Date(expires * 1000).toISOString(),
    positionSeconds: row!.positionSeconds,
    lesson: presentLesson(studio, { ...event, progress: row!.progress }),
  };
}

/**
 * A stream file for a signed link: the link's client video must be the signed-in client's (another
 * client's link: 403), of this studio (404), signed with its key and not expired (403), and the
 * client must still have access.
 */
export async function streamFile(
  db: Db,
  storage: FileStorage,
  studio: Studio,
  clientId: string,
  params: { clientVideo: string; signature: string; rendition?: string; segment?: string },
  now: Date,
): Promise<Readable> {
  const row = await db('client_videos as cv')
    .join('video_events as e', 'e.id', 'cv.video_event_id')
    .where({ 'cv.studio_id': studio.id, 'cv.id': params.clientVideo })
    .first('cv.id', 'cv.client_id', 'cv.stream_secret', 'e.video_id', 'e.video_service_id');
  if (!row) throw AppError.notFound('video');
  if (row.clientId !== clientId)
    throw new AppError('video.noAccess', { message: 'this link is another client’s' });
  const [expiresText, mac] = params.signature.split('.');
  const expires = Number(expiresText);
  if (!mac || !safeEqual(mac, sign(row.streamSecret, row.id, expires)))
    throw new AppError('video.noAccess', { message: 'invalid link' });
  if (expires * 1000 <= now.getTime())
    throw new AppError('video.linkExpired', { message: 'this link has expired' });
  const access = await courseAccess(db, studio, clientId, row.videoServiceId, now);
  if (!access.granted) throw new AppError('video.noAccess', { message: `no access (${access.reason})` });
  const keys = videoKeys(studio.id, row.videoId);
  const key = !params.rendition
    ? keys.master
    : params.segment
      ? keys.segment(params.rendition, params.segment)
      : keys.playlist(params.rendition);
  const file = await storage.get(key);
  if (!file) throw AppError.notFound('video file');
  return file;
}

/** Records a watch report: position, seconds played, progress (never going back) and completion. */
export async function recordMetric(
  trx: Db,
  studio: Studio,
  clientId: string,
  id: string,
  input: Required<VideoMetricInput>,
  now: Date,
) {
  const row = await trx('client_videos as cv')
    .join('video_events as e', 'e.id', 'cv.video_event_id')
    .join('videos as v', 'v.id', 'e.video_id')
    .where({ 'cv.studio_id': studio.id, 'cv.id': id })
    .forUpdate('cv')
    .first('cv.id', 'cv.client_id', 'cv.progress', 'cv.completed_at', 'v.duration_seconds');
  if (!row || row.clientId !== clientId) throw AppError.notFound('client video');
  const duration = row.durationSeconds && row.durationSeconds > 0 ? row.durationSeconds : null;
  const position = duration ? Math.min(input.positionSeconds, duration) : input.positionSeconds;
  const reached = input.ended ? 1 : duration ? position / duration : 0;
  const progress = Math.max(row.progress, Math.min(1, reached));
  await trx('client_videos')
    .where({ studioId: studio.id, id })
    .update({
      positionSeconds: input.ended ? 0 : position,
      watchedSeconds: trx.raw('watched_seconds + ?', [input.watchedSeconds]),
      progress,
      lastWatchedAt: now,
      completedAt: row.completedAt ?? (progress >= COMPLETED_AT ? now : null),
    });
}
