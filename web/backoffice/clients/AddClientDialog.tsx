import {
  Alert,
  Anchor,
  Button,
  Group,
  List,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type {
  ClientAddInit,
  ClientCheckExistenceResult,
  ClientCreateResult,
  ClientSearchItem,
} from '../../../shared/contracts/api/clients';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import {
  clientCalls,
  useClientAddInit,
  useExistenceCheck,
  useInvalidateClients,
  usePhone,
  useStudioUuid,
} from './clients.api';
import { ClientsLoadError, ClientsLoading, localiseClientError } from './ClientStates';

export function AddClientDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation('clients');
  const phone = usePhone();
  const init = useClientAddInit(opened);
  return (
    <Modal opened={opened} onClose={onClose} title={t('add.title')} fullScreen={phone} size="lg">
      {!opened ? null : init.data ? (
        <AddClientForm init={init.data} onDone={onClose} />
      ) : init.error ? (
        <ClientsLoadError error={init.error} onRetry={() => void init.refetch()} />
      ) : (
        <ClientsLoading />
      )}
    </Modal>
  );
}

const personName = (c: Pick<ClientSearchItem, 'firstName' | 'lastName'>) =>
  `${c.firstName} ${c.lastName}`.trim();

function AddClientForm({ init, onDone }: { init: ClientAddInit; onDone(): void }) {
  const { t } = useTranslation('clients');
  const api = useApiClient();
  const studio = useStudioUuid();
  const navigate = useNavigate();
  const invalidate = useInvalidateClients();
  const [created, setCreated] = useState<ClientCreateResult | null>(null);
  const form = useServerForm({
    initialValues: {
      firstName: '',
      lastName: '',
      emailAddress: '',
      phone: '',
      birthDate: '',
      sex: '',
      note: '',
    },
    submit: ({ sex, ...values }) =>
      clientCalls
        .create(api, studio, { ...values, sex: sex === '' ? null : (Number(sex) as 0 | 1) })
        .catch((error: unknown) => {
          throw localiseClientError(error, t);
        }),
    onSuccess: (result) => {
      void invalidate();
      const noteworthy =
        result.possibleDuplicates.length > 0 || result.restored || result.linkedExistingAccount;
      if (noteworthy) setCreated(result);
      else {
        onDone();
        navigate(`/clients/${result.client.id}`);
      }
    },
  });
  const existence = useExistenceCheck(form.values.emailAddress, form.values.phone);

  if (created) {
    return (
      <Stack gap="md" data-testid="client-add-result">
        {created.restored ? <Alert color="blue">{t('add.restored')}</Alert> : null}
        {created.linkedExistingAccount ? <Alert color="blue">{t('add.linkedExistingAccount')}</Alert> : null}
        {created.possibleDuplicates.length > 0 ? (
          <DuplicateList
            title={t('add.samePhoneAfter')}
            matches={created.possibleDuplicates}
            onOpen={onDone}
          />
        ) : null}
        <Group justify="flex-end">
          <Button
            onClick={() => {
              onDone();
              navigate(`/clients/${created.client.id}`);
            }}
            data-testid="client-add-open-profile"
          >
            {t('add.openProfile')}
          </Button>
        </Group>
      </Stack>
    );
  }

  const { fields } = init;
  return (
    <form {...form.formProps} data-testid="client-add-form">
      <Stack gap="md">
        <FormErrorList errors={form.formErrors} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            {...form.getInputProps('firstName')}
            label={t('fields.firstName')}
            required
            maxLength={fields.firstName.maxLength}
            data-autofocus
          />
          <TextInput
            {...form.getInputProps('lastName')}
            label={t('fields.lastName')}
            required
            maxLength={fields.lastName.maxLength}
          />
          <TextInput
            {...form.getInputProps('emailAddress')}
            type="email"
            label={t('fields.emailAddress')}
            autoComplete="off"
            maxLength={fields.emailAddress.maxLength}
          />
          <TextInput
            {...form.getInputProps('phone')}
            type="tel"
            label={t('fields.phone')}
            maxLength={fields.phone.maxLength}
          />
        </SimpleGrid>
        {existence.data?.exists ? <ExistenceWarning result={existence.data} onOpen={onDone} /> : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput {...form.getInputProps('birthDate')} type="date" label={t('fields.birthDate')} />
          <Select
            name="sex"
            label={t('fields.sex')}
            placeholder={t('fields.sexNone')}
            data={init.sexOptions.map((o) => ({ value: String(o.value), label: t(o.labelKey) }))}
            value={form.values.sex || null}
            onChange={(value) => form.setValue('sex', value ?? '')}
            error={form.fieldErrors.sex}
            clearable
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
        <Textarea
          name="note"
          label={t('fields.firstNote')}
          description={t('fields.firstNoteHint')}
          value={form.values.note}
          onChange={(event) => form.setValue('note', event.currentTarget.value)}
          error={form.fieldErrors.note}
          maxLength={fields.note.maxLength}
          autosize
          minRows={2}
          maxRows={6}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('actions.cancel')}
          </Button>
          <SubmitButton state={form.buttonState} data-testid="client-add-submit">
            {t('add.submit')}
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}

function ExistenceWarning({ result, onOpen }: { result: ClientCheckExistenceResult; onOpen(): void }) {
  const { t } = useTranslation('clients');
  return (
    <Alert color="yellow" variant="light" title={t('add.existsTitle')} data-testid="client-add-duplicates">
      <List size="sm" spacing={4}>
        {result.matches.map((match) => (
          <List.Item key={match.id} data-testid="client-add-duplicate">
            <Anchor component={Link} to={`/clients/${match.id}`} onClick={onOpen} size="sm" fw={500}>
              {personName(match)}
            </Anchor>{' '}
            <Text span size="sm" c="dimmed">
              {[match.emailAddress, match.phone].filter(Boolean).join(' · ')}
              {' — '}
              {match.matchedBy.map((by) => t(`add.matchedBy.${by}`)).join(', ')}
              {match.status === 'archived' ? ` (${t('status.archived')})` : ''}
            </Text>
          </List.Item>
        ))}
      </List>
      {result.matches.some((m) => m.matchedBy.includes('emailAddress')) ? (
        <Text size="xs" mt="xs">
          {result.matches.some((m) => m.matchedBy.includes('emailAddress') && m.status === 'archived')
            ? t('add.emailArchivedHint')
            : t('add.emailTakenHint')}
        </Text>
      ) : null}
    </Alert>
  );
}

function DuplicateList({
  title,
  matches,
  onOpen,
}: {
  title: string;
  matches: ClientSearchItem[];
  onOpen(): void;
}) {
  return (
    <Alert color="yellow" variant="light" title={title}>
      <List size="sm">
        {matches.map((m) => (
          <List.Item key={m.id}>
            <Anchor component={Link} to={`/clients/${m.id}`} onClick={onOpen} size="sm">
              {personName(m)}
            </Anchor>{' '}
            <Text span size="sm" c="dimmed">
              {m.phone ?? ''}
            </Text>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
