import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ClientFieldInput, ClientFieldView } from '../../../shared/contracts/api/client-records';
import { ClientRecordsApi } from '../../../shared/contracts/http/client-records';
import { SELECT_TYPES } from '../../../shared/domain/client-fields';
import { ClientCustomFieldType } from '../../../shared/enums/clients';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';

export const clientFieldKeys = { all: (studio: string) => ['client-fields', studio] as const };

export function useClientFields() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: clientFieldKeys.all(studio),
    queryFn: ({ signal }) =>
      api.call(ClientRecordsApi.getClientFieldCollection, { params: { uuid: studio }, signal }),
  });
}

export function useInvalidateClientFields(): () => Promise<void> {
  const queryClient = useQueryClient();
  // A client's field values embed the definitions: refresh those too.
  return () => queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).includes('client') });
}

export const clientFieldCalls = {
  create: (api: ApiClient, studio: string, input: ClientFieldInput) =>
    api.call(ClientRecordsApi.postClientField, { params: { uuid: studio }, body: input }),
  update: (api: ApiClient, studio: string, id: string, input: ClientFieldInput) =>
    api.call(ClientRecordsApi.putClientField, { params: { uuid: studio, clientField: id }, body: input }),
  remove: (api: ApiClient, studio: string, id: string) =>
    api.call(ClientRecordsApi.deleteClientField, { params: { uuid: studio, clientField: id } }),
};

/** The form's values: text inputs only; a field's name in English and Polish, options one per line. */
export type ClientFieldFormValues = {
  name: string;
  namePl: string;
  type: string;
  required: string;
  encrypted: string;
  options: string;
  'settings.min': string;
  'settings.max': string;
  'settings.maxLength': string;
  position: string;
};

const localized = (text: ClientFieldView['name'] | unknown, locale: 'en' | 'pl'): string => {
  if (typeof text === 'string') return locale === 'en' ? text : '';
  const entry = (text as Record<string, { value?: string } | undefined> | null)?.[locale];
  return entry?.value ?? '';
};

const numberText = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

export function formValuesOf(field: ClientFieldView | null): ClientFieldFormValues {
  return {
    name: field ? localized(field.name, 'en') : '',
    namePl: field ? localized(field.name, 'pl') : '',
    type: String(field?.type ?? ClientCustomFieldType.text),
    required: String(field?.required ?? false),
    encrypted: String(field?.encrypted ?? false),
    options: field
      ? field.options.map((o) => localized(o.label, 'en') || localized(o.label, 'pl')).join('\n')
      : '',
    'settings.min': numberText(field?.settings.min),
    'settings.max': numberText(field?.settings.max),
    'settings.maxLength': numberText(field?.settings.maxLength),
    position: String(field?.position ?? 0),
  };
}

/** An option's stored value from its label: kept when the label existed before, else a slug. */
export function optionValue(label: string, index: number, previous: ClientFieldView['options']): string {
  const kept = previous.find(
    (o) =>
      (typeof o.label === 'string' ? o.label : localized(o.label, 'en') || localized(o.label, 'pl')) ===
      label,
  );
  if (kept) return kept.value;
  const slug = label
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50);
  return slug || `option-${index + 1}`;
}

const numberOrNull = (text: string): number | null => {
  if (text.trim() === '') return null;
  const n = Number(text.replace(',', '.'));
  return Number.isFinite(n) ? n : Number.NaN;
};

export function inputOf(values: ClientFieldFormValues, previous: ClientFieldView | null): ClientFieldInput {
  const type = Number(values.type) as ClientCustomFieldType;
  const name: Record<string, { value: string }> = {};
  if (values.name.trim()) name.en = { value: values.name.trim() };
  if (values.namePl.trim()) name.pl = { value: values.namePl.trim() };
  const labels = SELECT_TYPES.includes(type)
    ? values.options
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
    : [];
  const used = new Set<string>();
  const options = labels.map((label, i) => {
    let value = optionValue(label, i, previous?.options ?? []);
    while (used.has(value)) value = `${value}-${i + 1}`;
    used.add(value);
    return { value, label };
  });
  return {
    name,
    type,
    required: values.required === 'true',
    encrypted: values.encrypted === 'true',
    options,
    settings:
      type === ClientCustomFieldType.numeric
        ? { min: numberOrNull(values['settings.min']), max: numberOrNull(values['settings.max']) }
        : type === ClientCustomFieldType.text
          ? { maxLength: numberOrNull(values['settings.maxLength']) }
          : {},
    position: Number(values.position) || 0,
  };
}
