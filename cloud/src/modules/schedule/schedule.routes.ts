import type Router from '@koa/router';
import { v7 as uuidv7 } from 'uuid';
import {
  ScheduleApi,
  ScheduleBulkEventActionApi,
  ScheduleEventActionApi,
} from '../../../../shared/contracts/http/schedule';
import type { PublicSchedule, ScheduleEventView } from '../../../../shared/contracts/api/schedule';
import { ACTION_BY_SEGMENT } from '../../../../shared/domain/schedule';
import { AppError } from '../../../../shared/errors';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute, JsonText } from '../../http/route';
import { findStudio } from '../identity/index';
import { registerClassServiceToolRoutes } from './class-service-tools.routes';
import { publicEventDetails } from './public-event-details.service';
import {
  createExperienceLevel,
  getClassService,
  listClassServiceCategories,
  listClassServices,
  listExperienceLevels,
  listLocations,
  listRooms,
  scheduleInit,
  lockLocationPicture,
  setLocationPicture,
  updateExperienceLevel,
} from './places-and-services.service';
import {
  applyAction,
  eventsOfMeta,
  findEvents,
  findEventsText,
  generateEvents,
  getEvent,
  patchEvents,
  publicScheduleText,
  setLivestream,
} from './schedule-events.service';
import {
  attachPricingOptions,
  createMeta,
  deleteMeta,
  detachPricingOptions,
  getMeta,
  listMetaPricingOptions,
  listMetas,
  updateMeta,
} from './schedule-metas.service';
import { pictureIdOf, pictureKey, storePicture } from '../studio-admin/index';
import { fileStorage } from '../../storage/index';

const list = <T>(items: T[]) => ({ items, next: null });

/**
 * The timetable: locations and rooms, class services, experience levels, schedule metas and events
 * (spec §7 private v2 and v4), and the front office's public `schedule`. Reading needs
 * `schedule.view`, changing `schedule.edit`.
 */
export function registerScheduleRoutes(router: Router<AppState, AppCustom>): void {
  // Fixed paths (class-service/categorized, schedule-event/init …) before the `{id}` ones.
  registerClassServiceToolRoutes(router);
  // ------------------------------------------------------------------ locations and rooms (v4)
  defineRoute(router, {
    ...ScheduleApi.locations,
    handle: async ({ db, studio }) => list(await listLocations(db, studio)),
  });
  defineRoute(router, {
    ...ScheduleApi.setLocationPicture,
    // The location is checked (and locked) before a file is stored: an unknown one leaves no file.
    // A file stored by a handle that then fails goes again; the replaced picture goes after commit.
    handle: async ({ db, studio, params, body, deps }) => {
      const previous = await lockLocationPicture(db, studio.id, params.location);
      const storage = fileStorage(deps.config);
      const stored = body.dataUrl === undefined ? null : await storePicture(storage, studio.id, body.dataUrl);
      try {
        const view = await setLocationPicture(
          db,
          studio,
          params.location,
          stored ? stored.url : (body.pictureUrl ?? null),
        );
        return { view, previous };
      } catch (err) {
        if (stored) await storage.delete(pictureKey(studio.id, stored.id));
        throw err;
      }
    },
    present: async ({ view, previous }, { deps, studio }) => {
      const replaced = previous === view.pictureUrl ? null : pictureIdOf(studio.id, previous);
      if (replaced) await fileStorage(deps.config).delete(pictureKey(studio.id, replaced));
      return view;
    },
  });
  defineRoute(router, {
    ...ScheduleApi.rooms,
    handle: async ({ db, studio, params }) => list(await listRooms(db, studio, params.location)),
  });
  defineRoute(router, {
    ...ScheduleApi.roomInit,
    handle: async ({ db, studio }) => ({ locations: await listLocations(db, studio) }),
  });

  // ------------------------------------------------------------------ class services (v4)
  defineRoute(router, {
    ...ScheduleApi.classServices,
    handle: async ({ db, studio, query }) => list(await listClassServices(db, studio, query.serviceType)),
  });
  defineRoute(router, {
    ...ScheduleApi.classServiceCategories,
    handle: async ({ db, studio }) => list(await listClassServiceCategories(db, studio)),
  });
  defineRoute(router, {
    ...ScheduleApi.classService,
    handle: ({ db, studio, params }) => getClassService(db, studio, params.classService),
  });

  // ------------------------------------------------------------------ experience levels
  defineRoute(router, {
    ...ScheduleApi.experienceLevels,
    handle: async ({ db, studio, query }) => list(await listExperienceLevels(db, studio, query.serviceType)),
  });
  defineRoute(router, {
    ...ScheduleApi.createExperienceLevel,
    handle: ({ db, studio, body }) => createExperienceLevel(db, studio, body, uuidv7()),
  });
  defineRoute(router, {
    ...ScheduleApi.updateExperienceLevel,
    handle: ({ db, studio, params, body }) =>
      updateExperienceLevel(db, studio, params.experienceLevelGuid, body),
  });

  // ------------------------------------------------------------------ timetable (v4)
  defineRoute(router, {
    ...ScheduleApi.init,
    handle: ({ db, studio }) => scheduleInit(db, studio),
  });
  defineRoute(router, {
    ...ScheduleApi.find,
    // The week as PostgreSQL wrote it, sent without parsing (`JsonText`): `{ items, next: null }`.
    handle: async ({ db, studio, body }) =>
      new JsonText<{ items: ScheduleEventView[]; next: null }>(
        `{"items":${await findEventsText(db, studio, body)},"next":null}`,
      ),
  });
  // Classes the studio called off (cancelled) in a range of days, with the timetable's filters.
  defineRoute(router, {
    ...ScheduleApi.calledOff,
    handle: async ({ db, studio, query }) =>
      list(
        (await findEvents(db, studio, { ...query, includeRemoved: false })).filter(
          (e) => e.status === 'cancelled',
        ),
      ),
  });
  defineRoute(router, {
    ...ScheduleApi.metas,
    handle: async ({ db, studio, query }) => list(await listMetas(db, studio, query.classServiceId)),
  });
  defineRoute(router, {
    ...ScheduleApi.event,
    handle: ({ db, studio, params }) => getEvent(db, studio, params.scheduleEvent),
  });

  // ------------------------------------------------------------------ schedule metas (v2)
  defineRoute(router, {
    ...ScheduleApi.createMeta,
    handle: ({ db, studio, params, body }) => createMeta(db, studio, params.classServiceGuid, body),
  });
  defineRoute(router, {
    ...ScheduleApi.meta,
    handle: ({ db, studio, params }) => getMeta(db, studio, params.scheduleMetaGuid),
  });
  defineRoute(router, {
    ...ScheduleApi.updateMeta,
    handle: ({ db, studio, params, body, deps }) =>
      updateMeta(db, studio, params.scheduleMetaGuid, body, deps.clock.now()),
  });
  defineRoute(router, {
    ...ScheduleApi.deleteMeta,
    handle: ({ db, studio, params, deps }) =>
      deleteMeta(db, studio, params.scheduleMetaGuid, deps.clock.now()),
  });
  for (const [contract, bookableOnline] of [
    [ScheduleApi.metaBookableOnline, true],
    [ScheduleApi.metaUnbookableOnline, false],
  ] as const)
    defineRoute(router, {
      ...contract,
      handle: ({ db, studio, params, deps }) =>
        updateMeta(db, studio, params.id, { bookableOnline }, deps.clock.now()),
    });
  for (const contract of [ScheduleApi.metaEvents, ScheduleApi.metaEventsByClassService])
    defineRoute(router, {
      ...contract,
      handle: async ({ db, studio, params }) => list(await eventsOfMeta(db, studio, params.scheduleMetaGuid)),
    });
  defineRoute(router, {
    ...ScheduleApi.metaPricingOptions,
    handle: ({ db, studio, params }) => listMetaPricingOptions(db, studio, params.scheduleMetaGuid),
  });
  defineRoute(router, {
    ...ScheduleApi.attachMetaPricingOptions,
    handle: ({ db, studio, params, body }) =>
      attachPricingOptions(db, studio, params.scheduleMetaGuid, body.pricingOptionIds),
  });
  defineRoute(router, {
    ...ScheduleApi.detachMetaPricingOptions,
    handle: ({ db, studio, params, body }) =>
      detachPricingOptions(db, studio, params.scheduleMetaGuid, body.pricingOptionIds),
  });

  // ------------------------------------------------------------------ schedule events (v2)
  defineRoute(router, {
    ...ScheduleApi.generate,
    handle: ({ db, studio, body, deps }) => generateEvents(db, studio, body, deps.clock.now()),
  });
  // Bulk paths first: `cancel/bulk` must not be read as an event id and an action.
  defineRoute(router, {
    ...ScheduleApi.patchEvents,
    handle: async ({ db, studio, body, deps }) =>
      list(await patchEvents(db, studio, body.ids, body.patch, deps.clock.now(), 'ids')),
  });
  for (const [segment, action] of Object.entries(ACTION_BY_SEGMENT))
    defineRoute(router, {
      ...ScheduleBulkEventActionApi[segment]!,
      handle: async ({ db, studio, body, deps }) =>
        list(await applyAction(db, studio, body.ids, action, deps.clock.now(), 'ids')),
    });
  defineRoute(router, {
    ...ScheduleApi.setLivestream,
    handle: ({ db, studio, params, body }) => setLivestream(db, studio, params.referenceId, body.url),
  });
  // §2's `integration` ajax action: links the class to its external online room (livestream or video
  // meeting URL), the one integration a class has here; the same call as `livestream` (README).
  defineRoute(router, {
    ...ScheduleApi.setIntegration,
    handle: ({ db, studio, params, body }) => setLivestream(db, studio, params.referenceId, body.url),
  });
  // The back office's single-event "ajax actions" (spec §2): edit and each action on one event.
  defineRoute(router, {
    ...ScheduleApi.patchEvent,
    handle: async ({ db, studio, params, body, deps }) =>
      (await patchEvents(db, studio, [params.referenceId], body, deps.clock.now(), null))[0]!,
  });
  for (const [segment, action] of Object.entries(ACTION_BY_SEGMENT))
    defineRoute(router, {
      ...ScheduleEventActionApi[segment]!,
      handle: async ({ db, studio, params, deps }) =>
        (await applyAction(db, studio, [params.referenceId], action, deps.clock.now(), null))[0]!,
    });

  // ------------------------------------------------------------------ front office
  // Anyone may read a studio's timetable (a visitor decides whether to sign up by looking at it).
  defineRoute(router, {
    ...ScheduleApi.publicSchedule,
    handle: async ({ db, params, body }) => {
      const studio = await findStudio(db, params.uuid);
      if (!studio) throw AppError.notFound();
      // The week as PostgreSQL wrote it, sent without parsing (`JsonText`).
      return new JsonText<PublicSchedule>(await publicScheduleText(db, studio, body));
    },
  });
  // A class's details for the client (issue 26): as public as the timetable it opens from.
  defineRoute(router, {
    ...ScheduleApi.publicEventDetails,
    handle: async ({ db, params }) => {
      const studio = await findStudio(db, params.uuid);
      if (!studio) throw AppError.notFound();
      return publicEventDetails(db, studio.id, params.scheduleEvent);
    },
  });
}
