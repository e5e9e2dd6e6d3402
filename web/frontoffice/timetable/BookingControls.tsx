import { Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { BookingResult, ClientScheduleItem } from '../../../shared/contracts/api/bookings';
import type { PublicScheduleEvent } from '../../../shared/contracts/api/schedule';
import { ClientVisitStatus } from '../../../shared/enums/visits';
import { useApiClient } from '../../lib/app-context';
import { toFormErrors } from '../../lib/form-errors';
import { formatDay, formatTime, serviceName } from '../../features/schedule/week';
import { localDateOf } from '../../../shared/domain/entitlements/local-dates';
import { COURSE_SERVICE_PARAM } from '../courses/CoursesScreen';
import { useStudioUuid } from '../studio';
import {
  applyBookingResult,
  CLIENT_BOOKING_ERROR_OPTIONS,
  clientBookingCalls,
  loginPath,
  useInvalidateClientBookings,
} from '../visits/client-bookings.api';

type Feedback = { color: string; text: string };

/** What the client may do with one class now, and the call that does it. */
export function useBookingAction() {
  const { t } = useTranslation('bookings-ui');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateClientBookings();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const run = async (work: () => Promise<BookingResult | unknown>) => {
    setBusy(true);
    setFeedback(null);
    try {
      const result = await work();
      const outcome = (result as BookingResult | undefined)?.outcome;
      setFeedback({ color: 'teal', text: outcome ? t(`bookings:outcome.${outcome}`) : t('client.done') });
      // The answer carries the visit: the card shows it now, the layers refresh in the background.
      if (outcome && (result as BookingResult).visit)
        applyBookingResult(queryClient, studio, result as BookingResult);
      void invalidate();
      return true;
    } catch (error) {
      const errors = toFormErrors(error, t, CLIENT_BOOKING_ERROR_OPTIONS);
      setFeedback({
        color: 'red',
        text: [...errors.form, ...Object.values(errors.fields)].join(' ') || t('client.failed'),
      });
      await invalidate();
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, feedback, run, calls: clientBookingCalls(api, studio) };
}

/**
 * The booking row of a timetable card: the client's standing (booked, waiting list place …), places
 * left, and one button — book, join the waiting list, cancel (confirmed with a second tap, which
 * says whether it is late), or leave the list. Visitors get a Book button that signs them in first.
 */
export function BookingControls({
  event,
  item,
  signedIn,
  returnTo,
  compact = false,
}: {
  event: PublicScheduleEvent;
  item: ClientScheduleItem | undefined;
  signedIn: boolean;
  /** Where the sign-in brings the visitor back to (a front-office path with its query). */
  returnTo: string;
  compact?: boolean;
}) {
  const { t } = useTranslation('bookings-ui');
  const navigate = useNavigate();
  const { busy, feedback, run, calls } = useBookingAction();
  const [confirming, setConfirming] = useState(false);
  // The moment the controls were shown: a class that has started since is refused by the server anyway.
  const [shownAt] = useState(() => Date.now());
  const size = compact ? 'compact-xs' : 'xs';
  if (event.cancelled || new Date(event.startsAt).getTime() <= shownAt) return null;
  // A course's class is booked with the whole course (409 `course.bookAsWhole` alone): lead there.
  if (event.classService.serviceType === 'course')
    return <CourseClassControls event={event} item={signedIn ? item : undefined} compact={compact} />;

  if (!signedIn) {
    if (!event.bookableOnline) return null;
    return (
      <Button
        size={size}
        mt={4}
        variant="light"
        fullWidth={compact}
        onClick={() => navigate(loginPath(`${returnTo}&book=${event.id}`))}
        data-testid="timetable-book"
      >
        {t('client.book')}
      </Button>
    );
  }
  if (!item) return null;
  const visit = item.myVisit;
  const holding =
    visit &&
    (visit.status === ClientVisitStatus.booked ||
      visit.status === ClientVisitStatus.unconfirmed ||
      visit.status === ClientVisitStatus.present ||
      visit.status === ClientVisitStatus.absent);
  const waiting = visit?.status === ClientVisitStatus.waitingList;

  return (
    <Stack gap={4} mt={4} data-testid="booking-controls">
      {holding || waiting ? (
        <Badge
          size="sm"
          color={waiting ? 'grape' : visit!.status === ClientVisitStatus.unconfirmed ? 'yellow' : 'teal'}
          variant="filled"
          data-testid="my-status"
        >
          {waiting
            ? t(compact ? 'client.waitingShort' : 'client.waitingPosition', {
                position: visit!.waitingPosition ?? '?',
              })
            : t(`client.status.${visit!.status}`)}
        </Badge>
      ) : (
        <Text size="xs" c={item.placesLeft > 0 ? 'dimmed' : 'red'} data-testid="places-left">
          {item.placesLeft > 0
            ? t('client.placesLeft', { count: item.placesLeft })
            : item.waitingPlacesLeft > 0
              ? t('client.fullWaiting')
              : t('client.full')}
        </Text>
      )}
      {holding && item.canCancel && !confirming && (
        <Button
          size={size}
          variant="default"
          onClick={() => setConfirming(true)}
          data-testid="timetable-cancel"
        >
          {t('client.cancel')}
        </Button>
      )}
      {holding && item.canCancel && confirming && (
        <Stack gap={2}>
          <Text size="xs" c={item.cancelIsLate ? 'orange' : 'dimmed'}>
            {item.cancelIsLate ? t('client.lateWarning') : t('client.earlyNote')}
          </Text>
          <Group gap={4} wrap="nowrap" grow>
            <Button
              size={size}
              color="red"
              loading={busy}
              onClick={() => void run(() => calls.cancel(visit!.id)).then(() => setConfirming(false))}
              data-testid="timetable-cancel-confirm"
            >
              {t('client.confirmCancel')}
            </Button>
            <Button size={size} variant="subtle" onClick={() => setConfirming(false)}>
              {t('client.keep')}
            </Button>
          </Group>
        </Stack>
      )}
      {waiting && (
        <Button
          size={size}
          variant="default"
          loading={busy}
          onClick={() => void run(() => calls.leaveWaitingList(event.id))}
          data-testid="timetable-leave-waiting"
        >
          {compact ? t('client.leaveWaitingShort') : t('client.leaveWaiting')}
        </Button>
      )}
      {!holding && !waiting && item.bookOutcome === 'waitingList' && (
        <Button
          size={size}
          variant="light"
          color="grape"
          loading={busy}
          onClick={() => void run(() => calls.joinWaitingList(event.id))}
          data-testid="timetable-join-waiting"
        >
          {compact ? t('client.joinWaitingShort') : t('client.joinWaiting')}
        </Button>
      )}
      {!holding && !waiting && (item.bookOutcome === 'booked' || item.bookOutcome === 'unconfirmed') && (
        <Button
          size={size}
          loading={busy}
          onClick={() => void run(() => calls.book(event.id))}
          data-testid="timetable-book"
        >
          {item.bookOutcome === 'unconfirmed' ? t('client.bookPayAtDesk') : t('client.book')}
        </Button>
      )}
      {!holding &&
        !waiting &&
        item.bookOutcome === null &&
        item.refusal &&
        item.refusal !== 'alreadyBooked' && (
          <Text size="xs" c="dimmed" data-testid="booking-refusal">
            {/* A week of narrow cards: a short reason each (the day view has room for the whole one). */}
            {compact && item.refusal === 'noPass'
              ? t('client.noPassShort')
              : t(`bookings:refusal.${item.refusal}`)}
          </Text>
        )}
      {feedback && (
        <Text size="xs" c={feedback.color} data-testid="booking-feedback" role="status">
          {feedback.text}
        </Text>
      )}
    </Stack>
  );
}

/** A course's class on the timetable: "part of a course", the client's standing, and a link to the course. */
function CourseClassControls({
  event,
  item,
  compact,
}: {
  event: PublicScheduleEvent;
  item: ClientScheduleItem | undefined;
  compact: boolean;
}) {
  const { t } = useTranslation('bookings-ui');
  const status = item?.myVisit?.status;
  const booked =
    status === ClientVisitStatus.booked ||
    status === ClientVisitStatus.unconfirmed ||
    status === ClientVisitStatus.present ||
    status === ClientVisitStatus.absent;
  return (
    <Stack gap={4} mt={4} data-testid="course-class-controls">
      {booked ? (
        <Badge size="sm" color="teal" variant="filled" data-testid="my-status">
          {/* A narrow week card has room for "Booked" only (the link says it is the course). */}
          {compact ? t(`client.status.${ClientVisitStatus.booked}`) : t('client.courseBooked')}
        </Badge>
      ) : (
        <Text size="xs" c="dimmed" data-testid="course-class">
          {t('client.courseClass')}
        </Text>
      )}
      <Button
        component={Link}
        to={`/courses?${COURSE_SERVICE_PARAM}=${event.classService.id}`}
        size={compact ? 'compact-xs' : 'xs'}
        variant="light"
        fullWidth={compact}
        data-testid="timetable-to-course"
      >
        {t('client.toCourse')}
      </Button>
    </Stack>
  );
}

/**
 * After signing in from a class's Book button the visitor lands back on the timetable with
 * `book=<event>`: this asks once more (the second tap) and books.
 */
export function PendingBooking({
  event,
  item,
  tz,
  onClose,
}: {
  event: PublicScheduleEvent | undefined;
  item: ClientScheduleItem | undefined;
  tz: string;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation('bookings-ui');
  const { busy, feedback, run, calls } = useBookingAction();
  const [done, setDone] = useState(false);
  const opened = Boolean(event && item);
  const canBook = item && !item.myVisit && item.bookOutcome !== null;
  return (
    <Modal opened={opened} onClose={onClose} title={t('client.pendingTitle')} data-testid="pending-booking">
      {event && item && (
        <Stack gap="sm">
          <Text fw={600}>{serviceName(event.classService.name, i18n.language, null)}</Text>
          <Text size="sm">
            {formatDay(localDateOf(new Date(event.startsAt), tz), i18n.language, 'long')},{' '}
            {formatTime(event.startsAt, i18n.language, tz)}–{formatTime(event.endsAt, i18n.language, tz)} ·{' '}
            {event.room?.name ?? event.location.name}
          </Text>
          {!canBook && !done && (
            <Text size="sm" c="dimmed">
              {item.myVisit
                ? t('client.alreadyOn')
                : item.refusal
                  ? t(`bookings:refusal.${item.refusal}`)
                  : t('client.failed')}
            </Text>
          )}
          {feedback && (
            <Text size="sm" c={feedback.color} role="status" data-testid="pending-feedback">
              {feedback.text}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {done ? t('client.close') : t('client.notNow')}
            </Button>
            {canBook && !done && (
              <Button
                loading={busy}
                onClick={() => void run(() => calls.book(event.id)).then((ok) => setDone(ok))}
                data-testid="pending-book"
              >
                {item.bookOutcome === 'waitingList' ? t('client.joinWaiting') : t('client.book')}
              </Button>
            )}
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
