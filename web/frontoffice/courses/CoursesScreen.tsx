import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { CourseBookingResult, CourseView } from '../../../shared/contracts/api/enrollments';
import { localDateOf } from '../../../shared/domain/entitlements/local-dates';
import { useApiClient } from '../../lib/app-context';
import { toFormErrors } from '../../lib/form-errors';
import { formatDay, formatTime, serviceName, weekdayLabel } from '../../features/schedule/week';
import { useStudioUuid } from '../studio';
import {
  loginPath,
  useInvalidateClientBookings,
  useSignedIn,
  useStudioTimeZone,
} from '../visits/client-bookings.api';
import { COURSE_ERROR_OPTIONS, courseCalls, useCourses } from './courses.api';
import { formatDayMonth } from '../../../shared/i18n/dates';

/** The query parameter the timetable's course classes link here with (a class service id). */
export const COURSE_SERVICE_PARAM = 'classService';

/**
 * Courses (front office): a course is booked as a whole — a place on every class still to come, one
 * pass entry per class — and only before its first class. Lists the courses open to the client
 * ("available", their own included) or only their own, with "Book the whole course" and "Cancel the
 * course" (confirmed). `?classService=` (from a course's class on the timetable) shows that course.
 */
export function CoursesScreen() {
  const { t } = useTranslation('bookings-ui');
  const signedIn = useSignedIn();
  const [search, setSearch] = useSearchParams();
  const serviceId = search.get(COURSE_SERVICE_PARAM);
  const [scope, setScope] = useState<'available' | 'mine'>('available');
  const courses = useCourses(scope);
  const tz = useStudioTimeZone();
  const back = `courses${serviceId ? `?${COURSE_SERVICE_PARAM}=${serviceId}` : ''}`;

  const header = (
    <Stack gap={4}>
      <Title order={2}>{t('courses.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('courses.intro')}
      </Text>
    </Stack>
  );
  if (!signedIn)
    return (
      <Stack gap="md" data-testid="courses-screen">
        {header}
        <Paper withBorder p="xl" radius="md" data-testid="courses-signed-out">
          <Stack gap="md">
            <Text>{t('courses.signedOut')}</Text>
            <Group>
              <Button component={Link} to={loginPath(back)} data-testid="courses-sign-in">
                {t('client.signIn')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      </Stack>
    );

  const all = courses.data?.items ?? [];
  const shown = serviceId ? all.filter((c) => c.classService.id === serviceId) : all;
  return (
    <Stack gap="md" data-testid="courses-screen">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        {header}
        <SegmentedControl
          value={scope}
          onChange={(v) => setScope(v as 'available' | 'mine')}
          data={[
            { value: 'available', label: t('courses.available') },
            { value: 'mine', label: t('courses.mine') },
          ]}
          data-testid="courses-scope"
        />
      </Group>
      {serviceId && (
        <Group gap="xs">
          <Button
            variant="subtle"
            size="xs"
            px={0}
            onClick={() => setSearch({}, { replace: true })}
            data-testid="courses-show-all"
          >
            {t('courses.showAll')}
          </Button>
        </Group>
      )}
      {courses.error ? (
        <Alert color="red">{t('courses.loadFailed')}</Alert>
      ) : !courses.data ? (
        <Loader aria-label={t('courses.loading')} />
      ) : shown.length === 0 ? (
        <Paper withBorder p="lg" radius="md" data-testid="courses-empty">
          <Stack gap="sm" align="flex-start">
            <Text c="dimmed">{scope === 'mine' ? t('courses.noneMine') : t('courses.none')}</Text>
            <Button component={Link} to="/timetable" variant="light" size="xs">
              {t('client.toTimetable')}
            </Button>
          </Stack>
        </Paper>
      ) : (
        <Stack gap="sm" data-testid="courses-list">
          {shown.map((course) => (
            <CourseCard key={course.scheduleMetaId} course={course} tz={tz} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

type Feedback = { color: string; text: string };

/** "26 November" / "26 listopada" (the genitive Polish needs after "od"/"do"), no weekday. */
function dayAndMonth(date: string, locale: string): string {
  return formatDayMonth(date, locale);
}

export function CourseCard({
  course,
  tz,
  linked = true,
  canAct = true,
}: {
  course: CourseView;
  tz: string;
  /** On the list the name links to the course's page; on that page it is the heading. */
  linked?: boolean;
  /** A visitor reads the page but cannot book. */
  canAct?: boolean;
}) {
  const { t, i18n } = useTranslation('bookings-ui');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateClientBookings();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const calls = courseCalls(api, studio);
  const lang = i18n.language;

  const run = async (work: () => Promise<CourseBookingResult>) => {
    setBusy(true);
    setFeedback(null);
    try {
      const result = await work();
      setFeedback({
        color: 'teal',
        text:
          result.outcome === 'cancelled'
            ? result.late > 0
              ? t('courses.cancelledLate', { count: result.late })
              : t('courses.cancelled')
            : t(result.outcome === 'unconfirmed' ? 'courses.bookedUnconfirmed' : 'courses.booked', {
                count: result.visits.length,
              }),
      });
    } catch (error) {
      const errors = toFormErrors(error, t, COURSE_ERROR_OPTIONS);
      setFeedback({
        color: 'red',
        text: [...errors.form, ...Object.values(errors.fields)].join(' ') || t('client.failed'),
      });
    } finally {
      setBusy(false);
      setConfirming(false);
      await invalidate();
    }
  };

  const days = course.daysOfWeek.map((d) => weekdayLabel(d, lang)).join(', ');
  const when =
    course.daysOfWeek.length === 7
      ? t('courses.daily', { time: course.startTime.slice(0, 5) })
      : t('courses.weekly', { days, time: course.startTime.slice(0, 5) });
  const description = serviceName(course.classService.description, lang, null);
  const period = course.lastDate
    ? t('courses.period', {
        from: dayAndMonth(course.firstDate, lang),
        to: dayAndMonth(course.lastDate, lang),
      })
    : t('courses.periodOpen', { from: dayAndMonth(course.firstDate, lang) });
  const reason = course.enrolled
    ? null
    : course.sessions === 0
      ? t('courses.over')
      : course.placesLeft === 0
        ? t('courses.full')
        : !course.canBook
          ? t('courses.closed')
          : null;

  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      data-testid="course-card"
      data-enrolled={course.enrolled}
      style={{ borderLeft: `5px solid ${course.classService.color}` }}
    >
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Title order={linked ? 4 : 2} size={linked ? undefined : 'h3'} data-testid="course-name">
            {linked ? (
              <Anchor
                component={Link}
                to={`/course/${course.slug}`}
                inherit
                c="inherit"
                data-testid="course-link"
              >
                {serviceName(course.classService.name, lang, null)}
              </Anchor>
            ) : (
              serviceName(course.classService.name, lang, null)
            )}
          </Title>
          {course.enrolled ? (
            <Badge color="teal" variant="filled" data-testid="course-enrolled">
              {t('courses.enrolled', { count: course.myVisits })}
            </Badge>
          ) : (
            <Badge color={course.placesLeft > 0 ? 'blue' : 'red'} variant="light" data-testid="course-places">
              {course.placesLeft > 0
                ? t('client.placesLeft', { count: course.placesLeft })
                : t('client.full')}
            </Badge>
          )}
        </Group>
        {description && (
          <Text size="sm" lineClamp={linked ? 3 : undefined} style={{ whiteSpace: 'pre-line' }}>
            {description}
          </Text>
        )}
        <Box>
          <Text size="sm" fw={500} data-testid="course-when">
            {when}
          </Text>
          <Text size="sm" c="dimmed">
            {period}
          </Text>
          <Text size="sm" c="dimmed" data-testid="course-sessions">
            {course.startsAt
              ? t('courses.sessions', {
                  count: course.sessions,
                  first: `${formatDay(localDateOf(new Date(course.startsAt), tz), lang, 'long')}, ${formatTime(course.startsAt, lang, tz)}`,
                })
              : t('courses.over')}
          </Text>
          <Text size="sm" c="dimmed">
            {[course.location.name, course.instructors.map((p) => `${p.firstName} ${p.lastName}`).join(', ')]
              .filter(Boolean)
              .join(' · ')}
          </Text>
        </Box>
        {!course.enrolled && course.sessions > 0 && (
          <Text size="xs" c="dimmed" data-testid="course-pass-note">
            {t('courses.passNote', { count: course.sessions })}{' '}
            <Anchor component={Link} to="/pricing/pricing-options" size="xs">
              {t('courses.seePrices')}
            </Anchor>
          </Text>
        )}
        {reason && (
          <Text size="sm" c="orange" data-testid="course-refusal">
            {reason}
          </Text>
        )}
        <Group gap="xs" wrap="wrap">
          {course.canBook && canAct && (
            <Button
              loading={busy}
              onClick={() => void run(() => calls.book(course.scheduleMetaId))}
              data-testid="course-book"
            >
              {t('courses.book')}
            </Button>
          )}
          {course.enrolled && !confirming && (
            <Button variant="default" onClick={() => setConfirming(true)} data-testid="course-cancel">
              {t('courses.cancel')}
            </Button>
          )}
        </Group>
        {course.enrolled && confirming && (
          <Paper
            withBorder
            p="sm"
            radius="sm"
            bg="var(--mantine-color-red-0)"
            data-testid="course-cancel-confirmation"
          >
            <Stack gap="xs">
              <Text size="sm">{t('courses.cancelQuestion', { count: course.myVisits })}</Text>
              <Text size="xs" c="dimmed">
                {t('courses.cancelNote')}
              </Text>
              <Group gap="xs" wrap="wrap">
                <Button
                  color="red"
                  loading={busy}
                  onClick={() => void run(() => calls.cancel(course.scheduleMetaId))}
                  data-testid="course-cancel-confirm"
                >
                  {t('courses.confirmCancel')}
                </Button>
                <Button variant="subtle" onClick={() => setConfirming(false)}>
                  {t('client.keep')}
                </Button>
              </Group>
            </Stack>
          </Paper>
        )}
        {feedback && (
          <Text size="sm" c={feedback.color} role="status" data-testid="course-feedback">
            {feedback.text}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
