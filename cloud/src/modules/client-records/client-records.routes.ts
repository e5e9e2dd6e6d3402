import type { Readable } from 'node:stream';
import type Router from '@koa/router';
import {
  DOCUMENT_MAX_BYTES,
  DOCUMENT_TYPES,
  type ClientDocumentList,
  type ClientDocumentView,
  type ClientDuplicates,
  type ClientEmailBounce,
  type ClientFieldDecryptResult,
  type ClientFieldList,
  type ClientFieldValues,
  type ClientFieldView,
  type ClientLinkResult,
  type ClientMergeResult,
} from '../../../../shared/contracts/api/client-records';
import { AppError } from '../../../../shared/errors';
import { can } from '../../../../shared/policies/abilities';
import { abilitiesOf, assertAbility } from '../../http/abilities';
import type { AppContext, AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { ClientRecordsApi } from '../../../../shared/contracts/http/client-records';
import { loadStudioScope } from '../../http/studio-scope';
import {
  addDocument,
  deleteDocument,
  listDocuments,
  openDocument,
  removeFile,
} from './client-documents.service';
import {
  clientFieldValues,
  createField,
  decryptClientField,
  deleteField,
  listFields,
  patchClientFieldValues,
  updateField,
} from './client-fields.service';
import { clientDuplicates, linkClients, mergeClients } from './client-merge.service';
import { assertClient } from './client-fields.service';
import { receiveFile, type ReceivedFile } from './document-storage';
import { clearEmailBounce, emailBounceOf } from './email-bounce.service';
import { fieldKeyring } from '../../crypto/field-crypto';
import { fileStorage } from '../../storage';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The upload each request received before its route ran, and where it was stored. */
const uploads = new WeakMap<AppContext, { file: ReceivedFile | null; stored: string | null }>();

/**
 * Runs before the upload route: the file is streamed to a temporary place outside any database
 * transaction (the embedded database has one connection; a slow upload must not hold it). Signed-out
 * callers are refused before a byte is read. Whatever happens after, the temporary file goes, and a
 * stored file goes too when the route (or its commit) failed.
 */
async function receiveUpload(ctx: AppContext, next: () => Promise<unknown>): Promise<void> {
  if (!ctx.state.auth) throw new AppError('auth.required', { message: 'sign in required' });
  // Who may upload, and for whom, is settled before a byte is read: a caller without the right or
  // naming another studio's client gets 403/404 without sending the file into our temp space.
  const { uuid, user } = (ctx as AppContext & { params: { uuid?: string; user?: string } }).params;
  const parsed = ClientRecordsApi.postClientDocumentUpload.params.safeParse({ uuid, user });
  if (!parsed.success || !UUID_RE.test(parsed.data.uuid)) throw AppError.notFound();
  const { studio, membership } = await loadStudioScope(ctx, ctx.deps.knex, parsed.data.uuid, 'staff');
  await assertAbility(ctx.deps.knex, membership, 'clients.documents');
  await assertClient(ctx.deps.knex, studio.id, parsed.data.user);
  const file = await receiveFile(ctx.req, ctx.deps.config);
  const upload = { file, stored: null as string | null };
  uploads.set(ctx, upload);
  try {
    await next();
  } catch (err) {
    if (upload.stored) await fileStorage(ctx.deps.config).delete(upload.stored);
    throw err;
  } finally {
    if (file) await removeFile(file.tmpPath);
  }
}

export function registerClientRecordRoutes(router: Router<AppState, AppCustom>): void {
  // ----------------------------------------------------------------------------------- documents

  defineRoute(router, {
    ...ClientRecordsApi.getClientDocumentCollection,
    handle: async ({ db, studio, params }): Promise<ClientDocumentList> => ({
      items: await listDocuments(db, studio.id, params.user),
      maxBytes: DOCUMENT_MAX_BYTES,
      allowedTypes: Object.keys(DOCUMENT_TYPES),
    }),
  });

  /** `multipart/form-data` with the file in the part `file` (201). */
  router.post(ClientRecordsApi.postClientDocumentUpload.path, receiveUpload);
  defineRoute(router, {
    ...ClientRecordsApi.postClientDocumentUpload,
    handle: async ({ db, deps, ctx, studio, auth, params }): Promise<ClientDocumentView> => {
      const upload = uploads.get(ctx) ?? { file: null, stored: null };
      return addDocument(db, deps.config, studio.id, params.user, auth.user.id, upload.file, (stored) => {
        upload.stored = stored;
      });
    },
  });

  /** The file itself, streamed, saved under its original name. */
  defineRoute(router, {
    ...ClientRecordsApi.getClientDocumentDownload,
    handle: async ({ db, deps, ctx, studio, params }): Promise<Readable> => {
      const { document, stream } = await openDocument(db, deps.config, studio.id, params.clientDocument);
      ctx.attachment(document.fileName);
      ctx.type = document.contentType;
      ctx.length = document.sizeBytes;
      ctx.set('Cache-Control', 'private, no-store');
      ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
      return stream;
    },
  });

  defineRoute(router, {
    ...ClientRecordsApi.deleteClientDocument,
    handle: async ({ db, studio, params }) => deleteDocument(db, studio.id, params.clientDocument),
    // The file goes once the row's removal committed (an orphan file, never a row without its file).
    present: async (file, { ctx, deps }) => {
      await fileStorage(deps.config)
        .delete(file)
        .catch((err: unknown) =>
          ctx.state.log.error({ err, file }, 'deleted document file could not be removed'),
        );
    },
  });

  // --------------------------------------------------------------------- custom field definitions

  defineRoute(router, {
    ...ClientRecordsApi.getClientFieldCollection,
    handle: async ({ db, studio }): Promise<ClientFieldList> => ({ items: await listFields(db, studio.id) }),
  });

  defineRoute(router, {
    ...ClientRecordsApi.postClientField,
    handle: async ({ db, studio, body }): Promise<ClientFieldView> => createField(db, studio.id, body),
  });

  defineRoute(router, {
    ...ClientRecordsApi.putClientField,
    handle: async ({ db, studio, params, body }): Promise<ClientFieldView> =>
      updateField(db, studio.id, params.clientField, body),
  });

  defineRoute(router, {
    ...ClientRecordsApi.patchClientField,
    handle: async ({ db, studio, params, body }): Promise<ClientFieldView> =>
      updateField(db, studio.id, params.clientField, body),
  });

  defineRoute(router, {
    ...ClientRecordsApi.deleteClientField,
    handle: async ({ db, studio, params }) => {
      await deleteField(db, studio.id, params.clientField);
    },
  });

  // ---------------------------------------------------------------------- a client's field values

  defineRoute(router, {
    ...ClientRecordsApi.getClientFieldValues,
    handle: async ({ db, studio, membership, params }): Promise<ClientFieldValues> => {
      const abilities = await abilitiesOf(db, membership);
      return clientFieldValues(db, studio.id, params.user, {
        edit: can(abilities, 'clients.edit'),
        decrypt: can(abilities, 'clients.decryptFields'),
      });
    },
  });

  defineRoute(router, {
    ...ClientRecordsApi.patchClientFieldValues,
    handle: async ({ db, deps, studio, membership, params, body }): Promise<ClientFieldValues> => {
      await patchClientFieldValues(db, studio.id, params.user, body.values, fieldKeyring(deps.config));
      const abilities = await abilitiesOf(db, membership);
      return clientFieldValues(db, studio.id, params.user, {
        edit: true,
        decrypt: can(abilities, 'clients.decryptFields'),
      });
    },
  });

  /** Reveals one encrypted value; every call leaves an audit row (who, whose, which field, when). */
  defineRoute(router, {
    ...ClientRecordsApi.postClientFieldDecrypt,
    handle: async ({ db, deps, ctx, studio, auth, params, body }): Promise<ClientFieldDecryptResult> => {
      ctx.set('Cache-Control', 'no-store');
      return decryptClientField(
        db,
        studio.id,
        params.user,
        body.fieldId,
        auth.user.id,
        ctx.state.requestId,
        fieldKeyring(deps.config),
      );
    },
  });

  // -------------------------------------------------------------------------------- email bounce

  defineRoute(router, {
    ...ClientRecordsApi.getEmailBounce,
    handle: async ({ db, studio, params }): Promise<ClientEmailBounce> => {
      const found = await db('clients').where({ studioId: studio.id, userId: params.user }).first('id');
      if (!found) throw AppError.notFound('client');
      return { emailBounce: await emailBounceOf(db, studio.id, params.user) };
    },
  });

  defineRoute(router, {
    ...ClientRecordsApi.deleteEmailBounce,
    handle: async ({ db, studio, params }) => {
      await clearEmailBounce(db, studio.id, params.user);
    },
  });

  // ------------------------------------------------------------------- duplicates, merge and link

  defineRoute(router, {
    ...ClientRecordsApi.getClientDuplicates,
    handle: async ({ db, studio, params }): Promise<ClientDuplicates> =>
      clientDuplicates(db, studio.id, params.user),
  });

  /** `{user}` is kept; the duplicate's notes, tags, documents, passes and values move to it. */
  defineRoute(router, {
    ...ClientRecordsApi.postClientMerge,
    handle: async ({ db, deps, studio, membership, auth, params, body }): Promise<ClientMergeResult> => {
      // Merging archives the duplicate: the role must also be allowed to archive clients.
      await assertAbility(db, membership, 'clients.delete');
      return mergeClients(
        db,
        studio.id,
        params.user,
        body.duplicateId,
        auth.user.id,
        fieldKeyring(deps.config),
        deps.clock.now(),
      );
    },
  });

  defineRoute(router, {
    ...ClientRecordsApi.postClientLink,
    handle: async ({ db, studio, auth, params, body }): Promise<ClientLinkResult> =>
      linkClients(db, studio.id, params.user, body.otherId, auth.user.id),
  });
}
