import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useBackoffice } from '../backoffice.api';
import { ApiKeysSection } from './ApiKeysSection';
import { WebhooksSection } from './WebhooksSection';

/** Integrations (issue 24): the public API's keys and the webhooks, Settings rights. */
export function IntegrationsScreen() {
  const { t } = useTranslation('integrations');
  const { member } = useBackoffice();
  const canEdit = member.abilities.includes('settings.edit');
  return (
    <Stack gap="lg" data-testid="integrations-screen">
      <div>
        <Title order={2}>{t('title')}</Title>
        <Text c="dimmed">{t('intro')}</Text>
      </div>
      <ApiKeysSection canEdit={canEdit} />
      <WebhooksSection canEdit={canEdit} />
    </Stack>
  );
}
