import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { SyncIssue } from '../../../shared/contracts/api/sync-review';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { failureText } from '../../lib/form-errors';
import { useBackoffice } from '../backoffice.api';
import { ListEmpty, LoadMoreButton, QueryBody, usePhone } from '../list-frame';
import { useStudioDateTime } from '../use-studio-date-time';
import { syncIssueCalls, useInvalidateSyncIssues, useSyncIssues } from './sync-issues.api';

/** Flag kinds with their own wording; any other kind is shown as the server names it. */
const KNOWN_KINDS = [
  'possibleDuplicate',
  'uncovered',
  'overbooked',
  'attendanceForced',
  'actorNotAllowed',
  'clockAhead',
  'clockBehind',
  'priceChanged',
  'archivedProduct',
  'negativeStock',
  'duplicateReceipt',
] as const;

/**
 * Station sync: what front-desk stations left for a person — flags raised by commands the cloud
 * applied (a possible duplicate client, a visit without a pass, an overbooked class...) and commands
 * kept in quarantine after their handler kept failing. Per station, open or closed; resolve (dealt
 * with) or dismiss (nothing to do).
 */
export function SyncIssuesScreen() {
  const { t } = useTranslation('sync');
  const { member } = useBackoffice();
  const phone = usePhone();
  const [state, setState] = useState<'open' | 'closed'>('open');
  const [station, setStation] = useState<string | null>(null);
  const issues = useSyncIssues(state, station);
  const canDecideQuarantine = member.abilities.includes('settings.edit');

  const body = (
    <QueryBody
      query={issues}
      noPermission={{
        title: t('title'),
        text: t('noPermission'),
        testId: 'sync-issues-no-permission',
        statuses: [401, 403],
      }}
      loadFailed={{ title: t('loadFailed'), testId: 'sync-issues-load-failed' }}
      loadingLabel={t('loading')}
    >
      {(data) => {
        const pages = data.pages;
        const items = pages.flatMap((p) => p.items);
        const stations = pages[0]?.stations ?? [];
        return (
          <Stack gap="md">
            <Group gap="sm" align="flex-end" wrap={phone ? 'wrap' : 'nowrap'}>
              <SegmentedControl
                value={state}
                onChange={(value) => setState(value as 'open' | 'closed')}
                data={[
                  { value: 'open', label: t('state.open') },
                  { value: 'closed', label: t('state.closed') },
                ]}
                fullWidth={phone}
                style={phone ? { width: '100%' } : undefined}
                data-testid="sync-issues-state"
              />
              <Select
                label={t('station.label')}
                value={station ?? 'all'}
                onChange={(value) => setStation(!value || value === 'all' ? null : value)}
                allowDeselect={false}
                data={[
                  { value: 'all', label: t('station.all') },
                  ...stations.map((s) => ({
                    value: s.id,
                    label: t('station.withOpen', { name: s.name, count: s.open }),
                  })),
                ]}
                w={phone ? '100%' : 320}
                data-testid="sync-issues-station"
              />
            </Group>
            {items.length === 0 ? (
              <ListEmpty
                text={state === 'open' ? t('empty.open') : t('empty.closed')}
                testId="sync-issues-empty"
              />
            ) : (
              items.map((issue) => (
                <IssueCard
                  key={`${issue.type}:${issue.id}`}
                  issue={issue}
                  canDecide={issue.type === 'flag' || canDecideQuarantine}
                  phone={phone}
                />
              ))
            )}
            <LoadMoreButton
              hasMore={issues.hasNextPage}
              loading={issues.isFetchingNextPage}
              onLoad={() => void issues.fetchNextPage()}
              label={t('more')}
              testId="sync-issues-more"
            />
          </Stack>
        );
      }}
    </QueryBody>
  );

  return (
    <Stack gap="lg" maw={1100}>
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('title')}
        </Title>
        <Text c="dimmed" size="sm" maw={720}>
          {t('intro')}
        </Text>
      </Stack>
      {body}
    </Stack>
  );
}

function IssueCard({ issue, canDecide, phone }: { issue: SyncIssue; canDecide: boolean; phone: boolean }) {
  const { t } = useTranslation('sync');
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const invalidate = useInvalidateSyncIssues();
  const dateTime = useStudioDateTime();
  const [busy, setBusy] = useState<'resolve' | 'dismiss' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { t: ta } = useTranslation('appointments');
  // The appointments' own flag (issue 21) is worded in its module's namespace.
  const appointmentFlag = issue.type === 'flag' && issue.kind === 'appointmentNotHeld';
  const kindLabel = (KNOWN_KINDS as readonly string[]).includes(issue.kind)
    ? t(`kind.${issue.kind as (typeof KNOWN_KINDS)[number]}`)
    : appointmentFlag
      ? ta('syncFlag.appointmentNotHeld.title')
      : issue.kind;
  const title = issue.type === 'quarantine' ? t('quarantine.title', { command: issue.kind }) : kindLabel;

  const close = async (action: 'resolve' | 'dismiss') => {
    setBusy(action);
    setError(null);
    try {
      await syncIssueCalls.close(api, studio, issue.type, issue.id, action);
      await invalidate();
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        setError(t('alreadyClosed'));
        await invalidate();
      } else setError(failureText(err, t, 'common:errors.generalWithCode'));
    } finally {
      setBusy(null);
    }
  };

  const details = Object.entries(issue.details).filter(([, v]) => v !== null && v !== undefined);
  return (
    <Paper withBorder p="md" radius="md" data-testid="sync-issue">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Group gap="xs" align="center">
            <Badge color={issue.type === 'quarantine' ? 'red' : 'orange'} variant="light">
              {issue.type === 'quarantine' ? t('type.quarantine') : t('type.flag')}
            </Badge>
            <Text fw={600} data-testid="sync-issue-title">
              {title}
            </Text>
          </Group>
          <Text size="sm" c="dimmed">
            {dateTime(issue.createdAt)}
          </Text>
        </Group>
        <Text size="sm">{t('fromStation', { name: issue.station?.name ?? t('station.removed') })}</Text>
        {issue.subject?.client ? (
          <Text size="sm">
            {t('client')}{' '}
            <Anchor
              component={Link}
              to={`/clients/${issue.subject.client.userId}`}
              data-testid="sync-issue-client"
            >
              {issue.subject.client.name}
            </Anchor>
            {issue.subject.startsAt ? ` · ${t('classAt', { when: dateTime(issue.subject.startsAt) })}` : null}
          </Text>
        ) : null}
        {issue.type === 'flag' && (KNOWN_KINDS as readonly string[]).includes(issue.kind) ? (
          <Text size="sm" c="dimmed">
            {t(`hint.${issue.kind as (typeof KNOWN_KINDS)[number]}`)}
          </Text>
        ) : null}
        {appointmentFlag ? (
          <Text size="sm" c="dimmed">
            {ta('syncFlag.appointmentNotHeld.hint')}
          </Text>
        ) : null}
        {issue.command ? (
          <Text size="sm" c="dimmed">
            {t('quarantine.hint', { seq: issue.command.seq })}{' '}
            <Text span size="sm" ff="monospace" style={{ wordBreak: 'break-word' }}>
              {issue.command.error}
            </Text>
          </Text>
        ) : null}
        {details.length > 0 ? (
          <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-word' }}>
            {details
              .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
              .join(' · ')}
          </Text>
        ) : null}
        {error ? (
          <Alert color="red" variant="light" p="xs" data-testid="sync-issue-error">
            {error}
          </Alert>
        ) : null}
        {issue.resolvedAt ? (
          <Text size="sm" data-testid="sync-issue-closed">
            {t(issue.resolution === 'dismissed' ? 'closed.dismissed' : 'closed.resolved', {
              name: issue.resolvedBy?.name ?? '—',
              when: dateTime(issue.resolvedAt),
            })}
          </Text>
        ) : canDecide ? (
          <Group gap="xs" grow={phone}>
            <Button
              size="xs"
              loading={busy === 'resolve'}
              disabled={busy !== null}
              onClick={() => void close('resolve')}
              data-testid="sync-issue-resolve"
            >
              {t('actions.resolve')}
            </Button>
            <Button
              size="xs"
              variant="default"
              loading={busy === 'dismiss'}
              disabled={busy !== null}
              onClick={() => void close('dismiss')}
              data-testid="sync-issue-dismiss"
            >
              {t('actions.dismiss')}
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed" data-testid="sync-issue-manager-only">
            {t('quarantine.managerOnly')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
