import { Alert, Badge, Button, Card, Group, Image, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Video, VideoStatus } from '../../../shared/contracts/api/videos';
import { VideosApi } from '../../../shared/contracts/http/videos';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { errorCodeLabel } from '../../lib/form-errors';
import { useBackoffice } from '../backoffice.api';
import { ListEmpty, ListLoadError, ListLoading, TabbedSection } from '../list-frame';
import { CoursesPanel } from './CoursesPanel';
import { VideoUpload } from './VideoUpload';
import { useInvalidateVideos, useStudio, useVideos } from './videos.api';

type Tab = 'videos' | 'courses';
const STATUS_COLOR: Record<VideoStatus, string> = {
  init: 'gray',
  uploading: 'blue',
  transcoding: 'yellow',
  available: 'green',
  failed: 'red',
};

export function VideoStatusBadge({ status }: { status: VideoStatus }) {
  const { t } = useTranslation('videos');
  return (
    <Badge color={STATUS_COLOR[status]} variant="light" data-testid="video-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

/** Videos and video courses (issue 22): uploads with their VideoStatus, and the courses built of them. */
export function VideosScreen() {
  const { t } = useTranslation('videos');
  const [tab, setTab] = useState<Tab>('videos');
  return (
    <TabbedSection<Tab>
      title={t('title')}
      tab={tab}
      onChange={setTab}
      tabs={[
        { value: 'videos', label: t('tabs.videos'), testId: 'videos-tab-videos' },
        { value: 'courses', label: t('tabs.courses'), testId: 'videos-tab-courses' },
      ]}
    >
      {tab === 'videos' ? <VideosPanel /> : <CoursesPanel />}
    </TabbedSection>
  );
}

const megabytes = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} kB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const duration = (s: number) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;

function VideosPanel() {
  const { t } = useTranslation('videos');
  const { member } = useBackoffice();
  const canEdit = member.abilities.includes('settings.edit');
  const videos = useVideos();
  const [uploading, setUploading] = useState(false);
  if (videos.isError)
    return (
      <ListLoadError
        error={videos.error}
        title={t('loadError')}
        retry={t('retry')}
        testId="videos-error"
        onRetry={() => void videos.refetch()}
      />
    );
  if (!videos.data) return <ListLoading />;
  return (
    <Stack gap="md">
      {canEdit && !uploading && (
        <Group>
          <Button onClick={() => setUploading(true)} data-testid="video-add">
            {t('add')}
          </Button>
        </Group>
      )}
      {uploading && <VideoUpload onClose={() => setUploading(false)} />}
      {videos.data.items.length === 0 && <ListEmpty text={t('empty')} testId="videos-empty" />}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {videos.data.items.map((v) => (
          <VideoCard key={v.id} video={v} canEdit={canEdit} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function VideoCard({ video, canEdit }: { video: Video; canEdit: boolean }) {
  const { t } = useTranslation('videos');
  const api = useApiClient();
  const studio = useStudio();
  const invalidate = useInvalidateVideos();
  const [retryError, setRetryError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const remove = async () => {
    setDeleteError(null);
    try {
      await api.call(VideosApi.remove, { params: { uuid: studio, video: video.id } });
      await invalidate();
    } catch (error) {
      setConfirming(false);
      setDeleteError(
        error instanceof ApiError && error.key === 'video.inUse'
          ? t('deleteInUse')
          : error instanceof ApiError && error.key === 'video.transcoding'
            ? t('deleteTranscoding')
            : t('deleteFailed', { code: errorCodeLabel(error) }),
      );
    }
  };
  const retry = async () => {
    setRetryError(null);
    try {
      await api.call(VideosApi.retry, { params: { uuid: studio, video: video.id } });
      await invalidate();
    } catch (error) {
      setRetryError(t('retryFailed', { code: errorCodeLabel(error) }));
    }
  };
  return (
    <Card withBorder radius="md" data-testid="video-card">
      {video.thumbnailUrl && (
        <Card.Section>
          <Image src={video.thumbnailUrl} alt="" h={140} fit="cover" />
        </Card.Section>
      )}
      <Stack gap={4} mt="sm" align="flex-start">
        <VideoStatusBadge status={video.status} />
        <Text fw={600} lineClamp={2}>
          {video.title}
        </Text>
      </Stack>
      <Text size="sm" c="dimmed">
        {[
          video.fileName,
          megabytes(video.sizeBytes),
          video.durationSeconds ? duration(video.durationSeconds) : null,
        ]
          .filter(Boolean)
          .join(' · ')}
      </Text>
      {video.renditions.length > 0 && (
        <Text size="sm" c="dimmed">
          {t('renditions', { list: video.renditions.map((r) => r.name).join(', ') })}
        </Text>
      )}
      {video.status === 'init' && (
        <Text size="sm" c="dimmed">
          {t('waitingForFile')}
        </Text>
      )}
      {video.status === 'failed' && (
        <Alert color="red" mt="xs" p="xs" data-testid="video-failure">
          <Stack gap={6}>
            <Text size="sm">{t('failedBecause', { reason: video.failureReason ?? t('unknownReason') })}</Text>
            {canEdit && (
              <Group>
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  onClick={() => void retry()}
                  data-testid="video-retry"
                >
                  {t('retryTranscode')}
                </Button>
              </Group>
            )}
            {retryError && <Text size="sm">{retryError}</Text>}
          </Stack>
        </Alert>
      )}
      {canEdit && video.status !== 'transcoding' && (
        <Group gap="xs" mt="xs">
          {confirming ? (
            <>
              <Button size="xs" color="red" onClick={() => void remove()} data-testid="video-delete-confirm">
                {t('deleteConfirm')}
              </Button>
              <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
                {t('upload.cancel')}
              </Button>
            </>
          ) : (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              onClick={() => setConfirming(true)}
              data-testid="video-delete"
            >
              {t('delete')}
            </Button>
          )}
        </Group>
      )}
      {deleteError && (
        <Text size="sm" c="red" data-testid="video-delete-error">
          {deleteError}
        </Text>
      )}
    </Card>
  );
}
