import type Router from '@koa/router';
import { TranslationsApi } from '../../../../shared/contracts/http/translations';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { AppCustom, AppState } from '../../http/context';
import { defineRoute } from '../../http/route';
import { findStudio, type Studio } from '../identity/index';
import { interfaceTexts, publicInterfaceTexts, saveInterfaceText } from './interface-texts.service';
import {
  saveTranslations,
  studioLanguages,
  translationCollection,
  translatorInit,
} from './translations.service';
import { machineTranslator } from './translator/machine-translator';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A public route's studio: 404 for a malformed uuid as for an unknown one. */
async function publicStudio(db: Db, uuid: string): Promise<Studio> {
  const studio = UUID.test(uuid) ? await findStudio(db, uuid) : undefined;
  if (!studio) throw AppError.notFound('studio');
  return studio;
}

/** Translations (issue 25; `shared/contracts/http/translations.ts`, README). */
export function registerTranslationsRoutes(router: Router<AppState, AppCustom>): void {
  defineRoute(router, {
    ...TranslationsApi.init,
    handle: async ({ db, studio, deps }) =>
      translatorInit(db, studio, machineTranslator(deps.config)?.driver ?? null),
  });

  defineRoute(router, {
    ...TranslationsApi.collection,
    handle: async ({ db, studio, query }) => translationCollection(db, studio, query),
  });

  defineRoute(router, {
    ...TranslationsApi.saveCollection,
    handle: async ({ db, studio, body, deps }) => saveTranslations(db, studio, body, deps.clock.now()),
  });

  defineRoute(router, {
    ...TranslationsApi.interfaceTexts,
    handle: async ({ db, studio, query }) => interfaceTexts(db, studio, query.language),
  });

  defineRoute(router, {
    ...TranslationsApi.saveInterfaceText,
    handle: async ({ db, studio, body, auth, deps }) =>
      saveInterfaceText(db, studio, body, auth.user.id, deps.clock.now()),
  });

  defineRoute(router, {
    ...TranslationsApi.publicInterfaceTexts,
    handle: async ({ db, params, query, ctx }) => {
      ctx.set('Cache-Control', 'no-cache');
      return publicInterfaceTexts(db, await publicStudio(db, params.uuid), query.locale);
    },
  });

  defineRoute(router, {
    ...TranslationsApi.aiTranslate,
    handle: async ({ studio, body, deps }) => {
      const translator = machineTranslator(deps.config);
      if (!translator)
        throw new AppError('translator.notConfigured', { message: 'no machine translator on this server' });
      const { languages } = studioLanguages(studio);
      if (!languages.includes(body.targetLanguage))
        throw AppError.invalid({ targetLanguage: ['a language the studio offers'] });
      const suggestion = await translator.translate(body.text, body.sourceLanguage, body.targetLanguage);
      return { suggestion, driver: translator.driver };
    },
  });
}
