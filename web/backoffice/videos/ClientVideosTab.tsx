import { Badge, Progress, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { resolveLocaleText } from '../../../shared/domain/locale-text';
import type { ClientProfileTabProps } from '../clients/profile-tabs';
import { ListEmpty, ListLoadError, ListLoading } from '../list-frame';
import { useStudioDateTime } from '../use-studio-date-time';
import { useClientVideos } from './videos.api';

/** The client profile's "Videos" tab (`client/{user}/client-video/collection`): lessons and progress. */
export function ClientVideosTab({ clientId }: ClientProfileTabProps) {
  const { t, i18n } = useTranslation('videos');
  const when = useStudioDateTime();
  const videos = useClientVideos(clientId);
  if (videos.isError)
    return (
      <ListLoadError
        error={videos.error}
        title={t('loadError')}
        retry={t('retry')}
        testId="client-videos-error"
        onRetry={() => void videos.refetch()}
      />
    );
  if (!videos.data) return <ListLoading />;
  if (videos.data.items.length === 0)
    return <ListEmpty text={t('client.empty')} testId="client-videos-empty" />;
  const name = (text: Record<string, { value: string } | undefined>) =>
    resolveLocaleText(text, i18n.language, 'pl');
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table striped data-testid="client-videos">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('client.lesson')}</Table.Th>
            <Table.Th>{t('client.progress')}</Table.Th>
            <Table.Th>{t('client.lastWatched')}</Table.Th>
            <Table.Th>{t('client.access')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {videos.data.items.map((v) => (
            <Table.Tr key={v.id} data-testid="client-video-row">
              <Table.Td>
                <Text size="sm" fw={500}>
                  {name(v.lessonName)}
                </Text>
                <Text size="xs" c="dimmed">
                  {name(v.courseName)}
                </Text>
              </Table.Td>
              <Table.Td miw={120}>
                <Progress value={v.progress * 100} size="sm" />
                <Text size="xs" c="dimmed">
                  {v.completedAt ? t('client.completed') : `${Math.round(v.progress * 100)}%`}
                </Text>
              </Table.Td>
              <Table.Td>{v.lastWatchedAt ? when(v.lastWatchedAt) : '—'}</Table.Td>
              <Table.Td>
                <Badge variant="light">{t(`client.via.${v.access}`)}</Badge>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
