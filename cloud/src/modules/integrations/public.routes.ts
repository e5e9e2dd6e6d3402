import type Router from '@koa/router';
import type { z } from 'zod';
import type { Ping } from '../../../../shared/contracts/api/integrations';
import type { PublicClient, PublicGraphSchema } from '../../../../shared/contracts/api/public-api';
import { PRODUCTS_LIMIT_DEFAULT } from '../../../../shared/contracts/api/products';
import { PublicApi } from '../../../../shared/contracts/http/public-api';
import { AppError } from '../../../../shared/errors';
import type { Db, Knex } from '../../db/knex';
import type { ClientsRow } from '../../db/generated/tables';
import type { AppContext, AppCustom, AppState } from '../../http/context';
import { emailAndIp } from '../../http/rate-limit';
import { defineRoute } from '../../http/route';
import { dateOnly, listClientPasses, listPricingOptions } from '../catalog/index';
import { createClient } from '../clients/index';
import { authenticate, studioOfApiKey, type Studio } from '../identity/index';
import { listProducts } from '../products/index';
import { listClassServices, listLocations } from '../schedule/index';
import { publicRetailCheckout } from './public-checkout';

async function ping(ctx: AppContext, db: Db, now: Date): Promise<Ping> {
  const studio = await studioOfApiKey(ctx, db);
  return {
    ok: true,
    studio: { id: studio.id, name: studio.name, timeZone: studio.timeZone, currency: studio.currency },
    scope: ctx.state.apiKey?.scope ?? 'read_write',
    time: now.toISOString(),
  };
}

const clientView = (c: ClientsRow): PublicClient => ({
  id: c.userId,
  firstName: c.firstName,
  lastName: c.lastName,
  email: c.email,
  phone: c.phone,
  birthDate: dateOnly(c.birthDate),
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

async function members(db: Db, studio: Studio) {
  const rows: { id: string; firstName: string; lastName: string; role: string | null }[] = await db(
    'memberships as m',
  )
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.studio_id': studio.id, 'm.is_member': true })
    .whereNull('m.archived_at')
    .orderBy([{ column: 'u.last_name' }, { column: 'u.first_name' }, { column: 'u.id' }])
    .select('u.id', 'u.firstName', 'u.lastName', 'm.role');
  return rows;
}

/** A person of the studio (client or staff); 404 for anyone else, as for an unknown id. */
async function userOf(db: Db, studio: Studio, userId: string) {
  const row:
    { id: string; firstName: string; lastName: string; isClient: boolean; isMember: boolean } | undefined =
    await db('memberships as m')
      .join('users as u', 'u.id', 'm.user_id')
      .where({ 'm.studio_id': studio.id, 'm.user_id': userId })
      .whereNull('m.archived_at')
      .first('u.id', 'u.firstName', 'u.lastName', 'm.isClient', 'm.isMember');
  if (!row || (!row.isClient && !row.isMember)) throw AppError.notFound('user');
  return row;
}

/** The public API's own calls and the ones issue 24 added (`shared/contracts/http/public-api.ts`; README). */
export function registerPublicApiRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...PublicApi.ping,
    handle: async ({ ctx, db, deps }) => ping(ctx, db, deps.clock.now()),
  });
  defineRoute(router, {
    ...PublicApi.pingPost,
    handle: async ({ ctx, db, deps, body }) => ({
      ...(await ping(ctx, db, deps.clock.now())),
      echo: body.echo ?? null,
    }),
  });

  defineRoute(router, {
    ...PublicApi.listClients,
    handle: async ({ ctx, db, query }) => {
      const studio = await studioOfApiKey(ctx, db);
      const q = db('clients').where({ studioId: studio.id }).whereNull('archivedAt');
      if (query.updatedSince) q.where('updatedAt', '>=', new Date(query.updatedSince));
      if (query.cursor) q.where('userId', '>', query.cursor);
      const rows = await q.orderBy('userId').limit(query.limit + 1);
      const page = rows.slice(0, query.limit);
      return { items: page.map(clientView), next: rows.length > query.limit ? page.at(-1)!.userId : null };
    },
  });
  defineRoute(router, {
    ...PublicApi.createClient,
    handle: async ({ ctx, db, body, deps }) => {
      const studio = await studioOfApiKey(ctx, db);
      // The key stands for the studio; a partner writes no note, so no author is recorded.
      const created = await createClient(
        db,
        studio,
        ctx.state.apiKey?.id ?? studio.id,
        body,
        deps.clock.now(),
      );
      const row = await db('clients').where({ studioId: studio.id, userId: created.client.id }).first();
      return {
        client: clientView(row!),
        linkedExistingAccount: created.linkedExistingAccount,
        restored: created.restored,
      };
    },
  });
  defineRoute(router, {
    ...PublicApi.clientPricingOptions,
    handle: async ({ ctx, db, params, deps }) => {
      const studio = await studioOfApiKey(ctx, db);
      return { items: await listClientPasses(db, studio, params.user, deps.clock.now()), next: null };
    },
  });
  defineRoute(router, {
    ...PublicApi.listMembers,
    handle: async ({ ctx, db }) => ({ items: await members(db, await studioOfApiKey(ctx, db)), next: null }),
  });
  defineRoute(router, {
    ...PublicApi.listPricingOptions,
    handle: async ({ ctx, db, deps }) => {
      const studio = await studioOfApiKey(ctx, db);
      const items = await listPricingOptions(
        db,
        studio,
        { archived: 'exclude', channel: 'online' },
        deps.clock.now(),
      );
      return { items, next: null };
    },
  });
  defineRoute(router, {
    ...PublicApi.listProducts,
    handle: async ({ ctx, db, query }) => listProducts(db, await studioOfApiKey(ctx, db), query),
  });
  defineRoute(router, {
    ...PublicApi.getUser,
    handle: async ({ ctx, db, params }) => userOf(db, await studioOfApiKey(ctx, db), params.user),
  });
  defineRoute(router, {
    ...PublicApi.login,
    handle: async ({ ctx, db, body, deps }) => {
      const studio = await studioOfApiKey(ctx, db);
      await deps.rateLimits.consume('loginPerIp', ctx.ip);
      await deps.rateLimits.consume('loginPerEmailAndIp', emailAndIp(body.emailAddress, ctx.ip));
      await deps.rateLimits.consume('loginPerEmail', body.emailAddress);
      let userId: string;
      try {
        userId = (await authenticate(db, body.emailAddress, body.password, studio.id)).id;
      } catch (err) {
        if (err instanceof AppError && err.key === 'auth.invalidCredentials')
          throw new AppError('publicApi.loginFailed', { message: 'wrong email address or password' });
        throw err;
      }
      return userOf(db, studio, userId);
    },
  });
  for (const [entry, method] of [
    [PublicApi.addPaymentCard, 'card'],
    [PublicApi.addSepa, 'sepa'],
  ] as const)
    defineRoute(router, {
      ...entry,
      handle: async ({ ctx, db, body, deps }) => {
        const studio = await studioOfApiKey(ctx, db);
        const user = await userOf(db, studio, body.userId);
        if (!user.isClient) throw AppError.notFound('client');
        const url = new URL(`/${studio.id}/frontoffice/wallet`, deps.config.publicUrl);
        url.searchParams.set('add', method);
        return { url: url.toString(), method };
      },
    });
  defineRoute(router, {
    ...PublicApi.retailCheckout,
    handle: async ({ ctx, db, body, deps }) =>
      publicRetailCheckout(
        db as Knex.Transaction,
        await studioOfApiKey(ctx, db),
        body,
        deps.clock.now(),
        deps.config.publicUrl,
        ctx.state.log,
      ),
  });
  defineRoute(router, {
    ...PublicApi.graph,
    handle: async ({ ctx, db, params, body, deps }) => {
      const studio = await studioOfApiKey(ctx, db);
      // The studio in the path must be the key's: another studio's id names nothing here.
      if (params.uuid !== studio.id) throw AppError.notFound('studio');
      const include = new Set(body.include);
      const out: z.infer<typeof PublicGraphSchema> = {};
      if (include.has('studio'))
        out.studio = {
          id: studio.id,
          name: studio.name,
          timeZone: studio.timeZone,
          currency: studio.currency,
          city: studio.city,
        };
      if (include.has('locations')) out.locations = await listLocations(db, studio);
      if (include.has('classServices')) out.classServices = await listClassServices(db, studio);
      if (include.has('pricingOptions'))
        out.pricingOptions = await listPricingOptions(
          db,
          studio,
          { archived: 'exclude', channel: 'online' },
          deps.clock.now(),
        );
      if (include.has('products'))
        out.products = (
          await listProducts(db, studio, { status: 'active', limit: PRODUCTS_LIMIT_DEFAULT })
        ).items;
      if (include.has('members')) out.members = await members(db, studio);
      return out;
    },
  });
}
