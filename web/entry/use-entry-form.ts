import { useForm } from '@mantine/form';
import { useRef, useState, type ChangeEvent, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SubmitButtonState } from '../ui/submit-button-machine';
import { useSubmitButton } from '../ui/use-submit-button';
import { entryFormErrors } from './entry-errors';
import { useReportFailure } from './reporting';

type FormValues = Record<string, string | boolean>;
type StringKeys<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;
type BooleanKeys<V> = { [K in keyof V]: V[K] extends boolean ? K : never }[keyof V] & string;

export interface UseEntryFormOptions<V extends FormValues, R> {
  initialValues: V;
  /** Field messages to show from the start (e.g. the kiosk's stored key was refused). */
  initialFieldErrors?: Record<string, string>;
  /** The call's name for the error report (e.g. `auth/preflight`). */
  call: string;
  /** Sends the (trimmed) values; throws ApiError, EntryFieldError, … on failure. */
  submit: (values: V) => Promise<R>;
  onSuccess?: (result: R, values: V) => void;
  /** Return 'handled' when the screen shows the failure itself (no form messages then). */
  onError?: (error: unknown, values: V) => 'handled' | void;
}

/**
 * The entry forms' contract (spec §4, §5, §8) on top of the kit's SubmitButtonMachine: a submit
 * clears old messages and locks the button (spinner, 45 s auto-unlock, success/error for 2.5 s,
 * Enter debounced 2.5 s); a failure shows the first server message under each input (inputs are
 * named after the payload fields) or the general message with its code; non-HTTP failures are
 * reported. Unlike the kit's useServerForm it holds checkboxes too and uses the entry wording, and
 * it ignores the late answer of an attempt that a newer one replaced.
 */
export function useEntryForm<V extends FormValues, R>(options: UseEntryFormOptions<V, R>) {
  const { t } = useTranslation('entry');
  const report = useReportFailure();
  // Values and field messages live in @mantine/form (the product's one form library).
  const form = useForm<V>({
    mode: 'controlled',
    initialValues: options.initialValues,
    initialErrors: options.initialFieldErrors ?? {},
  });
  const values = form.values;
  const setValues = form.setValues;
  const fieldErrors = form.errors as Record<string, string>;
  const setFieldErrors = (errors: Record<string, string>) => form.setErrors(errors);
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const button = useSubmitButton();
  const enterPressed = useRef(false);
  const latestAttempt = useRef(0);

  const setValue = <K extends keyof V & string>(name: K, value: V[K]) => {
    form.setValues((previous) => ({ ...previous, [name]: value }));
  };

  const clearErrors = () => {
    form.clearErrors();
    setFormErrors([]);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const source = enterPressed.current ? 'enter' : 'click';
    enterPressed.current = false;
    const { submit, onSuccess, onError, call, initialValues } = options;
    // Text inputs trim whitespace (spec §5).
    const payload = Object.fromEntries(
      Object.entries(values).map(([key, value]) => [key, typeof value === 'string' ? value.trim() : value]),
    ) as V;
    let attempt = 0;
    void button
      .run(() => {
        attempt = ++latestAttempt.current;
        clearErrors();
        return submit(payload);
      }, source)
      .then((outcome) => {
        if (!outcome.accepted || attempt !== latestAttempt.current) return;
        if (outcome.ok) {
          onSuccess?.(outcome.value, payload);
          return;
        }
        report(outcome.error, call);
        if (onError?.(outcome.error, payload) === 'handled') return;
        const errors = entryFormErrors(outcome.error, t, Object.keys(initialValues));
        setFieldErrors(errors.fields);
        setFormErrors(errors.form);
      });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    const target = event.target as HTMLElement;
    enterPressed.current = event.key === 'Enter' && target.tagName === 'INPUT';
  };

  const textProps = (name: StringKeys<V>) => ({
    name,
    value: values[name] as string,
    onChange: (event: ChangeEvent<HTMLInputElement>) =>
      setValue(name, event.currentTarget.value as V[typeof name]),
    error: fieldErrors[name],
  });

  const checkboxProps = (name: BooleanKeys<V>) => ({
    name,
    checked: values[name] as boolean,
    onChange: (event: ChangeEvent<HTMLInputElement>) =>
      setValue(name, event.currentTarget.checked as V[typeof name]),
    error: fieldErrors[name],
  });

  return {
    values,
    setValue,
    setValues,
    textProps,
    checkboxProps,
    formProps: { onSubmit, onKeyDown, noValidate: true as const },
    buttonState: button.state as SubmitButtonState,
    fieldErrors,
    setFieldErrors,
    formErrors,
    clearErrors,
    /** Back to idle at once (e.g. Go back while the button still shows success). */
    resetButton: button.reset,
  };
}
