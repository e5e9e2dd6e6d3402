import {
  Badge,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClientDetail, ClientEditInit, ClientProfile } from '../../../../shared/contracts/api/clients';
import { useApiClient } from '../../../lib/app-context';
import { useOffline } from '../../../lib/connectivity';
import { toFormErrors } from '../../../lib/form-errors';
import { FormErrorList } from '../../../ui/FormErrorList';
import { SubmitButton } from '../../../ui/SubmitButton';
import { useServerForm } from '../../../ui/use-server-form';
import { useSubmitButton } from '../../../ui/use-submit-button';
import { useBackoffice } from '../../backoffice.api';
import { ConfirmDialog } from '../../staff/MemberDialogs';
import {
  clientCalls,
  useClientEditInit,
  useInvalidateClients,
  usePhone,
  useStudioUuid,
} from '../clients.api';
import { EmailBounceNotice } from '../../client-records/EmailBounceNotice';
import { ClientsLoadError, ClientsLoading, localiseClientError } from '../ClientStates';
import { formatDate } from '../format';
import type { ClientProfileTabProps } from '../profile-tabs';

/** Details (and their edit form), valid passes, tags, archive / restore. */
export function OverviewTab({ clientId, client, profile }: ClientProfileTabProps) {
  const init = useClientEditInit(clientId);
  const studioUuid = useStudioUuid();
  const phone = usePhone();
  const { abilities } = profile;
  const details = init.error ? (
    <ClientsLoadError error={init.error} onRetry={() => void init.refetch()} />
  ) : !init.data ? (
    <ClientsLoading />
  ) : (
    <DetailsCard client={client} init={init.data} canEdit={abilities.canEdit} />
  );
  const status = <StatusCard client={client} profile={profile} />;
  const passes = <PassesCard profile={profile} />;
  const tags = init.data ? <TagsCard client={client} init={init.data} canEdit={abilities.canEdit} /> : null;
  // Bounced email first: whoever opens the profile should ask for a new address.
  const bounce = (
    <EmailBounceNotice studioUuid={studioUuid} clientId={clientId} canClear={abilities.canEdit} />
  );
  // On a phone the archive card comes last: it is the rarest and the most drastic action.
  if (phone)
    return (
      <Stack gap="md">
        {bounce}
        {details}
        {passes}
        {tags}
        {status}
      </Stack>
    );
  return (
    <Stack gap="md">
      {bounce}
      <SimpleGrid cols={2} spacing="md" verticalSpacing="md">
        <Stack gap="md">
          {details}
          {status}
        </Stack>
        <Stack gap="md">
          {passes}
          {tags}
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}

function Section({
  title,
  action,
  children,
  testId,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Card withBorder radius="md" padding="lg" data-testid={testId}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4">
            {title}
          </Title>
          {action}
        </Group>
        {children}
      </Stack>
    </Card>
  );
}

function Detail({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid={testId}>
        {value || '—'}
      </Text>
    </div>
  );
}

function DetailsCard({
  client,
  init,
  canEdit,
}: {
  client: ClientDetail;
  init: ClientEditInit;
  canEdit: boolean;
}) {
  const { t, i18n } = useTranslation('clients');
  const desk = useTranslation('desk').t;
  const offline = useOffline();
  const { timeZone } = useBackoffice().studio;
  const [editing, setEditing] = useState(false);
  const sex = init.sexOptions.find((o) => o.value === client.sex);
  return (
    <Section
      title={t('profile.details')}
      testId="client-details"
      action={
        canEdit && !editing ? (
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => setEditing(true)}
            data-testid="client-edit"
          >
            {t('actions.edit')}
          </Button>
        ) : null
      }
    >
      {editing ? (
        <EditForm client={client} init={init} onDone={() => setEditing(false)} />
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Detail label={t('fields.firstName')} value={client.firstName} />
          <Detail label={t('fields.lastName')} value={client.lastName} />
          <Detail label={t('fields.emailAddress')} value={client.emailAddress} testId="client-email" />
          <Detail label={t('fields.phone')} value={client.phone} testId="client-phone" />
          <Detail
            label={t('fields.birthDate')}
            value={client.birthDate ? formatDate(client.birthDate, i18n.language) : null}
          />
          <Detail label={t('fields.sex')} value={sex ? t(sex.labelKey) : null} />
          <Detail
            label={t('fields.createdAt')}
            value={formatDate(client.createdAt, i18n.language, timeZone)}
          />
          {/* The desk's copy does not know about accounts: offline it says so rather than guess. */}
          <Detail
            label={t('profile.account')}
            testId="client-account"
            value={
              offline
                ? desk('offline.notKnown')
                : client.hasAccount
                  ? t('profile.hasAccount')
                  : t('profile.noAccount')
            }
          />
        </SimpleGrid>
      )}
    </Section>
  );
}

function EditForm({ client, init, onDone }: { client: ClientDetail; init: ClientEditInit; onDone(): void }) {
  const { t } = useTranslation('clients');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateClients();
  const form = useServerForm({
    initialValues: {
      firstName: client.firstName,
      lastName: client.lastName,
      emailAddress: client.emailAddress ?? '',
      phone: client.phone ?? '',
      birthDate: client.birthDate ?? '',
      sex: client.sex === null ? '' : String(client.sex),
    },
    submit: ({ sex, ...values }) =>
      clientCalls
        .update(api, studio, client.id, { ...values, sex: sex === '' ? null : (Number(sex) as 0 | 1) })
        .catch((error: unknown) => {
          throw localiseClientError(error, t);
        }),
    onSuccess: () => {
      void invalidate();
      onDone();
    },
  });
  return (
    <form {...form.formProps} data-testid="client-edit-form">
      <Stack gap="sm">
        <FormErrorList errors={form.formErrors} />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput {...form.getInputProps('firstName')} label={t('fields.firstName')} required />
          <TextInput {...form.getInputProps('lastName')} label={t('fields.lastName')} required />
          <TextInput {...form.getInputProps('emailAddress')} type="email" label={t('fields.emailAddress')} />
          <TextInput {...form.getInputProps('phone')} type="tel" label={t('fields.phone')} />
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
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('actions.cancel')}
          </Button>
          <SubmitButton state={form.buttonState} data-testid="client-edit-submit">
            {t('actions.save')}
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}

function StatusCard({ client, profile }: { client: ClientDetail; profile: ClientProfile }) {
  const { t, i18n } = useTranslation('clients');
  const { timeZone } = useBackoffice().studio;
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateClients();
  const [archiving, setArchiving] = useState(false);
  const restore = useSubmitButton();
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const { abilities } = profile;
  const archived = client.status === 'archived';
  if (archived ? !abilities.canEdit : !abilities.canDelete) return null;
  return (
    <Section title={t('profile.status')} testId="client-status">
      {archived ? (
        <>
          <Text size="sm">
            {t('profile.archivedSince', {
              date: client.archivedAt ? formatDate(client.archivedAt, i18n.language, timeZone) : '—',
            })}
          </Text>
          <FormErrorList errors={failure ? toFormErrors(failure.error, t).form : []} />
          <Group>
            <SubmitButton
              type="button"
              variant="light"
              state={restore.state}
              onClick={() =>
                void restore
                  .run(async () => {
                    setFailure(null);
                    await clientCalls.restore(api, studio, client.id);
                    await invalidate();
                  })
                  .then((outcome) => {
                    if (outcome.accepted && !outcome.ok) setFailure({ error: outcome.error });
                  })
              }
              data-testid="client-restore"
            >
              {t('profile.restore')}
            </SubmitButton>
          </Group>
        </>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {t('profile.archiveHint')}
          </Text>
          <Group>
            <Button
              color="red"
              variant="light"
              onClick={() => setArchiving(true)}
              data-testid="client-archive"
            >
              {t('profile.archive')}
            </Button>
          </Group>
        </>
      )}
      <ConfirmDialog
        opened={archiving}
        title={t('profile.archiveTitle', { name: `${client.firstName} ${client.lastName}` })}
        text={t('profile.archiveText')}
        submitLabel={t('profile.archive')}
        onConfirm={async () => {
          await clientCalls.archive(api, studio, client.id);
          await invalidate();
        }}
        onClose={() => setArchiving(false)}
        testId="client-archive-confirm"
      />
    </Section>
  );
}

function PassesCard({ profile }: { profile: ClientProfile }) {
  const { t, i18n } = useTranslation('clients');
  const { timeZone } = useBackoffice().studio;
  return (
    <Section title={t('profile.validPasses')} testId="client-passes">
      {profile.validPasses.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('profile.noValidPasses')}
        </Text>
      ) : (
        <Stack gap="xs">
          {profile.validPasses.map((pass) => {
            const name =
              pass.name[i18n.language]?.value ??
              Object.values(pass.name)[0]?.value ??
              t('profile.passFallback');
            return (
              <Group key={pass.id} justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" fw={500} style={{ minWidth: 0 }} truncate>
                  {name}
                </Text>
                <Group gap={6} wrap="nowrap">
                  {pass.entries !== null ? (
                    <Badge variant="light" style={{ textTransform: 'none' }}>
                      {t('profile.entries', { count: pass.entries })}
                    </Badge>
                  ) : null}
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {pass.expiresAt
                      ? t('profile.expires', { date: formatDate(pass.expiresAt, i18n.language, timeZone) })
                      : t('profile.neverExpires')}
                  </Text>
                </Group>
              </Group>
            );
          })}
        </Stack>
      )}
    </Section>
  );
}

/** The client's tags: existing ones picked by name, new names become new client tags on save. */
function TagsCard({
  client,
  init,
  canEdit,
}: {
  client: ClientDetail;
  init: ClientEditInit;
  canEdit: boolean;
}) {
  const { t } = useTranslation('clients');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateClients();
  const button = useSubmitButton();
  const current = client.tags.map((tag) => tag.name);
  const [names, setNames] = useState<string[]>(current);
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const changed = names.length !== current.length || names.some((n) => !current.includes(n));

  const save = () =>
    void button
      .run(async () => {
        setFailure(null);
        const byName = new Map(init.tags.map((tag) => [tag.name.toLocaleLowerCase(), tag.id]));
        const wanted: string[] = [];
        for (const name of names) {
          const known = byName.get(name.toLocaleLowerCase());
          wanted.push(known ?? (await clientCalls.createTag(api, studio, name)).id);
        }
        const removed = client.tags.filter((tag) => !wanted.includes(tag.id)).map((tag) => tag.id);
        const added = wanted.filter((id) => !client.tags.some((tag) => tag.id === id));
        if (added.length > 0) await clientCalls.addTags(api, studio, added, [client.id]);
        if (removed.length > 0) await clientCalls.removeTags(api, studio, removed, [client.id]);
        await invalidate();
      })
      .then((outcome) => {
        if (outcome.accepted && !outcome.ok) setFailure({ error: localiseClientError(outcome.error, t) });
      });
  const errors = failure ? toFormErrors(failure.error, t, { unexpected: 'withCode' }) : null;

  return (
    <Section title={t('fields.tags')} testId="client-tags">
      {canEdit ? (
        <Stack gap="sm">
          <TagsInput
            aria-label={t('fields.tags')}
            placeholder={t('profile.tagsPlaceholder')}
            data={init.tags.map((tag) => tag.name)}
            value={names}
            onChange={setNames}
            maxTags={20}
            clearable
            comboboxProps={{ withinPortal: true }}
            error={errors?.fields.name}
            data-testid="client-tags-input"
          />
          {errors ? <FormErrorList errors={errors.form} /> : null}
          <Group justify="flex-end">
            <SubmitButton
              type="button"
              size="compact-sm"
              state={button.state}
              disabled={!changed}
              onClick={save}
              data-testid="client-tags-save"
            >
              {t('profile.saveTags')}
            </SubmitButton>
          </Group>
        </Stack>
      ) : client.tags.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('profile.noTags')}
        </Text>
      ) : (
        <Group gap={6}>
          {client.tags.map((tag) => (
            <Badge key={tag.id} variant="light" color="gray" style={{ textTransform: 'none' }}>
              {tag.name}
            </Badge>
          ))}
        </Group>
      )}
      {canEdit ? (
        <Text size="xs" c="dimmed">
          {t('profile.tagsHint')}
        </Text>
      ) : null}
    </Section>
  );
}
