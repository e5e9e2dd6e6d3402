import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Checkbox,
  Collapse,
  Combobox,
  Divider,
  Group,
  Loader,
  Stack,
  Switch,
  Text,
  TextInput,
  useCombobox,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  ClientVisitView,
  EnrollmentAction,
  EventEnrollments,
} from '../../../../shared/contracts/api/bookings';
import { ClientVisitStatus } from '../../../../shared/enums/visits';
import { useApiClient } from '../../../lib/app-context';
import { toFormErrors } from '../../../lib/form-errors';
import { useEditorForm } from '../../../ui/use-editor-form';
import { useOffline } from '../../../lib/connectivity';
import { useStudioDateTime } from '../../use-studio-date-time';
import { useInvalidateSchedule, useStudioUuid } from '../schedule.api';
import {
  BOOKING_ERROR_OPTIONS,
  eventBookingCalls,
  useClientSearch,
  useEventEnrollments,
  useInvalidateEventBookings,
} from './event-bookings.api';
import { ProvisionalBadge } from '../../sync/ProvisionalBadge';
import { AttendeeTools } from './AttendeeTools';
import { SellCoveringPass } from './SellCoveringPass';
import { offersCoveringSale } from './sell-covering-pass';
import { visitPaymentLabel } from '../../../features/schedule/visit-payment';

const STATUS_COLOR: Record<number, string> = {
  [ClientVisitStatus.booked]: 'blue',
  [ClientVisitStatus.present]: 'teal',
  [ClientVisitStatus.absent]: 'orange',
  [ClientVisitStatus.unconfirmed]: 'yellow',
  [ClientVisitStatus.waitingList]: 'grape',
};

/** The visit's status; `provisional` (the desk station's offline answers) adds "Waiting to sync". */
export function VisitStatusBadge({
  status,
  provisional,
}: {
  status: number;
  provisional?: boolean | undefined;
}) {
  const { t } = useTranslation('enums');
  return (
    <>
      <Badge size="sm" variant="light" color={STATUS_COLOR[status] ?? 'gray'} data-testid="visit-status">
        {t(`clientVisitStatus.${status}`)}
      </Badge>
      <ProvisionalBadge provisional={provisional} />
    </>
  );
}

const fullName = (v: ClientVisitView) => `${v.client.firstName} ${v.client.lastName}`.trim();

/**
 * Who is on one class: places taken and left, the attendee list with check-in (present/absent) and
 * cancel, enrolling a client found by search, the waiting list with moving people onto the class or
 * along the list, the cancellations, and bulk actions on the ticked attendees.
 */
export function EventAttendees({ eventId }: { eventId: string }) {
  const { t } = useTranslation('bookings-ui');
  const enrollments = useEventEnrollments(eventId);
  if (enrollments.error)
    return (
      <Alert color="red" data-testid="attendees-load-error">
        {t('staff.loadFailed')}{' '}
        <Button size="compact-xs" variant="light" onClick={() => void enrollments.refetch()}>
          {t('staff.retry')}
        </Button>
      </Alert>
    );
  if (!enrollments.data) return <Loader size="sm" aria-label={t('staff.loading')} />;
  return <Attendees eventId={eventId} data={enrollments.data} />;
}

function Attendees({ eventId, data }: { eventId: string; data: EventEnrollments }) {
  const { t, i18n } = useTranslation('bookings-ui');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateEventBookings();
  const invalidateSchedule = useInvalidateSchedule();
  const calls = eventBookingCalls(api, studio, eventId);
  const [selected, setSelected] = useState<string[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<{ color: string; text: string } | null>(null);
  const [showCancelled, setShowCancelled] = useState(false);
  const open = data.eventStatus === 'scheduled';
  // Issue 26: the buttons follow the studio's rules the server applies, said as times on the screen.
  const desk = useTranslation('desk').t;
  const studioTime = useStudioDateTime();
  const now = useNow(30_000);
  // Offline, the desk records what happens and the cloud decides on sync: not held back here.
  const offline = useOffline();
  const checkInOpen = offline || now >= Date.parse(data.checkInOpensAt);
  const started = now >= Date.parse(data.startsAt);
  const walkInOpen = offline || now < Date.parse(data.walkInUntil);

  const run = async (key: string, work: () => Promise<unknown>, done?: string) => {
    setBusy(key);
    setMessage(null);
    try {
      await work();
      if (done) setMessage({ color: 'teal', text: done });
      await Promise.all([invalidate(), invalidateSchedule()]);
    } catch (error) {
      const errors = toFormErrors(error, t, BOOKING_ERROR_OPTIONS);
      setMessage({
        color: 'red',
        text: [...errors.form, ...Object.values(errors.fields)].join(' ') || t('staff.failed'),
      });
    } finally {
      setBusy(null);
    }
  };
  const setStatus = (ids: string[], action: EnrollmentAction, key: string) =>
    run(key, async () => {
      await calls.status(ids, action);
      setSelected((s) => s.filter((id) => !ids.includes(id)));
    });
  /** One visit's status button; busy while its own call runs. */
  const statusButton = (
    visitId: string,
    action: EnrollmentAction,
    testId: string,
    label: string,
    color?: string,
    variant: 'light' | 'subtle' = 'light',
    disabled = false,
  ) => (
    <Button
      size="compact-xs"
      color={color}
      variant={variant}
      disabled={disabled}
      loading={busy === `${action}-${visitId}`}
      onClick={() => void setStatus([visitId], action, `${action}-${visitId}`)}
      data-testid={testId}
    >
      {label}
    </Button>
  );
  const allIds = data.attendees.map((v) => v.id);
  const allTicked = allIds.length > 0 && selected.length === allIds.length;

  return (
    <Stack gap="sm" data-testid="event-attendees">
      <Divider label={t('staff.title')} labelPosition="left" />
      <Group gap="xs" data-testid="attendees-summary">
        <Badge variant="light" size="lg">
          {t('staff.taken', { taken: data.taken, capacity: data.capacity })}
        </Badge>
        <Badge variant="outline" color={data.placesLeft > 0 ? 'teal' : 'red'}>
          {t('staff.placesLeft', { count: data.placesLeft })}
        </Badge>
        {data.waitingListSize > 0 && (
          <Badge variant="outline" color="grape">
            {t('staff.waitingSummary', { count: data.waitingList.length, size: data.waitingListSize })}
          </Badge>
        )}
        {data.lateCancelNow && open && (
          <Badge variant="outline" color="orange">
            {t('staff.lateCancelNow')}
          </Badge>
        )}
        {open && !checkInOpen && data.can.checkIn && (
          <Badge variant="outline" color="gray" data-testid="check-in-opens">
            {desk('checkIn.opensAt', { time: studioTime(data.checkInOpensAt) })}
          </Badge>
        )}
        {open && started && !walkInOpen && data.can.book && (
          <Badge variant="outline" color="gray" data-testid="walk-in-closed">
            {desk('checkIn.walkInClosed', { time: studioTime(data.walkInUntil) })}
          </Badge>
        )}
      </Group>
      {message && (
        <Alert
          color={message.color}
          withCloseButton
          onClose={() => setMessage(null)}
          data-testid="attendees-message"
        >
          {message.text}
        </Alert>
      )}
      {data.can.book && open && walkInOpen && <EnrolClient eventId={eventId} onResult={setMessage} />}
      <AttendeeTools eventId={eventId} data={data} />

      {data.attendees.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="attendees-empty">
          {t('staff.noAttendees')}
        </Text>
      ) : (
        <Stack gap={2} data-testid="attendee-list">
          {(data.can.checkIn || data.can.book) && (
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Checkbox
                size="xs"
                label={t('staff.selectAll')}
                checked={allTicked}
                indeterminate={selected.length > 0 && !allTicked}
                onChange={() => setSelected(allTicked ? [] : allIds)}
                data-testid="attendees-select-all"
              />
              {selected.length > 0 && (
                <Group gap={4} data-testid="bulk-actions">
                  <Text size="xs" c="dimmed">
                    {t('staff.selected', { count: selected.length })}
                  </Text>
                  {data.can.checkIn && (
                    <>
                      <Button
                        size="compact-xs"
                        color="teal"
                        variant="light"
                        loading={busy === 'bulk-present'}
                        onClick={() => void setStatus(selected, 'present', 'bulk-present')}
                        data-testid="bulk-present"
                      >
                        {t('staff.present')}
                      </Button>
                      <Button
                        size="compact-xs"
                        color="orange"
                        variant="light"
                        loading={busy === 'bulk-absent'}
                        onClick={() => void setStatus(selected, 'absent', 'bulk-absent')}
                        data-testid="bulk-absent"
                      >
                        {t('staff.absent')}
                      </Button>
                    </>
                  )}
                  {data.can.book && open && (
                    <Button
                      size="compact-xs"
                      color="red"
                      variant="light"
                      loading={busy === 'bulk-cancel'}
                      onClick={() => void setStatus(selected, 'cancel', 'bulk-cancel')}
                      data-testid="bulk-cancel"
                    >
                      {t('staff.cancelBooking')}
                    </Button>
                  )}
                </Group>
              )}
            </Group>
          )}
          {data.attendees.map((visit) => (
            <Group
              key={visit.id}
              justify="space-between"
              wrap="wrap"
              gap={6}
              py={6}
              style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
              data-testid="attendee-row"
            >
              <Group gap="xs" wrap="nowrap" miw={0}>
                {(data.can.checkIn || data.can.book) && (
                  <Checkbox
                    size="xs"
                    aria-label={t('staff.select', { name: fullName(visit) })}
                    checked={selected.includes(visit.id)}
                    onChange={(e) =>
                      setSelected((s) =>
                        e.currentTarget.checked ? [...s, visit.id] : s.filter((id) => id !== visit.id),
                      )
                    }
                  />
                )}
                <div style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500} lineClamp={1} data-testid="attendee-name">
                    {fullName(visit)}
                  </Text>
                  <Group gap={4}>
                    <VisitStatusBadge status={visit.status} provisional={visit.provisional} />
                    <Text size="xs" c="dimmed" lineClamp={1}>
                      <span data-testid="attendee-payment">
                        {visitPaymentLabel(visit, t, i18n.language, 'staff')}
                      </span>
                      {' · '}
                      {t(`bookedBy.${visit.bookedBy}`)}
                    </Text>
                  </Group>
                </div>
              </Group>
              <Group gap={4} wrap="nowrap">
                {data.can.checkIn &&
                  visit.status !== ClientVisitStatus.present &&
                  statusButton(
                    visit.id,
                    'present',
                    'attendee-present',
                    t('staff.present'),
                    'teal',
                    'light',
                    !checkInOpen,
                  )}
                {data.can.checkIn &&
                  visit.status !== ClientVisitStatus.absent &&
                  statusButton(
                    visit.id,
                    'absent',
                    'attendee-absent',
                    t('staff.absent'),
                    'orange',
                    'light',
                    !started,
                  )}
                {data.can.checkIn &&
                  (visit.status === ClientVisitStatus.present || visit.status === ClientVisitStatus.absent) &&
                  statusButton(visit.id, 'reset', 'attendee-reset', t('staff.reset'), undefined, 'subtle')}
                {data.can.book &&
                  open &&
                  statusButton(
                    visit.id,
                    'cancel',
                    'attendee-cancel',
                    t('staff.cancelBooking'),
                    'red',
                    'subtle',
                  )}
              </Group>
            </Group>
          ))}
        </Stack>
      )}

      {(data.waitingListSize > 0 || data.waitingList.length > 0) && (
        <Stack gap={2} data-testid="waiting-list">
          <Text size="sm" fw={600}>
            {t('staff.waitingList')}
          </Text>
          {data.waitingList.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('staff.waitingEmpty')}
            </Text>
          )}
          {data.waitingList.map((visit, i) => (
            <Group
              key={visit.id}
              justify="space-between"
              wrap="wrap"
              gap={6}
              py={4}
              style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
              data-testid="waiting-row"
            >
              <Text size="sm" lineClamp={1}>
                {visit.waitingPosition ?? i + 1}. {fullName(visit)}
              </Text>
              {data.can.book && open && (
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    size="sm"
                    disabled={i === 0 || busy !== null}
                    onClick={() => void run(`move-${visit.id}`, () => calls.move(visit.id, i))}
                    aria-label={t('staff.moveUp', { name: fullName(visit) })}
                  >
                    ↑
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    size="sm"
                    disabled={i === data.waitingList.length - 1 || busy !== null}
                    onClick={() => void run(`move-${visit.id}`, () => calls.move(visit.id, i + 2))}
                    aria-label={t('staff.moveDown', { name: fullName(visit) })}
                  >
                    ↓
                  </ActionIcon>
                  <Button
                    size="compact-xs"
                    variant="light"
                    loading={busy === `promote-${visit.id}`}
                    onClick={() =>
                      void run(
                        `promote-${visit.id}`,
                        () => calls.promote(visit.id),
                        t('staff.promoted', { name: fullName(visit) }),
                      )
                    }
                    data-testid="waiting-promote"
                  >
                    {t('staff.promote')}
                  </Button>
                  {statusButton(
                    visit.id,
                    'cancel',
                    'waiting-remove',
                    t('staff.removeFromList'),
                    'red',
                    'subtle',
                  )}
                </Group>
              )}
            </Group>
          ))}
        </Stack>
      )}

      {data.cancelled.length > 0 && (
        <Stack gap={2}>
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => setShowCancelled((v) => !v)}
            style={{ alignSelf: 'flex-start' }}
            data-testid="cancelled-toggle"
          >
            {t('staff.cancelledToggle', { count: data.cancelled.length })}
          </Button>
          <Collapse in={showCancelled}>
            <Stack gap={2}>
              {data.cancelled.map((visit) => (
                <Group key={visit.id} gap="xs" wrap="nowrap" data-testid="cancelled-row">
                  <Text size="sm" c="dimmed" lineClamp={1}>
                    {fullName(visit)}
                  </Text>
                  <VisitStatusBadge status={visit.status} provisional={visit.provisional} />
                </Group>
              ))}
            </Stack>
          </Collapse>
        </Stack>
      )}
    </Stack>
  );
}

/** Search a client by name, email or phone and book them (waiting list when full; desk payment optional). */
function EnrolClient({
  eventId,
  onResult,
}: {
  eventId: string;
  onResult(message: { color: string; text: string }): void;
}) {
  const { t } = useTranslation('bookings-ui');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateEventBookings();
  const invalidateSchedule = useInvalidateSchedule();
  const fields = useEditorForm(() => ({ query: '', payAtDesk: false }));
  const { query, payAtDesk } = fields.values;
  const [debounced] = useDebouncedValue(query, 300);
  const [busy, setBusy] = useState(false);
  // Refused for want of a pass: offer to sell one there and then (issue 26).
  const [offer, setOffer] = useState<{ id: string; name: string } | null>(null);
  const offline = useOffline();
  const search = useClientSearch(debounced);
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const results = debounced.trim().length >= 2 ? (search.data?.items ?? []) : [];

  const enrol = async (clientId: string, name: string) => {
    setBusy(true);
    setOffer(null);
    combobox.closeDropdown();
    try {
      const result = await eventBookingCalls(api, studio, eventId).enroll({ clientId, payAtDesk });
      onResult({ color: 'teal', text: t(`staff.enrolled.${result.outcome}`, { name }) });
      fields.set('query', '');
      await Promise.all([invalidate(), invalidateSchedule()]);
    } catch (error) {
      const errors = toFormErrors(error, t, BOOKING_ERROR_OPTIONS);
      onResult({
        color: 'red',
        text: [...errors.form, ...Object.values(errors.fields)].join(' ') || t('staff.failed'),
      });
      // Offline the desk cannot know the cloud's catalogue of covering passes: no offer then.
      if (offersCoveringSale(error) && !offline) setOffer({ id: clientId, name });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap={6} data-testid="enrol-client">
      <Combobox
        store={combobox}
        onOptionSubmit={(value) => {
          const client = results.find((c) => c.id === value);
          if (client) void enrol(client.id, `${client.firstName} ${client.lastName}`);
        }}
        withinPortal
      >
        <Combobox.Target>
          <TextInput
            label={t('staff.enrol')}
            placeholder={t('staff.searchPlaceholder')}
            value={query}
            onChange={(e) => {
              fields.set('query', e.currentTarget.value);
              combobox.openDropdown();
            }}
            onFocus={() => combobox.openDropdown()}
            onBlur={() => combobox.closeDropdown()}
            rightSection={busy || search.isFetching ? <Loader size={14} /> : null}
            data-testid="enrol-search"
          />
        </Combobox.Target>
        <Combobox.Dropdown hidden={debounced.trim().length < 2}>
          <Combobox.Options>
            {results.length === 0 ? (
              <Combobox.Empty>
                {search.isFetching ? t('staff.searching') : t('staff.noClients')}
              </Combobox.Empty>
            ) : (
              results.map((client) => (
                <Combobox.Option value={client.id} key={client.id} data-testid="enrol-option">
                  <Text size="sm">
                    {client.firstName} {client.lastName}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {[client.emailAddress, client.phone].filter(Boolean).join(' · ')}
                  </Text>
                </Combobox.Option>
              ))
            )}
          </Combobox.Options>
        </Combobox.Dropdown>
      </Combobox>
      <Switch
        size="xs"
        label={t('staff.payAtDesk')}
        checked={payAtDesk}
        onChange={(e) => fields.set('payAtDesk', e.currentTarget.checked)}
      />
      {offer ? (
        <SellCoveringPass
          key={offer.id}
          eventId={eventId}
          client={offer}
          onResult={async (message) => {
            onResult(message);
            await Promise.all([invalidate(), invalidateSchedule()]);
          }}
          onClose={() => setOffer(null)}
        />
      ) : null}
    </Stack>
  );
}

/** The time now, refreshed every `everyMs` (the buttons open and close as the class's times pass). */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
