import { Select, type SelectProps } from '@mantine/core';
import type { ServerForm } from './use-server-form';

type FormSelectProps<V extends Record<string, string>> = {
  /** The `useServerForm` form (`form` is a Select's own HTML attribute). */
  of: ServerForm<V>;
  name: keyof V & string;
} & Omit<SelectProps, 'name' | 'value' | 'onChange' | 'error' | 'form'>;

/** A Select bound to one field of a `useServerForm` form: its value, its error, no deselecting. */
export function FormSelect<V extends Record<string, string>>({
  of: form,
  name,
  ...props
}: FormSelectProps<V>) {
  const field = form.getInputProps(name);
  return (
    <Select
      name={name}
      value={field.value}
      error={field.error}
      allowDeselect={false}
      onChange={(value) => form.setValue(name, value ?? '')}
      {...props}
    />
  );
}
