import { Alert, Anchor, Group, Loader, Paper, Rating, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { StudioAdminApi } from '../../../shared/contracts/http/studio-admin';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';
import { useStudioDates } from '../use-studio-date-time';

/**
 * `#/inbox` (the page /{uuid}/backoffice/inbox of spec §2 opens it): what clients wrote to the
 * studio from the front office (`POST feedback`), newest first, with their rating and a link to
 * the client's profile.
 */
export function InboxScreen() {
  const { t } = useTranslation('studio-admin');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const feedback = useQuery({
    queryKey: ['studio-admin', 'feedback', uuid],
    queryFn: ({ signal }) => api.call(StudioAdminApi.feedbackList, { params: { uuid }, signal }),
  });
  const dates = useStudioDates();
  const when = (iso: string) => dates.dateTime(iso);
  return (
    <Stack gap="md" data-testid="inbox-screen">
      <div>
        <Title order={2}>{t('inbox.title')}</Title>
        <Text size="sm" c="dimmed">
          {t('inbox.intro')}
        </Text>
      </div>
      {feedback.error ? (
        <Alert color="red" variant="light">
          {t('loadError')}
        </Alert>
      ) : !feedback.data ? (
        <Loader size="sm" />
      ) : feedback.data.items.length === 0 ? (
        <Paper withBorder p="lg" radius="md" data-testid="inbox-empty">
          <Text c="dimmed">{t('inbox.empty')}</Text>
        </Paper>
      ) : (
        <Stack gap="sm" data-testid="inbox-list">
          {feedback.data.items.map((item) => (
            <Paper key={item.id} withBorder p="md" radius="md" data-testid="inbox-item">
              <Stack gap={6}>
                <Group justify="space-between" wrap="wrap" gap="xs">
                  {item.client ? (
                    <Anchor component={Link} to={`/clients/${item.client.id}`} fw={600}>
                      {`${item.client.firstName} ${item.client.lastName}`.trim()}
                    </Anchor>
                  ) : (
                    <Text fw={600} c="dimmed">
                      {t('inbox.formerClient')}
                    </Text>
                  )}
                  <Text size="xs" c="dimmed">
                    {when(item.createdAt)}
                  </Text>
                </Group>
                {item.rating !== null && (
                  <Rating
                    value={item.rating}
                    readOnly
                    size="sm"
                    aria-label={t('inbox.rating', { rating: item.rating })}
                    data-testid="inbox-rating"
                  />
                )}
                <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                  {item.message}
                </Text>
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
