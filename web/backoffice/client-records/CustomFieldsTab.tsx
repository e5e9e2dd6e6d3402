import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  NumberInput,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClientFieldValueView } from '../../../shared/contracts/api/client-records';
import { fieldText, type FieldText } from '../../../shared/domain/client-fields';
import { ClientCustomFieldType as T } from '../../../shared/enums/clients';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { recordCalls, useClientFieldValues, useInvalidateRecords } from './client-records.api';
import type { ClientRecordProps } from './DocumentsTab';
import { ListEmpty } from '../list-frame';

type Draft = Record<string, unknown>;

/** The studio's custom fields for one client: edit, save (all or nothing), reveal encrypted ones. */
export function CustomFieldsTab({ studioUuid, clientId }: ClientRecordProps) {
  const { t, i18n } = useTranslation('client-records');
  const api = useApiClient();
  const query = useClientFieldValues(studioUuid, clientId);
  const invalidate = useInvalidateRecords(studioUuid, clientId);
  const [draft, setDraft] = useState<Draft>({});
  const [revealed, setRevealed] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved' | 'error'>('idle');

  const data = query.data;
  const text = (v: FieldText) => fieldText(v, i18n.language);
  const valueOf = (item: ClientFieldValueView) =>
    item.field.id in draft
      ? draft[item.field.id]
      : item.field.id in revealed
        ? revealed[item.field.id]
        : item.value;

  const save = async () => {
    setStatus('saving');
    setErrors({});
    try {
      await recordCalls.saveValues(api, studioUuid, clientId, draft);
      setDraft({});
      setRevealed({});
      await invalidate();
      setStatus('saved');
    } catch (err) {
      if (err instanceof ApiError && err.status === 400)
        setErrors(
          Object.fromEntries(
            Object.entries(err.fields).map(([path, m]) => [path.replace(/^values\./, ''), m[0] ?? '']),
          ),
        );
      setStatus('error');
    }
  };

  const reveal = async (fieldId: string) => {
    try {
      const res = await recordCalls.decrypt(api, studioUuid, clientId, fieldId);
      setRevealed((r) => ({ ...r, [fieldId]: res.value }));
    } catch {
      setStatus('error');
    }
  };

  if (query.isError) return <Alert color="red">{t('error')}</Alert>;
  if (!data) return null;
  const canEdit = data.canEdit;
  const set = (id: string, value: unknown) => setDraft((d) => ({ ...d, [id]: value }));

  return (
    <Stack gap="md" maw={640} data-testid="client-fields">
      {data.items.length === 0 ? <ListEmpty text={t('fields.empty')} /> : null}
      {data.items.map((item) => {
        const { field } = item;
        const id = field.id;
        const label = (
          <Group gap={6} component="span">
            <span>{text(field.name as FieldText)}</span>
            {field.encrypted ? (
              <Badge size="xs" variant="light" color="grape">
                {t('fields.encrypted')}
              </Badge>
            ) : null}
          </Group>
        );
        const common = {
          label,
          required: field.required,
          error: errors[id],
          disabled: !canEdit,
          'data-testid': `client-field-${id}`,
        };
        const hidden = item.masked && !(id in revealed) && !(id in draft);
        if (hidden)
          return (
            <Group key={id} align="end" gap="xs" wrap="nowrap">
              <PasswordInput {...common} value="••••••••" readOnly visible={false} style={{ flex: 1 }} />
              {data.canDecrypt ? (
                <Button variant="light" onClick={() => reveal(id)} data-testid={`client-field-reveal-${id}`}>
                  {t('fields.reveal')}
                </Button>
              ) : null}
              {canEdit ? (
                <Button variant="subtle" onClick={() => set(id, '')}>
                  {t('fields.replace')}
                </Button>
              ) : null}
            </Group>
          );
        const value = valueOf(item);
        const options = field.options.map((o) => ({ value: o.value, label: text(o.label as FieldText) }));
        switch (field.type) {
          case T.numeric:
            return (
              <NumberInput
                key={id}
                {...common}
                value={(value as number | null) ?? ''}
                min={field.settings.min ?? undefined}
                max={field.settings.max ?? undefined}
                decimalSeparator={i18n.language.startsWith('pl') ? ',' : '.'}
                onChange={(v) => set(id, v === '' ? null : v)}
              />
            );
          case T.checkbox:
            return (
              <Checkbox
                key={id}
                {...common}
                checked={Boolean(value)}
                onChange={(e) => set(id, e.currentTarget.checked)}
              />
            );
          case T.customSelect:
          case T.locationSelect:
          case T.memberSelect: {
            const data_ =
              field.type === T.customSelect
                ? options
                : (field.type === T.locationSelect ? data.locations : data.members).map((r) => ({
                    value: r.id,
                    label: r.name,
                  }));
            return (
              <Select
                key={id}
                {...common}
                data={data_}
                value={(value as string | null) ?? null}
                clearable
                onChange={(v) => set(id, v)}
              />
            );
          }
          case T.customMultiSelect:
            return (
              <MultiSelect
                key={id}
                {...common}
                data={options}
                value={(value as string[] | null) ?? []}
                onChange={(v) => set(id, v)}
              />
            );
          default:
            return (
              <TextInput
                key={id}
                {...common}
                value={(value as string | null) ?? ''}
                onChange={(e) => set(id, e.currentTarget.value)}
              />
            );
        }
      })}
      {canEdit && data.items.length > 0 ? (
        <Group>
          <Button
            onClick={save}
            loading={status === 'saving'}
            disabled={Object.keys(draft).length === 0}
            data-testid="client-fields-save"
          >
            {t('fields.save')}
          </Button>
          {status === 'saved' ? <Text c="teal">{t('fields.saved')}</Text> : null}
          {status === 'error' ? <Text c="red">{t('fields.saveError')}</Text> : null}
        </Group>
      ) : null}
    </Stack>
  );
}
