import type Router from '@koa/router';
import { z } from 'zod';
import {
  CHECK_IN_METHODS,
  DEFAULT_KIOSK_SETTINGS,
  KIOSK_LIMITS,
  KioskCheckInInputSchema,
  KioskEntryInputSchema,
  KioskIdentifyInputSchema,
  KioskSignInInputSchema,
  SmartLockInputSchema,
  SmartLockPatchSchema,
  SmartLockTestInputSchema,
  StudioKioskInputSchema,
  StudioKioskPatchSchema,
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
import { can, type Ability } from '../../../../shared/policies/abilities';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import { abilitiesOf } from '../../http/abilities';
import { authenticateDevice } from '../../sync/devices.service';
import type { AppContext, AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { findStudio } from '../identity/rows';
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

const VIEW: Ability = 'settings.view';
const EDIT: Ability = 'settings.edit';

const StudioParams = z.object({ uuid: z.string() });
const KioskParams = z.object({ uuid: z.string(), kioskGuid: z.uuid() });
const LockParams = z.object({ uuid: z.string(), smartLockGuid: z.uuid() });

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
    method: 'get',
    path: '/v4/:uuid/studio-kiosk/collection',
    access: 'staff',
    ability: VIEW,
    params: StudioParams,
    handle: async ({ db, studio, membership, deps }): Promise<StudioKioskList> => {
      const showKey = can(await abilitiesOf(db, membership), EDIT);
      const rows = await listKiosks(db, studio);
      return { items: rows.map((r) => presentKiosk(r, studio, deps.config.publicUrl, showKey)) };
    },
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/studio-kiosk/init',
    access: 'staff',
    ability: VIEW,
    params: StudioParams,
    handle: async ({ db, studio }): Promise<StudioKioskInit> => {
      const locations = (await db('locations')
        .where({ studioId: studio.id })
        .orderBy([{ column: 'name' }, { column: 'id' }])
        .select('id', 'name')) as Array<{ id: string; name: string }>;
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
    method: 'post',
    path: '/v4/:uuid/studio-kiosk',
    access: 'staff',
    ability: EDIT,
    params: StudioParams,
    body: StudioKioskInputSchema,
    status: 201,
    handle: async ({ db, studio, body, deps }): Promise<StudioKiosk> =>
      presentKiosk(await createKiosk(db, studio, body), studio, deps.config.publicUrl, true),
  });
  defineRoute(router, {
    method: 'patch',
    path: '/v4/:uuid/studio-kiosk/:kioskGuid',
    access: 'staff',
    ability: EDIT,
    params: KioskParams,
    body: StudioKioskPatchSchema,
    handle: async ({ db, studio, params, body, deps }): Promise<StudioKiosk> => {
      const row = await updateKiosk(db, studio, params.kioskGuid, body, deps.clock.now());
      // A new key of the default kiosk is the studio's: read it back.
      const current =
        body.regenerateKey && row.isDefault ? ((await findStudio(db, studio.id)) ?? studio) : studio;
      return presentKiosk(row, current, deps.config.publicUrl, true);
    },
  });
  defineRoute(router, {
    method: 'delete',
    path: '/v4/:uuid/studio-kiosk/:kioskGuid',
    access: 'staff',
    ability: EDIT,
    params: KioskParams,
    status: 204,
    handle: async ({ db, studio, params }) => {
      await deleteKiosk(db, studio, params.kioskGuid);
    },
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/studio-kiosk/:kioskGuid/qr-code',
    access: 'staff',
    // The code holds the kiosk key: who may see keys may see it.
    ability: EDIT,
    params: KioskParams,
    handle: async ({ db, studio, params, deps, ctx }): Promise<KioskQrCode> => {
      ctx.set('Cache-Control', 'no-store');
      return kioskQrCode(db, studio, params.kioskGuid, deps.config.publicUrl);
    },
  });

  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/studio-smart-lock/collection',
    access: 'staff',
    ability: VIEW,
    params: StudioParams,
    handle: async ({ db, studio }): Promise<SmartLockList> => {
      const [locks, byLock] = [await listSmartLocks(db, studio.id), await kiosksByLock(db, studio.id)];
      return { items: locks.map((l) => presentSmartLock(l, byLock.get(l.id) ?? [])) };
    },
  });
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/studio-smart-lock',
    access: 'staff',
    ability: EDIT,
    params: StudioParams,
    body: SmartLockInputSchema,
    status: 201,
    handle: async ({ db, studio, body }): Promise<SmartLock> =>
      presentSmartLock(await createSmartLock(db, studio, body), []),
  });
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/studio-smart-lock/test-connection',
    access: 'staff',
    ability: EDIT,
    params: StudioParams,
    body: SmartLockTestInputSchema,
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
    method: 'patch',
    path: '/v4/:uuid/studio-smart-lock/:smartLockGuid',
    access: 'staff',
    ability: EDIT,
    params: LockParams,
    body: SmartLockPatchSchema,
    handle: async ({ db, studio, params, body, deps }): Promise<SmartLock> => {
      const row = await updateSmartLock(db, studio, params.smartLockGuid, body, deps.clock.now());
      return presentSmartLock(row, (await kiosksByLock(db, studio.id)).get(row.id) ?? []);
    },
  });
  defineRoute(router, {
    method: 'delete',
    path: '/v4/:uuid/studio-smart-lock/:smartLockGuid',
    access: 'staff',
    ability: EDIT,
    params: LockParams,
    status: 204,
    handle: async ({ db, studio, params }) => {
      await deleteSmartLock(db, studio, params.smartLockGuid);
    },
  });

  // ----------------------------------------------------------------------------- kiosk device
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/kiosk/session',
    access: 'public',
    params: StudioParams,
    body: KioskSignInInputSchema,
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
    method: 'delete',
    path: '/v4/:uuid/kiosk/session',
    access: 'public',
    params: StudioParams,
    status: 204,
    handle: async ({ ctx, db, params, deps }) => {
      const { sessionId } = await requireKiosk(ctx, db, params.uuid);
      await db('kiosk_sessions').where({ id: sessionId }).update({ revokedAt: deps.clock.now() });
    },
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/kiosk/me',
    access: 'public',
    params: StudioParams,
    handle: async ({ ctx, db, params }): Promise<KioskDevice> => {
      const { studio, kiosk } = await requireKiosk(ctx, db, params.uuid);
      return presentDevice(studio, kiosk);
    },
  });
  defineRoute(router, {
    method: 'get',
    path: '/v4/:uuid/kiosk/door',
    access: 'public',
    params: StudioParams,
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
    method: 'post',
    path: '/v4/:uuid/kiosk/identify',
    access: 'public',
    params: StudioParams,
    body: KioskIdentifyInputSchema,
    handle: async ({ ctx, db, params, body, deps }): Promise<KioskClient> => {
      const { studio, kiosk, sessionId } = await requireKiosk(ctx, db, params.uuid);
      await deps.rateLimits.consume('kioskIdentifyPerSession', sessionId);
      await deps.rateLimits.consume('kioskIdentifyPerStudio', studio.id);
      return identifyClient(db, studio, kiosk, body, deps.clock.now());
    },
  });
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/kiosk/check-in',
    access: 'public',
    params: StudioParams,
    body: KioskCheckInInputSchema,
    handle: async ({ ctx, db, params, body, deps }) => {
      const { studio, kiosk } = await requireKiosk(ctx, db, params.uuid);
      return kioskCheckIn(db, studio, kiosk, body, deps.clock.now());
    },
    // The door opens only once the check-in is committed; the answer then says whether it did.
    present: openDoor,
  });
  defineRoute(router, {
    method: 'post',
    path: '/v4/:uuid/kiosk/entry',
    access: 'public',
    params: StudioParams,
    body: KioskEntryInputSchema,
    handle: async ({ ctx, db, params, body, deps }) => {
      const { studio, kiosk } = await requireKiosk(ctx, db, params.uuid);
      return kioskEntry(db, studio, kiosk, body.clientId, deps.clock.now());
    },
    present: openDoor,
  });
}
