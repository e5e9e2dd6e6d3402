import type Router from '@koa/router';
import {
  isReleaseManager,
  type DeskFleet,
  type FleetStation,
} from '../../../../shared/contracts/api/desk-fleet';
import { AppError } from '../../../../shared/errors';
import { DeskFleetApi } from '../../../../shared/contracts/http/desk-fleet';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { fileStorage } from '../../storage';
import { deskFleet, fleetStation, readLogs, requestLogs, setStudioChannel } from './fleet.service';
import { deleteRelease } from './releases.service';

/** Back office → Stations (shared/contracts/http/desk-fleet.ts; README of this module). */
export function registerDeskFleetRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...DeskFleetApi.getDeskFleet,
    handle: async ({ db, studio, auth, deps }): Promise<DeskFleet> =>
      deskFleet(db, studio.id, deps.clock.now(), auth.user),
  });

  defineRoute(router, {
    ...DeskFleetApi.putDeskFleetChannel,
    handle: async ({ db, studio, body, auth, deps }): Promise<DeskFleet> => {
      const now = deps.clock.now();
      await setStudioChannel(db, studio.id, body.channel, now);
      return deskFleet(db, studio.id, now, auth.user);
    },
  });

  defineRoute(router, {
    ...DeskFleetApi.deleteDeskFleetRelease,
    handle: async ({ db, studio, params, auth, deps }): Promise<DeskFleet> => {
      // Releases are every studio's: a studio's settings.edit is not enough (DESK_RELEASE_MANAGERS).
      if (!isReleaseManager(auth.user.email, process.env.DESK_RELEASE_MANAGERS))
        throw new AppError('auth.forbidden', { message: 'only the release managers delete releases' });
      await deleteRelease(db, fileStorage(deps.config), params.releaseId);
      return deskFleet(db, studio.id, deps.clock.now(), auth.user);
    },
  });

  defineRoute(router, {
    ...DeskFleetApi.postDeskFleetUploadLogs,
    handle: async ({ db, studio, params, auth, deps }): Promise<FleetStation> => {
      const now = deps.clock.now();
      await requestLogs(db, studio.id, params.deviceId, auth.user.id, now);
      return fleetStation(db, studio.id, params.deviceId, now);
    },
  });

  defineRoute(router, {
    ...DeskFleetApi.getDeskFleetLogs,
    handle: async ({ ctx, db, studio, params, deps }): Promise<Buffer> => {
      const bytes = await readLogs(db, fileStorage(deps.config), studio.id, params.deviceId);
      ctx.attachment(`station-${params.deviceId}.log`);
      ctx.set('Cache-Control', 'private, no-store');
      return bytes;
    },
  });
}
