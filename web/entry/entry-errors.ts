import {
  KIOSK_INVALID_MESSAGE,
  TERMS_REQUIRED_MESSAGE,
  APP_SEARCH_MIN_LENGTH,
} from '../../shared/contracts/api/entry';
import { ApiError } from '../lib/api-client';
import { errorCodeLabel, fitToForm, type FormErrors, type Translate } from '../lib/form-errors';

/**
 * What the entry forms show after a failed call (spec §5, §8): a 400 shows the first message per
 * field under its input; any other failure is the general message "an error occurred" with the
 * `status-errorcode` code and the hint to contact support (login and delete, §8; the sign-up and
 * kiosk forms use the same wording, see README). Texts come from the entry namespace.
 */

/** A failure the screen decided on itself (e.g. "no account" after a valid lookup): field messages. */
export class EntryFieldError extends Error {
  constructor(readonly fields: Record<string, string>) {
    super(Object.values(fields).join('; '));
    this.name = 'EntryFieldError';
  }
}

/** The English constants the server sends as field messages, and their entry translation keys. */
const FIELD_MESSAGE_KEYS: Record<string, string> = {
  required: 'entry:validation.required',
  'invalid email address': 'entry:validation.invalidEmail',
  'invalid character': 'entry:validation.invalidCharacter',
  [TERMS_REQUIRED_MESSAGE]: 'entry:validation.termsRequired',
  [KIOSK_INVALID_MESSAGE]: 'entry:validation.kioskInvalid',
  [`at least ${APP_SEARCH_MIN_LENGTH} characters`]: 'entry:validation.minSearch',
};

export function translateEntryFieldMessage(message: string, t: Translate): string {
  const key = FIELD_MESSAGE_KEYS[message];
  if (key) return t(key);
  // zod's own messages for length bounds ("Too big: expected string to have <=200 characters").
  if (/^too big/i.test(message)) return t('entry:validation.tooLong');
  return message;
}

/** "An error occurred (code 500-1999). If it persists, contact support." */
export function generalErrorMessage(error: unknown, t: Translate): string {
  return t('entry:errors.general', { code: errorCodeLabel(error) });
}

export function entryFormErrors(error: unknown, t: Translate, fieldNames: Iterable<string>): FormErrors {
  if (error instanceof EntryFieldError)
    return fitToForm({ fields: { ...error.fields }, form: [] }, fieldNames);
  const result: FormErrors = { fields: {}, form: [] };
  if (error instanceof ApiError && error.status === 400) {
    for (const [path, messages] of Object.entries(error.fields)) {
      const first = messages.find((m) => typeof m === 'string' && m.length > 0);
      if (!first) continue;
      const text = translateEntryFieldMessage(first, t);
      if (path === '') result.form.push(text);
      else result.fields[path] = text;
    }
  }
  if (Object.keys(result.fields).length === 0 && result.form.length === 0) {
    result.form.push(generalErrorMessage(error, t));
  }
  return fitToForm(result, fieldNames);
}

/**
 * Failures without an HTTP answer (network, a body that breaks the contract, a bug) are reported to
 * the log (spec §8); HTTP answers are the server's own business and already in its log. Aborts are
 * ours (a newer search replaced an older one) and not failures at all.
 */
export function isReportable(error: unknown): boolean {
  if (error instanceof ApiError || error instanceof EntryFieldError) return false;
  if (error instanceof DOMException && error.name === 'AbortError') return false;
  return true;
}
