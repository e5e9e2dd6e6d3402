import {
  AiSuggestionSchema,
  AiTranslateSchema,
  InterfaceTextQuerySchema,
  InterfaceTextSaveSchema,
  InterfaceTextSchema,
  PublicInterfaceTextsQuerySchema,
  PublicInterfaceTextsSchema,
  TranslationItemSchema,
  TranslationQuerySchema,
  TranslationSaveSchema,
  TranslatorInitSchema,
} from '../api/translations';
import { contractGroup } from './define';
import { StudioParams, listOf } from './params';

/**
 * Translations (issue 25; spec §7 "translator init, collection, POST ai-translator"). Staff read with
 * `settings.view` and change with `settings.edit`; the studio's interface wording is public (the
 * front office and kiosk show it signed out).
 */
export const TranslationsApi = contractGroup('translations', {
  init: {
    method: 'get',
    path: '/v4/:uuid/translator/init',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    response: TranslatorInitSchema,
  },
  collection: {
    method: 'get',
    path: '/v4/:uuid/translator/collection',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    query: TranslationQuerySchema,
    response: listOf(TranslationItemSchema),
  },
  saveCollection: {
    method: 'patch',
    path: '/v4/:uuid/translator/collection',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: TranslationSaveSchema,
    response: listOf(TranslationItemSchema),
  },
  interfaceTexts: {
    method: 'get',
    path: '/v4/:uuid/translator/interface',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    query: InterfaceTextQuerySchema,
    response: listOf(InterfaceTextSchema),
  },
  saveInterfaceText: {
    method: 'put',
    path: '/v4/:uuid/translator/interface',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: InterfaceTextSaveSchema,
    response: InterfaceTextSchema,
  },
  publicInterfaceTexts: {
    method: 'get',
    path: '/v4/:uuid/translator/interface-texts',
    access: 'public',
    params: StudioParams,
    query: PublicInterfaceTextsQuerySchema,
    response: PublicInterfaceTextsSchema,
  },
  /** A machine translation to suggest; never stored (the screen puts it in the field, Save saves). */
  aiTranslate: {
    method: 'post',
    path: '/v4/:uuid/ai-translator',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: AiTranslateSchema,
    response: AiSuggestionSchema,
    status: 200,
    // It writes nothing: no transaction held open while the outside service answers.
    readOnly: true,
  },
});

export type TranslationsContracts = typeof TranslationsApi;
