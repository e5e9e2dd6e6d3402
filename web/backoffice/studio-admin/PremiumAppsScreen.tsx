import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  List,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BundleRequestInputSchema,
  type BundleRequestState,
  type BundleRequestView,
} from '../../../shared/contracts/api/studio-records';
import { StudioAdminApi } from '../../../shared/contracts/http/studio-admin';
import { useApiClient } from '../../lib/app-context';
import { toFormErrors } from '../../lib/form-errors';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useBackoffice } from '../backoffice.api';
import { SettingsLayout } from '../settings/SettingsLayout';
import { useStudioDateTime } from '../use-studio-date-time';

const bundleKey = (uuid: string) => ['studio-admin', 'bundle-request', uuid] as const;

/**
 * Settings → Premium apps: the studio asks the platform for the premium mobile apps bundle (spec §7
 * POST bundle/request). The platform's operator is mailed and answers; the screen shows the request
 * and lets a manager withdraw it. Buying the add-on itself is the subscription's business.
 */
export function PremiumAppsScreen() {
  const { t } = useTranslation('studio-admin');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const state = useQuery({
    queryKey: bundleKey(uuid),
    queryFn: ({ signal }) => api.call(StudioAdminApi.bundleRequestState, { params: { uuid }, signal }),
  });
  return (
    <SettingsLayout page="premiumApps">
      <Stack gap="md" maw={760} data-testid="premium-apps-screen">
        <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
          <Stack gap="xs">
            <Title order={2} size="h3">
              {t('bundle.title')}
            </Title>
            <Text size="sm">{t('bundle.intro')}</Text>
            <List size="sm" spacing={4}>
              <List.Item>{t('bundle.point1')}</List.Item>
              <List.Item>{t('bundle.point2')}</List.Item>
              <List.Item>{t('bundle.point3')}</List.Item>
            </List>
          </Stack>
        </Paper>
        {state.error ? (
          <Alert color="red">{t('loadError')}</Alert>
        ) : !state.data ? (
          <Center p="xl">
            <Loader size="sm" />
          </Center>
        ) : (
          <BundleState state={state.data} />
        )}
      </Stack>
    </SettingsLayout>
  );
}

function BundleState({ state }: { state: BundleRequestState }) {
  const open = state.request?.status === 'requested' ? state.request : null;
  return (
    <>
      {open ? <OpenRequest request={open} /> : <RequestForm />}
      {state.request?.status === 'withdrawn' ? <WithdrawnNote request={state.request} /> : null}
    </>
  );
}

function OpenRequest({ request }: { request: BundleRequestView }) {
  const { t } = useTranslation('studio-admin');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const canEdit = useBackoffice().member.abilities.includes('settings.edit');
  const queryClient = useQueryClient();
  const when = useStudioDateTime();
  const [error, setError] = useState<string | null>(null);
  const withdraw = useMutation({
    mutationFn: () => api.call(StudioAdminApi.withdrawBundleRequest, { params: { uuid } }),
    onSuccess: (next) => queryClient.setQueryData(bundleKey(uuid), next),
    onError: (err) => setError(toFormErrors(err, t).form.join(' ')),
  });
  const by = request.requestedBy
    ? `${request.requestedBy.firstName} ${request.requestedBy.lastName}`.trim()
    : null;
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md" data-testid="bundle-request">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Text fw={600}>{t('bundle.requestedTitle')}</Text>
          <Badge color="blue" variant="light" data-testid="bundle-status">
            {t('bundle.status.requested')}
          </Badge>
        </Group>
        <Text size="sm">
          {by
            ? t('bundle.requestedBy', { date: when(request.createdAt), name: by })
            : t('bundle.requestedAt', { date: when(request.createdAt) })}
        </Text>
        <Text size="sm" c="dimmed">
          {t('bundle.nextSteps', {
            contact: [request.contactName, request.contactEmail, request.contactPhone]
              .filter(Boolean)
              .join(', '),
          })}
        </Text>
        {request.message ? (
          <Text
            size="sm"
            style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}
            data-testid="bundle-message"
          >
            {request.message}
          </Text>
        ) : null}
        {error ? (
          <Alert color="red" variant="light">
            {error}
          </Alert>
        ) : null}
        {canEdit ? (
          <Group>
            <Button
              variant="default"
              color="red"
              loading={withdraw.isPending}
              onClick={() => withdraw.mutate()}
              data-testid="bundle-withdraw"
            >
              {t('bundle.withdraw')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}

function WithdrawnNote({ request }: { request: BundleRequestView }) {
  const { t } = useTranslation('studio-admin');
  const when = useStudioDateTime();
  return (
    <Text size="sm" c="dimmed" data-testid="bundle-withdrawn">
      {t('bundle.withdrawnAt', { date: when(request.withdrawnAt ?? request.createdAt) })}
    </Text>
  );
}

function RequestForm() {
  const { t } = useTranslation('studio-admin');
  const api = useApiClient();
  const { studio, member } = useBackoffice();
  const canEdit = member.abilities.includes('settings.edit');
  const queryClient = useQueryClient();
  const form = useServerForm({
    initialValues: {
      contactName: `${member.firstName} ${member.lastName}`.trim(),
      contactEmail: member.emailAddress,
      contactPhone: '',
      message: '',
    },
    schema: BundleRequestInputSchema,
    submit: (body) => api.call(StudioAdminApi.postBundleRequest, { params: { uuid: studio.uuid }, body }),
    onSuccess: (request) => queryClient.setQueryData(bundleKey(studio.uuid), { request }),
    errorOptions: { messagesByKey: { 'studio.bundleRequested': 'studio-admin:bundle.alreadyRequested' } },
  });
  if (!canEdit) {
    return (
      <Text size="sm" c="dimmed" data-testid="bundle-none">
        {t('bundle.noneReadOnly')}
      </Text>
    );
  }
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
      <form {...form.formProps} data-testid="bundle-form">
        <Stack gap="md">
          <Text fw={600}>{t('bundle.formTitle')}</Text>
          <FormErrorList errors={form.formErrors} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput {...form.getInputProps('contactName')} label={t('bundle.contactName')} required />
            <TextInput
              {...form.getInputProps('contactEmail')}
              label={t('bundle.contactEmail')}
              type="email"
              required
            />
            <TextInput {...form.getInputProps('contactPhone')} label={t('bundle.contactPhone')} type="tel" />
          </SimpleGrid>
          <Textarea
            {...form.getInputProps('message')}
            onChange={(event) => form.setValue('message', event.currentTarget.value)}
            label={t('bundle.message')}
            description={t('bundle.messageHint')}
            autosize
            minRows={3}
            maxRows={8}
            data-testid="bundle-message-input"
          />
          <SubmitButton state={form.buttonState} w="fit-content" data-testid="bundle-send">
            {t('bundle.send')}
          </SubmitButton>
        </Stack>
      </form>
    </Paper>
  );
}
