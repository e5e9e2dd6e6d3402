import { useRef, useState, type ChangeEvent, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fitToForm, toFormErrors, type FormErrorOptions } from '../lib/form-errors';
import { useSubmitButton } from './use-submit-button';
import type { SubmitButtonState } from './submit-button-machine';

export interface UseServerFormOptions<V extends Record<string, string>, R> {
  initialValues: V;
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
  /** Props for a Mantine text input: `name` is the payload field name, `error` its server message. */
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

/**
 * The form contract of spec §5/§8 in one hook: submitting clears the old errors, locks the submit
 * button (useSubmitButton), and on failure shows the first server message under each input — an
 * input's `name` is its payload field name — plus form-level messages. The form's fields are the
 * keys of `initialValues`; server errors for any other path are shown as form-level messages, so
 * nothing is swallowed.
 */
export function useServerForm<V extends Record<string, string>, R>(
  options: UseServerFormOptions<V, R>,
): ServerForm<V> {
  const { t } = useTranslation('common');
  const [values, setValues] = useState<V>(options.initialValues);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const button = useSubmitButton();
  const enterPressed = useRef(false);

  const setValue = (name: keyof V & string, value: string) => {
    setValues((previous) => ({ ...previous, [name]: value }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const source = enterPressed.current ? 'enter' : 'click';
    enterPressed.current = false;
    const { submit, onSuccess, onError, errorOptions, keepWhitespace = [], initialValues } = options;
    const payload = Object.fromEntries(
      Object.entries(values).map(([key, value]) => [
        key,
        keepWhitespace.includes(key) ? value : value.trim(),
      ]),
    ) as V;
    void button
      .run(() => {
        setFieldErrors({});
        setFormErrors([]);
        return submit(payload);
      }, source)
      .then((outcome) => {
        if (!outcome.accepted) return;
        if (outcome.ok) {
          onSuccess?.(outcome.value, payload);
          return;
        }
        const { fields, form } = fitToForm(
          toFormErrors(outcome.error, t, errorOptions),
          Object.keys(initialValues),
        );
        setFieldErrors(fields);
        setFormErrors(form);
        onError?.(outcome.error);
      });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    const target = event.target as HTMLElement;
    enterPressed.current = event.key === 'Enter' && target.tagName === 'INPUT';
  };

  const getInputProps = (name: keyof V & string) => ({
    name,
    value: values[name] ?? '',
    onChange: (event: ChangeEvent<HTMLInputElement>) => setValue(name, event.currentTarget.value),
    error: fieldErrors[name],
  });

  return {
    values,
    setValue,
    getInputProps,
    formProps: { onSubmit, onKeyDown, noValidate: true },
    buttonState: button.state,
    fieldErrors,
    formErrors,
  };
}
