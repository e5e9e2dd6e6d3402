import type { Readable } from 'node:stream';
import type Router from '@koa/router';
import { StudioAdminApi } from '../../../../shared/contracts/http/studio-admin';
import { AppError } from '../../../../shared/errors';
import { assertAbility } from '../../http/abilities';
import type { AppContext, AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { loadStudioScope } from '../../http/studio-scope';
import { fileStorage } from '../../storage/index';
import { receiveFile, removeFile, type ReceivedFile } from '../client-records/index';
import {
  addFeedback,
  addStudioDocument,
  createBankAccount,
  deleteBankAccount,
  deleteStudioDocument,
  listBankAccounts,
  listFeedback,
  listStudioDocuments,
  openStudioDocument,
  patchBankAccount,
  patchStudioDocument,
  publishedStudioDocuments,
  transferInstructions,
} from './studio-records.service';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uploads = new WeakMap<AppContext, { file: ReceivedFile | null; stored: string | null }>();

/**
 * Runs before the upload route (as client documents' upload): who may upload is settled before a
 * byte is read, the file waits on this instance's disk outside any transaction, and a stored file
 * goes again when the route or its commit failed.
 */
async function receiveUpload(ctx: AppContext, next: () => Promise<unknown>): Promise<void> {
  if (!ctx.state.auth) throw new AppError('auth.required', { message: 'sign in required' });
  const { uuid } = (ctx as AppContext & { params: { uuid?: string } }).params;
  if (!uuid || !UUID_RE.test(uuid)) throw AppError.notFound();
  const { membership } = await loadStudioScope(ctx, ctx.deps.knex, uuid, 'staff');
  await assertAbility(ctx.deps.knex, membership, 'settings.edit');
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

function sendFile(ctx: AppContext, document: { fileName: string; contentType: string; sizeBytes: number }) {
  ctx.attachment(document.fileName);
  ctx.type = document.contentType;
  ctx.length = document.sizeBytes;
  ctx.set('Cache-Control', 'private, no-store');
  ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
  ctx.set('X-Content-Type-Options', 'nosniff');
}

/** Bank accounts and studio documents (issue 25; README "Bank accounts and documents"). */
export function registerStudioRecordRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...StudioAdminApi.bankAccounts,
    handle: async ({ db, studio }) => ({ items: await listBankAccounts(db, studio.id), next: null }),
  });
  defineRoute(router, {
    ...StudioAdminApi.createBankAccount,
    handle: async ({ db, studio, body, deps }) => createBankAccount(db, studio, body, deps.clock.now()),
  });
  defineRoute(router, {
    ...StudioAdminApi.patchBankAccount,
    handle: async ({ db, studio, params, body, deps }) =>
      patchBankAccount(db, studio, params.studioBankAccount, body, deps.clock.now()),
  });
  defineRoute(router, {
    ...StudioAdminApi.deleteBankAccount,
    handle: async ({ db, studio, params }) => deleteBankAccount(db, studio, params.studioBankAccount),
  });
  defineRoute(router, {
    ...StudioAdminApi.transferInstructions,
    handle: async ({ db, studio }) => transferInstructions(db, studio),
  });

  defineRoute(router, {
    ...StudioAdminApi.studioDocuments,
    handle: async ({ db, studio }) => ({ items: await listStudioDocuments(db, studio.id), next: null }),
  });
  defineRoute(router, {
    ...StudioAdminApi.publishedDocuments,
    handle: async ({ db, studio }) => ({ items: await publishedStudioDocuments(db, studio.id), next: null }),
  });
  router.post(StudioAdminApi.uploadStudioDocument.path, receiveUpload);
  defineRoute(router, {
    ...StudioAdminApi.uploadStudioDocument,
    handle: async ({ db, deps, ctx, studio, auth }) => {
      const upload = uploads.get(ctx) ?? { file: null, stored: null };
      return addStudioDocument(
        db,
        deps.config,
        studio,
        auth.user.id,
        upload.file,
        (key) => {
          upload.stored = key;
        },
        deps.clock.now(),
      );
    },
  });
  defineRoute(router, {
    ...StudioAdminApi.patchStudioDocument,
    handle: async ({ db, studio, params, body, deps }) =>
      patchStudioDocument(db, studio, params.studioDocument, body, deps.clock.now()),
  });
  defineRoute(router, {
    ...StudioAdminApi.deleteStudioDocument,
    handle: async ({ db, studio, params }) => deleteStudioDocument(db, studio, params.studioDocument),
    // The file goes once the row's removal committed.
    present: async (key, { ctx, deps }) => {
      await fileStorage(deps.config)
        .delete(key)
        .catch((err: unknown) =>
          ctx.state.log.error({ err, key }, 'deleted document file could not be removed'),
        );
    },
  });
  defineRoute(router, {
    ...StudioAdminApi.downloadStudioDocument,
    handle: async ({ db, deps, ctx, studio, params }): Promise<Readable> => {
      const { document, stream } = await openStudioDocument(
        db,
        deps.config,
        studio,
        params.studioDocument,
        false,
      );
      sendFile(ctx, document);
      return stream;
    },
  });
  defineRoute(router, {
    ...StudioAdminApi.downloadPublishedDocument,
    handle: async ({ db, deps, ctx, studio, params }): Promise<Readable> => {
      const { document, stream } = await openStudioDocument(
        db,
        deps.config,
        studio,
        params.studioDocument,
        true,
      );
      sendFile(ctx, document);
      return stream;
    },
  });

  defineRoute(router, {
    ...StudioAdminApi.postFeedback,
    handle: async ({ db, studio, auth, body, deps }) =>
      addFeedback(db, studio, auth.user.id, body, deps.clock.now()),
  });
  defineRoute(router, {
    ...StudioAdminApi.feedbackList,
    handle: async ({ db, studio }) => ({ items: await listFeedback(db, studio), next: null }),
  });
}
