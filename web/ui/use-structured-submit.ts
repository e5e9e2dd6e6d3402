import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api-client';
import { fitToForm, toFormErrors, type FormErrorOptions } from '../lib/form-errors';
import { useSubmitButton } from './use-submit-button';

export interface StructuredSubmitOptions {
  /** Says a server field message in the screen's language (known English constants → keys). */
  translateServerMessage?: (t: TFunction, message: string) => string;
  errorOptions?: FormErrorOptions;
}

/**
 * A submit in the spec §4/§8 way for forms whose values are structured (editors that map their
 * values to a payload themselves): locks the button, clears old errors, and shows the first message
 * per field (paths as the payload's) plus form-level ones. Paths not in `fieldNames` are shown at
 * form level so nothing is lost. For flat forms of strings, `useServerForm` does all of it.
 */
export function useStructuredSubmit(fieldNames: readonly string[], options: StructuredSubmitOptions = {}) {
  const { t } = useTranslation();
  const button = useSubmitButton();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const translate = options.translateServerMessage;
  const run = async <T>(action: () => Promise<T>): Promise<T | undefined> => {
    const outcome = await button.run(async () => {
      setFieldErrors({});
      setFormErrors([]);
      try {
        return await action();
      } catch (error) {
        if (translate && error instanceof ApiError && error.envelope?.error.fields) {
          const fields = Object.fromEntries(
            Object.entries(error.envelope.error.fields).map(([path, messages]) => [
              path,
              messages.map((m) => translate(t, m)),
            ]),
          );
          throw new ApiError(error.status, { error: { ...error.envelope.error, fields } });
        }
        throw error;
      }
    });
    if (!outcome.accepted) return undefined;
    if (outcome.ok) return outcome.value;
    const { fields, form } = fitToForm(toFormErrors(outcome.error, t, options.errorOptions), fieldNames);
    setFieldErrors(fields);
    setFormErrors(form);
    return undefined;
  };
  const reset = () => {
    setFieldErrors({});
    setFormErrors([]);
    button.reset();
  };
  return { run, reset, state: button.state, fieldErrors, formErrors };
}
