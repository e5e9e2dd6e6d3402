import { Alert, Button, Divider, Drawer, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScheduleEventView, ScheduleInit } from '../../../shared/contracts/api/schedule';
import { applyEventAction, type ScheduleEventAction } from '../../../shared/domain/schedule/event-actions';
import { useApiClient } from '../../lib/app-context';
import { toFormErrors } from '../../lib/form-errors';
import { useBackoffice } from '../backoffice.api';
import { EventStatusBadges } from './EventStatusBadges';
import {
  SCHEDULE_ERROR_OPTIONS,
  scheduleCalls,
  useCan,
  useInvalidateSchedule,
  usePhone,
  useStudioUuid,
  type EventActionSegment,
} from './schedule.api';
import { formatDay, formatTime, serviceName } from '../../features/schedule/week';
import { localDateOf } from '../../../shared/domain/entitlements/local-dates';
import { EventAttendees } from './event-detail/EventAttendees';
import { useInvalidateEventBookings } from './event-detail/event-bookings.api';

const ACTIONS: Array<{ action: ScheduleEventAction; segment: EventActionSegment; color?: string }> = [
  { action: 'cancel', segment: 'cancel', color: 'red' },
  { action: 'restore', segment: 'restore' },
  { action: 'hide', segment: 'hide' },
  { action: 'show', segment: 'show' },
  { action: 'bookableOnline', segment: 'bookable-online' },
  { action: 'unbookableOnline', segment: 'unbookable-online' },
  { action: 'remove', segment: 'remove', color: 'red' },
];

/** One class: when, where, who, its state, the quick actions that apply now, and a few edits. */
export function EventDrawer({
  event,
  init,
  onClose,
  onChanged,
  onEditMeta,
}: {
  event: ScheduleEventView | null;
  init: ScheduleInit;
  onClose(): void;
  onChanged(event: ScheduleEventView): void;
  onEditMeta(metaId: string): void;
}) {
  const { i18n } = useTranslation('schedule');
  const phone = usePhone();
  const { studio: studioInfo } = useBackoffice();
  const name = event ? serviceName(event.classService.name, i18n.language, studioInfo.defaultLocale) : '';
  return (
    <Drawer
      opened={event !== null}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 'lg'}
      title={<Text fw={700}>{name}</Text>}
      data-testid="schedule-event-drawer"
    >
      {event && (
        <EventDetail key={event.id} event={event} init={init} onChanged={onChanged} onEditMeta={onEditMeta} />
      )}
    </Drawer>
  );
}

function EventDetail({
  event,
  init,
  onChanged,
  onEditMeta,
}: {
  event: ScheduleEventView;
  init: ScheduleInit;
  onChanged(event: ScheduleEventView): void;
  onEditMeta(metaId: string): void;
}) {
  const { t, i18n } = useTranslation('schedule');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidateSchedule = useInvalidateSchedule();
  const invalidateBookings = useInvalidateEventBookings();
  // An edit changes who is on the class too (more places move the waiting list up; a cancel frees all).
  const invalidate = () => Promise.all([invalidateSchedule(), invalidateBookings()]);
  const editable = useCan()('schedule.edit');
  const tz = init.timeZone;
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [capacity, setCapacity] = useState<number | string>(event.capacity);
  const [livestream, setLivestream] = useState(event.livestreamUrl ?? '');
  const now = new Date();

  const run = async (key: string, call: () => Promise<ScheduleEventView>) => {
    setBusy(key);
    setError(null);
    try {
      onChanged(await call());
      await invalidate();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };
  const calls = scheduleCalls(api, studio);
  const state = { status: event.status, hidden: event.hidden, bookableOnline: event.bookableOnline };
  // Offer only what changes something and is allowed now (the server checks again).
  const offered = ACTIONS.filter(({ action }) => {
    const outcome = applyEventAction(state, action, { endsAt: new Date(event.endsAt) }, now);
    return outcome.ok && JSON.stringify(outcome.state) !== JSON.stringify(state);
  });
  const errors = error ? toFormErrors(error, t, SCHEDULE_ERROR_OPTIONS) : null;

  return (
    <Stack gap="sm">
      <Group gap={6}>
        <EventStatusBadges event={event} />
        {event.edited && (
          <Text size="xs" c="dimmed">
            {t('edited')}
          </Text>
        )}
      </Group>
      <Detail label={t('when')}>
        {formatDay(localDateOf(new Date(event.startsAt), tz), i18n.language, 'long')},{' '}
        {formatTime(event.startsAt, i18n.language, tz)}–{formatTime(event.endsAt, i18n.language, tz)}
      </Detail>
      <Detail label={t('where')}>{[event.locationName, event.roomName].filter(Boolean).join(' · ')}</Detail>
      <Detail label={t('instructors')}>
        {event.instructors.map((p) => `${p.firstName} ${p.lastName}`).join(', ') || t('noInstructor')}
      </Detail>
      <Detail label={t('places')}>
        {t('placesValue', { count: event.capacity, waiting: event.waitingListSize })}
      </Detail>
      <EventAttendees eventId={event.id} />
      {errors && (
        <Alert color="red" data-testid="schedule-event-error">
          {[...errors.form, ...Object.values(errors.fields)].join(' ')}
        </Alert>
      )}
      {editable && (
        <>
          <Divider label={t('actions')} labelPosition="left" />
          <Group gap="xs">
            {offered.map(({ action, segment, color }) => (
              <Button
                key={action}
                size="xs"
                variant={color ? 'light' : 'default'}
                color={color}
                loading={busy === action}
                disabled={busy !== null && busy !== action}
                onClick={() => void run(action, () => calls.action(event.id, segment))}
                data-testid={`schedule-action-${segment}`}
              >
                {t(`action.${action}`)}
              </Button>
            ))}
            {offered.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('noActions')}
              </Text>
            )}
          </Group>
          {event.status !== 'removed' && (
            <>
              <Divider label={t('editEvent')} labelPosition="left" />
              <Group align="flex-end" gap="xs">
                <NumberInput
                  label={t('capacity')}
                  min={1}
                  max={1000}
                  value={capacity}
                  onChange={setCapacity}
                  w={120}
                  data-testid="schedule-event-capacity"
                />
                <Button
                  size="sm"
                  variant="default"
                  loading={busy === 'capacity'}
                  onClick={() =>
                    void run('capacity', () => calls.patchEvent(event.id, { capacity: Number(capacity) }))
                  }
                  data-testid="schedule-event-capacity-save"
                >
                  {t('save')}
                </Button>
              </Group>
              <Group align="flex-end" gap="xs" wrap="nowrap">
                <TextInput
                  label={t('livestream')}
                  placeholder="https://"
                  value={livestream}
                  onChange={(e) => setLivestream(e.currentTarget.value)}
                  style={{ flex: 1 }}
                  data-testid="schedule-event-livestream"
                />
                <Button
                  size="sm"
                  variant="default"
                  loading={busy === 'livestream'}
                  onClick={() =>
                    void run('livestream', () => calls.livestream(event.id, livestream.trim() || null))
                  }
                >
                  {t('save')}
                </Button>
              </Group>
            </>
          )}
          {event.scheduleMetaId && (
            <Button
              variant="subtle"
              size="sm"
              onClick={() => onEditMeta(event.scheduleMetaId!)}
              data-testid="schedule-edit-meta"
            >
              {t('editSeries')}
            </Button>
          )}
        </>
      )}
    </Stack>
  );
}

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </div>
  );
}
