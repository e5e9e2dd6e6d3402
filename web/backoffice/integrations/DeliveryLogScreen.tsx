import {
  Accordion,
  Alert,
  Anchor,
  Button,
  Code,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import type { WebhookDelivery } from '../../../shared/contracts/api/integrations';
import { useBackoffice } from '../backoffice.api';
import { useStudioDateTime } from '../use-studio-date-time';
import { useDeliveries, useIntegrationCalls, useWebhooks } from './integrations.api';
import { DeliveryStatus, failure } from './shared';

function pretty(body: string) {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function Attempts({ delivery }: { delivery: WebhookDelivery }) {
  const { t } = useTranslation('integrations');
  const when = useStudioDateTime();
  if (delivery.log.length === 0) return <Text c="dimmed">{t('delivery.noAttempts')}</Text>;
  return (
    <Stack gap="md">
      {delivery.log.map((a) => (
        <Stack key={a.id} gap={6} data-testid="delivery-attempt">
          <Group gap="md">
            <Text fw={500} size="sm">
              {when(a.attemptedAt)}
            </Text>
            <Text size="sm">
              {a.responseStatus !== null
                ? t('delivery.response', { status: a.responseStatus })
                : t('delivery.noResponse')}
            </Text>
            <Text size="sm" c="dimmed">
              {t('delivery.duration', { ms: a.durationMs })}
            </Text>
          </Group>
          {a.error && (
            <Alert color="red" p="xs">
              {a.error}
            </Alert>
          )}
          <Text size="xs" fw={500}>
            {t('delivery.request')}
          </Text>
          <Code block style={{ maxHeight: 220, overflow: 'auto' }}>
            {Object.entries(a.requestHeaders)
              .map(([k, v]) => `${k}: ${v}`)
              .join('\n')}
            {'\n\n'}
            {pretty(a.requestBody)}
          </Code>
          {a.responseBody !== null && (
            <>
              <Text size="xs" fw={500}>
                {t('delivery.responseBody')}
              </Text>
              <Code block style={{ maxHeight: 160, overflow: 'auto' }}>
                {a.responseBody || '—'}
              </Code>
            </>
          )}
        </Stack>
      ))}
    </Stack>
  );
}

/** One webhook's delivery log (Stripe-like): each event sent, its attempts with request, response and timing; replay. */
export function DeliveryLogScreen() {
  const { t } = useTranslation('integrations');
  const { webhookId = '' } = useParams();
  const { member } = useBackoffice();
  const canEdit = member.abilities.includes('settings.edit');
  const hooks = useWebhooks();
  const deliveries = useDeliveries(webhookId);
  const calls = useIntegrationCalls();
  const when = useStudioDateTime();
  const [error, setError] = useState<string | null>(null);
  const hook = hooks.data?.items.find((h) => h.id === webhookId);
  const replay = async (id: string) => {
    try {
      setError(null);
      await calls.replay(id);
    } catch (e) {
      setError(failure(e, t).form);
    }
  };
  return (
    <Stack gap="md" data-testid="delivery-log">
      <Anchor component={Link} to="/integrations" size="sm">
        ← {t('title')}
      </Anchor>
      <div>
        <Title order={2}>{t('delivery.title')}</Title>
        {hook && (
          <Text ff="monospace" size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
            {hook.url}
          </Text>
        )}
      </div>
      {error && <Alert color="red">{error}</Alert>}
      {deliveries.error && <Alert color="red">{t('errors.loadFailed')}</Alert>}
      {deliveries.isLoading && <Loader />}
      {deliveries.data && deliveries.data.items.length === 0 && <Text c="dimmed">{t('delivery.none')}</Text>}
      {deliveries.data && deliveries.data.items.length > 0 && (
        <Accordion variant="separated" chevronPosition="left">
          {deliveries.data.items.map((d) => (
            <Accordion.Item key={d.id} value={d.id} data-testid="delivery-row">
              <Accordion.Control>
                <Table layout="fixed" withRowBorders={false}>
                  <Table.Tbody>
                    <Table.Tr>
                      <Table.Td w="32%">
                        <Text ff="monospace" size="sm">
                          {d.eventType}
                        </Text>
                      </Table.Td>
                      <Table.Td w="22%">
                        <DeliveryStatus status={d.status} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{when(d.createdAt)}</Text>
                        <Text size="xs" c="dimmed">
                          {t('delivery.attempts', { count: d.attempts })}
                          {d.replayOf ? ` · ${t('delivery.replay')}` : ''}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  </Table.Tbody>
                </Table>
              </Accordion.Control>
              <Accordion.Panel>
                <Stack>
                  <Group justify="space-between">
                    <Text size="xs" c="dimmed" ff="monospace">
                      webhook-id: {d.eventId}
                    </Text>
                    {canEdit && d.status !== 'pending' && (
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() => replay(d.id)}
                        data-testid="delivery-replay"
                      >
                        {t('delivery.replayButton')}
                      </Button>
                    )}
                  </Group>
                  <Attempts delivery={d} />
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </Stack>
  );
}
