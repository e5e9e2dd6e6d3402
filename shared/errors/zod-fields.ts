import type { z } from 'zod';
import type { FieldErrors } from './app-error';

/**
 * Turns every zod issue into the spec's form error tree: a dotted field path → messages.
 * Issues without a path are form-level errors, kept under the empty key "".
 */
export function zodIssuesToFields(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  // A null-prototype map: a body may name a field "valueOf", "constructor" or "__proto__".
  const fields = new Map<string, string[]>();
  const add = (key: string, message: string) => {
    const list = fields.get(key);
    if (list) list.push(message);
    else fields.set(key, [message]);
  };
  for (const issue of issues) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const p = path ? `${path}.${key}` : key;
        add(p, 'unknown field');
      }
      continue;
    }
    add(path, issue.message);
  }
  return Object.fromEntries(fields) as FieldErrors;
}
