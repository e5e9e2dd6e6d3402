import type { z } from 'zod';
import type { FieldErrors } from './app-error';

/**
 * Turns every zod issue into the spec's form error tree: a dotted field path → messages.
 * Issues without a path are form-level errors, kept under the empty key "".
 */
export function zodIssuesToFields(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of issues) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const p = path ? `${path}.${key}` : key;
        (fields[p] ??= []).push('unknown field');
      }
      continue;
    }
    (fields[path] ??= []).push(issue.message);
  }
  return fields;
}
