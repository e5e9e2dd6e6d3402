import { Readable } from 'node:stream';
import { v7 as uuidv7 } from 'uuid';
import type Router from '@koa/router';
import {
  BULK_MAX_CLIENTS,
  CLIENT_NAME_MAX,
  CLIENT_SORTS,
  LIST_LIMIT_DEFAULT,
  NOTE_MAX,
  type BackofficeSearchResult,
  type ClientAddInit,
  type ClientBulkInit,
  type ClientBulkResult,
  type ClientCheckExistenceResult,
  type ClientCreateResult,
  type ClientDetail,
  type ClientEditInit,
  type ClientList,
  type ClientListInit,
  type ClientNoteView,
  type ClientProfile,
  type ClientSearchResult,
  type TagList,
  type TagView,
} from '../../../../shared/contracts/api/clients';
import { csvDelimiterForLocale, localDate, type CsvDelimiter } from '../../../../shared/domain/clients';
import { TagType } from '../../../../shared/enums/clients';
import { UserSex } from '../../../../shared/enums/users';
import { AppError } from '../../../../shared/errors';
import { can } from '../../../../shared/policies/abilities';
import {
  allowedBulkActions,
  bulkActionAbility,
  canSeeTagType,
  clientScreenAbilities,
} from '../../../../shared/policies/clients';
import type { Db, Knex } from '../../db/knex';
import { abilitiesOf, assertAbility } from '../../http/abilities';
import type { AppContext, AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { enqueue } from '../../jobs/queue';
import { clientsXlsxStream, XLSX_CONTENT_TYPE } from './clients-xlsx';
import type { Studio } from '../identity/index';
import { assertCampaignCredits } from '../subscription/index';
import {
  hasTrigramSearch,
  pageOfClients,
  resolveFilter,
  type ResolvedClientFilter,
} from './client-list.service';
import { createNote, deleteNote, updateNote } from './client-notes.service';
import {
  archiveClient,
  checkExistence,
  clientProfile,
  createClient,
  getClientDetail,
  updateClient,
} from './clients.service';
import {
  exportHeader,
  exportLine,
  presentClientListItem,
  presentClientSearchItem,
} from './clients.presenter';
import {
  addUserTags,
  clientTagRefs,
  createTag,
  deleteTag,
  listTags,
  removeUserTags,
  updateTag,
} from './tags.service';
import { ClientsApi } from '../../../../shared/contracts/http/clients';

const SEX_OPTIONS = Object.values(UserSex).map((value) => ({ value, labelKey: `enums:userSex.${value}` }));
const EXPORT_PAGE = 500;

/** The filtered clients as CSV, a keyset page at a time (never the whole list in memory). */
function csvStream(
  knex: Knex,
  studioId: string,
  filter: ResolvedClientFilter,
  delimiter: CsvDelimiter,
): Readable {
  async function* lines() {
    yield exportHeader(delimiter);
    const trigram = await hasTrigramSearch(knex);
    let cursor: string | undefined;
    do {
      const page = await pageOfClients(knex, studioId, filter, { limit: EXPORT_PAGE, cursor }, trigram);
      yield page.rows.map((row) => exportLine(row, delimiter)).join('');
      cursor = page.next ?? undefined;
    } while (cursor);
  }
  return Readable.from(lines());
}

function sendCsv(ctx: AppContext, studio: Studio, now: Date): void {
  ctx.type = 'text/csv; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Disposition', `attachment; filename="clients-${localDate(now, studio.timeZone)}.csv"`);
}

function sendXlsx(ctx: AppContext, studio: Studio, now: Date): void {
  ctx.type = XLSX_CONTENT_TYPE;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Disposition', `attachment; filename="clients-${localDate(now, studio.timeZone)}.xlsx"`);
}

async function assertStudioClients(db: Db, studioId: string, userIds: string[]): Promise<string[]> {
  const unique = [...new Set(userIds)];
  const [row] = (await db('clients')
    .where('studio_id', studioId)
    .whereRaw('user_id = any(?::uuid[])', [unique])
    .count('*', { as: 'n' })) as Array<{ n: number }>;
  if (Number(row?.n) !== unique.length) throw AppError.notFound('client');
  return unique;
}

export function registerClientRoutes(router: Router<AppState, AppCustom>): void {
  // Fixed paths first: `client/:user` would otherwise take `client/collection` and the others.

  /** What the add form needs: field rules, sex options, the studio's country. */
  defineRoute(router, {
    ...ClientsApi.getClientAddInit,
    handle: async ({ studio }): Promise<ClientAddInit> => ({
      fields: {
        firstName: { required: true, maxLength: CLIENT_NAME_MAX },
        lastName: { required: true, maxLength: CLIENT_NAME_MAX },
        emailAddress: { required: false, maxLength: 254 },
        phone: { required: false, maxLength: 40 },
        birthDate: { required: false },
        sex: { required: false },
        note: { required: false, maxLength: NOTE_MAX },
      },
      sexOptions: SEX_OPTIONS,
      country: studio.country,
    }),
  });

  /** Duplicate detection: the studio's clients with this email (any case) or this phone number. */
  defineRoute(router, {
    ...ClientsApi.getClientCheckExistence,
    handle: async ({ db, studio, query }): Promise<ClientCheckExistenceResult> =>
      checkExistence(db, studio.id, query),
  });

  /** The client list: filters, name or creation order, keyset pages `{ items, next }`. */
  defineRoute(router, {
    ...ClientsApi.getClientCollection,
    handle: async ({ db, deps, studio, query }): Promise<ClientList> => {
      const now = deps.clock.now();
      const filter = resolveFilter(query, studio, now);
      const page = await pageOfClients(
        db,
        studio.id,
        filter,
        { limit: query.limit, cursor: query.cursor },
        await hasTrigramSearch(deps.knex),
      );
      return { items: page.rows.map((row) => presentClientListItem(row)), next: page.next };
    },
  });

  /** Quick search by name, email or phone, in name order, keyset pages. */
  defineRoute(router, {
    ...ClientsApi.getClientSearch,
    handle: async ({ db, deps, studio, query }): Promise<ClientSearchResult> => {
      const filter = resolveFilter({ q: query.q, status: query.status }, studio, deps.clock.now());
      const page = await pageOfClients(
        db,
        studio.id,
        filter,
        { limit: query.limit, cursor: query.cursor },
        await hasTrigramSearch(deps.knex),
      );
      return { items: page.rows.map(presentClientSearchItem), next: page.next };
    },
  });

  /** The bulk actions the caller may take, and the client tags to pick from. */
  defineRoute(router, {
    ...ClientsApi.getClientBulk,
    handle: async ({ db, studio, membership }): Promise<ClientBulkInit> => ({
      actions: allowedBulkActions(await abilitiesOf(db, membership)),
      tags: await clientTagRefs(db, studio.id),
      maxClients: BULK_MAX_CLIENTS,
    }),
  });

  /**
   * Tag, untag, message (recorded, then sent as an e-mail campaign by a job) or export chosen clients. Each
   * action asks its own ability; every id must be a client of the studio (404 otherwise).
   */
  defineRoute(router, {
    ...ClientsApi.postClientBulk,
    handle: async ({
      db,
      deps,
      ctx,
      studio,
      membership,
      auth,
      body,
    }): Promise<ClientBulkResult | Readable> => {
      await assertAbility(db, membership, bulkActionAbility(body.action));
      const clientIds = await assertStudioClients(db, studio.id, body.clientIds);
      const abilities = await abilitiesOf(db, membership);
      switch (body.action) {
        case 'tag':
        case 'untag': {
          const tags = await db('tags')
            .where('studio_id', studio.id)
            .whereIn('id', body.tagIds)
            .select('type');
          if (tags.some((t: { type: number }) => t.type !== TagType.client))
            throw AppError.invalid({ tagIds: ['only client tags can be put on clients'] });
          const work = body.action === 'tag' ? addUserTags : removeUserTags;
          const changed = await work(db, studio.id, abilities, body.tagIds, clientIds);
          return { action: body.action, clients: clientIds.length, changed };
        }
        case 'message': {
          // Sent as e-mails: refused with the reason when the platform's e-mail credits (left after
          // the studio's started campaigns) do not cover one per chosen client (modules/subscription).
          await assertCampaignCredits(db, studio.id, 'email', clientIds.length, null);
          const requestId = uuidv7();
          const recordedAt = new Date();
          await db('client_message_requests').insert({
            id: requestId,
            studioId: studio.id,
            requestedBy: auth.user.id,
            subject: body.subject,
            content: body.content,
            recipientIds: JSON.stringify(clientIds),
            recipientCount: clientIds.length,
            createdAt: recordedAt,
            updatedAt: recordedAt,
          });
          // Sent as an e-mail campaign to these clients (communication module: consent honoured).
          await enqueue(
            db,
            'client.bulk-message',
            { requestId },
            { key: `client.bulk-message:${requestId}` },
          );
          return {
            action: 'message',
            requestId,
            recipients: clientIds.length,
            status: 'recorded',
          };
        }
        case 'export': {
          const now = deps.clock.now();
          const filter = resolveFilter({ status: 'all' }, studio, now, clientIds);
          if (body.format === 'xlsx') {
            sendXlsx(ctx, studio, now);
            return clientsXlsxStream(deps.knex, studio.id, filter);
          }
          sendCsv(ctx, studio, now);
          return csvStream(
            deps.knex,
            studio.id,
            filter,
            body.delimiter ?? csvDelimiterForLocale(studio.defaultLocale),
          );
        }
      }
    },
  });

  /** The filtered list as a CSV download (UTF-8 with BOM), streamed a page at a time. */
  defineRoute(router, {
    ...ClientsApi.postClientExport,
    handle: async ({ deps, ctx, studio, body }): Promise<Readable> => {
      const now = deps.clock.now();
      if (body.format === 'xlsx') {
        sendXlsx(ctx, studio, now);
        return clientsXlsxStream(deps.knex, studio.id, resolveFilter(body, studio, now));
      }
      sendCsv(ctx, studio, now);
      return csvStream(
        deps.knex,
        studio.id,
        resolveFilter(body, studio, now),
        body.delimiter ?? csvDelimiterForLocale(studio.defaultLocale),
      );
    },
  });

  /** Adds a client (201). See `createClient` for existing accounts and duplicates. */
  defineRoute(router, {
    ...ClientsApi.postClient,
    handle: async ({ db, deps, studio, auth, body }): Promise<ClientCreateResult> =>
      createClient(db, studio, auth.user.id, body, deps.clock.now()),
  });

  /** Filters and sort options of the list screen, and what the caller may do there. */
  defineRoute(router, {
    ...ClientsApi.getClientListInit,
    handle: async ({ db, studio, membership }): Promise<ClientListInit> => {
      const abilities = await abilitiesOf(db, membership);
      return {
        statuses: ['active', 'archived', 'all'],
        defaultStatus: 'active',
        birthdayFilters: ['thisMonth', 'range'],
        hasValidPassFilter: [true, false],
        tags: await clientTagRefs(db, studio.id),
        tagModes: ['any', 'all'],
        sortOptions: [...CLIENT_SORTS],
        defaultSort: 'name',
        pageSizes: [LIST_LIMIT_DEFAULT, 50, 100],
        bulkActions: allowedBulkActions(abilities),
        exportFormats: ['csv', 'xlsx'],
        abilities: clientScreenAbilities(abilities),
      };
    },
  });

  defineRoute(router, {
    ...ClientsApi.getClient,
    handle: async ({ db, deps, studio, params }): Promise<ClientDetail> =>
      getClientDetail(db, studio, params.user, deps.clock.now()),
  });

  /** The edit form: current values, options, and what the caller may do. */
  defineRoute(router, {
    ...ClientsApi.getClientInit,
    handle: async ({ db, deps, studio, membership, params }): Promise<ClientEditInit> => ({
      client: await getClientDetail(db, studio, params.user, deps.clock.now()),
      sexOptions: SEX_OPTIONS,
      tags: await clientTagRefs(db, studio.id),
      abilities: clientScreenAbilities(await abilitiesOf(db, membership)),
    }),
  });

  /** The client card: the record, newest notes, valid passes. */
  defineRoute(router, {
    ...ClientsApi.getClientProfile,
    handle: async ({ db, deps, studio, membership, params }): Promise<ClientProfile> =>
      clientProfile(
        db,
        studio,
        params.user,
        deps.clock.now(),
        clientScreenAbilities(await abilitiesOf(db, membership)),
      ),
  });

  defineRoute(router, {
    ...ClientsApi.patchClient,
    handle: async ({ db, deps, studio, params, body }): Promise<ClientDetail> =>
      updateClient(db, studio, params.user, body, deps.clock.now()),
  });

  /** Archives the client standing (204). Erasing a client (`?erase=true`) is not offered yet. */
  defineRoute(router, {
    ...ClientsApi.deleteClient,
    handle: async ({ db, deps, studio, params }) => {
      await archiveClient(db, studio, params.user, deps.clock.now());
    },
  });

  /** The back office's search box; clients for now (other kinds join as their modules arrive). */
  defineRoute(router, {
    ...ClientsApi.postBackofficeSearch,
    handle: async ({ db, deps, studio, membership, body }): Promise<BackofficeSearchResult> => {
      if (!can(await abilitiesOf(db, membership), 'clients.view')) return { clients: [] };
      const filter = resolveFilter({ q: body.queryString, status: 'all' }, studio, deps.clock.now());
      const page = await pageOfClients(
        db,
        studio.id,
        filter,
        { limit: 10 },
        // `db`, the request's transaction (a POST): a second connection from the pool waited forever
        // on the embedded database's single one (500 after 30 s) when the answer was not cached yet.
        await hasTrigramSearch(db),
      );
      return { clients: page.rows.map(presentClientSearchItem) };
    },
  });

  // ---------------------------------------------------------------------------------------- tags

  /** The studio's tags of the kinds the caller may see (`?type=0|1` narrows), with usage counts. */
  defineRoute(router, {
    ...ClientsApi.getTagAll,
    handle: async ({ db, studio, membership, query }): Promise<TagList> => {
      const abilities = await abilitiesOf(db, membership);
      const types = [TagType.client, TagType.member].filter(
        (t) => (query.type === undefined || query.type === t) && canSeeTagType(abilities, t),
      );
      if (query.type !== undefined && types.length === 0)
        throw new AppError('auth.forbidden', { message: 'you have no permission to perform this action' });
      return { items: await listTags(db, studio.id, types) };
    },
  });

  defineRoute(router, {
    ...ClientsApi.postTag,
    handle: async ({ db, studio, membership, body }): Promise<TagView> =>
      createTag(db, studio.id, await abilitiesOf(db, membership), body),
  });

  defineRoute(router, {
    ...ClientsApi.putTag,
    handle: async ({ db, studio, membership, params, body }): Promise<TagView> =>
      updateTag(db, studio.id, await abilitiesOf(db, membership), params.tag, body),
  });

  defineRoute(router, {
    ...ClientsApi.patchTag,
    handle: async ({ db, studio, membership, params, body }): Promise<TagView> =>
      updateTag(db, studio.id, await abilitiesOf(db, membership), params.tag, body),
  });

  defineRoute(router, {
    ...ClientsApi.deleteTag,
    handle: async ({ db, studio, membership, params }) => {
      await deleteTag(db, studio.id, await abilitiesOf(db, membership), params.tag);
    },
  });

  /** Every tag on every person (clients for client tags, staff for member tags). */
  defineRoute(router, {
    ...ClientsApi.postUserTagAdd,
    handle: async ({ db, studio, membership, body }) => ({
      changed: await addUserTags(db, studio.id, await abilitiesOf(db, membership), body.tagIds, body.userIds),
    }),
  });

  defineRoute(router, {
    ...ClientsApi.postUserTagRemove,
    handle: async ({ db, studio, membership, body }) => ({
      changed: await removeUserTags(
        db,
        studio.id,
        await abilitiesOf(db, membership),
        body.tagIds,
        body.userIds,
      ),
    }),
  });

  // ------------------------------------------------------------------------------- client notes

  /** Creates a note on a client (201): private (staff only) or public (the client may see it). */
  defineRoute(router, {
    ...ClientsApi.putClientNote,
    handle: async ({ db, studio, auth, body }): Promise<ClientNoteView> =>
      createNote(db, studio.id, auth.user.id, body),
  });

  defineRoute(router, {
    ...ClientsApi.patchClientNote,
    handle: async ({ db, studio, params, body }): Promise<ClientNoteView> =>
      updateNote(db, studio.id, params.clientNote, body),
  });

  defineRoute(router, {
    ...ClientsApi.deleteClientNote,
    handle: async ({ db, studio, params }) => {
      await deleteNote(db, studio.id, params.clientNote);
    },
  });
}
