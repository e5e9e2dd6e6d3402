import { isErrorEnvelope, type FieldErrors } from '../../errors';

/** The key of the error tree that holds errors about the form as a whole, not one field. */
export const FORM_LEVEL_ERROR_KEY = '';

/**
 * The field errors of an HTTP 400 response body, or none when the body is not the error envelope.
 * A form replaces its old errors with this result rather than merging (spec §5 "clears old errors").
 */
export function fieldErrorsOf(responseBody: unknown): FieldErrors {
  return isErrorEnvelope(responseBody) ? (responseBody.error.fields ?? {}) : {};
}

/**
 * Spec §5: each field shows the first message of its list. Form-level errors sit under the key ""
 * and get their first message the same way; `formLevelErrors` gives all of them when a form banner
 * should list every one. Fields with no non-empty message are left out.
 */
export function firstErrorPerField(fields: FieldErrors | null | undefined): Record<string, string> {
  const first: Record<string, string> = {};
  for (const [field, messages] of Object.entries(fields ?? {})) {
    const message = messages.find((m) => m.trim() !== '');
    if (message !== undefined) first[field] = message;
  }
  return first;
}

export function formLevelErrors(fields: FieldErrors | null | undefined): string[] {
  return (fields?.[FORM_LEVEL_ERROR_KEY] ?? []).filter((m) => m.trim() !== '');
}
