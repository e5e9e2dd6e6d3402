import { Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { StationState, SyncStatus } from '../../shared/contracts/ipc';
import { call } from './bridge';
import { useStationMutation, useSyncStatus } from './station.api';
import { SyncNoticesButton } from './SyncNotices';
import { deviceTimeZone, formatDayLabel, formatTime } from '../../shared/i18n/dates';

/** `14:05:09` for the last sync today (the desk's clock); `Fri 27 Nov, 14:05:09` when it was not today. */
export function formatSyncTime(iso: string, locale: string, now = new Date()): string {
  const at = new Date(iso);
  const zone = deviceTimeZone();
  const time = formatTime(at, locale, zone, { seconds: true });
  return at.toDateString() === now.toDateString() ? time : `${formatDayLabel(at, locale, zone)}, ${time}`;
}

/** The cloud refused this version (desktop.tooOld): the desk stops selling until the update installs. */
function TooOld() {
  const { t } = useTranslation('desk-fleet');
  return (
    <Tooltip label={t('desk.tooOldHint')} multiline w={320}>
      <Badge color="red" style={{ flexShrink: 0 }} data-testid="desk-too-old">
        {t('desk.tooOld')}
      </Badge>
    </Tooltip>
  );
}

function SyncFacts({ status }: { status: SyncStatus | undefined }) {
  const { t, i18n } = useTranslation('desktop');
  const online = status?.online ?? false;
  // Below 1200 px the bar also holds the notices button, the staff member and two buttons: the
  // short forms keep the count and the time whole (the full sentence is the tooltip), where the
  // long ones were cut to "1 change waiting to sy…" / "Last sync 0…" at 1024 px.
  const wide = useMediaQuery('(min-width: 75em)', true, { getInitialValueInEffect: false });
  const pendingText =
    status?.pending === null || status?.pending === undefined
      ? t('status.pendingUnknown')
      : status.pending === 0
        ? t(wide ? 'status.pendingNone' : 'status.pendingNoneShort')
        : t(wide ? 'status.pending' : 'status.pendingShort', { count: status.pending });
  const lastText = status?.lastSyncAt
    ? t(wide ? 'status.lastSync' : 'status.lastSyncShort', {
        time: formatSyncTime(status.lastSyncAt, i18n.language),
      })
    : t('status.lastSyncNever');
  const fullTexts = [
    status?.pending ? t('status.pending', { count: status.pending }) : t('status.pendingNone'),
    status?.lastSyncAt
      ? t('status.lastSync', { time: formatSyncTime(status.lastSyncAt, i18n.language) })
      : t('status.lastSyncNever'),
  ].join(' · ');
  return (
    <Group gap="md" wrap="nowrap" miw={0}>
      <Tooltip label={t('status.offlineHint')} disabled={online}>
        <Badge
          style={{ flexShrink: 0, overflow: 'visible' }}
          color={online ? 'teal' : 'red'}
          variant="light"
          data-testid="sync-online"
          data-state={status ? (online ? 'online' : 'offline') : 'unknown'}
          leftSection={
            <span
              aria-hidden
              style={{
                display: 'inline-block',
                width: 8,
                height: 8,
                borderRadius: 4,
                background: online ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-red-6)',
              }}
            />
          }
        >
          {online ? t('status.online') : t('status.offline')}
        </Badge>
      </Tooltip>
      {status?.lastError === 'upgradeRequired' ? <TooOld /> : null}
      <Tooltip label={fullTexts} disabled={wide}>
        <Group gap="md" wrap="nowrap" miw={0}>
          <Text size="xs" c="dimmed" data-testid="sync-pending" truncate="end">
            {pendingText}
          </Text>
          <Text size="xs" c="dimmed" data-testid="sync-last" truncate="end">
            {lastText}
          </Text>
        </Group>
      </Tooltip>
    </Group>
  );
}

export function StatusBar({ state, onSetPin }: { state: StationState; onSetPin: () => void }) {
  const { t } = useTranslation('desktop');
  const { data: status } = useSyncStatus();
  const lock = useStationMutation<void>((bridge) => call(bridge, 'stationLock', {}));
  const staff = state.staff;

  return (
    <Group
      component="footer"
      className="desktop-status-bar"
      px="md"
      justify="space-between"
      wrap="nowrap"
      gap="sm"
      data-testid="status-bar"
    >
      <SyncFacts status={status} />
      <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
        {staff && state.device ? <SyncNoticesButton studioUuid={state.device.studioUuid} /> : null}
        {state.device ? (
          <Text size="xs" c="dimmed" truncate="end" visibleFrom="lg" data-testid="status-station">
            {t('status.station', { name: state.device.name })}
          </Text>
        ) : null}
        {staff ? (
          <>
            <Text size="xs" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="status-staff">
              {staff.firstName} {staff.lastName}
            </Text>
            <Button
              size="compact-xs"
              variant={staff.hasPin ? 'subtle' : 'light'}
              onClick={onSetPin}
              style={{ flexShrink: 0 }}
              data-testid="set-pin"
            >
              {staff.hasPin ? t('pin.change') : t('pin.set')}
            </Button>
            <Button
              size="compact-xs"
              variant="default"
              onClick={() => lock.mutate()}
              loading={lock.isPending}
              style={{ flexShrink: 0 }}
              data-testid="switch-staff"
            >
              {t('status.switch')}
            </Button>
          </>
        ) : null}
      </Group>
    </Group>
  );
}
