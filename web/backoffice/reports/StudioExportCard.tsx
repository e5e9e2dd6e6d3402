import { Anchor, Badge, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SubmitButton } from '../../ui/SubmitButton';
import { useSubmitButton } from '../../ui/use-submit-button';
import { useStudioDateTime } from '../use-studio-date-time';
import { useRequestStudioExport, useStudioExportHref, useStudioExports } from './reports.api';

const STATUS_COLOR = { queued: 'gray', running: 'blue', ready: 'teal', failed: 'red' } as const;

/**
 * All of the studio's data (clients, visits, orders, passes, contracts, invoices, products) as CSV
 * files in a zip, made in the background: ask, watch the progress, download when ready.
 */
export function StudioExportCard() {
  const { t } = useTranslation('reports');
  const exports = useStudioExports(true);
  const request = useRequestStudioExport();
  const submit = useSubmitButton();
  const href = useStudioExportHref();
  const when = useStudioDateTime();
  return (
    <Card withBorder radius="md" padding="md" data-testid="studio-export">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('studioExport.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('studioExport.intro')}
        </Text>
        <Group>
          <SubmitButton
            type="button"
            state={submit.state}
            onClick={() => void submit.run(request)}
            data-testid="studio-export-request"
          >
            {t('studioExport.request')}
          </SubmitButton>
        </Group>
        {exports.data?.items.map((e) => (
          <Group key={e.id} justify="space-between" wrap="wrap" gap="xs" data-testid="studio-export-row">
            <Group gap="xs">
              <Text size="sm">{when(e.createdAt)}</Text>
              <Badge color={STATUS_COLOR[e.status]} variant="light">
                {t(`studioExport.status.${e.status}`)}
              </Badge>
            </Group>
            {e.status === 'ready' ? (
              <Anchor href={href(e.id)} size="sm" data-testid="studio-export-download">
                {t('studioExport.download', { size: (e.size / 1024 / 1024).toFixed(1) })}
              </Anchor>
            ) : e.status === 'failed' ? null : (
              <Progress value={e.progress} w={160} animated />
            )}
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
