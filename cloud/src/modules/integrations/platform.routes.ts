import type Router from '@koa/router';
import type { z } from 'zod';
import type {
  IssuedApiKey,
  PlatformCheckinResultSchema,
} from '../../../../shared/contracts/api/integrations';
import { IntegrationsApi } from '../../../../shared/contracts/http/integrations';
import { PublicApi } from '../../../../shared/contracts/http/public-api';
import { AppError } from '../../../../shared/errors';
import type { Db, Knex } from '../../db/knex';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { findStudio, presentMe, studioOfApiKey, type Studio } from '../identity/index';
import { publicSchedule } from '../schedule/index';
import { identifyClient, kioskCheckIn, kioskEntry, kioskRow } from '../kiosk/index';
import { putApiKey } from './api-keys';

/** The name a platform's key carries in the studio's keys (how connect and destroy find it). */
const platformKeyName = (platform: string) => `Platform: ${platform}`;

/** Revokes the live keys of a platform; how many. */
async function revokePlatform(trx: Knex.Transaction, studio: Studio, platform: string, now: Date) {
  return trx('studio_apis')
    .where({ studioId: studio.id, name: platformKeyName(platform) })
    .whereNull('revokedAt')
    .update({ revokedAt: now, updatedAt: now });
}

/** The kiosk the platform acts as: the one named, else the studio's default (else its first). */
async function kioskFor(db: Db, studio: Studio, kioskId: string | undefined) {
  if (kioskId) {
    const kiosk = await kioskRow(db, studio.id, kioskId);
    if (!kiosk) throw AppError.notFound('kiosk');
    return kiosk;
  }
  const first: { id: string } | undefined = await db('studio_kiosks')
    .where({ studioId: studio.id })
    .orderBy([{ column: 'isDefault', order: 'desc' }, { column: 'id' }])
    .first('id');
  const kiosk = first && (await kioskRow(db, studio.id, first.id));
  if (!kiosk)
    throw new AppError('platform.noKiosk', {
      message: 'the studio has no kiosk: add one in the back office (its check-in settings apply)',
    });
  return kiosk;
}

/**
 * Spec §7's remaining internal calls (README "The remaining internal calls"): `user/ping`, `app/me`,
 * `platform/token/connect` and `/destroy` (a platform's key, by the owner's consent), and
 * `platform/checkin` (an access-control platform, behind a read-write key), and the widget's timetable.
 */
export function registerPlatformRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...IntegrationsApi.userPing,
    handle: async ({ ctx, auth }) => {
      ctx.set('Cache-Control', 'no-store');
      return { authenticated: true as const, userId: auth.user.id };
    },
  });
  defineRoute(router, {
    ...IntegrationsApi.widgetTimetable,
    handle: async ({ ctx, db, params, query }) => {
      const studio = await findStudio(db, params.uuid);
      if (!studio) throw AppError.notFound('studio');
      ctx.set('Cache-Control', 'public, max-age=60');
      return publicSchedule(db, studio, query);
    },
  });
  defineRoute(router, {
    ...IntegrationsApi.appMe,
    handle: async ({ db, auth }) => presentMe(db, auth.user),
  });
  defineRoute(router, {
    ...IntegrationsApi.platformConnect,
    handle: async ({ db, studio, auth, body, deps }): Promise<IssuedApiKey> => {
      const trx = db as Knex.Transaction;
      const now = deps.clock.now();
      await revokePlatform(trx, studio, body.platform, now);
      const issued = await putApiKey(
        trx,
        studio,
        auth.user.id,
        { name: platformKeyName(body.platform), scope: body.scope },
        now,
      );
      return { key: issued.key, secret: issued.secret! };
    },
  });
  defineRoute(router, {
    ...IntegrationsApi.platformDestroy,
    handle: async ({ db, studio, body, deps }) => {
      const revoked = await revokePlatform(db as Knex.Transaction, studio, body.platform, deps.clock.now());
      if (revoked === 0)
        throw new AppError('platform.notConnected', { message: 'this platform has no live key here' });
      return { revoked };
    },
  });
  defineRoute(router, {
    ...PublicApi.platformCheckin,
    handle: async ({ ctx, db, body, deps }): Promise<z.infer<typeof PlatformCheckinResultSchema>> => {
      const studio = await studioOfApiKey(ctx, db);
      const kiosk = await kioskFor(db, studio, body.kioskId);
      const now = deps.clock.now();
      const client = await identifyClient(db, studio, kiosk, { method: 'code', code: body.code }, now);
      const clientId = client.client.id;
      // The platform opens its own door: the kiosk's lock is not opened from here.
      const done = (outcome: { result: z.infer<typeof PlatformCheckinResultSchema>['checkIn'] }) => ({
        client,
        checkIn: outcome.result && { ...outcome.result, lock: 'none' as const },
      });
      if (body.scheduleEventId)
        return done(
          await kioskCheckIn(db, studio, kiosk, { clientId, scheduleEventId: body.scheduleEventId }, now),
        );
      const open = client.bookings.find((b) => b.canCheckIn && b.state !== 'present');
      if (open)
        return done(
          await kioskCheckIn(db, studio, kiosk, { clientId, scheduleEventId: open.scheduleEventId }, now),
        );
      if (client.entry.available) return done(await kioskEntry(db, studio, kiosk, clientId, now));
      return { client, checkIn: null };
    },
  });
}
