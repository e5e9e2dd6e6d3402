import { useForm } from '@mantine/form';
import { useState } from 'react';

/**
 * The values of a structured editor (the pass and contract editors: texts, lists, flags, nested time
 * windows) held by @mantine/form, the product's one form library. The editor maps the values to its
 * payload itself when saving (`useStructuredSubmit` shows the server's field errors); this hook only
 * keeps them: `set` one field, `patch` several (a child section's change), `values` to render.
 * Forms that judge the server's answer themselves keep their field messages here too: `errors`
 * (first message per field), `setErrors` (replaces them all; an empty record clears them).
 */
export function useEditorForm<V extends object>(initial: () => V) {
  const [initialValues] = useState(initial);
  const form = useForm<V>({ mode: 'controlled', initialValues });
  const set = <K extends keyof V>(key: K, value: V[K]) =>
    form.setValues((previous) => ({ ...previous, [key]: value }));
  const patch = (changes: Partial<V>) => form.setValues(changes);
  const errors = Object.fromEntries(
    Object.entries(form.errors).filter(([, message]) => typeof message === 'string'),
  ) as Record<string, string>;
  const setErrors = (next: Record<string, string>) => form.setErrors(next);
  return { values: form.values, set, patch, errors, setErrors };
}
