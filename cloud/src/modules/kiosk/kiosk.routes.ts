import type Router from '@koa/router';
import {
  CHECK_IN_METHODS,
  DEFAULT_KIOSK_SETTINGS,
  KIOSK_LIMITS,
  type KioskCheckInResult,
  type KioskClient,
  type KioskDevice,
  type KioskDoor,
  type KioskQrCode,
  type KioskSignInResult,
  type SmartLock,
  type SmartLockList,
  type SmartLockTestResult,
  type StudioKiosk,
  type StudioKioskInit,
  type StudioKioskList,
} from '../../../../shared/contracts/api/kiosk';
import { TICKET_PRINTER_OPTIONS } from '../../../../shared/contracts/api/ticket-printers';
import { can } from '../../../../shared/policies/abilities';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { abilitiesOf } from '../../http/abilities';
import { authenticateDevice } from '../../sync/devices.service';
import type { AppContext, AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { findStudio } from '../identity/index';
import { KioskApi } from '../../../../shared/contracts/http/kiosk';
import {
  createKiosk,
  createSmartLock,
  deleteKiosk,
  deleteSmartLock,
  kioskQrCode,
  kiosksByLock,
  kioskDoor,
  listKiosks,
  listSmartLocks,
  testSmartLock,
  updateKiosk,
  updateSmartLock,
} from './kiosk-admin.service';
import { identifyClient, kioskCheckIn, kioskEntry, type KioskOutcome } from './kiosk-check-in.service';
import { openKioskSession, requireKiosk } from './kiosk-session';
import { presentDevice, presentKiosk, presentSmartLock } from './kiosk.presenter';

/**
 * Kiosk mode: the back office's `studio-kiosk` and `studio-smart-lock` calls (staff, settings
 * abilities) and the kiosk device's calls under `{uuid}/kiosk/` (a kiosk session, nothing else).
 */
/**
 * A check-in's door: opened after the commit (a `present` step, so no row lock is held while the
 * lock's driver answers) and reported in the answer. A driver that throws leaves the result as it is.
 */
async function openDoor(
  outcome: KioskOutcome,
  { ctx, deps }: { ctx: AppContext; deps: { knex: Db } },
): Promise<KioskCheckInResult> {
  try {
    await outcome.openLock(deps.knex);
  } catch (err) {
    ctx.state.log.error({ err }, 'smart lock not opened');
  }
  return outcome.result;
}

export function registerKioskRoutes(router: Router<AppState, AppCustom>): void {
  // ------------------------------------------------------------------------------ back office
  defineRoute(router, {
    ...KioskApi.getStudioKioskCollection,
    handle: async ({ db, studio, membership, deps }): Promise<StudioKioskList> => {
      // Who may change kiosks (settings.edit) sees their keys.
      const showKey = can(await abilitiesOf(db, membership), KioskApi.postStudioKiosk.ability);
      const rows = await listKiosks(db, studio);
      return { items: rows.map((r) => presentKiosk(r, studio, deps.config.publicUrl, showKey)) };
    },
  });
  defineRoute(router, {
    ...KioskApi.getStudioKioskInit,
    handle: async ({ db, studio }): Promise<StudioKioskInit> => {
      const locations = await db('locations')
        .where({ studioId: studio.id })
        .orderBy([{ column: 'name' }, { column: 'id' }])
        .select('id', 'name');
      const locks = await listSmartLocks(db, studio.id);
      return {
        locations,
        smartLocks: locks.map((l) => ({ id: l.id, name: l.name })),
        checkInMethods: [...CHECK_IN_METHODS],
        defaults: DEFAULT_KIOSK_SETTINGS,
        limits: { idleSecondsMin: KIOSK_LIMITS.idleSecondsMin, idleSecondsMax: KIOSK_LIMITS.idleSecondsMax },
        ticketPrinter: TICKET_PRINTER_OPTIONS,
      };
    },
  });
  defineRoute(router, {
    ...KioskApi.postStudioKiosk,
    handle: async ({ db, studio, body, deps }): Promise<StudioKiosk> =>
      presentKiosk(await createKiosk(db, studio, body), studio, deps.config.publicUrl, true),
  });
  defineRoute(router, {
    ...KioskApi.patchStudioKiosk,
    handle: async ({ db, studio, params, body, deps }): Promise<StudioKiosk> => {
      const row = await updateKiosk(db, studio, params.kioskGuid, body, deps.clock.now());
      // A new key of the default kiosk is the studio's: read it back.
      const current =
        body.regenerateKey && row.isDefault ? ((await findStudio(db, studio.id)) ?? studio) : studio;
      return presentKiosk(row, current, deps.config.publicUrl, true);
    },
  });
  defineRoute(router, {
    ...KioskApi.deleteStudioKiosk,
    handle: async ({ db, studio, params }) => {
      await deleteKiosk(db, studio, params.kioskGuid);
    },
  });
  defineRoute(router, {
    ...KioskApi.getStudioKioskQrCode,
    handle: async ({ db, studio, params, deps, ctx }): Promise<KioskQrCode> => {
      ctx.set('Cache-Control', 'no-store');
      return kioskQrCode(db, studio, params.kioskGuid, deps.config.publicUrl);
    },
  });

  defineRoute(router, {
    ...KioskApi.getSmartLockCollection,
    handle: async ({ db, studio }): Promise<SmartLockList> => {
      const [locks, byLock] = [await listSmartLocks(db, studio.id), await kiosksByLock(db, studio.id)];
      return { items: locks.map((l) => presentSmartLock(l, byLock.get(l.id) ?? [])) };
    },
  });
  defineRoute(router, {
    ...KioskApi.postSmartLock,
    handle: async ({ db, studio, body }): Promise<SmartLock> =>
      presentSmartLock(await createSmartLock(db, studio, body), []),
  });
  defineRoute(router, {
    ...KioskApi.postSmartLockTestConnection,
    handle: async ({ db, studio, body, deps }): Promise<SmartLockTestResult> => {
      const answer = await testSmartLock(db, studio, body.smartLockId, deps.clock.now());
      return {
        ok: answer.ok,
        message: answer.message,
        reason: answer.reason,
        httpStatus: answer.httpStatus,
        testedAt: answer.testedAt.toISOString(),
      };
    },
  });
  defineRoute(router, {
    ...KioskApi.patchSmartLock,
    handle: async ({ db, studio, params, body, deps }): Promise<SmartLock> => {
      const row = await updateSmartLock(db, studio, params.smartLockGuid, body, deps.clock.now());
      return presentSmartLock(row, (await kiosksByLock(db, studio.id)).get(row.id) ?? []);
    },
  });
  defineRoute(router, {
    ...KioskApi.deleteSmartLock,
    handle: async ({ db, studio, params }) => {
      await deleteSmartLock(db, studio, params.smartLockGuid);
    },
  });

  // ----------------------------------------------------------------------------- kiosk device
  defineRoute(router, {
    ...KioskApi.postKioskSession,
    handle: async ({ ctx, db, deps, params, body }): Promise<KioskSignInResult> => {
      await deps.rateLimits.consume('kioskPerIp', ctx.ip);
      const opened = await openKioskSession(
        db,
        params.uuid,
        body.kioskId,
        body.kioskKey,
        deps.clock.now(),
        ctx.get('user-agent'),
      );
      return { token: opened.token, kiosk: presentDevice(opened.studio, opened.kiosk) };
    },
  });
  defineRoute(router, {
    ...KioskApi.deleteKioskSession,
    handle: async ({ ctx, db, params, deps }) => {
      const { sessionId } = await requireKiosk(ctx, db, params.uuid);
      await db('kiosk_sessions').where({ id: sessionId }).update({ revokedAt: deps.clock.now() });
    },
  });
  defineRoute(router, {
    ...KioskApi.getKioskMe,
    handle: async ({ ctx, db, params }): Promise<KioskDevice> => {
      const { studio, kiosk } = await requireKiosk(ctx, db, params.uuid);
      return presentDevice(studio, kiosk);
    },
  });
  defineRoute(router, {
    ...KioskApi.getKioskDoor,
    handle: async ({ ctx, db, params, deps }): Promise<KioskDoor> => {
      const { studio, kiosk } = await requireKiosk(ctx, db, params.uuid);
      // The relay's secret goes only to a registered desk station of this studio that also holds this
      // kiosk's session: a web kiosk (a tablet's browser) never sees it (desktop/README.md "The door").
      const bearer = ctx.get('authorization');
      const device = bearer ? await authenticateDevice(db, bearer, deps.clock.now()).catch(() => null) : null;
      if (!device || device.studioId !== studio.id)
        throw new AppError('kiosk.stationOnly', {
          message: 'only a registered desk station of this studio may hold the door relay',
        });
      ctx.set('Cache-Control', 'no-store');
      return kioskDoor(db, studio, kiosk);
    },
  });
  defineRoute(router, {
    ...KioskApi.postKioskIdentify,
    handle: async ({ ctx, db, params, body, deps }): Promise<KioskClient> => {
      const { studio, kiosk, sessionId } = await requireKiosk(ctx, db, params.uuid);
      await deps.rateLimits.consume('kioskIdentifyPerSession', sessionId);
      await deps.rateLimits.consume('kioskIdentifyPerStudio', studio.id);
      return identifyClient(db, studio, kiosk, body, deps.clock.now());
    },
  });
  defineRoute(router, {
    ...KioskApi.postKioskCheckIn,
    handle: async ({ ctx, db, params, body, deps }) => {
      const { studio, kiosk } = await requireKiosk(ctx, db, params.uuid);
      return kioskCheckIn(db, studio, kiosk, body, deps.clock.now());
    },
    // The door opens only once the check-in is committed; the answer then says whether it did.
    present: openDoor,
  });
  defineRoute(router, {
    ...KioskApi.postKioskEntry,
    handle: async ({ ctx, db, params, body, deps }) => {
      const { studio, kiosk } = await requireKiosk(ctx, db, params.uuid);
      return kioskEntry(db, studio, kiosk, body.clientId, deps.clock.now(), body.entryServiceId);
    },
    present: openDoor,
  });
}
