import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  DESK_CHANNELS,
  type DeskFleet,
  type DeskRelease,
  type FleetStation,
  type PrinterReport,
} from '../../../shared/contracts/api/desk-fleet';
import { useBackoffice } from '../backoffice.api';
import { QueryBody } from '../list-frame';
import { useStudioDateTime } from '../use-studio-date-time';
import { useDeleteRelease, useDeskFleet, useLogsHref, useRequestLogs, useSetChannel } from './desk-fleet.api';

/** "5 minutes ago" in the interface language. */
function useAgo(): (iso: string) => string {
  const { i18n } = useTranslation();
  const rtf = new Intl.RelativeTimeFormat(i18n.language, { numeric: 'auto' });
  return (iso) => {
    const minutes = Math.round((Date.parse(iso) - Date.now()) / 60_000);
    if (Math.abs(minutes) < 60) return rtf.format(minutes, 'minute');
    const hours = Math.round(minutes / 60);
    if (Math.abs(hours) < 48) return rtf.format(hours, 'hour');
    return rtf.format(Math.round(hours / 24), 'day');
  };
}

const PRINTER_COLOR: Record<PrinterReport['state'], string> = {
  ok: 'teal',
  paperLow: 'yellow',
  paperOut: 'red',
  error: 'red',
  offline: 'gray',
};

function Printer({ kind, report }: { kind: 'fiscal' | 'ticket'; report: PrinterReport | null }) {
  const { t } = useTranslation('desk-fleet');
  return (
    <Group gap={6} wrap="wrap" data-testid={`station-printer-${kind}`} data-state={report?.state ?? 'none'}>
      <Text size="sm" c="dimmed" w={150}>
        {t(`printer.${kind}`)}
      </Text>
      {report ? (
        <>
          <Badge color={PRINTER_COLOR[report.state]} variant="light">
            {t(`printer.state.${report.state}`)}
          </Badge>
          {report.unsettled > 0 ? (
            <Badge color="orange" variant="outline">
              {t('printer.unsettled', { count: report.unsettled })}
            </Badge>
          ) : null}
          {report.message ? (
            <Text size="xs" c="dimmed">
              {report.message}
            </Text>
          ) : null}
        </>
      ) : (
        <Text size="sm">{t('printer.none')}</Text>
      )}
    </Group>
  );
}

function Fact({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <Group gap={6} wrap="nowrap" align="baseline" data-testid={testId}>
      <Text size="sm" c="dimmed" w={150} style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ minWidth: 0 }}>
        {children}
      </Text>
    </Group>
  );
}

function StationCard({ station, canEdit }: { station: FleetStation; canEdit: boolean }) {
  const { t } = useTranslation('desk-fleet');
  const ago = useAgo();
  const dateTime = useStudioDateTime();
  const requestLogs = useRequestLogs();
  const logsHref = useLogsHref();
  const when = (iso: string | null) =>
    iso ? (
      <Tooltip label={dateTime(iso)}>
        <span>{ago(iso)}</span>
      </Tooltip>
    ) : (
      t('never')
    );
  return (
    <Card withBorder data-testid="station-card" data-station={station.name} data-stale={station.stale}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="wrap">
            <Text fw={600}>{station.name}</Text>
            <Badge variant="light" color="gray">
              {t(`mode.${station.mode ?? 'unknown'}`)}
            </Badge>
          </Group>
          <Group gap={6}>
            {station.stale ? (
              <Badge
                color="red"
                data-testid="station-stale"
                styles={{ root: { height: 'auto', maxWidth: '100%' }, label: { whiteSpace: 'normal' } }}
              >
                {t('stale', { hours: 4 })}
              </Badge>
            ) : (
              <Badge color="teal" variant="light">
                {t('synced')}
              </Badge>
            )}
          </Group>
        </Group>
        <Fact label={t('version')} testId="station-version">
          <Group gap={6} wrap="wrap">
            <span>{station.version ?? t('unknownVersion')}</span>
            {station.platform ? (
              <Text span size="xs" c="dimmed">
                {t(
                  `platform.${station.platform === 'darwin' ? 'mac' : station.platform === 'win32' ? 'win' : 'other'}`,
                )}
              </Text>
            ) : null}
            {station.tooOld ? (
              <Badge color="red" size="sm">
                {t('tooOld')}
              </Badge>
            ) : null}
            {station.inRollout === false ? (
              <Badge color="gray" size="sm" variant="outline">
                {t('notInRollout')}
              </Badge>
            ) : null}
          </Group>
        </Fact>
        <Fact label={t('lastContact')}>{when(station.lastContactAt)}</Fact>
        <Fact label={t('lastSync')} testId="station-last-sync">
          {when(station.lastSyncAt)}
        </Fact>
        <Fact label={t('outbox')} testId="station-outbox">
          {station.outboxDepth === null
            ? t('unknown')
            : station.outboxDepth === 0
              ? t('outboxEmpty')
              : t('outboxWaiting', { count: station.outboxDepth })}
        </Fact>
        <Printer kind="fiscal" report={station.printers.fiscal} />
        <Printer kind="ticket" report={station.printers.ticket} />
        {station.recentErrors.length > 0 ? (
          <Alert
            color="orange"
            variant="light"
            p="xs"
            title={t('errors', { count: station.recentErrors.length })}
          >
            <Stack gap={2}>
              {station.recentErrors.slice(0, 3).map((e) => (
                <Text size="xs" key={`${e.at}-${e.source}`} style={{ overflowWrap: 'anywhere' }}>
                  {dateTime(e.at)} · {e.source}: {e.message}
                </Text>
              ))}
            </Stack>
          </Alert>
        ) : null}
        {station.crashes.length > 0 ? (
          <Fact label={t('crashes')} testId="station-crashes">
            <Stack gap={2}>
              {station.crashes.map((c) => (
                <Text size="xs" key={c.id}>
                  {dateTime(c.receivedAt)} · {c.version} · {c.processType}
                </Text>
              ))}
            </Stack>
          </Fact>
        ) : null}
        <Group gap="xs" wrap="wrap">
          {station.logs.requestedAt ? (
            <Text size="xs" c="dimmed" data-testid="station-logs-requested">
              {t('logs.requested')}
            </Text>
          ) : canEdit ? (
            <Button
              size="xs"
              variant="light"
              loading={requestLogs.isPending}
              onClick={() => requestLogs.mutate(station.deviceId)}
              data-testid="station-upload-logs"
            >
              {t('logs.request')}
            </Button>
          ) : null}
          {station.logs.uploadedAt ? (
            <Button
              size="xs"
              variant="subtle"
              component="a"
              href={logsHref(station.deviceId)}
              download
              data-testid="station-logs-download"
            >
              {t('logs.download', { at: dateTime(station.logs.uploadedAt) })}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Card>
  );
}

function releaseText(t: (k: string, o?: Record<string, unknown>) => string, r: DeskRelease) {
  return t(r.stagingPercentage === null ? 'release.full' : 'release.staged', {
    platform: t(`platform.${r.platform}`),
    version: r.version,
    percent: r.stagingPercentage,
  });
}

function Updates({ fleet, canEdit }: { fleet: DeskFleet; canEdit: boolean }) {
  const { t } = useTranslation('desk-fleet');
  const setChannel = useSetChannel();
  const releases = fleet.releases.filter((r) => r.channel === fleet.channel);
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600}>{t('updates.title')}</Text>
          <SegmentedControl
            size="xs"
            value={fleet.channel}
            disabled={!canEdit || setChannel.isPending}
            onChange={(value) => setChannel.mutate(value === 'beta' ? 'beta' : 'stable')}
            data={DESK_CHANNELS.map((c) => ({ value: c, label: t(`channel.${c}`) }))}
            data-testid="desk-channel"
          />
        </Group>
        <Text size="sm" c="dimmed">
          {t(`channel.${fleet.channel}Hint`)}
        </Text>
        <Text size="sm" data-testid="desk-releases">
          {releases.length ? releases.map((r) => releaseText(t, r)).join(' · ') : t('release.none')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('updates.oldest', { version: fleet.oldestAccepted })}
        </Text>
        {setChannel.isError ? <Alert color="red">{t('saveFailed')}</Alert> : null}
        {fleet.canDeleteReleases && fleet.pastReleases.length > 0 ? <PastReleases fleet={fleet} /> : null}
      </Stack>
    </Card>
  );
}

/** Releases no feed serves any more: a release manager deletes them and their installers. */
function PastReleases({ fleet }: { fleet: DeskFleet }) {
  const { t } = useTranslation('desk-fleet');
  const remove = useDeleteRelease();
  return (
    <Stack gap={4} data-testid="desk-past-releases">
      <Text size="sm" fw={600}>
        {t('release.past')}
      </Text>
      {fleet.pastReleases.map((r) => (
        <Group key={r.id} gap="xs" wrap="wrap" data-testid="desk-past-release" data-version={r.version}>
          <Text size="sm">
            {t(`channel.${r.channel}`)} · {releaseText(t, { ...r, stagingPercentage: null })}
          </Text>
          <Button
            size="compact-xs"
            variant="subtle"
            color="red"
            loading={remove.isPending && remove.variables === r.id}
            onClick={() => {
              if (window.confirm(t('release.deleteConfirm', { version: r.version }))) remove.mutate(r.id);
            }}
          >
            {t('release.delete')}
          </Button>
        </Group>
      ))}
      {remove.isError ? <Alert color="red">{t('release.deleteFailed')}</Alert> : null}
    </Stack>
  );
}

/**
 * Back office → Stations (issue 29): the studio's update channel, then every desk and kiosk with its
 * version, last contact and sync (flagged after 4 hours without a sync), waiting changes, printers,
 * recent errors and crashes; "Upload logs" is delivered at the station's next contact.
 */
export function DeskFleetScreen() {
  const { t } = useTranslation('desk-fleet');
  const { member } = useBackoffice();
  const fleet = useDeskFleet();
  const canEdit = member.abilities.includes('settings.edit');
  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'md' }} data-testid="desk-fleet-screen">
      <Title order={2}>{t('title')}</Title>
      <Text c="dimmed" size="sm" maw={720}>
        {t('intro')}
      </Text>
      <QueryBody
        query={fleet}
        noPermission={{ title: t('title'), text: t('noPermission'), testId: 'desk-fleet-forbidden' }}
        loadFailed={{ title: t('loadFailed') }}
      >
        {(data) => (
          <Stack gap="md">
            <Updates fleet={data} canEdit={canEdit} />
            {data.stations.length === 0 ? (
              <Text c="dimmed">{t('empty')}</Text>
            ) : (
              <SimpleGrid cols={{ base: 1, lg: 2 }}>
                {data.stations.map((s) => (
                  <StationCard key={s.deviceId} station={s} canEdit={canEdit} />
                ))}
              </SimpleGrid>
            )}
          </Stack>
        )}
      </QueryBody>
    </Stack>
  );
}
