import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Image,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ClientAccountsApi } from '../../../shared/contracts/http/client-accounts';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useQrDataUrl } from '../../frontoffice/account/use-qr-data-url';
import { useStudioUuid } from '../clients/clients.api';
import type { ClientProfileTabProps } from '../clients/profile-tabs';
import { useStudioDates } from '../use-studio-date-time';

const identityKey = (studio: string, clientId: string) => ['client-identities', studio, clientId] as const;

/**
 * The client profile's Identities tab: the client's QR code (what the kiosk scans), a new QR code on
 * request, and membership card numbers (add, remove; `clients.edit`). Search by card number works in
 * the client list and search box.
 */
export function IdentitiesTab({ clientId, profile }: ClientProfileTabProps) {
  const { t } = useTranslation('account');
  const dates = useStudioDates();
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const canEdit = profile.abilities.canEdit;
  const key = identityKey(studio, clientId);
  const identities = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      api.call(ClientAccountsApi.clientIdentities, { params: { uuid: studio, user: clientId }, signal }),
  });
  const qr = useQrDataUrl(identities.data?.qrPayload, 200);
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const remove = useMutation({
    mutationFn: (id: string) =>
      api.call(ClientAccountsApi.removeClientIdentity, { params: { uuid: studio, clientIdentity: id } }),
    onSettled: refresh,
  });
  const regenerate = useMutation({
    mutationFn: () => api.call(ClientAccountsApi.regenerateQr, { params: { uuid: studio, user: clientId } }),
    onSettled: refresh,
  });
  const form = useServerForm({
    initialValues: { cardNumber: '' },
    submit: (v) =>
      api.call(ClientAccountsApi.addClientIdentity, { params: { uuid: studio, user: clientId }, body: v }),
    onSuccess: () => {
      form.setValue('cardNumber', '');
      void refresh();
    },
  });

  if (identities.isPending) return <Loader size="sm" />;
  if (!identities.data)
    return (
      <Alert color="red" variant="light">
        {t('loadError')}
      </Alert>
    );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" maw={760} data-testid="client-identities">
      <Paper withBorder p="lg" radius="md">
        <Stack gap="xs" align="flex-start">
          <Title order={3} size="h5">
            {t('identities.qr')}
          </Title>
          <Text size="xs" c="dimmed">
            {t('identities.qrHint')}
          </Text>
          {qr ? (
            <Image src={qr} w={180} h={180} alt={t('identities.qr')} data-testid="client-identity-qr" />
          ) : (
            <Loader size="sm" />
          )}
          {canEdit && (
            <Button
              size="xs"
              variant="default"
              onClick={() => regenerate.mutate()}
              loading={regenerate.isPending}
            >
              {t('identities.regenerate')}
            </Button>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="lg" radius="md">
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('identities.cards')}
          </Title>
          {identities.data.items.length === 0 ? (
            <Text size="sm" c="dimmed" data-testid="client-cards-empty">
              {t('identities.empty')}
            </Text>
          ) : (
            identities.data.items.map((card) => (
              <Group key={card.id} justify="space-between" wrap="nowrap" data-testid="client-card">
                <div>
                  <Badge size="lg" variant="light" radius="sm">
                    {card.number}
                  </Badge>
                  <Text size="xs" c="dimmed" mt={2}>
                    {t('identities.addedAt', {
                      date: dates.date(card.createdAt),
                    })}
                  </Text>
                </div>
                {canEdit && (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('identities.remove')}
                    title={t('identities.remove')}
                    onClick={() => remove.mutate(card.id)}
                  >
                    ×
                  </ActionIcon>
                )}
              </Group>
            ))
          )}
          {canEdit && (
            <form {...form.formProps} data-testid="client-card-form">
              <Stack gap="xs">
                <FormErrorList errors={form.formErrors} />
                <Group align="flex-end" gap="xs" wrap="nowrap">
                  <TextInput
                    {...form.getInputProps('cardNumber')}
                    label={t('identities.cardNumber')}
                    style={{ flex: 1 }}
                  />
                  <SubmitButton state={form.buttonState}>{t('identities.add')}</SubmitButton>
                </Group>
              </Stack>
            </form>
          )}
        </Stack>
      </Paper>
    </SimpleGrid>
  );
}
