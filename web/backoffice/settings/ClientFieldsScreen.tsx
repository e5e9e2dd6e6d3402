import {
  Alert,
  Badge,
  Button,
  Center,
  Checkbox,
  Group,
  Loader,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClientFieldView } from '../../../shared/contracts/api/client-records';
import { fieldText, SELECT_TYPES } from '../../../shared/domain/client-fields';
import { ClientCustomFieldType } from '../../../shared/enums/clients';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useBackoffice } from '../backoffice.api';
import { ConfirmDialog } from '../staff/MemberDialogs';
import {
  clientFieldCalls,
  formValuesOf,
  inputOf,
  useClientFields,
  useInvalidateClientFields,
  type ClientFieldFormValues,
} from './client-fields.api';
import { SettingsLayout } from './SettingsLayout';

const usePhone = () => useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });

/**
 * Settings → Client fields: the studio's own questions about its clients (seven types, spec §3),
 * shown on every client's Custom fields tab. Encrypted ones are stored encrypted and revealed only to
 * staff allowed to decrypt. Changing needs `settings.edit`; everyone with `clients.view` may look.
 */
export function ClientFieldsScreen() {
  const { t, i18n } = useTranslation('settings');
  const { member } = useBackoffice();
  const canEdit = member.abilities.includes('settings.edit');
  const fields = useClientFields();
  const [editing, setEditing] = useState<ClientFieldView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ClientFieldView | null>(null);
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const invalidate = useInvalidateClientFields();
  const phone = usePhone();
  const name = (f: ClientFieldView) => fieldText(f.name, i18n.language);

  const body = fields.error ? (
    <Alert color="red" data-testid="client-fields-error">
      {t('clientFields.loadError')}
    </Alert>
  ) : !fields.data ? (
    <Center p="xl">
      <Loader size="sm" />
    </Center>
  ) : fields.data.items.length === 0 ? (
    <Paper withBorder p="xl" radius="md" data-testid="client-fields-empty">
      <Text c="dimmed">{t('clientFields.empty')}</Text>
    </Paper>
  ) : phone ? (
    <Stack gap="sm">
      {fields.data.items.map((f) => (
        <Paper
          key={f.id}
          withBorder
          p="md"
          radius="md"
          data-testid="client-field-row"
          data-name={name(f)}
          data-id={f.id}
        >
          <Stack gap={6}>
            <Text fw={600}>{name(f)}</Text>
            <FieldBadges field={f} />
            {canEdit ? <RowActions field={f} onEdit={setEditing} onDelete={setDeleting} /> : null}
          </Stack>
        </Paper>
      ))}
    </Stack>
  ) : (
    <Table verticalSpacing="sm" highlightOnHover data-testid="client-fields-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('clientFields.name')}</Table.Th>
          <Table.Th>{t('clientFields.type')}</Table.Th>
          <Table.Th>{t('clientFields.properties')}</Table.Th>
          {canEdit ? <Table.Th /> : null}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {fields.data.items.map((f) => (
          <Table.Tr key={f.id} data-testid="client-field-row" data-name={name(f)} data-id={f.id}>
            <Table.Td fw={600}>{name(f)}</Table.Td>
            <Table.Td>{t(f.typeLabelKey)}</Table.Td>
            <Table.Td>
              <FieldBadges field={f} hideType />
            </Table.Td>
            {canEdit ? (
              <Table.Td>
                <RowActions field={f} onEdit={setEditing} onDelete={setDeleting} />
              </Table.Td>
            ) : null}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );

  return (
    <SettingsLayout page="clientFields">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Text c="dimmed" maw={700}>
          {t('clientFields.intro')}
        </Text>
        {canEdit ? (
          <Button onClick={() => setEditing('new')} data-testid="client-field-add">
            {t('clientFields.add')}
          </Button>
        ) : null}
      </Group>
      {body}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        fullScreen={phone}
        size="lg"
        title={
          editing && editing !== 'new'
            ? t('clientFields.editTitle', { name: name(editing) })
            : t('clientFields.addTitle')
        }
      >
        {editing !== null ? (
          <FieldForm
            key={editing === 'new' ? 'new' : editing.id}
            field={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Modal>
      <ConfirmDialog
        opened={deleting !== null}
        title={t('clientFields.deleteTitle')}
        text={deleting ? t('clientFields.deleteText', { name: name(deleting) }) : ''}
        submitLabel={t('clientFields.delete')}
        testId="client-field-delete-confirm"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          await clientFieldCalls.remove(api, studio, deleting!.id);
          await invalidate();
          setDeleting(null);
        }}
      />
    </SettingsLayout>
  );
}

function FieldBadges({ field, hideType = false }: { field: ClientFieldView; hideType?: boolean }) {
  const { t } = useTranslation('settings');
  return (
    <Group gap={6}>
      {hideType ? null : <Badge variant="light">{t(field.typeLabelKey)}</Badge>}
      {field.required ? <Badge color="orange">{t('clientFields.required')}</Badge> : null}
      {field.encrypted ? <Badge color="grape">{t('clientFields.encrypted')}</Badge> : null}
      {field.options.length > 0 ? (
        <Badge variant="outline" color="gray">
          {t('clientFields.optionCount', { count: field.options.length })}
        </Badge>
      ) : null}
    </Group>
  );
}

function RowActions({
  field,
  onEdit,
  onDelete,
}: {
  field: ClientFieldView;
  onEdit(f: ClientFieldView): void;
  onDelete(f: ClientFieldView): void;
}) {
  const { t } = useTranslation('settings');
  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap">
      <Button size="xs" variant="default" onClick={() => onEdit(field)} data-testid="client-field-edit">
        {t('clientFields.edit')}
      </Button>
      <Button
        size="xs"
        variant="subtle"
        color="red"
        onClick={() => onDelete(field)}
        data-testid="client-field-delete"
      >
        {t('clientFields.delete')}
      </Button>
    </Group>
  );
}

function FieldForm({ field, onDone }: { field: ClientFieldView | null; onDone(): void }) {
  const { t } = useTranslation('settings');
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const invalidate = useInvalidateClientFields();
  const form = useServerForm<ClientFieldFormValues, ClientFieldView>({
    initialValues: formValuesOf(field),
    submit: (values) =>
      field
        ? clientFieldCalls.update(api, studio, field.id, inputOf(values, field))
        : clientFieldCalls.create(api, studio, inputOf(values, null)),
    onSuccess: () => {
      void invalidate();
      onDone();
    },
    errorOptions: { unexpected: 'savingSettings' },
  });
  const type = Number(form.values.type) as ClientCustomFieldType;
  const types = Object.values(ClientCustomFieldType).map((v) => ({
    value: String(v),
    label: t(`enums:clientCustomFieldType.${v}`),
  }));
  const check = (name: 'required' | 'encrypted') => ({
    checked: form.values[name] === 'true',
    onChange: (e: React.ChangeEvent<HTMLInputElement>) =>
      form.setValue(name, String(e.currentTarget.checked)),
  });
  return (
    <form {...form.formProps} data-testid="client-field-form">
      <Stack gap="md">
        <FormErrorList errors={form.formErrors} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput {...form.getInputProps('name')} label={t('clientFields.nameEn')} data-autofocus />
          <TextInput {...form.getInputProps('namePl')} label={t('clientFields.namePl')} />
        </SimpleGrid>
        <Text size="xs" c="dimmed" mt={-8}>
          {t('clientFields.nameHint')}
        </Text>
        <Select
          name="type"
          label={t('clientFields.type')}
          data={types}
          value={form.values.type}
          onChange={(v) => form.setValue('type', v ?? '0')}
          error={form.fieldErrors.type}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data-testid="client-field-type"
        />
        {SELECT_TYPES.includes(type) ? (
          <Textarea
            name="options"
            label={t('clientFields.options')}
            description={t('clientFields.optionsHint')}
            value={form.values.options}
            onChange={(e) => form.setValue('options', e.currentTarget.value)}
            error={form.fieldErrors.options}
            autosize
            minRows={3}
            data-testid="client-field-options"
          />
        ) : null}
        {type === ClientCustomFieldType.numeric ? (
          <SimpleGrid cols={2}>
            <TextInput
              {...form.getInputProps('settings.min')}
              label={t('clientFields.min')}
              inputMode="decimal"
            />
            <TextInput
              {...form.getInputProps('settings.max')}
              label={t('clientFields.max')}
              inputMode="decimal"
            />
          </SimpleGrid>
        ) : null}
        {type === ClientCustomFieldType.text ? (
          <TextInput
            {...form.getInputProps('settings.maxLength')}
            label={t('clientFields.maxLength')}
            inputMode="numeric"
          />
        ) : null}
        <Checkbox
          label={t('clientFields.requiredLabel')}
          {...check('required')}
          data-testid="client-field-required"
        />
        <Checkbox
          label={t('clientFields.encryptedLabel')}
          description={t('clientFields.encryptedHint')}
          {...check('encrypted')}
          disabled={Boolean(field)}
          data-testid="client-field-encrypted"
        />
        <TextInput
          {...form.getInputProps('position')}
          label={t('clientFields.position')}
          inputMode="numeric"
          w={160}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('clientFields.cancel')}
          </Button>
          <SubmitButton state={form.buttonState} data-testid="client-field-submit">
            {t('clientFields.save')}
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}
