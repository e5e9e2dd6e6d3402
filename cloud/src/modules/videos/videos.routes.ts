import type Router from '@koa/router';
import { VideosApi } from '../../../../shared/contracts/http/videos';
import { AppError } from '../../../../shared/errors';
import type { AppContext, AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { fileStorage } from '../../storage/index';
import { requireEntryClient } from '../entries/index';
import {
  clientVideos,
  createVideoService,
  deleteVideoService,
  listVideoEvents,
  listVideoServices,
  patchVideoService,
  videoServiceInit,
  videoServiceView,
} from './video-courses.service';
import { videoKeys } from './video-transcode';
import {
  bookVideo,
  clientVideoView,
  recordMetric,
  streamFile,
  videoCourse,
  videoCourses,
  watchVideo,
} from './video-watch.service';
import './video-purchase';
import { createVideo, deleteVideo, listVideos, presentVideo, retryVideo, videoRow } from './videos.service';

/** Private, short-lived in caches: a signed stream file is this client's. */
function streamHeaders(ctx: AppContext) {
  ctx.set('Cache-Control', 'private, max-age=60');
}

/** Videos and video courses (issue 22; `shared/contracts/http/videos.ts`, README). */
export function registerVideoRoutes(router: Router<AppState, AppCustom>): void {
  // Before `video/:video`: a route's uuid parameter answers 404 for anything else.
  defineRoute(router, {
    ...VideosApi.collection,
    handle: async ({ db, studio }) => ({ items: await listVideos(db, studio), next: null }),
  });
  defineRoute(router, {
    ...VideosApi.create,
    handle: async ({ db, studio, body, auth }) => createVideo(db, studio, body, auth.user.id),
  });
  defineRoute(router, {
    ...VideosApi.get,
    handle: async ({ db, studio, params }) => presentVideo(await videoRow(db, studio, params.video)),
  });
  defineRoute(router, {
    ...VideosApi.retry,
    handle: async ({ db, studio, params, deps }) => retryVideo(db, studio, params.video, deps.clock.now()),
  });
  defineRoute(router, {
    ...VideosApi.remove,
    handle: async ({ db, studio, params }) => deleteVideo(db, studio, params.video),
  });
  defineRoute(router, {
    ...VideosApi.thumbnail,
    handle: async ({ db, studio, params, deps, ctx }) => {
      const row = await videoRow(db, studio, params.video);
      const file = row.hasThumbnail
        ? await fileStorage(deps.config).get(videoKeys(studio.id, row.id).thumbnail)
        : null;
      if (!file) throw AppError.notFound('thumbnail');
      ctx.set('Cache-Control', 'private, max-age=3600');
      return file;
    },
  });

  defineRoute(router, {
    ...VideosApi.serviceInit,
    handle: async ({ db, studio }) => videoServiceInit(db, studio),
  });
  defineRoute(router, {
    ...VideosApi.serviceCollection,
    handle: async ({ db, studio }) => ({ items: await listVideoServices(db, studio), next: null }),
  });
  defineRoute(router, {
    ...VideosApi.serviceGet,
    handle: async ({ db, studio, params }) => videoServiceView(db, studio, params.videoService),
  });
  defineRoute(router, {
    ...VideosApi.createService,
    handle: async ({ db, studio, body }) => createVideoService(db, studio, body),
  });
  defineRoute(router, {
    ...VideosApi.patchService,
    handle: async ({ db, studio, params, body, deps }) =>
      patchVideoService(db, studio, params.videoService, body, deps.clock.now()),
  });
  defineRoute(router, {
    ...VideosApi.removeService,
    handle: async ({ db, studio, params, query }) => {
      await deleteVideoService(db, studio, params.videoService, query.withVideos === 'true');
    },
  });
  defineRoute(router, {
    ...VideosApi.eventCollection,
    handle: async ({ db, studio, query }) => ({
      items: await listVideoEvents(db, studio, query.videoServiceId),
      next: null,
    }),
  });
  defineRoute(router, {
    ...VideosApi.clientVideos,
    handle: async ({ db, studio, params }) => {
      await requireEntryClient(db, studio, params.user);
      return { items: await clientVideos(db, studio, { clientId: params.user }), next: null };
    },
  });

  defineRoute(router, {
    ...VideosApi.courses,
    handle: async ({ db, studio, auth, deps }) => ({
      items: await videoCourses(db, studio, auth.user.id, deps.clock.now()),
      next: null,
    }),
  });
  defineRoute(router, {
    ...VideosApi.course,
    handle: async ({ db, studio, auth, params, deps }) =>
      videoCourse(db, studio, auth.user.id, params.slug, deps.clock.now()),
  });
  defineRoute(router, {
    ...VideosApi.book,
    handle: async ({ db, studio, auth, body, deps }) =>
      bookVideo(db, studio, auth.user.id, body.videoEventId, deps.clock.now()),
    present: async (id, { studio, deps }) => clientVideoView(deps.knex, studio, id),
  });
  defineRoute(router, {
    ...VideosApi.watch,
    handle: async ({ db, studio, auth, params, deps, ctx }) => {
      ctx.set('Cache-Control', 'no-store');
      return watchVideo(db, studio, auth.user.id, params.videoEvent, deps.clock.now());
    },
  });
  defineRoute(router, {
    ...VideosApi.metric,
    handle: async ({ db, studio, auth, params, body, deps }) => {
      await recordMetric(db, studio, auth.user.id, params.clientVideo, body, deps.clock.now());
      return params.clientVideo;
    },
    present: async (id, { studio, deps }) => clientVideoView(deps.knex, studio, id),
  });

  for (const entry of [VideosApi.streamMaster, VideosApi.streamPlaylist, VideosApi.streamSegment] as const) {
    defineRoute(router, {
      ...entry,
      handle: async ({ db, studio, auth, params, deps, ctx }) => {
        const file = await streamFile(
          db,
          fileStorage(deps.config),
          studio,
          auth.user.id,
          params,
          deps.clock.now(),
        );
        streamHeaders(ctx);
        return file;
      },
    });
  }
}
