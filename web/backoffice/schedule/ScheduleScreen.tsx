import {
  Alert,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ScheduleEventView, ScheduleInit } from '../../../shared/contracts/api/schedule';
import { useApiClient } from '../../lib/app-context';
import { toFormErrors } from '../../lib/form-errors';
import { useBackoffice } from '../backoffice.api';
import { fromWall, wallDate } from '../appointments/appointments.api';
import { EventDrawer } from './EventDrawer';
import { EventStatusBadges } from './EventStatusBadges';
import { MetaEditor, type MetaPrefill } from './MetaEditor';
import { Occupancy, ScheduleCalendar, type MoveRequest } from './ScheduleCalendar';
import { BulkCancelDialog, GenerateDialog } from './BulkDialogs';
import {
  calendarEvents,
  clashingClass,
  columnChange,
  conflictKind,
  dayColumns,
  NONE,
  type ColumnMode,
} from './calendar-model';
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

export { EventStatusBadges } from './EventStatusBadges';

/**
 * The back office's timetable as a calendar (issue 26): a time grid of the week, or of a day with a
 * column per room or instructor, per location and room; each class with places taken / capacity and
 * its waiting list; empty time clicked to create a class, classes dragged to move or resized (the
 * API's rules; its refusal shown); generating and cancelling many classes confirmed first. Phones get
 * the day as a list. Times are on the studio's clock.
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
  const [columns, setColumns] = useState<ColumnMode>('rooms');
  // `?date=YYYY-MM-DD&event=<id>`: a link to one class (the search box's "open by id").
  const [search, setSearch] = useSearchParams();
  const askedDate = search.get('date');
  const askedEvent = search.get('event');
  const [anchor, setAnchor] = useState(() =>
    askedDate && /^\d{4}-\d{2}-\d{2}$/.test(askedDate) ? askedDate : todayIn(tz),
  );
  const [locationId, setLocationId] = useState<string | null>(null);
  const [roomId, setRoomId] = useState<string | null>(null);
  const [openEvent, setOpenEvent] = useState<ScheduleEventView | null>(null);
  const [editor, setEditor] = useState<{ metaId: string | null; prefill?: MetaPrefill } | null>(null);
  const [dialog, setDialog] = useState<'generate' | 'cancel' | null>(null);
  // A notice's text is worded when shown, so it follows a change of language.
  const [notice, setNotice] = useState<{
    color: string;
    text: (tr: TFunction) => string;
    testId?: string;
  } | null>(null);
  const [moving, setMoving] = useState(false);
  const days = useMemo(() => visibleDays(anchor, view), [anchor, view]);
  const events = useEvents({
    from: days[0]!,
    to: days[days.length - 1]!,
    ...(locationId ? { locationId } : {}),
    ...(roomId ? { roomId } : {}),
  });
  const items = useMemo(() => events.data?.items ?? [], [events.data]);
  useEffect(() => {
    const asked = askedEvent ? items.find((e) => e.id === askedEvent) : undefined;
    if (!asked) return;
    setOpenEvent(asked);
    setSearch({}, { replace: true });
  }, [askedEvent, items, setSearch]);
  const rooms = init.locations.find((l) => l.id === locationId)?.rooms ?? [];
  // The list's copy when it holds the class, else the one last opened or changed.
  const selected = (openEvent && items.find((e) => e.id === openEvent.id)) || openEvent;
  const editable = can('schedule.edit');
  // A day shows a column per room (unless one room is chosen) or per instructor.
  const mode: ColumnMode | null = view === 'day' && !(columns === 'rooms' && roomId) ? columns : null;
  const resources = useMemo(
    () =>
      mode
        ? dayColumns(init, items, mode, locationId, {
            noRoom: t('noRoom'),
            noInstructor: t('noInstructor'),
          })
        : null,
    [mode, init, items, locationId, t],
  );
  const calEvents = useMemo(() => calendarEvents(items, tz, mode), [items, tz, mode]);
  const name = (e: ScheduleEventView) =>
    serviceName(e.classService.name, i18n.language, studioInfo.defaultLocale);

  const createAt = (slot: { start: Date; end: Date; resourceId?: string; dragged: boolean }) => {
    const column = resources?.find((r) => r.id === slot.resourceId);
    const minutes = Math.round((slot.end.getTime() - slot.start.getTime()) / 60_000);
    const prefill: MetaPrefill = {
      date: wallDate(slot.start),
      startTime: `${String(slot.start.getHours()).padStart(2, '0')}:${String(slot.start.getMinutes()).padStart(2, '0')}`,
      ...(slot.dragged && minutes >= 15 ? { durationMinutes: minutes } : {}),
      ...(mode === 'rooms' && column && column.id !== NONE
        ? { locationId: column.locationId ?? locationId, roomId: column.id }
        : roomId
          ? { locationId, roomId }
          : locationId
            ? { locationId }
            : {}),
      ...(mode === 'instructors' && column && column.id !== NONE ? { instructorIds: [column.id] } : {}),
    };
    setEditor({ metaId: null, prefill });
  };

  const move = async ({ event, start, end, from, to, resize }: MoveRequest) => {
    const change = resize ? {} : columnChange(event, mode, from, to, resources ?? []);
    const startsAt = fromWall(start, tz);
    const endsAt = fromWall(end, tz);
    const durationMinutes = Math.round((Date.parse(endsAt) - Date.parse(startsAt)) / 60_000);
    const same =
      startsAt === new Date(event.startsAt).toISOString() &&
      // A move keeps the duration (the tile of a class past midnight ends at 23:59).
      (!resize || endsAt === new Date(event.endsAt).toISOString()) &&
      Object.keys(change).length === 0;
    if (same) return;
    setNotice(null);
    setMoving(true);
    try {
      const moved = await scheduleCalls(api, studio).patchEvent(event.id, {
        startsAt,
        ...(resize ? { durationMinutes } : {}),
        ...change,
      });
      await invalidate();
      setNotice({
        color: 'teal',
        text: (tr) =>
          tr('moved', {
            name: name(moved),
            time: `${formatDay(wallDate(start), i18n.language)} ${formatTime(moved.startsAt, i18n.language, tz)}–${formatTime(moved.endsAt, i18n.language, tz)}`,
          }),
        testId: 'schedule-move-done',
      });
    } catch (error) {
      const kind = conflictKind(error);
      const other = kind ? clashingClass(items, event, { startsAt, endsAt, ...change }, kind) : undefined;
      const text = (tr: TFunction) => {
        if (!kind)
          return toFormErrors(error, tr, SCHEDULE_ERROR_OPTIONS).form.join(' ') || tr('errors.notMoved');
        if (!other) return tr(kind === 'room' ? 'errors.roomTaken' : 'errors.instructorBusy');
        return tr(kind === 'room' ? 'errors.roomTakenBy' : 'errors.instructorBusyWith', {
          room: other.roomName ?? '',
          name: name(other),
          time: `${formatTime(other.startsAt, i18n.language, tz)}–${formatTime(other.endsAt, i18n.language, tz)}`,
        });
      };
      setNotice({ color: 'red', text, testId: 'schedule-move-error' });
    } finally {
      setMoving(false);
    }
  };

  return (
    <Stack gap="md" data-testid="schedule-screen">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Title order={1} size="h2">
          {t('title')}
        </Title>
        {editable && (
          <Group gap="xs" wrap="wrap">
            <Button variant="default" onClick={() => setDialog('cancel')} data-testid="schedule-bulk-cancel">
              {t('bulkCancel.open')}
            </Button>
            <Button variant="default" onClick={() => setDialog('generate')} data-testid="schedule-generate">
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
          <span data-testid={notice.testId}>{notice.text(t)}</span>
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
            {(events.isFetching || moving) && <Loader size="xs" aria-label={t('loading')} />}
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
            {!phone && view === 'day' && (
              <SegmentedControl
                size="xs"
                value={columns}
                onChange={(v) => setColumns(v as ColumnMode)}
                data={[
                  { value: 'rooms', label: t('columns.rooms') },
                  { value: 'instructors', label: t('columns.instructors') },
                ]}
                aria-label={t('columns.label')}
                data-testid="schedule-columns"
              />
            )}
            <Select
              size="xs"
              w={phone ? '100%' : 200}
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
              w={phone ? '100%' : 200}
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
      ) : phone ? (
        <DayList
          day={days[0]!}
          events={groupByDay(items, days, tz).get(days[0]!) ?? []}
          onOpen={setOpenEvent}
          tz={tz}
          studioLocale={studioInfo.defaultLocale}
        />
      ) : (
        <>
          {editable && (
            <Text size="xs" c="dimmed">
              {t('calendarHint')}
            </Text>
          )}
          <ScheduleCalendar
            view={view}
            anchor={anchor}
            events={calEvents}
            resources={resources}
            timeZone={tz}
            editable={editable && !moving}
            onOpen={setOpenEvent}
            onCreate={createAt}
            onMove={(m) => void move(m)}
          />
        </>
      )}
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
          {...(editor.prefill ? { prefill: editor.prefill } : {})}
          onClose={() => setEditor(null)}
          onSaved={(text) => {
            setEditor(null);
            setNotice({ color: 'teal', text: () => text });
          }}
        />
      )}
      {dialog === 'generate' && (
        <GenerateDialog
          timeZone={tz}
          onClose={() => setDialog(null)}
          onDone={(text, ok) => {
            setDialog(null);
            setNotice({ color: ok ? 'teal' : 'red', text: () => text });
          }}
        />
      )}
      {dialog === 'cancel' && (
        <BulkCancelDialog
          events={items}
          range={formatRange(days, i18n.language)}
          timeZone={tz}
          onClose={() => setDialog(null)}
          onDone={(text) => {
            setDialog(null);
            setNotice({ color: 'teal', text: () => text });
          }}
        />
      )}
    </Stack>
  );
}

/** A phone's day: the classes as a list of cards, each whole (names wrap, nothing is cut). */
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

function EventCard({
  event,
  onOpen,
  tz,
  studioLocale,
}: {
  event: ScheduleEventView;
  onOpen(event: ScheduleEventView): void;
  tz: string;
  studioLocale: string;
}) {
  const { i18n } = useTranslation('schedule');
  const off = event.status !== 'scheduled' || event.hidden;
  const name = serviceName(event.classService.name, i18n.language, studioLocale);
  return (
    <UnstyledButton
      onClick={() => onOpen(event)}
      data-testid="schedule-event"
      data-status={event.status}
      data-event-id={event.id}
      aria-label={name}
    >
      <Box
        p="sm"
        style={{
          borderLeft: `4px solid ${event.classService.color}`,
          borderRadius: 6,
          background: off ? 'var(--mantine-color-gray-1)' : 'var(--mantine-color-body)',
          boxShadow: '0 0 0 1px var(--mantine-color-gray-3)',
          opacity: event.status === 'removed' ? 0.6 : 1,
        }}
      >
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Text size="xs" c="dimmed">
            {formatTime(event.startsAt, i18n.language, tz)}–{formatTime(event.endsAt, i18n.language, tz)}
          </Text>
          <Occupancy event={event} />
        </Group>
        <Text
          size="sm"
          fw={600}
          td={event.status === 'cancelled' ? 'line-through' : undefined}
          style={{ overflowWrap: 'anywhere' }}
        >
          {name}
        </Text>
        {/* Wraps rather than cutting the room ("Sala Słoneczna · …") on phones. */}
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
