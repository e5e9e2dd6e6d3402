import { ClientCustomFieldType } from '../../enums/clients';

/**
 * Client custom fields (spec §3 "client custom field type", seven types): what a definition may say
 * and which values each type accepts. Pure: the service adds what needs the database (that a
 * location or a member of staff exists in the studio).
 */

/** A field's name or an option's label: plain text, or text per locale (`{ en: { value } }`). */
export type FieldText = string | Partial<Record<string, { value: string }>>;

export interface FieldOption {
  /** Stable key stored in values; labels may change. */
  value: string;
  label: FieldText;
}

export interface FieldSettings {
  /** Numeric bounds (inclusive). */
  min?: number | null;
  max?: number | null;
  /** Text length limit (default TEXT_MAX). */
  maxLength?: number | null;
}

export interface FieldDefinitionRules {
  type: ClientCustomFieldType;
  required: boolean;
  options: readonly FieldOption[];
  settings: FieldSettings;
}

export type FieldValue = string | number | boolean | string[];

export const TEXT_MAX = 2000;
export const OPTIONS_MAX = 100;
export const MULTI_MAX = 100;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const SELECT_TYPES: readonly ClientCustomFieldType[] = [
  ClientCustomFieldType.customSelect,
  ClientCustomFieldType.customMultiSelect,
];
/** Types whose value names a row of the studio (checked by the service). */
export const REFERENCE_TYPES: readonly ClientCustomFieldType[] = [
  ClientCustomFieldType.locationSelect,
  ClientCustomFieldType.memberSelect,
];

export const hasOptions = (type: ClientCustomFieldType) => SELECT_TYPES.includes(type);

/**
 * What is wrong with a definition beyond its schema (which checks the shapes), by field path:
 * options only (and at least one) on select types, unique option values, bounds only on numbers
 * and in order, a length limit only on text.
 */
export function definitionProblems(def: FieldDefinitionRules): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const add = (path: string, message: string) => (problems[path] ??= []).push(message);
  if (hasOptions(def.type)) {
    if (def.options.length === 0) add('options', 'give at least one option');
    const seen = new Set<string>();
    def.options.forEach((o, i) => {
      if (seen.has(o.value)) add(`options.${i}.value`, 'options must have different values');
      seen.add(o.value);
    });
  } else if (def.options.length > 0) add('options', 'only select fields have options');
  const { min, max, maxLength } = def.settings;
  const numeric = def.type === ClientCustomFieldType.numeric;
  if (!numeric && (min != null || max != null)) add('settings', 'only number fields have bounds');
  if (numeric && min != null && max != null && min > max) add('settings.min', 'must not be above max');
  if (def.type !== ClientCustomFieldType.text && maxLength != null)
    add('settings.maxLength', 'only text fields have a length limit');
  return problems;
}

export type ValueCheck = { ok: true; value: FieldValue | null } | { ok: false; message: string };

const fail = (message: string): ValueCheck => ({ ok: false, message });

/**
 * Checks (and normalises) a value for a field. `null`, `""`, `[]` and an unchecked box of an
 * optional field clear the value. A required checkbox must be ticked (a consent); other required
 * fields must hold something. Numbers: finite, within the bounds. Texts are trimmed.
 */
export function checkFieldValue(def: FieldDefinitionRules, raw: unknown): ValueCheck {
  const empty =
    raw === null ||
    raw === undefined ||
    (typeof raw === 'string' && raw.trim() === '') ||
    (Array.isArray(raw) && raw.length === 0);
  if (empty) return def.required ? fail('required') : { ok: true, value: null };

  switch (def.type) {
    case ClientCustomFieldType.text: {
      if (typeof raw !== 'string') return fail('must be text');
      const value = raw.trim();
      const limit = Math.min(def.settings.maxLength ?? TEXT_MAX, TEXT_MAX);
      if ([...value].length > limit) return fail(`at most ${limit} characters`);
      // eslint-disable-next-line no-control-regex -- refusing control characters is the point
      if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(value)) return fail('contains control characters');
      return { ok: true, value };
    }
    case ClientCustomFieldType.numeric: {
      const value =
        typeof raw === 'string' && /^\s*-?\d+([.,]\d+)?\s*$/.test(raw) ? Number(raw.replace(',', '.')) : raw;
      if (typeof value !== 'number' || !Number.isFinite(value)) return fail('must be a number');
      const { min, max } = def.settings;
      if (min != null && value < min) return fail(`must be at least ${min}`);
      if (max != null && value > max) return fail(`must be at most ${max}`);
      return { ok: true, value };
    }
    case ClientCustomFieldType.checkbox: {
      if (typeof raw !== 'boolean') return fail('must be true or false');
      if (def.required && !raw) return fail('must be ticked');
      return { ok: true, value: raw };
    }
    case ClientCustomFieldType.customSelect: {
      if (typeof raw !== 'string') return fail('must be one of the options');
      if (!def.options.some((o) => o.value === raw)) return fail('not one of the options');
      return { ok: true, value: raw };
    }
    case ClientCustomFieldType.customMultiSelect: {
      if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string'))
        return fail('must be a list of options');
      const picked = [...new Set(raw as string[])];
      if (picked.length > MULTI_MAX) return fail('too many options');
      if (picked.some((v) => !def.options.some((o) => o.value === v))) return fail('not one of the options');
      // Stored in the options' order, so equal choices compare equal.
      const order = def.options.map((o) => o.value);
      return { ok: true, value: picked.sort((a, b) => order.indexOf(a) - order.indexOf(b)) };
    }
    case ClientCustomFieldType.locationSelect:
    case ClientCustomFieldType.memberSelect: {
      if (typeof raw !== 'string' || !UUID_RE.test(raw)) return fail('must be an id');
      return { ok: true, value: raw.toLowerCase() };
    }
    default:
      return fail('unknown field type');
  }
}

/** A field's name in a language: the locale, then the studio's default, then any; plain text as is. */
export function fieldText(text: FieldText, locale: string, fallbackLocale = 'en'): string {
  if (typeof text === 'string') return text;
  const pick = (l: string) => text[l]?.value?.trim() || '';
  return (
    pick(locale) ||
    pick(locale.split('-')[0] ?? locale) ||
    pick(fallbackLocale) ||
    Object.values(text).find((v) => v?.value?.trim())?.value ||
    ''
  );
}
