import type Router from '@koa/router';
import type { StudioSettingsView } from '../../../../shared/contracts/api/studio-admin';
import { StudioAdminApi } from '../../../../shared/contracts/http/studio-admin';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { fileStorage } from '../../storage/index';
import { findStudio, type Studio } from '../identity/index';
import { deletePicture, readPicture, storePicture } from './pictures.service';
import {
  acceptancesCsv,
  agreementVersions,
  answerAgreements,
  pendingFor,
  publishAgreementVersion,
} from './agreements-admin.service';
import { pageLocale } from '../../http/pages';
import { registerStudioRecordRoutes } from './studio-records.routes';
import { abilitiesOf } from '../../http/abilities';
import { configureStudio, setupView } from './studio-setup.service';
import { openById } from './open-by-id.service';
import { bundleRequestState, requestBundle, withdrawBundleRequest } from './bundle-requests.service';
import {
  appearanceKey,
  appearanceOf,
  patchStudioProfile,
  patchStudioSettings,
  readAppearancePicture,
  removeAppearancePicture,
  resizePicture,
  setAppearancePicture,
  settingsView,
} from './studio-settings.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A public route's studio: 404 for a malformed uuid as for an unknown one. */
async function publicStudio(db: Db, uuid: string): Promise<Studio> {
  const studio = UUID.test(uuid) ? await findStudio(db, uuid) : undefined;
  if (!studio) throw AppError.notFound('studio');
  return studio;
}

/** Studio administration (issue 25; `shared/contracts/http/studio-admin.ts`, README). */
export function registerStudioAdminRoutes(router: Router<AppState, AppCustom>): void {
  registerStudioRecordRoutes(router);

  defineRoute(router, {
    ...StudioAdminApi.getConfigure,
    handle: async ({ db, studio }) => setupView(db, studio),
  });
  defineRoute(router, {
    ...StudioAdminApi.patchConfigure,
    handle: async ({ db, studio, body, deps }) => configureStudio(db, studio, body, deps.clock.now()),
  });
  defineRoute(router, {
    ...StudioAdminApi.postUuid,
    handle: async ({ db, studio, membership, body, ctx }) =>
      openById(db, studio, await abilitiesOf(db, membership), body.uuid, pageLocale(ctx, studio)),
  });

  defineRoute(router, {
    ...StudioAdminApi.bundleRequestState,
    handle: async ({ db, studio }) => bundleRequestState(db, studio.id),
  });
  defineRoute(router, {
    ...StudioAdminApi.postBundleRequest,
    handle: async ({ db, studio, auth, body, deps }) =>
      requestBundle(db, studio, auth.user.id, body, deps.config, deps.clock.now()),
  });
  defineRoute(router, {
    ...StudioAdminApi.withdrawBundleRequest,
    handle: async ({ db, studio, deps }) => withdrawBundleRequest(db, studio, deps.config, deps.clock.now()),
  });
  defineRoute(router, {
    ...StudioAdminApi.getSettings,
    handle: async ({ studio }): Promise<StudioSettingsView> => settingsView(studio),
  });

  defineRoute(router, {
    ...StudioAdminApi.patchSettings,
    handle: async ({ db, studio, body, deps }): Promise<StudioSettingsView> =>
      patchStudioSettings(db, studio, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...StudioAdminApi.patchStudio,
    handle: async ({ db, studio, body, deps }): Promise<StudioSettingsView> =>
      patchStudioProfile(db, studio, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...StudioAdminApi.getAppearance,
    handle: async ({ db, params, ctx }) => {
      ctx.set('Cache-Control', 'no-cache');
      return appearanceOf(await publicStudio(db, params.uuid));
    },
  });

  defineRoute(router, {
    ...StudioAdminApi.postAppearancePicture,
    handle: async ({ db, studio, params, body, deps }) => {
      const picture = await resizePicture(params.type, body.dataUrl);
      return setAppearancePicture(
        db,
        fileStorage(deps.config),
        studio,
        params.type,
        picture,
        deps.config.publicUrl,
        deps.clock.now(),
      );
    },
    // The old file goes once the new one is committed.
    present: async ({ view, previousFile }, { deps, studio, params }): Promise<StudioSettingsView> => {
      if (previousFile)
        await fileStorage(deps.config).delete(appearanceKey(studio.id, params.type, previousFile));
      return view;
    },
  });

  defineRoute(router, {
    ...StudioAdminApi.deleteAppearancePicture,
    handle: async ({ db, studio, params, deps }) =>
      removeAppearancePicture(db, studio, params.type, deps.clock.now()),
    present: async ({ view, previousFile }, { deps, studio, params }): Promise<StudioSettingsView> => {
      if (previousFile)
        await fileStorage(deps.config).delete(appearanceKey(studio.id, params.type, previousFile));
      return view;
    },
  });

  defineRoute(router, {
    ...StudioAdminApi.getAppearancePicture,
    handle: async ({ db, params, deps, ctx }) => {
      const studio = await publicStudio(db, params.uuid);
      const bytes = await readAppearancePicture(fileStorage(deps.config), studio, params.type, params.file);
      if (!bytes) throw AppError.notFound('picture');
      // The file name changes with every upload: the bytes behind a name never change.
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.set('X-Content-Type-Options', 'nosniff');
      return bytes;
    },
  });

  defineRoute(router, {
    ...StudioAdminApi.uploadPicture,
    handle: async ({ studio, body, deps }) => storePicture(fileStorage(deps.config), studio.id, body.dataUrl),
  });

  defineRoute(router, {
    ...StudioAdminApi.deletePicture,
    handle: async ({ studio, params, deps }) => {
      await deletePicture(fileStorage(deps.config), studio.id, params.picture);
    },
  });

  defineRoute(router, {
    ...StudioAdminApi.getPicture,
    handle: async ({ db, params, deps, ctx }) => {
      const studio = await publicStudio(db, params.uuid);
      const bytes = await readPicture(fileStorage(deps.config), studio.id, params.picture);
      if (!bytes) throw AppError.notFound('picture');
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.set('X-Content-Type-Options', 'nosniff');
      return bytes;
    },
  });

  // ------------------------------------------------------------------------------ agreements

  defineRoute(router, {
    ...StudioAdminApi.agreementVersions,
    handle: async ({ db, studio }) => ({ items: await agreementVersions(db, studio), next: null }),
  });

  defineRoute(router, {
    ...StudioAdminApi.publishAgreement,
    handle: async ({ db, studio, body, deps }) => publishAgreementVersion(db, studio, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...StudioAdminApi.agreementAcceptancesCsv,
    handle: async ({ db, studio, ctx }) => {
      ctx.attachment(`agreements-${studio.slug}.csv`);
      ctx.set('Cache-Control', 'private, no-store');
      return acceptancesCsv(db, studio);
    },
  });

  defineRoute(router, {
    ...StudioAdminApi.pendingAgreements,
    handle: async ({ db, studio, auth, ctx }) => ({
      items: await pendingFor(db, studio, auth.user.id, pageLocale(ctx, studio)),
      next: null,
    }),
  });

  defineRoute(router, {
    ...StudioAdminApi.answerAgreements,
    handle: async ({ db, studio, auth, ctx, body, deps }) => ({
      items: await answerAgreements(
        db,
        studio,
        auth.user.id,
        body,
        pageLocale(ctx, studio),
        deps.clock.now(),
      ),
      next: null,
    }),
  });
}
