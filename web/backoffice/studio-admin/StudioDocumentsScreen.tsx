import {
  Alert,
  Badge,
  Button,
  Center,
  FileButton,
  Group,
  Loader,
  Paper,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StudioDocumentView } from '../../../shared/contracts/api/studio-records';
import { StudioAdminApi } from '../../../shared/contracts/http/studio-admin';
import {
  downloadStudioDocument,
  formatFileSize,
  studioRecordKeys,
  uploadStudioDocument,
} from '../../features/studio-records/studio-records.api';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';
import { SettingsLayout } from '../settings/SettingsLayout';
import { useStudioDates } from '../use-studio-date-time';

/**
 * Settings → Documents: files the studio keeps (rules, price lists, forms). Staff upload them (PDF,
 * images, office files up to 10 MB); a published one is listed in the client zone for download.
 */
export function StudioDocumentsScreen() {
  const { t } = useTranslation('studio-admin');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const canEdit = useBackoffice().member.abilities.includes('settings.edit');
  const queryClient = useQueryClient();
  const documents = useQuery({
    queryKey: studioRecordKeys.documents(uuid),
    queryFn: ({ signal }) => api.call(StudioAdminApi.studioDocuments, { params: { uuid }, signal }),
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['studio-document'] });
  const explain = (err: unknown) =>
    err instanceof ApiError && err.status === 413
      ? t('documents.tooLarge')
      : err instanceof ApiError && err.fields.file
        ? t('documents.notAccepted')
        : t('documents.error');
  const onFile = async (file: File | null) => {
    if (!file) return;
    setError(null);
    setBusy(true);
    try {
      await uploadStudioDocument(api, uuid, file);
      await refresh();
    } catch (err) {
      setError(explain(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <SettingsLayout page="documents">
      {documents.error ? (
        <Alert color="red">{t('loadError')}</Alert>
      ) : !documents.data ? (
        <Center p="xl">
          <Loader size="sm" />
        </Center>
      ) : (
        <Stack gap="md" maw={760} data-testid="studio-documents">
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" c="dimmed" maw={520}>
              {t('documents.hint')}
            </Text>
            {canEdit ? (
              <FileButton onChange={(f) => void onFile(f)}>
                {(props) => (
                  <Button {...props} loading={busy} data-testid="studio-document-upload">
                    {t('documents.upload')}
                  </Button>
                )}
              </FileButton>
            ) : null}
          </Group>
          {error ? <Alert color="red">{error}</Alert> : null}
          {documents.data.items.length === 0 ? <Text c="dimmed">{t('documents.empty')}</Text> : null}
          {documents.data.items.map((doc) => (
            <DocumentRow
              key={doc.id}
              doc={doc}
              canEdit={canEdit}
              onError={(err) => setError(explain(err))}
              onChanged={refresh}
            />
          ))}
        </Stack>
      )}
    </SettingsLayout>
  );
}

function DocumentRow(props: {
  doc: StudioDocumentView;
  canEdit: boolean;
  onError(err: unknown): void;
  onChanged(): Promise<unknown>;
}) {
  const { doc, canEdit } = props;
  const { t, i18n } = useTranslation('studio-admin');
  const dates = useStudioDates();
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const params = { uuid, studioDocument: doc.id };
  const run = (call: () => Promise<unknown>) => call().then(props.onChanged, props.onError);
  return (
    <Paper withBorder p="sm" radius="md" data-testid="studio-document">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={500} truncate="end">
              {doc.name}
            </Text>
            {doc.published ? <Badge variant="light">{t('documents.publishedBadge')}</Badge> : null}
          </Group>
          <Text size="xs" c="dimmed">
            {doc.fileName} · {formatFileSize(doc.sizeBytes, i18n.language)} · {dates.date(doc.createdAt)}
          </Text>
        </Stack>
        <Group gap="xs" wrap="nowrap">
          {canEdit ? (
            <Switch
              label={t('documents.publish')}
              checked={doc.published}
              onChange={(e) => {
                const published = e.currentTarget.checked;
                void run(() => api.call(StudioAdminApi.patchStudioDocument, { params, body: { published } }));
              }}
              data-testid="studio-document-publish"
            />
          ) : null}
          <Button
            size="xs"
            variant="light"
            onClick={() => downloadStudioDocument(api, uuid, doc, 'staff').catch(props.onError)}
          >
            {t('documents.download')}
          </Button>
          {canEdit ? (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              onClick={() => {
                if (window.confirm(t('documents.deleteConfirm', { name: doc.name })))
                  void run(() => api.call(StudioAdminApi.deleteStudioDocument, { params }));
              }}
            >
              {t('documents.delete')}
            </Button>
          ) : null}
        </Group>
      </Group>
    </Paper>
  );
}
