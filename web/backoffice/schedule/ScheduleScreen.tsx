import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScheduleEventView, ScheduleInit } from '../../../shared/contracts/api/schedule';
import { useApiClient } from '../../lib/app-context';
import { toFormErrors } from '../../lib/form-errors';
import { useBackoffice } from '../backoffice.api';
import { EventDrawer } from './EventDrawer';
import { MetaEditor } from './MetaEditor';
import {
  SCHEDULE_ERROR_OPTIONS,
  scheduleCalls,
  useCan,
  useEvents,
  useInvalidateSchedule,
  usePhone,
  useScheduleInit,
  useStudioUuid,
} from './schedule.api';
import {
  formatDay,
  formatRange,
  formatTime,
  groupByDay,
  serviceName,
  shiftAnchor,
  todayIn,
  visibleDays,
} from '../../features/schedule/week';

/**
 * The back office's timetable: a week grid on desktop, a day list on phones, per location and room,
 * with each class opening a drawer of details and quick actions. Times are on the studio's clock.
 */
export function ScheduleScreen() {
  const { t } = useTranslation('schedule');
  const init = useScheduleInit();
  // The week's classes are asked for together with the set-up data, not after it (issue 26: the
  // second request waited for the first): the studio's zone, hence this week, is known already.
  // Same filters as the timetable's first view, so it finds this query in flight or done.
  const { studio } = useBackoffice();
  const phone = usePhone();
  const firstDays = visibleDays(todayIn(studio.timeZone), phone ? 'day' : 'week');
  useEvents({ from: firstDays[0]!, to: firstDays[firstDays.length - 1]! });
  if (init.error)
    return (
      <Alert color="red" title={t('loadFailed')} data-testid="schedule-load-error">
        <Button variant="light" onClick={() => void init.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  if (!init.data) return <Loader aria-label={t('loading')} />;
  return <Timetable init={init.data} />;
}

function Timetable({ init }: { init: ScheduleInit }) {
  const { t, i18n } = useTranslation('schedule');
  const phone = usePhone();
  const can = useCan();
  const api = useApiClient();
  const studio = useStudioUuid();
  const { studio: studioInfo } = useBackoffice();
  const invalidate = useInvalidateSchedule();
  const tz = init.timeZone;
  const [chosenView, setView] = useState<'week' | 'day'>('week');
  const view = phone ? 'day' : chosenView;
  const [anchor, setAnchor] = useState(() => todayIn(tz));
  const [locationId, setLocationId] = useState<string | null>(null);
  const [roomId, setRoomId] = useState<string | null>(null);
  const [openEvent, setOpenEvent] = useState<ScheduleEventView | null>(null);
  const [editor, setEditor] = useState<{ metaId: string | null } | null>(null);
  const [generating, setGenerating] = useState(false);
  const [notice, setNotice] = useState<{ color: string; text: string } | null>(null);
  const days = useMemo(() => visibleDays(anchor, view), [anchor, view]);
  const events = useEvents({
    from: days[0]!,
    to: days[days.length - 1]!,
    ...(locationId ? { locationId } : {}),
    ...(roomId ? { roomId } : {}),
  });
  const rooms = init.locations.find((l) => l.id === locationId)?.rooms ?? [];
  const grouped = groupByDay(events.data?.items ?? [], days, tz);
  // The list's copy when it holds the class, else the one last opened or changed (a phone's day
  // list may not hold it after the view narrows).
  const selected = (openEvent && events.data?.items.find((e) => e.id === openEvent.id)) || openEvent;
  const editable = can('schedule.edit');

  const generate = async () => {
    setGenerating(true);
    setNotice(null);
    try {
      const result = await scheduleCalls(api, studio).generate();
      setNotice({ color: 'teal', text: t('generated', { count: result.created }) });
      await invalidate();
    } catch (error) {
      setNotice({ color: 'red', text: toFormErrors(error, t, SCHEDULE_ERROR_OPTIONS).form.join(' ') });
    } finally {
      setGenerating(false);
    }
  };

  return (
    <Stack gap="md" data-testid="schedule-screen">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Title order={1} size="h2">
          {t('title')}
        </Title>
        {editable && (
          <Group gap="xs">
            <Button
              variant="default"
              onClick={() => void generate()}
              loading={generating}
              data-testid="schedule-generate"
            >
              {t('generate')}
            </Button>
            <Button onClick={() => setEditor({ metaId: null })} data-testid="schedule-new-meta">
              {t('newMeta')}
            </Button>
          </Group>
        )}
      </Group>
      {notice && (
        <Alert
          color={notice.color}
          withCloseButton
          onClose={() => setNotice(null)}
          data-testid="schedule-notice"
        >
          {notice.text}
        </Alert>
      )}
      <Paper withBorder p="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="xs" wrap="nowrap">
            <Button
              variant="default"
              size="xs"
              onClick={() => setAnchor(shiftAnchor(anchor, view, -1))}
              aria-label={t('previous')}
              data-testid="schedule-prev"
            >
              ‹
            </Button>
            <Button
              variant="default"
              size="xs"
              onClick={() => setAnchor(todayIn(tz))}
              data-testid="schedule-today"
            >
              {t('today')}
            </Button>
            <Button
              variant="default"
              size="xs"
              onClick={() => setAnchor(shiftAnchor(anchor, view, 1))}
              aria-label={t('next')}
              data-testid="schedule-next"
            >
              ›
            </Button>
            <Text fw={600} size="sm" data-testid="schedule-range">
              {formatRange(days, i18n.language)}
            </Text>
          </Group>
          <Group gap="xs" wrap="wrap">
            {!phone && (
              <SegmentedControl
                size="xs"
                value={view}
                onChange={(v) => setView(v as 'week' | 'day')}
                data={[
                  { value: 'week', label: t('week') },
                  { value: 'day', label: t('day') },
                ]}
                data-testid="schedule-view"
              />
            )}
            <Select
              size="xs"
              w={phone ? '100%' : 180}
              placeholder={t('allLocations')}
              clearable
              value={locationId}
              onChange={(v) => {
                setLocationId(v);
                setRoomId(null);
              }}
              data={init.locations.map((l) => ({ value: l.id, label: l.name }))}
              aria-label={t('location')}
              data-testid="schedule-location"
            />
            <Select
              size="xs"
              w={phone ? '100%' : 160}
              placeholder={t('allRooms')}
              clearable
              disabled={!locationId}
              value={roomId}
              onChange={setRoomId}
              data={rooms.map((r) => ({ value: r.id, label: r.name }))}
              aria-label={t('room')}
              data-testid="schedule-room"
            />
          </Group>
        </Group>
      </Paper>
      {events.error ? (
        <Alert color="red">{t('loadFailed')}</Alert>
      ) : view === 'week' ? (
        <SimpleGrid cols={7} spacing={6} data-testid="schedule-week">
          {days.map((day) => (
            <DayColumn
              key={day}
              day={day}
              events={grouped.get(day) ?? []}
              today={day === todayIn(tz)}
              onOpen={setOpenEvent}
              tz={tz}
              studioLocale={studioInfo.defaultLocale}
            />
          ))}
        </SimpleGrid>
      ) : (
        <DayList
          day={days[0]!}
          events={grouped.get(days[0]!) ?? []}
          onOpen={setOpenEvent}
          tz={tz}
          studioLocale={studioInfo.defaultLocale}
        />
      )}
      {events.isFetching && <Loader size="xs" aria-label={t('loading')} />}
      <EventDrawer
        event={selected}
        init={init}
        onClose={() => setOpenEvent(null)}
        onChanged={setOpenEvent}
        onEditMeta={(metaId) => {
          setOpenEvent(null);
          setEditor({ metaId });
        }}
      />
      {editor && (
        <MetaEditor
          init={init}
          metaId={editor.metaId}
          onClose={() => setEditor(null)}
          onSaved={(text) => {
            setEditor(null);
            setNotice({ color: 'teal', text });
          }}
        />
      )}
    </Stack>
  );
}

function DayColumn({
  day,
  events,
  today,
  onOpen,
  tz,
  studioLocale,
}: {
  day: string;
  events: ScheduleEventView[];
  today: boolean;
  onOpen(event: ScheduleEventView): void;
  tz: string;
  studioLocale: string;
}) {
  const { t, i18n } = useTranslation('schedule');
  return (
    <Stack gap={4} data-testid={`schedule-day-${day}`} miw={0}>
      <Text
        size="sm"
        fw={700}
        ta="center"
        c={today ? 'violet' : undefined}
        py={4}
        style={{ borderBottom: '2px solid var(--mantine-color-gray-3)' }}
      >
        {formatDay(day, i18n.language)}
      </Text>
      {events.length === 0 ? (
        <Text size="xs" c="dimmed" ta="center" py="sm">
          {t('noClasses')}
        </Text>
      ) : (
        events.map((e) => (
          <EventCard key={e.id} event={e} onOpen={onOpen} tz={tz} studioLocale={studioLocale} compact />
        ))
      )}
    </Stack>
  );
}

function DayList({
  day,
  events,
  onOpen,
  tz,
  studioLocale,
}: {
  day: string;
  events: ScheduleEventView[];
  onOpen(event: ScheduleEventView): void;
  tz: string;
  studioLocale: string;
}) {
  const { t, i18n } = useTranslation('schedule');
  return (
    <Stack gap="xs" data-testid="schedule-day-list">
      <Text fw={700}>{formatDay(day, i18n.language, 'long')}</Text>
      {events.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('noClassesDay')}
        </Text>
      ) : (
        events.map((e) => (
          <EventCard key={e.id} event={e} onOpen={onOpen} tz={tz} studioLocale={studioLocale} />
        ))
      )}
    </Stack>
  );
}

export function EventStatusBadges({ event }: { event: ScheduleEventView }) {
  const { t } = useTranslation('schedule');
  return (
    <>
      {event.status !== 'scheduled' && (
        <Badge size="xs" color={event.status === 'cancelled' ? 'red' : 'gray'} variant="filled">
          {t(`status.${event.status}`)}
        </Badge>
      )}
      {event.hidden && (
        <Badge size="xs" color="gray" variant="outline">
          {t('hidden')}
        </Badge>
      )}
      {!event.bookableOnline && event.status === 'scheduled' && (
        <Badge size="xs" color="orange" variant="light">
          {t('notBookable')}
        </Badge>
      )}
    </>
  );
}

function EventCard({
  event,
  onOpen,
  tz,
  studioLocale,
  compact = false,
}: {
  event: ScheduleEventView;
  onOpen(event: ScheduleEventView): void;
  tz: string;
  studioLocale: string;
  compact?: boolean;
}) {
  const { i18n } = useTranslation('schedule');
  const off = event.status !== 'scheduled' || event.hidden;
  const name = serviceName(event.classService.name, i18n.language, studioLocale);
  return (
    <UnstyledButton
      onClick={() => onOpen(event)}
      data-testid="schedule-event"
      data-status={event.status}
      aria-label={name}
    >
      <Box
        p={compact ? 6 : 'sm'}
        style={{
          borderLeft: `4px solid ${event.classService.color}`,
          borderRadius: 6,
          background: off ? 'var(--mantine-color-gray-1)' : 'var(--mantine-color-body)',
          boxShadow: '0 0 0 1px var(--mantine-color-gray-3)',
          opacity: event.status === 'removed' ? 0.6 : 1,
        }}
      >
        <Text size="xs" c="dimmed">
          {formatTime(event.startsAt, i18n.language, tz)}–{formatTime(event.endsAt, i18n.language, tz)}
        </Text>
        <Text
          size={compact ? 'xs' : 'sm'}
          fw={600}
          td={event.status === 'cancelled' ? 'line-through' : undefined}
          style={{ overflowWrap: 'anywhere' }}
        >
          {name}
        </Text>
        {/* Wraps rather than cutting the room ("Sala Słoneczna · …") on narrow columns and phones. */}
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="schedule-event-place">
          {[event.roomName ?? event.locationName, event.instructors.map((p) => p.firstName).join(', ')]
            .filter(Boolean)
            .join(' · ')}
        </Text>
        <Group gap={4} mt={2}>
          <EventStatusBadges event={event} />
        </Group>
      </Box>
    </UnstyledButton>
  );
}
