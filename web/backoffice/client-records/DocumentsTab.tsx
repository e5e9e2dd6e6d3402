import { ActionIcon, Alert, Button, FileButton, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { formatBytes, recordCalls, useClientDocuments, useInvalidateRecords } from './client-records.api';
import { ListEmpty } from '../list-frame';
import { useStudioDates } from '../use-studio-date-time';

export interface ClientRecordProps {
  studioUuid: string;
  /** The client's USER id. */
  clientId: string;
}

/** A client's documents: upload (10 MB; PDF, images, office files), download, delete. */
export function DocumentsTab({ studioUuid, clientId }: ClientRecordProps) {
  const { t, i18n } = useTranslation('client-records');
  const dates = useStudioDates();
  const api = useApiClient();
  const documents = useClientDocuments(studioUuid, clientId);
  const invalidate = useInvalidateRecords(studioUuid, clientId);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const explain = (err: unknown) => {
    if (err instanceof ApiError && err.status === 413) return t('documents.tooLarge');
    if (err instanceof ApiError && err.fields.file) return t('documents.notAccepted');
    if (err instanceof ApiError && (err.status === 403 || err.status === 401)) return t('noPermission');
    return t('error');
  };

  const onFile = async (file: File | null) => {
    if (!file) return;
    setError(null);
    if (documents.data && file.size > documents.data.maxBytes) return setError(t('documents.tooLarge'));
    setBusy(true);
    try {
      await recordCalls.upload(api, studioUuid, clientId, file);
      await invalidate();
    } catch (err) {
      setError(explain(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md" maw={760} data-testid="client-documents">
      <Group justify="space-between" wrap="wrap">
        <Text c="dimmed" size="sm">
          {t('documents.hint')}
        </Text>
        <FileButton onChange={onFile} accept={documents.data?.allowedTypes.join(',')}>
          {(props) => (
            <Button {...props} loading={busy} data-testid="client-document-upload">
              {t('documents.upload')}
            </Button>
          )}
        </FileButton>
      </Group>
      {error ? (
        <Alert color="red" data-testid="client-document-error">
          {error}
        </Alert>
      ) : null}
      {documents.isError ? <Alert color="red">{explain(documents.error)}</Alert> : null}
      {documents.data && documents.data.items.length === 0 ? <ListEmpty text={t('documents.empty')} /> : null}
      {documents.data?.items.map((doc) => (
        <Paper key={doc.id} withBorder p="sm" radius="md" data-testid="client-document">
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Text fw={500} truncate="end">
                {doc.fileName}
              </Text>
              <Text size="xs" c="dimmed">
                {formatBytes(doc.sizeBytes, i18n.language)} · {dates.dateTime(doc.createdAt)}
                {doc.uploadedBy ? ` · ${doc.uploadedBy.firstName} ${doc.uploadedBy.lastName}` : ''}
              </Text>
            </Stack>
            <Group gap="xs" wrap="nowrap">
              <Button
                size="xs"
                variant="light"
                onClick={() =>
                  recordCalls
                    .download(api, studioUuid, doc.id, doc.fileName)
                    .catch((err: unknown) => setError(explain(err)))
                }
              >
                {t('documents.download')}
              </Button>
              <Tooltip label={t('documents.delete')}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('documents.delete')}
                  onClick={async () => {
                    if (!window.confirm(t('documents.deleteConfirm', { name: doc.fileName }))) return;
                    try {
                      await recordCalls.deleteDocument(api, studioUuid, doc.id);
                      await invalidate();
                    } catch (err) {
                      setError(explain(err));
                    }
                  }}
                >
                  ×
                </ActionIcon>
              </Tooltip>
            </Group>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
