import { IBAN_ERRORS } from '../../shared/contracts/api/studio-records';
import { ApiError, NetworkError } from './api-client';

/** What a form shows after a failed submit. Texts are already translated. */
export interface FormErrors {
  /** First message per field, keyed by the payload's dotted field path (= the input's `name`). */
  fields: Record<string, string>;
  /** Messages for the whole form (the envelope's "" key, or a §8 general message). */
  form: string[];
}

/** Minimal translate function (i18next's `t` fits). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

export interface FormErrorOptions {
  /**
   * How a failure without field errors is worded (spec §8): settings forms say "an error occurred
   * while saving settings" (default); sign-in style forms say "an error occurred" with the
   * `status-errorcode` code and a hint to contact support.
   */
  unexpected?: 'savingSettings' | 'withCode';
  /** Translation keys for specific error keys, e.g. `{ 'auth.invalidCredentials': 'common:errors.invalidCredentials' }`. */
  messagesByKey?: Record<string, string>;
}

/**
 * Server field messages are English constants from the shared zod schemas; the known ones are
 * translated, anything else is shown as sent.
 */
const FIELD_MESSAGE_KEYS: Record<string, string> = {
  required: 'common:validation.required',
  'invalid email address': 'common:validation.invalidEmail',
  'at least 8 characters': 'common:validation.minPassword',
  'invalid id': 'common:validation.invalidId',
  'unknown field': 'common:validation.unknownField',
  'wrong password': 'common:validation.wrongPassword',
  'invalid phone number (6 to 15 digits, + ( ) - . / and spaces)': 'common:validation.invalidPhone',
  [IBAN_ERRORS.format]: 'studio-admin:bankAccounts.ibanFormat',
  [IBAN_ERRORS.checksum]: 'studio-admin:bankAccounts.ibanChecksum',
};

export function translateFieldMessage(message: string, t: Translate): string {
  const key = FIELD_MESSAGE_KEYS[message];
  return key ? t(key) : message;
}

/** The `status-errorcode` shown to users (spec §8), `100-100` when unknown. */
export function errorCodeLabel(error: unknown): string {
  if (error instanceof ApiError && error.code !== null) return `${error.status}-${error.code}`;
  if (error instanceof ApiError) return `${error.status}-100`;
  return '100-100';
}

/**
 * The call got no answer: no network, a cloud that stayed silent, or (at the desk) the station's
 * "cloud unreachable". Said as such rather than "an error occurred (code 100-100)" (issue 26).
 */
export function isNetworkFailure(error: unknown): boolean {
  return (
    error instanceof NetworkError ||
    error instanceof TypeError ||
    (error instanceof ApiError && error.key === 'station.cloudUnreachable')
  );
}

/** A failure's one-line message: "no connection" for a network failure, else `key` with the code. */
export function failureText(error: unknown, t: Translate, key = 'common:errors.generalWithCode'): string {
  return isNetworkFailure(error) ? t('desk:errors.noConnection') : t(key, { code: errorCodeLabel(error) });
}

/**
 * Turns any submit failure into form errors, following spec §5/§8:
 * 400 → first message per field + form-level ("" key) messages; 401/403/405 → no permission;
 * 404 → nothing to show (the submit button shows its error state); 5xx → saving-settings message
 * (or the general message with code); anything else → the general message with its code.
 */
export function toFormErrors(error: unknown, t: Translate, options: FormErrorOptions = {}): FormErrors {
  const result: FormErrors = { fields: {}, form: [] };
  const general = () =>
    options.unexpected === 'withCode'
      ? t('common:errors.generalWithCode', { code: errorCodeLabel(error) })
      : t('common:errors.savingSettings');

  if (!(error instanceof ApiError) || isNetworkFailure(error)) {
    result.form.push(failureText(error, t));
    return result;
  }

  const byKey = error.key ? options.messagesByKey?.[error.key] : undefined;
  if (byKey) {
    result.form.push(t(byKey));
    return result;
  }

  if (error.status === 401 || error.status === 403 || error.status === 405) {
    result.form.push(t('common:errors.noPermission'));
    return result;
  }
  if (error.status === 404) return result;
  if (error.status >= 500) {
    result.form.push(general());
    return result;
  }

  for (const [path, messages] of Object.entries(error.fields)) {
    const translated = messages
      .filter((m) => typeof m === 'string' && m.length > 0)
      .map((m) => translateFieldMessage(m, t));
    if (translated.length === 0) continue;
    if (path === '') result.form.push(...translated);
    else result.fields[path] = translated[0] as string;
  }
  if (Object.keys(result.fields).length === 0 && result.form.length === 0) {
    result.form.push(t('common:errors.generalWithCode', { code: errorCodeLabel(error) }));
  }
  return result;
}

/**
 * Keeps field errors only for fields the form shows; errors for any other path become form-level
 * messages, so a server message is never swallowed by a form that has no input for it.
 */
export function fitToForm(errors: FormErrors, fieldNames: Iterable<string>): FormErrors {
  const names = new Set(fieldNames);
  const fields: Record<string, string> = {};
  const form = [...errors.form];
  for (const [path, message] of Object.entries(errors.fields)) {
    if (names.has(path)) fields[path] = message;
    else form.push(message);
  }
  return { fields, form };
}

/**
 * Problems a form found before sending (translation keys per payload path), as the 400 the server
 * would answer, so the submit shows them exactly like server field errors.
 */
export function problemsError(t: Translate, fields: Record<string, string[]>): ApiError {
  const translated = Object.fromEntries(
    Object.entries(fields).map(([path, keys]) => [path, keys.map((k) => t(k))]),
  );
  return new ApiError(400, {
    error: { code: 1000, key: 'request.invalid', message: 'invalid', fields: translated },
  });
}
