import type {
  TranslatableField,
  TranslatableKind,
  TranslationItem,
  TranslationQuery,
  TranslationSave,
  TranslatorInit,
} from '../../../../shared/contracts/api/translations';
import { TRANSLATABLE_KINDS } from '../../../../shared/contracts/api/translations';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text';
import { AppError } from '../../../../shared/errors';
import { LOCALES, isLocale, type Locale } from '../../../../shared/i18n/locales';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';

/**
 * The studio's catalogue as texts to translate (issue 25). Every kind but products keeps its texts
 * per language in its own jsonb column (`{ pl: { value }, en: { value } }`): a translation is that
 * column's entry for the language. Products keep the default-language text in `name`/`description`
 * and translations in `name_texts`/`description_texts` (migration 0350). Archived items are left out.
 */
interface KindSource {
  table: string;
  fields: readonly TranslatableField[];
  /** Texts stored as plain default-language columns plus `<field>_texts` translations. */
  plain?: boolean;
  archivable: boolean;
  serviceType?: 'course' | 'notCourse';
}

const KINDS: Record<TranslatableKind, KindSource> = {
  classService: {
    table: 'class_services',
    fields: ['name', 'description'],
    archivable: true,
    serviceType: 'notCourse',
  },
  course: {
    table: 'class_services',
    fields: ['name', 'description'],
    archivable: true,
    serviceType: 'course',
  },
  pricingOption: { table: 'pricing_options', fields: ['name', 'description'], archivable: true },
  contract: { table: 'contracts', fields: ['name', 'description'], archivable: true },
  product: { table: 'products', fields: ['name', 'description'], archivable: true, plain: true },
  entryService: { table: 'entry_services', fields: ['name'], archivable: true },
  appointmentService: { table: 'appointment_services', fields: ['name', 'description'], archivable: true },
  videoService: { table: 'video_services', fields: ['name', 'description'], archivable: false },
};

/** At most this many items of one kind are listed (a catalogue, not a client list). */
const KIND_LIMIT = 1000;

/** The languages a studio offers: the platform's (EN, PL), its default first. */
export function studioLanguages(studio: Studio): { defaultLanguage: Locale; languages: Locale[] } {
  const defaultLanguage: Locale = isLocale(studio.defaultLocale) ? studio.defaultLocale : 'pl';
  return { defaultLanguage, languages: [defaultLanguage, ...LOCALES.filter((l) => l !== defaultLanguage)] };
}

const textsColumn = (field: TranslatableField) => `${field}_texts`;

function kindQuery(db: Db, studio: Studio, kind: TranslatableKind) {
  const source = KINDS[kind];
  const q = db(source.table).where('studio_id', studio.id);
  if (source.archivable) q.whereNull('archived_at');
  if (source.serviceType === 'course') q.where('service_type', 'course');
  if (source.serviceType === 'notCourse') q.whereNot('service_type', 'course');
  const columns = source.plain
    ? ['id', ...source.fields, ...source.fields.map(textsColumn)]
    : ['id', ...source.fields];
  return q.select(columns).orderBy('id').limit(KIND_LIMIT);
}

type Row = Record<string, unknown> & { id: string };

const plainValue = (text: LocaleText | null | undefined, language: string): string => {
  const value = text?.[language]?.value;
  return typeof value === 'string' ? value.trim() : '';
};

/** One item's texts of a field: the default-language source and the language's translation. */
function itemOf(
  kind: TranslatableKind,
  row: Row,
  field: TranslatableField,
  language: Locale,
  defaultLanguage: Locale,
): TranslationItem {
  if (KINDS[kind].plain) {
    const texts = (row[`${field}Texts`] as LocaleText | null) ?? null;
    return {
      kind,
      id: row.id,
      field,
      source: String(row[field] ?? '').trim(),
      translation: plainValue(texts, language),
    };
  }
  const text = row[field] as LocaleText | null;
  const source =
    plainValue(text, defaultLanguage) ||
    // No text in the default language: the first language that has one is what clients see.
    resolveLocaleText(text, null, null).trim();
  return { kind, id: row.id, field, source, translation: plainValue(text, language) };
}

async function itemsOfKind(
  db: Db,
  studio: Studio,
  kind: TranslatableKind,
  language: Locale,
): Promise<TranslationItem[]> {
  const { defaultLanguage } = studioLanguages(studio);
  const rows = (await kindQuery(db, studio, kind)) as Row[];
  return rows.flatMap((row) =>
    KINDS[kind].fields
      .map((field) => itemOf(kind, row, field, language, defaultLanguage))
      // An empty description has nothing to translate.
      .filter((item) => item.source !== ''),
  );
}

export async function translationCollection(
  db: Db,
  studio: Studio,
  query: TranslationQuery,
): Promise<{ items: TranslationItem[]; next: null }> {
  const kinds = query.kind ? [query.kind] : TRANSLATABLE_KINDS;
  const items: TranslationItem[] = [];
  for (const kind of kinds) items.push(...(await itemsOfKind(db, studio, kind, query.language)));
  return {
    items: query.untranslated === 'true' ? items.filter((i) => i.translation === '') : items,
    next: null,
  };
}

export async function translatorInit(
  db: Db,
  studio: Studio,
  aiDriver: string | null,
): Promise<TranslatorInit> {
  const { defaultLanguage, languages } = studioLanguages(studio);
  const progress: TranslatorInit['progress'] = [];
  for (const language of languages.filter((l) => l !== defaultLanguage)) {
    for (const kind of TRANSLATABLE_KINDS) {
      const items = await itemsOfKind(db, studio, kind, language);
      progress.push({
        language,
        kind,
        texts: items.length,
        translated: items.filter((i) => i.translation !== '').length,
      });
    }
  }
  return { defaultLanguage, languages, progress, aiTranslator: { driver: aiDriver } };
}

/**
 * Saves translations in one language, all or none (the caller's transaction). The default language
 * is the catalogue editors' to change, not a translation: refused. '' removes a translation.
 */
export async function saveTranslations(
  trx: Db,
  studio: Studio,
  input: TranslationSave,
  now: Date,
): Promise<{ items: TranslationItem[]; next: null }> {
  const { defaultLanguage } = studioLanguages(studio);
  if (input.language === defaultLanguage)
    throw AppError.invalid(
      { language: ['the default language is edited with the item itself'] },
      'not a translation',
    );
  const fields: Record<string, string[]> = {};
  input.items.forEach((item, i) => {
    if (!KINDS[item.kind].fields.includes(item.field))
      fields[`items.${i}.field`] = ['this item has no such text'];
    const max = item.field === 'name' ? 300 : 2000;
    if (item.value.length > max) fields[`items.${i}.value`] = [`at most ${max} characters`];
  });
  if (Object.keys(fields).length > 0) throw AppError.invalid(fields);

  // One row lock per item, in a stable order (kind, id) so two saves never wait on each other in turn.
  const byRow = new Map<string, { kind: TranslatableKind; id: string; changes: TranslationSave['items'] }>();
  for (const item of input.items) {
    const key = `${item.kind}:${item.id}`;
    const entry = byRow.get(key) ?? { kind: item.kind, id: item.id, changes: [] };
    entry.changes.push(item);
    byRow.set(key, entry);
  }
  const saved: TranslationItem[] = [];
  for (const key of [...byRow.keys()].sort()) {
    const { kind, id, changes } = byRow.get(key)!;
    const source = KINDS[kind];
    const q = trx(source.table).where({ studio_id: studio.id, id });
    if (source.serviceType === 'course') q.where('service_type', 'course');
    if (source.serviceType === 'notCourse') q.whereNot('service_type', 'course');
    const columns = source.plain
      ? ['id', ...source.fields, ...source.fields.map(textsColumn)]
      : ['id', ...source.fields];
    const row = (await q.forUpdate().first(columns)) as Row | undefined;
    if (!row) throw AppError.notFound(kind);
    const update: Record<string, string> = {};
    for (const change of changes) {
      const current = (source.plain ? row[`${change.field}Texts`] : row[change.field]) as LocaleText | null;
      const next: LocaleText = { ...(current ?? {}) };
      if (change.value === '') delete next[input.language];
      else next[input.language] = { value: change.value };
      if (source.plain) {
        row[`${change.field}Texts`] = next;
        update[textsColumn(change.field)] = JSON.stringify(next);
      } else {
        row[change.field] = next;
        update[change.field] = JSON.stringify(next);
      }
    }
    await trx(source.table)
      .where({ studio_id: studio.id, id })
      .update({ ...update, updated_at: now });
    for (const change of changes)
      saved.push(itemOf(kind, row, change.field, input.language, defaultLanguage));
  }
  return { items: saved, next: null };
}
