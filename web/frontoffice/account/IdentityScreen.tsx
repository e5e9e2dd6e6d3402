import { Alert, Badge, Center, Group, Image, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useIdentity } from './account.api';
import { useQrDataUrl } from './use-qr-data-url';

/** `identity`: the client's QR code for the kiosk or front desk, and their membership cards. */
export function IdentityScreen() {
  const { t } = useTranslation('account');
  const identity = useIdentity();
  const qr = useQrDataUrl(identity.data?.qrPayload);
  const name = identity.data ? `${identity.data.firstName} ${identity.data.lastName}`.trim() : '';
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md" data-testid="account-identity">
      {identity.isPending ? (
        <Loader size="sm" />
      ) : !identity.data ? (
        <Alert color="red" variant="light">
          {t('loadError')}
        </Alert>
      ) : (
        <Stack gap="md">
          <div>
            <Title order={2} size="h3">
              {t('identity.title')}
            </Title>
            <Text size="sm" c="dimmed" mt={4}>
              {t('identity.intro')}
            </Text>
          </div>
          <Center>
            <Stack gap={4} align="center">
              {qr ? (
                <Image
                  src={qr}
                  w={240}
                  h={240}
                  alt={t('identity.qrAlt', { name })}
                  data-testid="identity-qr"
                />
              ) : (
                <Loader />
              )}
              <Text fw={600}>{name}</Text>
            </Stack>
          </Center>
          <Text fw={600}>{t('identity.cards')}</Text>
          {identity.data.cards.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('identity.noCards')}
            </Text>
          ) : (
            <Group gap="xs" data-testid="identity-cards">
              {identity.data.cards.map((card) => (
                <Badge key={card.id} size="lg" variant="light" radius="sm">
                  {card.number}
                </Badge>
              ))}
            </Group>
          )}
        </Stack>
      )}
    </Paper>
  );
}
