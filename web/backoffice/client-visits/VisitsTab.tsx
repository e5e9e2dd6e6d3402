import { Alert, Badge, Button, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClientVisitView } from '../../../shared/contracts/api/bookings';
import { BookingsApi } from '../../../shared/contracts/http/bookings';
import { localDateOf } from '../../../shared/domain/entitlements/local-dates';
import { useApiClient } from '../../lib/app-context';
import { Loading } from '../catalog/CatalogScreen';
import { price, useStudio } from '../catalog/catalog.api';
import type { ClientProfileTabProps } from '../clients/profile-tabs';
import { VisitStatusBadge } from '../schedule/event-detail/EventAttendees';
import { ProvisionalBadge } from '../sync/ProvisionalBadge';
import { visitPaymentLabel } from '../../features/schedule/visit-payment';
import { formatDay, formatTime, serviceName } from '../../features/schedule/week';
import { ListEmpty } from '../list-frame';

type When = 'upcoming' | 'past';

/** `GET client/{user}/client-visit/collection` page by page (keyset cursor). */
function useClientVisits(clientId: string, when: When) {
  const api = useApiClient();
  const studio = useStudio().uuid;
  return useInfiniteQuery({
    queryKey: ['event-bookings', studio, 'client-visits', clientId, when],
    queryFn: ({ pageParam, signal }) =>
      api.call(BookingsApi.getClientClientVisitCollection, {
        params: { uuid: studio, user: clientId },
        signal,
        query: { when, limit: 30, ...(pageParam ? { cursor: pageParam } : {}) },
      }),
    initialPageParam: '',
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

/**
 * The client profile's Visits tab: the client's classes, upcoming or past, each with its status
 * (waiting-list place), what paid it (pass, contract, free, desk), how it was booked and any fee.
 */
export function VisitsTab({ clientId }: ClientProfileTabProps) {
  const { t } = useTranslation('bookings-ui');
  const [when, setWhen] = useState<When>('upcoming');
  const visits = useClientVisits(clientId, when);
  const items = visits.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Stack gap="sm" data-testid="client-visits-tab">
      <Group justify="space-between" wrap="wrap">
        <SegmentedControl
          value={when}
          onChange={(v) => setWhen(v as When)}
          data={[
            { value: 'upcoming', label: t('client.upcoming') },
            { value: 'past', label: t('client.past') },
          ]}
          data-testid="client-visits-when"
        />
      </Group>
      {visits.error ? (
        <Alert color="red" variant="light" title={t('profileVisits.loadFailed')}>
          <Button size="xs" variant="default" onClick={() => void visits.refetch()}>
            {t('staff.retry')}
          </Button>
        </Alert>
      ) : !visits.data ? (
        <Loading />
      ) : items.length === 0 ? (
        <ListEmpty
          text={when === 'upcoming' ? t('profileVisits.noUpcoming') : t('profileVisits.noPast')}
          testId="client-visits-empty"
        />
      ) : (
        <Stack gap={6} data-testid="client-visits-list">
          {items.map((visit) => (
            <VisitRow key={visit.id} visit={visit} />
          ))}
          {visits.hasNextPage && (
            <Group justify="center">
              <Button
                variant="default"
                size="xs"
                loading={visits.isFetchingNextPage}
                onClick={() => void visits.fetchNextPage()}
              >
                {t('profileVisits.more')}
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Stack>
  );
}

function VisitRow({ visit }: { visit: ClientVisitView }) {
  const { t, i18n } = useTranslation('bookings-ui');
  const studio = useStudio();
  const tz = studio.timeZone;
  const event = visit.event;
  const fees = visit.fees.filter((f) => !f.forgiven);
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      style={{ borderLeft: `4px solid ${event.classService.color}` }}
      data-testid="client-visit-row"
    >
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text fw={600} data-testid="client-visit-class">
            {serviceName(event.classService.name, i18n.language, studio.defaultLocale)}
          </Text>
          <Text size="sm">
            {formatDay(localDateOf(new Date(event.startsAt), tz), i18n.language, 'long')},{' '}
            {formatTime(event.startsAt, i18n.language, tz)}–{formatTime(event.endsAt, i18n.language, tz)}
            {' · '}
            {event.locationName}
          </Text>
          <Text size="xs" c="dimmed" data-testid="client-visit-payment">
            {visitPaymentLabel(visit, t, i18n.language, 'staff')}
            {' · '}
            {t(`bookedBy.${visit.bookedBy}`)}
          </Text>
          {fees.map((f) => (
            <Text key={f.id} size="xs" c="orange">
              {t(`bookings:fee.${f.kind}`)}: {price(f.amount, f.currency, i18n.language)}
            </Text>
          ))}
        </div>
        {visit.status === 8 ? (
          <Group gap={4} wrap="nowrap">
            <Badge color="grape" variant="light" data-testid="client-visit-status">
              {t('client.waitingPosition', { position: visit.waitingPosition ?? '?' })}
            </Badge>
            <ProvisionalBadge provisional={visit.provisional} />
          </Group>
        ) : (
          <Group gap={4} wrap="nowrap" data-testid="client-visit-status">
            {/* A visit the desk station recorded offline says "Waiting to sync", as the attendee list does. */}
            <VisitStatusBadge status={visit.status} provisional={visit.provisional} />
          </Group>
        )}
      </Group>
    </Paper>
  );
}
