import { v7 as uuidv7 } from 'uuid';
import {
  OVERRIDABLE_NAMESPACES,
  type InterfaceText,
  type InterfaceTextSave,
} from '../../../../shared/contracts/api/translations';
import { AppError } from '../../../../shared/errors';
import type { Locale } from '../../../../shared/i18n/locales';
import type { Db } from '../../db/knex';
import { serverI18n } from '../../i18n';
import type { Studio } from '../identity/index';

/**
 * A studio's own wording of interface texts (issue 25): any text of the namespaces its clients read
 * (front office, kiosk, common), per language. The front office and kiosk load the studio's wording
 * (`translator/interface-texts`) and lay it over ours; a key we later remove is simply not shown.
 */

/** Our texts of a language, flattened: `frontoffice:nav.timetable` → text. */
export function standardTexts(language: Locale): Map<string, string> {
  const catalog = serverI18n().catalog[language];
  const texts = new Map<string, string>();
  const walk = (prefix: string, node: unknown) => {
    if (typeof node === 'string') texts.set(prefix, node);
    else if (node && typeof node === 'object')
      for (const [key, value] of Object.entries(node))
        walk(prefix.endsWith(':') ? `${prefix}${key}` : `${prefix}.${key}`, value);
  };
  for (const namespace of OVERRIDABLE_NAMESPACES) walk(`${namespace}:`, catalog[namespace] ?? {});
  return texts;
}

async function overrides(db: Db, studioId: string, language: Locale): Promise<Map<string, string>> {
  const rows = await db('studio_interface_texts')
    .where({ studioId, locale: language })
    .select('key', 'value');
  return new Map(rows.map((r) => [r.key, r.value]));
}

export async function interfaceTexts(
  db: Db,
  studio: Studio,
  language: Locale,
): Promise<{ items: InterfaceText[]; next: null }> {
  const own = await overrides(db, studio.id, language);
  const items = [...standardTexts(language)].map(([key, standard]) => ({
    key,
    standard,
    override: own.get(key) ?? null,
  }));
  return { items, next: null };
}

export async function saveInterfaceText(
  trx: Db,
  studio: Studio,
  input: InterfaceTextSave,
  userId: string,
  now: Date,
): Promise<InterfaceText> {
  const standard = standardTexts(input.language).get(input.key);
  if (standard === undefined)
    throw AppError.invalid({ key: ['not a text of the front office or kiosk'] }, 'unknown text');
  if (input.value === '') {
    await trx('studio_interface_texts')
      .where({ studioId: studio.id, locale: input.language, key: input.key })
      .delete();
    return { key: input.key, standard, override: null };
  }
  await trx('studio_interface_texts')
    .insert({
      id: uuidv7(),
      studioId: studio.id,
      locale: input.language,
      key: input.key,
      value: input.value,
      updatedBy: userId,
      updatedAt: now,
    })
    .onConflict(['studio_id', 'locale', 'key'])
    .merge({ value: input.value, updatedBy: userId, updatedAt: now });
  return { key: input.key, standard, override: input.value };
}

/** What the front office and kiosk lay over our texts; only keys that still exist. */
export async function publicInterfaceTexts(
  db: Db,
  studio: Studio,
  language: Locale,
): Promise<{ locale: Locale; texts: Record<string, string> }> {
  const standard = standardTexts(language);
  const own = await overrides(db, studio.id, language);
  return {
    locale: language,
    texts: Object.fromEntries([...own].filter(([key]) => standard.has(key))),
  };
}
