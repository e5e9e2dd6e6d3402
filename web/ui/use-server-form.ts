import { useForm, type FormErrors } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useRef, useState, type ChangeEvent, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { fitToForm, toFormErrors, translateFieldMessage, type FormErrorOptions } from '../lib/form-errors';
import { useSubmitButton } from './use-submit-button';
import type { SubmitButtonState } from './submit-button-machine';

export interface UseServerFormOptions<V extends Record<string, string>, R> {
  initialValues: V;
  /**
   * Checked in the browser before anything is sent (zod, through @mantine/form's resolver): the
   * first issue per field is shown under its input and nothing is submitted. Pass the route
   * contract's own body schema (shared/contracts) so browser and server judge alike: its messages
   * are the same English constants the server sends, translated the same way (`translateFieldMessage`).
   * The server stays the judge: its field errors are shown the same way.
   */
  schema?: z.ZodType<unknown>;
  /** Sends the values; throws (ApiError, …) on failure. */
  submit: (values: V) => Promise<R>;
  onSuccess?: (result: R, values: V) => void;
  onError?: (error: unknown) => void;
  errorOptions?: FormErrorOptions;
  /** Fields sent as typed (passwords). Every other text is trimmed (spec §5). */
  keepWhitespace?: readonly (keyof V & string)[];
}

export interface ServerForm<V extends Record<string, string>> {
  values: V;
  setValue(name: keyof V & string, value: string): void;
  /** Props for a Mantine text input: `name` is the payload field name, `error` its message. */
  getInputProps(name: keyof V & string): {
    name: string;
    value: string;
    onChange: (event: ChangeEvent<HTMLInputElement>) => void;
    error: string | undefined;
  };
  formProps: {
    onSubmit: (event: FormEvent<HTMLFormElement>) => void;
    onKeyDown: (event: KeyboardEvent<HTMLFormElement>) => void;
    noValidate: true;
  };
  buttonState: SubmitButtonState;
  fieldErrors: Record<string, string>;
  formErrors: string[];
}

/** The first message of each field, as a flat record of strings. */
function firstMessages(errors: FormErrors): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors)
      .filter(([, message]) => message !== undefined && message !== null && message !== false)
      .map(([path, message]) => [path, String(message)]),
  );
}

/**
 * The form contract of spec §5/§8 in one hook, on @mantine/form (the product's one form library):
 * the values and field errors live in Mantine's `useForm`; an optional zod `schema` is checked in the
 * browser first; submitting clears the old errors, locks the submit button (useSubmitButton), and on
 * failure shows the first server message under each input — an input's `name` is its payload field
 * name — plus form-level messages. The form's fields are the keys of `initialValues`; server errors
 * for any other path are shown as form-level messages, so nothing is swallowed.
 */
export function useServerForm<V extends Record<string, string>, R>(
  options: UseServerFormOptions<V, R>,
): ServerForm<V> {
  const { t } = useTranslation('common');
  const form = useForm<V>({ mode: 'controlled', initialValues: options.initialValues });
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const button = useSubmitButton();
  const enterPressed = useRef(false);

  const setValue = (name: keyof V & string, value: string) => {
    // Flat keys: a payload field path such as `agreements.terms` is one value here, not a nested one.
    form.setValues((previous) => ({ ...previous, [name]: value }));
    // The field's message goes once it is changed (Mantine's own default for its setters).
    form.clearFieldError(name);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const source = enterPressed.current ? 'enter' : 'click';
    enterPressed.current = false;
    const { submit, onSuccess, onError, errorOptions, keepWhitespace = [], initialValues } = options;
    const payload = Object.fromEntries(
      Object.entries(form.getValues()).map(([key, value]) => [
        key,
        keepWhitespace.includes(key) ? value : String(value).trim(),
      ]),
    ) as V;
    if (options.schema) {
      // The schema of this render (it may depend on data loaded since the form was created).
      const problems = firstMessages(zod4Resolver(options.schema as never)(form.getValues()));
      if (Object.keys(problems).length > 0) {
        form.setErrors(
          Object.fromEntries(
            Object.entries(problems).map(([path, message]) => [path, translateFieldMessage(message, t)]),
          ),
        );
        setFormErrors([]);
        return;
      }
    }
    void button
      .run(() => {
        form.clearErrors();
        setFormErrors([]);
        return submit(payload);
      }, source)
      .then((outcome) => {
        if (!outcome.accepted) return;
        if (outcome.ok) {
          onSuccess?.(outcome.value, payload);
          return;
        }
        const { fields, form: formLevel } = fitToForm(
          toFormErrors(outcome.error, t, errorOptions),
          Object.keys(initialValues),
        );
        form.setErrors(fields);
        setFormErrors(formLevel);
        onError?.(outcome.error);
      });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    const target = event.target as HTMLElement;
    enterPressed.current = event.key === 'Enter' && target.tagName === 'INPUT';
  };

  const fieldErrors = firstMessages(form.errors);
  const getInputProps = (name: keyof V & string) => ({
    name,
    value: form.values[name] ?? '',
    onChange: (event: ChangeEvent<HTMLInputElement>) => setValue(name, event.currentTarget.value),
    error: fieldErrors[name],
  });

  return {
    values: form.values,
    setValue,
    getInputProps,
    formProps: { onSubmit, onKeyDown, noValidate: true },
    buttonState: button.state,
    fieldErrors,
    formErrors,
  };
}
