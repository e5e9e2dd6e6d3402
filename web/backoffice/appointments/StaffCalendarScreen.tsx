import { Alert, Badge, Button, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { format, getDay, parse, startOfWeek } from 'date-fns';
import { enGB, pl } from 'date-fns/locale';
import { useMemo, useState } from 'react';
import { Calendar, dateFnsLocalizer, type View } from 'react-big-calendar';
import * as dndAddon from 'react-big-calendar/lib/addons/dragAndDrop';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import 'react-big-calendar/lib/addons/dragAndDrop/styles.css';
import './staff-calendar.css';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { ClientAppointmentView } from '../../../shared/contracts/api/appointments';
import { addLocalDays } from '../../../shared/domain/entitlements/local-dates';
import { CalendarFeedButton } from '../../features/appointments/CalendarFeedButton';
import { errorMessageOf } from './error-message';
import { AppointmentDialog } from './AppointmentDialog';
import { BookAppointmentDialog } from './BookAppointmentDialog';
import {
  fromWall,
  toWall,
  useAppointmentActions,
  useStaffCalendar,
  useStudio,
  wallDate,
} from './appointments.api';

const localizer = dateFnsLocalizer({
  format,
  parse,
  startOfWeek: (d: Date) => startOfWeek(d, { weekStartsOn: 1 }),
  getDay,
  locales: { en: enGB, pl },
});

interface CalEvent {
  id: string;
  title: string;
  start: Date;
  end: Date;
  resourceId: string;
  kind: 'appointment' | 'class' | 'unavailable' | 'hours';
  appointment?: ClientAppointmentView;
}
// The add-on is CommonJS only; the bundler may hand its `exports.default` wrapped once more.
type WithDragAndDrop = typeof dndAddon.default;
const withDragAndDrop: WithDragAndDrop =
  typeof dndAddon.default === 'function'
    ? dndAddon.default
    : (dndAddon.default as unknown as { default: WithDragAndDrop }).default;
const DnDCalendar = withDragAndDrop<CalEvent, { id: string; title: string }>(Calendar);

const COLORS: Record<string, string> = {
  booked: '#2f9e44',
  present: '#1971c2',
  absent: '#868e96',
  pending: '#f08c00',
  reserved: '#adb5bd',
  lateCancelled: '#c92a2a',
  class: '#7048e8',
  unavailable: '#495057',
  hours: '#e6fcf5',
};

/**
 * The staff calendar (issue 21): day or week, one column per member of staff, their working hours
 * lit, appointments, the classes they teach and their unavailability; click a free time to book,
 * drag an appointment to move it (the same rules as booking: the server says no when they fail).
 */
export function StaffCalendarScreen() {
  const { t, i18n } = useTranslation('appointments');
  const studio = useStudio();
  const tz = studio.timeZone;
  const [view, setView] = useState<View>('day');
  const [search] = useSearchParams();
  // `?date=YYYY-MM-DD` opens that day (a link from a client's appointment, the tests).
  const [date, setDate] = useState(() => {
    const asked = search.get('date');
    return asked && /^\d{4}-\d{2}-\d{2}$/.test(asked)
      ? new Date(`${asked}T12:00:00`)
      : toWall(new Date().toISOString(), tz);
  });
  const from = view === 'day' ? wallDate(date) : wallDate(startOfWeek(date, { weekStartsOn: 1 }));
  const to = view === 'day' ? from : addLocalDays(from, 6);
  const calendar = useStaffCalendar(from, to);
  const actions = useAppointmentActions();
  const [booking, setBooking] = useState<{ memberId: string; startsAt: string } | null>(null);
  const [open, setOpen] = useState<ClientAppointmentView | null>(null);
  const [error, setError] = useState<string | null>(null);

  const data = calendar.data;
  const staff = useMemo(
    () => (data?.members ?? []).map((m) => ({ id: m.id, title: `${m.firstName} ${m.lastName}`.trim() })),
    [data],
  );
  // A phone (390 px) fits one staff member's column: a picker chooses whose (the first by default).
  const phone = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const [picked, setPicked] = useState<string | null>(null);
  const shownId = staff.some((m) => m.id === picked) ? picked : (staff[0]?.id ?? null);
  const resources = useMemo(
    () => (phone ? staff.filter((m) => m.id === shownId) : staff),
    [phone, staff, shownId],
  );
  const events = useMemo<CalEvent[]>(() => {
    if (!data) return [];
    const name = (n: Record<string, { value: string } | undefined>) =>
      n[i18n.language]?.value ?? n.en?.value ?? Object.values(n)[0]?.value ?? '';
    return [
      ...data.appointments.map((a) => ({
        id: a.id,
        title: `${a.client ? `${a.client.firstName} ${a.client.lastName}` : t('calendar.reserved')} · ${name(a.service.name)}`,
        start: toWall(a.startsAt, tz),
        end: toWall(a.endsAt, tz),
        resourceId: a.member.id,
        kind: 'appointment' as const,
        appointment: a,
      })),
      ...data.classes.flatMap((c) =>
        c.memberIds.map((m) => ({
          id: `${c.id}:${m}`,
          title: name(c.name),
          start: toWall(c.startsAt, tz),
          end: toWall(c.endsAt, tz),
          resourceId: m,
          kind: 'class' as const,
        })),
      ),
      ...data.unavailability.map((u) => ({
        id: u.id,
        title: u.reason || t('calendar.unavailable'),
        start: toWall(u.startsAt, tz),
        end: toWall(u.endsAt, tz),
        resourceId: u.memberId,
        kind: 'unavailable' as const,
      })),
    ];
  }, [data, tz, t, i18n.language]);
  const hours = useMemo(
    () =>
      (data?.hours ?? []).map((h) => ({
        start: toWall(h.startsAt, tz),
        end: toWall(h.endsAt, tz),
        resourceId: h.memberId,
      })),
    [data, tz],
  );

  const move = async (event: CalEvent, start: Date, resourceId?: string | number) => {
    if (event.kind !== 'appointment') return;
    setError(null);
    try {
      await actions.move(event.id, fromWall(start, tz), String(resourceId ?? event.resourceId));
    } catch (e) {
      setError(errorMessageOf(e, t));
    }
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {t('calendar.title')}
        </Title>
        <Group gap="xs">
          <CalendarFeedButton studio={studio.uuid} />
          <Button
            component={Link}
            to="/appointments/services"
            variant="default"
            size="xs"
            data-testid="appointments-services-link"
          >
            {t('services.title')}
          </Button>
          <Button
            component={Link}
            to="/appointments/hours"
            variant="default"
            size="xs"
            data-testid="appointments-hours-link"
          >
            {t('hours.title')}
          </Button>
        </Group>
      </Group>
      <Group gap="xs" wrap="wrap">
        {calendar.isFetching && <Loader size="xs" />}
        {Object.entries({
          booked: COLORS.booked,
          pending: COLORS.pending,
          class: COLORS.class,
          unavailable: COLORS.unavailable,
        }).map(([k, c]) => (
          <Badge key={k} color={c} variant="filled" size="sm">
            {t(`calendar.legend.${k}`)}
          </Badge>
        ))}
      </Group>
      {error && (
        <Alert color="red" withCloseButton onClose={() => setError(null)} data-testid="appointments-error">
          {error}
        </Alert>
      )}
      {data && staff.length === 0 && <Text c="dimmed">{t('calendar.noStaff')}</Text>}
      {phone && staff.length > 1 && (
        <Select
          label={t('calendar.staffPicker')}
          data={staff.map((m) => ({ value: m.id, label: m.title }))}
          value={shownId}
          onChange={setPicked}
          allowDeselect={false}
          data-testid="staff-calendar-picker"
        />
      )}
      <div style={{ height: 720, overflowX: 'auto' }} className="staff-calendar" data-testid="staff-calendar">
        <DnDCalendar
          localizer={localizer}
          culture={i18n.language === 'pl' ? 'pl' : 'en'}
          events={phone ? events.filter((e) => e.resourceId === shownId) : events}
          backgroundEvents={hours
            .filter((h) => !phone || h.resourceId === shownId)
            .map((h, i) => ({
              id: `h${i}`,
              title: '',
              start: h.start,
              end: h.end,
              resourceId: h.resourceId,
              kind: 'hours' as const,
            }))}
          resources={resources}
          resourceIdAccessor={(r) => r.id}
          resourceTitleAccessor={(r) => r.title}
          view={view}
          views={['day', 'week']}
          onView={setView}
          date={date}
          onNavigate={setDate}
          step={15}
          timeslots={4}
          min={new Date(1970, 0, 1, 7, 0)}
          max={new Date(1970, 0, 1, 21, 0)}
          selectable
          onSelectSlot={(slot) =>
            setBooking({
              memberId: String(slot.resourceId ?? resources[0]?.id ?? ''),
              startsAt: fromWall(slot.start as Date, tz),
            })
          }
          onSelectEvent={(e) => e.appointment && setOpen(e.appointment)}
          draggableAccessor={(e) =>
            e.kind === 'appointment' && ['booked', 'pending'].includes(e.appointment?.status ?? '')
          }
          resizableAccessor={() => false}
          onEventDrop={({ event, start, resourceId }) => void move(event, start as Date, resourceId)}
          eventPropGetter={(e) =>
            ({
              style: {
                backgroundColor: e.kind === 'appointment' ? COLORS[e.appointment!.status] : COLORS[e.kind],
                borderColor: 'transparent',
                fontSize: 12,
              },
              'data-testid':
                e.kind === 'appointment'
                  ? `calendar-appointment-${e.appointment!.status}`
                  : `calendar-${e.kind}`,
            }) as never
          }
          messages={{
            today: t('calendar.today'),
            previous: t('calendar.previous'),
            next: t('calendar.next'),
            day: t('calendar.day'),
            week: t('calendar.week'),
            noEventsInRange: t('calendar.empty'),
          }}
        />
      </div>
      {booking && <BookAppointmentDialog slot={booking} onClose={() => setBooking(null)} />}
      {open && <AppointmentDialog appointment={open} onClose={() => setOpen(null)} />}
    </Stack>
  );
}
