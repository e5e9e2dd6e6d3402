import { Badge, Group, Text } from '@mantine/core';
import { format, getDay, parse, startOfWeek } from 'date-fns';
import { enGB, pl } from 'date-fns/locale';
import { forwardRef, useMemo, type CSSProperties, type ReactNode } from 'react';
import { Calendar, dateFnsLocalizer, type EventProps, type SlotInfo } from 'react-big-calendar';
import * as dndAddon from 'react-big-calendar/lib/addons/dragAndDrop';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import 'react-big-calendar/lib/addons/dragAndDrop/styles.css';
import './schedule-calendar.css';
import { useTranslation } from 'react-i18next';
import type { ScheduleEventView } from '../../../shared/contracts/api/schedule';
import { formatDay, formatTime, serviceName } from '../../features/schedule/week';
import { toWall, wallDate } from '../appointments/appointments.api';
import { useBackoffice } from '../backoffice.api';
import { EventStatusBadges } from './EventStatusBadges';
import { hourRange, lanesOf, type CalEvent, type CalResource } from './calendar-model';

const localizer = dateFnsLocalizer({
  format,
  parse,
  startOfWeek: (d: Date) => startOfWeek(d, { weekStartsOn: 1 }),
  getDay,
  locales: { en: enGB, pl },
});

// The add-on is CommonJS only; the bundler may hand its `exports.default` wrapped once more.
type WithDragAndDrop = typeof dndAddon.default;
const withDragAndDrop: WithDragAndDrop =
  typeof dndAddon.default === 'function'
    ? dndAddon.default
    : (dndAddon.default as unknown as { default: WithDragAndDrop }).default;
const DnDCalendar = withDragAndDrop<CalEvent, CalResource>(Calendar);

export interface MoveRequest {
  event: ScheduleEventView;
  start: Date;
  end: Date;
  from?: string | undefined;
  to?: string | undefined;
  resize: boolean;
}

/**
 * The time grid (react-big-calendar): a week of seven days or one day with a column per room or
 * instructor, on the studio's wall clock. Each class shows its time, name, room and instructors and
 * places taken / capacity (+ waiting list); empty time is clicked to create a class, a class dragged
 * or its end pulled to move or resize it (the API decides; a refusal leaves it where it was).
 */
export function ScheduleCalendar({
  view,
  anchor,
  events,
  resources,
  timeZone,
  editable,
  onOpen,
  onCreate,
  onMove,
}: {
  view: 'week' | 'day';
  anchor: string;
  events: CalEvent[];
  resources: CalResource[] | null;
  timeZone: string;
  editable: boolean;
  onOpen(event: ScheduleEventView): void;
  onCreate(slot: { start: Date; end: Date; resourceId?: string; dragged: boolean }): void;
  onMove(move: MoveRequest): void;
}) {
  const { t, i18n } = useTranslation('schedule');
  const lang = i18n.language;
  const date = useMemo(() => {
    const [y, m, d] = anchor.split('-').map(Number) as [number, number, number];
    return new Date(y, m - 1, d, 12);
  }, [anchor]);
  const { min, max } = hourRange(events);
  // Each column is wide enough for its busiest hour's tiles side by side; a wider grid scrolls sideways.
  const columnCount = view === 'week' ? 7 : (resources?.length ?? 1);
  const columnWidth = Math.max(view === 'week' ? 120 : 170, lanesOf(events) * 116);
  // A class that has ended stays where it was (the drawer says what can still change).
  const movable = (e: CalEvent) =>
    editable && e.event.status === 'scheduled' && Date.parse(e.event.endsAt) > Date.now();
  const formats = useMemo(
    () => ({
      timeGutterFormat: (d: Date) => `${String(d.getHours()).padStart(2, '0')}:00`,
      dayFormat: (d: Date) => formatDay(wallDate(d), lang),
      dayHeaderFormat: (d: Date) => formatDay(wallDate(d), lang, 'long'),
      selectRangeFormat: ({ start, end }: { start: Date; end: Date }) => `${hhmm(start)}–${hhmm(end)}`,
      eventTimeRangeFormat: () => '',
    }),
    [lang],
  );
  const components = useMemo(
    () => ({
      event: ({ event }: EventProps<CalEvent>) => <ClassTile item={event} timeZone={timeZone} />,
      dayColumnWrapper: DayColumn,
      resourceHeader: ({ label }: { label: ReactNode }) => (
        <Text size="xs" fw={700} className="schedule-column-title" data-testid="schedule-column">
          {label}
        </Text>
      ),
    }),
    [timeZone],
  );
  return (
    <div
      className={`schedule-calendar schedule-calendar-${view}`}
      data-testid={view === 'week' ? 'schedule-week' : 'schedule-day'}
      style={{ '--schedule-grid-width': `${64 + columnCount * columnWidth}px` } as CSSProperties}
    >
      <DnDCalendar
        localizer={localizer}
        culture={lang === 'pl' ? 'pl' : 'en'}
        formats={formats as never}
        components={components as never}
        toolbar={false}
        view={view}
        views={['day', 'week']}
        onView={() => undefined}
        date={date}
        onNavigate={() => undefined}
        getNow={() => toWall(new Date().toISOString(), timeZone)}
        events={events}
        titleAccessor={(e) => e.event.id}
        tooltipAccessor={() => ''}
        startAccessor={(e) => e.start}
        endAccessor={(e) => e.end}
        {...(resources
          ? {
              resources,
              resourceIdAccessor: (r: CalResource) => r.id,
              resourceTitleAccessor: (r: CalResource) => r.title,
              resourceAccessor: (e: CalEvent) => e.resourceId,
            }
          : {})}
        step={15}
        timeslots={4}
        min={new Date(1970, 0, 1, min, 0)}
        max={max >= 24 ? new Date(1970, 0, 1, 23, 59) : new Date(1970, 0, 1, max, 0)}
        scrollToTime={new Date(1970, 0, 1, min, 0)}
        dayLayoutAlgorithm="no-overlap"
        selectable={editable}
        onSelectSlot={(slot: SlotInfo) =>
          onCreate({
            start: slot.start as Date,
            end: slot.end as Date,
            ...(slot.resourceId !== undefined ? { resourceId: String(slot.resourceId) } : {}),
            dragged: slot.action === 'select',
          })
        }
        onSelectEvent={(e) => onOpen(e.event)}
        draggableAccessor={movable}
        resizableAccessor={(e) => movable(e) && !e.clipped}
        onEventDrop={({ event, start, end, resourceId }) =>
          onMove({
            event: event.event,
            start: start as Date,
            end: end as Date,
            from: event.resourceId,
            to: resourceId === undefined ? undefined : String(resourceId),
            resize: false,
          })
        }
        onEventResize={({ event, start, end }) =>
          onMove({ event: event.event, start: start as Date, end: end as Date, resize: true })
        }
        eventPropGetter={(e) => ({
          className: `schedule-tile-${e.event.status}${e.event.hidden ? ' schedule-tile-hidden' : ''}`,
          style: { '--class-color': e.event.classService.color } as CSSProperties,
        })}
        messages={{
          today: t('today'),
          previous: t('previous'),
          next: t('next'),
          day: t('day'),
          week: t('week'),
          noEventsInRange: t('noClasses'),
        }}
      />
    </div>
  );
}

const hhmm = (d: Date) =>
  `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;

/** A day's column; in the week view named by its date (`schedule-day-YYYY-MM-DD`, the tests and the desk). */
const DayColumn = forwardRef<
  HTMLDivElement,
  { children?: ReactNode; className?: string; style?: CSSProperties; date: Date; resource?: unknown }
>(function DayColumn({ children, className, style, date, resource }, ref) {
  return (
    <div
      ref={ref}
      className={className}
      style={style}
      data-testid={resource === undefined || resource === null ? `schedule-day-${wallDate(date)}` : undefined}
    >
      {children}
    </div>
  );
});

/** The number staff look at first: places taken of the capacity, and who waits. */
export function Occupancy({ event, size = 'xs' }: { event: ScheduleEventView; size?: 'xs' | 'sm' }) {
  const { t } = useTranslation('schedule');
  const full = event.taken >= event.capacity;
  return (
    <Group gap={4} wrap="wrap" data-testid="schedule-event-occupancy">
      <Badge
        size={size}
        variant={full ? 'filled' : 'light'}
        color={full ? 'orange' : 'gray'}
        title={t('occupancyTitle', { taken: event.taken, capacity: event.capacity })}
        styles={{ label: { overflow: 'visible' } }}
      >
        {event.taken}/{event.capacity}
      </Badge>
      {event.waiting > 0 && (
        <Badge size={size} variant="light" color="violet" styles={{ label: { overflow: 'visible' } }}>
          {t('waitingShort', { count: event.waiting })}
        </Badge>
      )}
    </Group>
  );
}

function ClassTile({ item, timeZone }: { item: CalEvent; timeZone: string }) {
  const { i18n } = useTranslation('schedule');
  const { studio } = useBackoffice();
  const { event } = item;
  const lang = i18n.language;
  const name = serviceName(event.classService.name, lang, studio.defaultLocale);
  const place = [event.roomName ?? event.locationName, event.instructors.map((p) => p.firstName).join(', ')]
    .filter(Boolean)
    .join(' · ');
  return (
    <div
      className="schedule-tile"
      data-testid="schedule-event"
      data-status={event.status}
      data-event-id={event.id}
      aria-label={name}
      title={`${formatTime(event.startsAt, lang, timeZone)}–${formatTime(event.endsAt, lang, timeZone)} ${name} · ${place}`}
    >
      <div className="schedule-tile-head">
        <span className="schedule-tile-time">
          {formatTime(event.startsAt, lang, timeZone)}–{formatTime(event.endsAt, lang, timeZone)}
        </span>
        <Occupancy event={event} />
      </div>
      <div className="schedule-tile-name">{name}</div>
      <div className="schedule-tile-place" data-testid="schedule-event-place">
        {place}
      </div>
      <Group gap={2}>
        <EventStatusBadges event={event} />
      </Group>
    </div>
  );
}
