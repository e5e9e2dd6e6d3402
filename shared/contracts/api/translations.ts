import { z } from 'zod';
import { LOCALES } from '../../i18n/locales';
import { text, uuid } from './common';

/**
 * Translations (issue 25, spec §7 `translator init`, `translator collection`, `POST ai-translator`;
 * their shapes are "not shown", so these are ours — see cloud/src/modules/translations/README.md).
 * A studio translates its own catalogue into the languages it offers and may reword interface texts
 * of its front office and kiosk.
 */

/** What a studio can translate: its catalogue items, each with a name and (most) a description. */
export const TRANSLATABLE_KINDS = [
  'classService',
  'course',
  'pricingOption',
  'contract',
  'product',
  'entryService',
  'appointmentService',
  'videoService',
] as const;
export type TranslatableKind = (typeof TRANSLATABLE_KINDS)[number];
export const TRANSLATABLE_FIELDS = ['name', 'description'] as const;
export type TranslatableField = (typeof TRANSLATABLE_FIELDS)[number];

export const TRANSLATION_NAME_MAX = 300;
export const TRANSLATION_DESCRIPTION_MAX = 2000;
export const TRANSLATION_BATCH_MAX = 200;
/** The interface namespaces a studio may reword: what its clients read (front office, kiosk). */
export const OVERRIDABLE_NAMESPACES = ['frontoffice', 'kiosk', 'common'] as const;
export const INTERFACE_TEXT_MAX = 500;
export const AI_TEXT_MAX = 2000;

const language = () => z.enum(LOCALES, { error: 'a language the studio offers' });

export const TranslatorInitSchema = z.object({
  defaultLanguage: z.enum(LOCALES),
  /** Every language the studio offers, its default first. */
  languages: z.array(z.enum(LOCALES)),
  /** Per language other than the default and per kind: texts that have a source, and those translated. */
  progress: z.array(
    z.object({
      language: z.enum(LOCALES),
      kind: z.enum(TRANSLATABLE_KINDS),
      texts: z.number().int(),
      translated: z.number().int(),
    }),
  ),
  /** Whether this server has a machine translator (POST ai-translator answers), and which. */
  aiTranslator: z.object({ driver: z.string().nullable() }),
});
export type TranslatorInit = z.infer<typeof TranslatorInitSchema>;

export const TranslationQuerySchema = z.object({
  language: language(),
  kind: z.enum(TRANSLATABLE_KINDS).optional(),
  /** `true`: only texts with no translation yet. */
  untranslated: z.enum(['true', 'false']).optional(),
});
export type TranslationQuery = z.infer<typeof TranslationQuerySchema>;

export const TranslationItemSchema = z.object({
  kind: z.enum(TRANSLATABLE_KINDS),
  id: z.string(),
  field: z.enum(TRANSLATABLE_FIELDS),
  /** The text in the studio's default language (or, if it has none, the first language it has). */
  source: z.string(),
  /** The text in the asked language; '' when not translated. */
  translation: z.string(),
});
export type TranslationItem = z.infer<typeof TranslationItemSchema>;

export const TranslationSaveSchema = z.strictObject({
  language: language(),
  items: z
    .array(
      z.strictObject({
        kind: z.enum(TRANSLATABLE_KINDS),
        id: uuid(),
        field: z.enum(TRANSLATABLE_FIELDS),
        /** '' removes the translation (the default-language text shows again). */
        value: text(TRANSLATION_DESCRIPTION_MAX),
      }),
    )
    .min(1, 'nothing to save')
    .max(TRANSLATION_BATCH_MAX, `at most ${TRANSLATION_BATCH_MAX}`),
});
export type TranslationSave = z.infer<typeof TranslationSaveSchema>;

export const InterfaceTextQuerySchema = z.object({ language: language() });

export const InterfaceTextSchema = z.object({
  /** `<namespace>:<key>`, e.g. `frontoffice:nav.timetable`. */
  key: z.string(),
  /** Our text in that language. */
  standard: z.string(),
  /** The studio's own wording, or null. */
  override: z.string().nullable(),
});
export type InterfaceText = z.infer<typeof InterfaceTextSchema>;

export const InterfaceTextSaveSchema = z.strictObject({
  language: language(),
  key: text(200).pipe(z.string().min(1, 'required')),
  /** '' removes the studio's wording (ours shows again). */
  value: text(INTERFACE_TEXT_MAX),
});
export type InterfaceTextSave = z.infer<typeof InterfaceTextSaveSchema>;

export const PublicInterfaceTextsQuerySchema = z.object({ locale: language() });
export const PublicInterfaceTextsSchema = z.object({
  locale: z.enum(LOCALES),
  /** `<namespace>:<key>` → the studio's wording. */
  texts: z.record(z.string(), z.string()),
});
export type PublicInterfaceTexts = z.infer<typeof PublicInterfaceTextsSchema>;

export const AiTranslateSchema = z
  .strictObject({
    text: text(AI_TEXT_MAX).pipe(z.string().min(1, 'required')),
    sourceLanguage: language(),
    targetLanguage: language(),
  })
  .refine((v) => v.sourceLanguage !== v.targetLanguage, {
    path: ['targetLanguage'],
    message: 'another language than the source',
  });
export type AiTranslateInput = z.infer<typeof AiTranslateSchema>;

/** A suggestion: nothing is saved until a person accepts it (saves it through translator/collection). */
export const AiSuggestionSchema = z.object({ suggestion: z.string(), driver: z.string() });
export type AiSuggestion = z.infer<typeof AiSuggestionSchema>;
