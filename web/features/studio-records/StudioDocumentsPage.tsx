import { Alert, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiClient } from '../../lib/app-context';
import {
  downloadStudioDocument,
  formatFileSize,
  usePublishedDocuments,
  useTransferInstructions,
} from './studio-records.api';

/**
 * The client zone's "Documents" page (issue 25): the studio's published documents to download and
 * where to send a bank transfer (the studio's default accounts).
 */
export function StudioDocumentsPage({ studioUuid }: { studioUuid: string }) {
  const { t, i18n } = useTranslation('studio-admin');
  const api = useApiClient();
  const documents = usePublishedDocuments(studioUuid);
  const transfer = useTransferInstructions(studioUuid);
  const [error, setError] = useState(false);
  if (documents.error || transfer.error) return <Alert color="red">{t('front.loadError')}</Alert>;
  if (!documents.data || !transfer.data)
    return (
      <Center p="xl">
        <Loader size="sm" />
      </Center>
    );
  return (
    <Stack gap="lg" maw={760} data-testid="studio-documents-page">
      <Title order={1} size="h2">
        {t('front.title')}
      </Title>
      {error ? <Alert color="red">{t('front.downloadError')}</Alert> : null}
      <Stack gap="sm">
        {documents.data.items.length === 0 ? (
          <Text c="dimmed">{t('front.noDocuments')}</Text>
        ) : (
          documents.data.items.map((doc) => (
            <Paper key={doc.id} withBorder p="sm" radius="md" data-testid="published-document">
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text fw={500} truncate="end">
                    {doc.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {doc.fileName} · {formatFileSize(doc.sizeBytes, i18n.language)}
                  </Text>
                </Stack>
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => {
                    setError(false);
                    downloadStudioDocument(api, studioUuid, doc, 'client').catch(() => setError(true));
                  }}
                >
                  {t('front.download')}
                </Button>
              </Group>
            </Paper>
          ))
        )}
      </Stack>
      {transfer.data.accounts.length > 0 ? (
        <Paper withBorder p="md" radius="md" data-testid="transfer-instructions">
          <Stack gap={6}>
            <Text fw={600}>{t('front.transferTitle')}</Text>
            <Text size="sm" c="dimmed">
              {t('front.transferHint')}
            </Text>
            <Text size="sm">
              {t('front.recipient')}: <b>{transfer.data.recipient}</b>
              {transfer.data.address ? `, ${transfer.data.address}` : ''}
            </Text>
            {transfer.data.accounts.map((a) => (
              <Text key={a.ibanPrinted} size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {a.currency}: {a.ibanPrinted}
                {a.bankName ? ` (${a.bankName})` : ''}
              </Text>
            ))}
          </Stack>
        </Paper>
      ) : null}
    </Stack>
  );
}
