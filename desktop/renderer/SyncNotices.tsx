import { Anchor, Badge, Button, Drawer, Group, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SyncNotice, SyncNoticeList } from '../../shared/contracts/ipc';
import { useBackofficeInit } from '../../web/backoffice/backoffice.api';
import { call } from './bridge';
import { noticeReason } from './notice-reason';
import { stationKeys, useDesktop } from './station.api';
import { deviceTimeZone, formatDateTime } from '../../shared/i18n/dates';

const noticesKey = [...stationKeys.sync, 'notices'] as const;

/** The station's changed outcomes: asked every three seconds (one indexed SQLite query in main). */
function useSyncNotices() {
  const { bridge } = useDesktop();
  return useQuery({
    queryKey: noticesKey,
    queryFn: () => call(bridge, 'syncNotices', {}),
    refetchInterval: 3_000,
    refetchIntervalInBackground: true,
    retry: false,
  });
}

const STATUS_COLOR: Record<SyncNotice['status'], string> = {
  applied: 'teal',
  waitlisted: 'grape',
  flagged: 'orange',
  rejected: 'red',
  quarantined: 'red',
};

function NoticeCard({
  notice,
  onAck,
  busy,
  timeZone,
}: {
  notice: SyncNotice;
  onAck(): void;
  busy: boolean;
  /** The studio's zone: a class at 07:00 is at 07:00 whatever the station's clock is set to. */
  timeZone: string | undefined;
}) {
  const { t, i18n } = useTranslation('desktop');
  const { t: ta } = useTranslation('appointments');
  const when = (iso: string) => formatDateTime(iso, i18n.language, timeZone ?? deviceTimeZone());
  const reason = noticeReason(notice, t, (key) => i18n.exists(key));
  const name = notice.event
    ? (notice.event.name[i18n.language]?.value ?? Object.values(notice.event.name)[0]?.value ?? '')
    : '';
  return (
    <Paper withBorder p="sm" radius="md" data-testid="sync-notice" data-status={notice.status}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text size="sm" fw={600} lineClamp={2} style={{ flex: 1, minWidth: 0 }}>
            {notice.command === 'appointmentCheckIn'
              ? ta('syncFlag.command')
              : t(`notices.command.${notice.command}`, { defaultValue: notice.command })}
            {notice.client ? ` · ${notice.client.firstName} ${notice.client.lastName}`.trimEnd() : ''}
          </Text>
          <Badge
            color={STATUS_COLOR[notice.status]}
            variant="light"
            style={{ flexShrink: 0 }}
            data-testid="sync-notice-status"
          >
            {t(`notices.status.${notice.status}`)}
          </Badge>
        </Group>
        {notice.event ? (
          <Text size="xs" c="dimmed">
            {name} · {when(notice.event.startsAt)}
          </Text>
        ) : null}
        <Text size="sm">{t(`notices.explain.${notice.status}`)}</Text>
        {reason ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="sync-notice-reason">
            <Text span fw={600} size="sm">
              {t('notices.reason.label')}:
            </Text>{' '}
            {reason}
          </Text>
        ) : null}
        {notice.flags.length > 0 ? (
          <Group gap={4}>
            {notice.flags.map((flag) => (
              <Badge key={flag} size="xs" variant="outline" color="gray" style={{ textTransform: 'none' }}>
                {flag === 'appointmentNotHeld'
                  ? ta('syncFlag.appointmentNotHeld.title')
                  : t(`notices.flag.${flag}`, { defaultValue: flag })}
              </Badge>
            ))}
          </Group>
        ) : null}
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed">
            {t('notices.recordedAt', { time: when(notice.occurredAt) })}
          </Text>
          <Button
            size="compact-xs"
            variant="default"
            onClick={onAck}
            loading={busy}
            data-testid="sync-notice-ack"
          >
            {t('notices.ack')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * "Changed by the studio": what the desk did offline and the cloud decided otherwise (a booking on
 * the waiting list or refused, a check-in or new client flagged). A button in the status bar while
 * any is unacknowledged; the drawer lists them, each acknowledged by the person at the desk, and
 * links to the back office's Station sync review, where flags are resolved.
 */
export function SyncNoticesButton({ studioUuid }: { studioUuid: string }) {
  const { t } = useTranslation('desktop');
  // The back office's own init query (already loaded, same cache key): the studio's time zone.
  const timeZone = useBackofficeInit(studioUuid).data?.studio.timeZone;
  const { bridge } = useDesktop();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const { data } = useSyncNotices();
  const ack = useMutation({
    mutationFn: (seqs: number[]) => call(bridge, 'syncNoticeAck', { seqs }),
    onSuccess: (next: SyncNoticeList) => queryClient.setQueryData(noticesKey, next),
  });
  const items = data?.items ?? [];
  if (items.length === 0 && !open) return null;
  const needsReview = items.some((n) => n.status === 'flagged' || n.status === 'quarantined');
  return (
    <>
      <Button
        size="compact-xs"
        color="orange"
        variant="light"
        onClick={() => setOpen(true)}
        style={{ flexShrink: 0 }}
        data-testid="sync-notices-open"
      >
        {t('notices.button', { count: items.length })}
      </Button>
      <Drawer
        opened={open}
        onClose={() => setOpen(false)}
        position="right"
        title={t('notices.title')}
        data-testid="sync-notices"
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('notices.intro')}
          </Text>
          {items.length === 0 ? (
            <Text size="sm" data-testid="sync-notices-empty">
              {t('notices.empty')}
            </Text>
          ) : (
            <Group justify="space-between">
              {needsReview ? (
                <Anchor
                  href="#/sync"
                  size="sm"
                  onClick={() => setOpen(false)}
                  data-testid="sync-notices-review"
                >
                  {t('notices.review')}
                </Anchor>
              ) : (
                <span />
              )}
              <Button
                size="compact-xs"
                variant="subtle"
                onClick={() => ack.mutate(items.map((n) => n.seq))}
                data-testid="sync-notices-ack-all"
              >
                {t('notices.ackAll')}
              </Button>
            </Group>
          )}
          {items.map((notice) => (
            <NoticeCard
              key={notice.seq}
              notice={notice}
              busy={ack.isPending && ack.variables?.includes(notice.seq) === true}
              onAck={() => ack.mutate([notice.seq])}
              timeZone={timeZone}
            />
          ))}
        </Stack>
      </Drawer>
    </>
  );
}
