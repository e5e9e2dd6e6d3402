import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { ClientScheduleItem } from '../../../shared/contracts/api/bookings';
import type { PublicScheduleEvent } from '../../../shared/contracts/api/schedule';
import { useApiClient } from '../../lib/app-context';
import {
  formatDay,
  formatRange,
  formatTime,
  groupByDay,
  serviceName,
  shiftAnchor,
  todayIn,
} from '../../features/schedule/week';
import { useStudioUuid } from '../studio';
import { useClientSchedule, useSignedIn } from '../visits/client-bookings.api';
import { BookingControls, PendingBooking } from './BookingControls';
import { ClassDetailsDialog } from './ClassDetailsDialog';
import { BROWSER_TZ, timetableAnchor, timetableQuery, timetableWeek } from './timetable.queries';

/**
 * The studio's public timetable (front office `POST schedule`): anyone may look. A week at a time on
 * desktop (seven columns), one day at a time on phones; filters by location, class and instructor.
 */
export function TimetableScreen() {
  const { t, i18n } = useTranslation('schedule');
  const api = useApiClient();
  const studio = useStudioUuid();
  const phone = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const view = phone ? 'day' : 'week';
  // `date` (a day of the week to show) and `book` (a class to book) come back from the sign-in.
  const [search, setSearch] = useSearchParams();
  const [anchor, setAnchor] = useState(() => timetableAnchor(search));
  const signedIn = useSignedIn();
  const [filters, setFilters] = useState<{
    locationId?: string;
    classServiceId?: string;
    instructorId?: string;
  }>({});
  // The query always asks for the whole week, so switching to the day view never refetches.
  const week = useMemo(() => timetableWeek(anchor), [anchor]);
  const days = view === 'week' ? week : [anchor];
  // Started by the route already on a first load (frontoffice/prefetch.ts): same key, no second call.
  const schedule = useQuery({
    ...timetableQuery(api, studio, week, filters),
    placeholderData: keepPreviousData,
  });
  // The studio's zone comes with every answer.
  const tz = schedule.data?.timeZone ?? BROWSER_TZ;
  const grouped = groupByDay(schedule.data?.items ?? [], days, tz);
  const mine = useClientSchedule(week[0]!, week[6]!);
  const items = new Map<string, ClientScheduleItem>(
    (mine.data?.items ?? []).map((i) => [i.scheduleEventId, i]),
  );
  const returnTo = `timetable?date=${anchor}`;
  const pendingId = search.get('book');
  const [detailsOf, setDetailsOf] = useState<PublicScheduleEvent | null>(null);
  const booking = { items, signedIn, returnTo, openDetails: setDetailsOf };
  const options = schedule.data?.filters;
  const setFilter = (key: keyof typeof filters) => (value: string | null) =>
    setFilters((f) => ({ ...f, [key]: value ?? undefined }));

  return (
    <Stack gap="md" data-testid="timetable">
      <Title order={2}>{t('timetable.title')}</Title>
      <Paper withBorder p="sm">
        <Stack gap="xs">
          <Group gap="xs" wrap="nowrap">
            <Button
              variant="default"
              size="xs"
              onClick={() => setAnchor(shiftAnchor(anchor, view, -1))}
              aria-label={t('previous')}
            >
              ‹
            </Button>
            <Button
              variant="default"
              size="xs"
              onClick={() => setAnchor(todayIn(tz))}
              style={{ flexShrink: 0 }}
            >
              {t('today')}
            </Button>
            <Button
              variant="default"
              size="xs"
              onClick={() => setAnchor(shiftAnchor(anchor, view, 1))}
              aria-label={t('next')}
              data-testid="timetable-next"
            >
              ›
            </Button>
            <Text fw={600} size="sm" data-testid="timetable-range">
              {formatRange(days, i18n.language)}
            </Text>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
            <Select
              size="xs"
              placeholder={t('allLocations')}
              clearable
              value={filters.locationId ?? null}
              onChange={setFilter('locationId')}
              data={(options?.locations ?? []).map((l) => ({ value: l.id, label: l.name }))}
              aria-label={t('location')}
              data-testid="timetable-location"
            />
            <Select
              size="xs"
              placeholder={t('timetable.allClasses')}
              clearable
              value={filters.classServiceId ?? null}
              onChange={setFilter('classServiceId')}
              data={(options?.classServices ?? []).map((s) => ({
                value: s.id,
                label: serviceName(s.name, i18n.language, null),
              }))}
              aria-label={t('timetable.class')}
              data-testid="timetable-class"
            />
            <Select
              size="xs"
              placeholder={t('timetable.allInstructors')}
              clearable
              value={filters.instructorId ?? null}
              onChange={setFilter('instructorId')}
              data={(options?.instructors ?? []).map((p) => ({
                value: p.id,
                label: `${p.firstName} ${p.lastName}`,
              }))}
              aria-label={t('instructors')}
              data-testid="timetable-instructor"
            />
          </SimpleGrid>
        </Stack>
      </Paper>
      {schedule.error ? (
        <Alert color="red">{t('loadFailed')}</Alert>
      ) : !schedule.data ? (
        <Loader aria-label={t('loading')} />
      ) : view === 'week' ? (
        // The front office's frame is narrow: the week scrolls sideways rather than squeezing days.
        <ScrollArea type="auto" offsetScrollbars>
          <SimpleGrid cols={7} spacing={6} miw={7 * 132} data-testid="timetable-week">
            {days.map((day) => (
              <Stack key={day} gap={4} miw={0}>
                <Text
                  size="sm"
                  fw={700}
                  ta="center"
                  py={4}
                  style={{ borderBottom: '2px solid var(--mantine-color-gray-3)' }}
                >
                  {formatDay(day, i18n.language)}
                </Text>
                {(grouped.get(day) ?? []).map((e) => (
                  <PublicEventCard key={e.id} event={e} tz={tz} compact booking={booking} />
                ))}
                {(grouped.get(day) ?? []).length === 0 && (
                  <Text size="xs" c="dimmed" ta="center" py="sm">
                    {t('noClasses')}
                  </Text>
                )}
              </Stack>
            ))}
          </SimpleGrid>
        </ScrollArea>
      ) : (
        <Stack gap="xs" data-testid="timetable-day">
          <Text fw={700}>{formatDay(anchor, i18n.language, 'long')}</Text>
          {(grouped.get(anchor) ?? []).map((e) => (
            <PublicEventCard key={e.id} event={e} tz={tz} booking={booking} />
          ))}
          {(grouped.get(anchor) ?? []).length === 0 && (
            <Text c="dimmed" size="sm">
              {t('noClassesDay')}
            </Text>
          )}
        </Stack>
      )}
      {signedIn && pendingId && (
        <PendingBooking
          event={schedule.data?.items.find((e) => e.id === pendingId)}
          item={items.get(pendingId)}
          tz={tz}
          onClose={() => setSearch({ date: anchor }, { replace: true })}
        />
      )}
      {detailsOf && <ClassDetailsDialog event={detailsOf} tz={tz} onClose={() => setDetailsOf(null)} />}
    </Stack>
  );
}

function PublicEventCard({
  event,
  tz,
  compact = false,
  booking,
}: {
  event: PublicScheduleEvent;
  tz: string;
  compact?: boolean;
  booking: {
    items: Map<string, ClientScheduleItem>;
    signedIn: boolean;
    returnTo: string;
    openDetails: (event: PublicScheduleEvent) => void;
  };
}) {
  const { t, i18n } = useTranslation('schedule');
  return (
    <Box
      p={compact ? 6 : 'sm'}
      data-testid="timetable-event"
      data-cancelled={event.cancelled}
      style={{
        borderLeft: `4px solid ${event.classService.color}`,
        borderRadius: 6,
        boxShadow: '0 0 0 1px var(--mantine-color-gray-3)',
        background: event.cancelled ? 'var(--mantine-color-gray-1)' : 'var(--mantine-color-body)',
      }}
    >
      <Text size="xs" c="dimmed">
        {formatTime(event.startsAt, i18n.language, tz)}–{formatTime(event.endsAt, i18n.language, tz)}
      </Text>
      {/* The class's name opens its details (description, level, instructor, room). */}
      <UnstyledButton
        onClick={() => booking.openDetails(event)}
        aria-haspopup="dialog"
        data-testid="timetable-event-details"
        style={{ display: 'block', textAlign: 'start', width: '100%' }}
      >
        <Text
          size={compact ? 'xs' : 'sm'}
          fw={600}
          td={event.cancelled ? 'line-through' : 'underline dotted'}
          style={{ overflowWrap: 'anywhere', textUnderlineOffset: 3 }}
        >
          {serviceName(event.classService.name, i18n.language, null)}
        </Text>
      </UnstyledButton>
      {/* Room and instructors wrap rather than being cut ("Sala Słoneczna · …"). */}
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="timetable-event-place">
        {[
          event.room?.name ?? event.location.name,
          event.instructors.map((p) => `${p.firstName} ${p.lastName}`).join(', '),
        ]
          .filter(Boolean)
          .join(' · ')}
      </Text>
      {event.cancelled && (
        <Badge size="xs" color="red" mt={2}>
          {t('status.cancelled')}
        </Badge>
      )}
      <BookingControls
        event={event}
        item={booking.items.get(event.id)}
        signedIn={booking.signedIn}
        returnTo={booking.returnTo}
        compact={compact}
      />
    </Box>
  );
}
