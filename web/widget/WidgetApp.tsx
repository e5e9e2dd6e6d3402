import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublicScheduleEvent } from '../../shared/contracts/api/schedule';
import { IntegrationsApi } from '../../shared/contracts/http/integrations';
import { FRONT_OFFICE_QUERY } from '../../shared/contracts/routes';
import { isLocale } from '../../shared/i18n/locales';
import { useApiClient, usePageContext } from '../lib/app-context';
import { StudioLogo, useApplyBranding, useStudioAppearance } from '../features/branding/StudioBranding';
import {
  formatDay,
  formatRange,
  formatTime,
  groupByDay,
  serviceName,
  shiftAnchor,
  todayIn,
  visibleDays,
} from '../features/schedule/week';

const BROWSER_TZ = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Tells the page that framed us how tall we are (widget.js resizes the iframe). */
function useReportHeight() {
  useEffect(() => {
    if (window.parent === window) return;
    const root = document.documentElement;
    let last = 0;
    const report = () => {
      const height = Math.ceil(root.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: 'studio-widget:height', height }, '*');
    };
    const observer = new ResizeObserver(report);
    observer.observe(root);
    report();
    return () => observer.disconnect();
  }, []);
}

/**
 * The embeddable widget (issue 24): the studio's timetable, a week at a time, in the studio's colours,
 * framed on the studio's own website by widget.js. "Book" opens the front office's timetable with
 * that class chosen in a new window (sign-in, pass and payment happen there, on the studio's cloud).
 */
export function WidgetApp() {
  const { t, i18n } = useTranslation('integrations');
  const api = useApiClient();
  const { studioUuid, baseUrl } = usePageContext();
  const studio = studioUuid!;
  const appearance = useStudioAppearance(studio);
  useApplyBranding(appearance.data);
  useReportHeight();

  // The host page may choose the language (`data-locale` → `?locale=`).
  useEffect(() => {
    const wanted = new URLSearchParams(window.location.search).get('locale');
    if (isLocale(wanted) && wanted !== i18n.language) void i18n.changeLanguage(wanted);
  }, [i18n]);
  useEffect(() => {
    document.documentElement.lang = i18n.language;
  }, [i18n.language]);

  const [tz, setTz] = useState(BROWSER_TZ);
  const [anchor, setAnchor] = useState(() => todayIn(BROWSER_TZ));
  const week = useMemo(() => visibleDays(anchor, 'week'), [anchor]);
  const schedule = useQuery({
    queryKey: ['widget-timetable', studio, week[0]],
    queryFn: async ({ signal }) => {
      const answer = await api.call(IntegrationsApi.widgetTimetable, {
        params: { uuid: studio },
        query: { from: week[0]!, to: week[6]! },
        signal,
      });
      if (answer.timeZone !== tz) setTz(answer.timeZone);
      return answer;
    },
    placeholderData: keepPreviousData,
  });
  const grouped = useMemo(() => groupByDay(schedule.data?.items ?? [], week, tz), [schedule.data, week, tz]);
  const today = todayIn(tz);
  // From today on (a week wholly past, looked back at, shows all its days).
  const days = week[6]! < today ? week : week.filter((d) => d >= today);

  const book = (event: PublicScheduleEvent, day: string) => {
    // The front office's sign-in, then its timetable with this class chosen (signed in already: on
    // at once); sign-in and booking live on the studio's cloud, not inside another site's frame.
    const url = new URL(`/${studio}/frontoffice/login`, baseUrl || window.location.origin);
    url.searchParams.set(
      FRONT_OFFICE_QUERY.redirectAfterLogin,
      `timetable?${new URLSearchParams({ date: day, book: event.id })}`,
    );
    window.open(url.toString(), '_blank', 'popup=yes,width=520,height=780');
  };

  return (
    <Box p="md" data-testid="studio-widget" style={{ background: 'var(--mantine-color-body)' }}>
      <Group justify="space-between" align="center" wrap="wrap" gap="sm" mb="md">
        <Group gap="sm" wrap="nowrap">
          <StudioLogo appearance={appearance.data} height={36} />
          <div>
            <Title order={1} size="h3" data-testid="widget-title">
              {t('widget.title')}
            </Title>
            {appearance.data && (
              <Text size="sm" c="dimmed">
                {appearance.data.name}
              </Text>
            )}
          </div>
        </Group>
        <Group gap={6} wrap="nowrap">
          <Button
            variant="default"
            size="xs"
            onClick={() => setAnchor(shiftAnchor(anchor, 'week', -1))}
            aria-label={t('widget.previousWeek')}
            data-testid="widget-previous"
          >
            ‹
          </Button>
          <Button variant="light" size="xs" onClick={() => setAnchor(todayIn(tz))}>
            {t('widget.thisWeek')}
          </Button>
          <Button
            variant="default"
            size="xs"
            onClick={() => setAnchor(shiftAnchor(anchor, 'week', 1))}
            aria-label={t('widget.nextWeek')}
            data-testid="widget-next"
          >
            ›
          </Button>
        </Group>
      </Group>
      <Text fw={600} mb="sm" data-testid="widget-range">
        {formatRange(week, i18n.language)}
      </Text>

      {schedule.isError && (
        <Alert color="red" data-testid="widget-error">
          {t('widget.loadFailed')}
        </Alert>
      )}
      {schedule.isPending && <Loader size="sm" />}
      {schedule.data && (
        <Stack gap="sm">
          {days.map((day) => {
            const events = grouped.get(day) ?? [];
            return (
              <Paper key={day} withBorder radius="md" p="sm" data-testid="widget-day" data-day={day}>
                <Text
                  size="sm"
                  fw={700}
                  mb={events.length ? 6 : 0}
                  c={day === today ? 'var(--studio-primary, var(--mantine-primary-color-filled))' : undefined}
                >
                  {formatDay(day, i18n.language, 'long')}
                </Text>
                {events.length === 0 && (
                  <Text size="xs" c="dimmed">
                    {t('widget.noClasses')}
                  </Text>
                )}
                <Stack gap={6}>
                  {events.map((event) => {
                    const past = new Date(event.startsAt).getTime() < Date.now();
                    const bookable = event.bookableOnline && !event.cancelled && !past;
                    return (
                      <Group
                        key={event.id}
                        justify="space-between"
                        wrap="nowrap"
                        gap="sm"
                        data-testid="widget-event"
                        style={{ borderLeft: `4px solid ${event.classService.color}`, paddingLeft: 8 }}
                      >
                        <Box style={{ minWidth: 0, flex: 1 }}>
                          <Text size="sm" fw={600} td={event.cancelled ? 'line-through' : undefined} truncate>
                            <span style={{ fontVariantNumeric: 'tabular-nums' }}>
                              {formatTime(event.startsAt, i18n.language, tz)}
                            </span>{' '}
                            {serviceName(event.classService.name, i18n.language, null)}
                          </Text>
                          <Text size="xs" c="dimmed" truncate>
                            {[
                              event.instructors.map((p) => `${p.firstName} ${p.lastName}`).join(', '),
                              event.room?.name ?? event.location.name,
                            ]
                              .filter(Boolean)
                              .join(' · ')}
                          </Text>
                        </Box>
                        {event.cancelled ? (
                          <Badge color="red" variant="light" size="sm" style={{ flexShrink: 0 }}>
                            {t('widget.cancelled')}
                          </Badge>
                        ) : bookable ? (
                          <Button
                            size="xs"
                            color="studio"
                            style={{ flexShrink: 0 }}
                            onClick={() => book(event, day)}
                            data-testid="widget-book"
                            title={t('widget.opensWindow')}
                          >
                            {t('widget.book')}
                          </Button>
                        ) : null}
                      </Group>
                    );
                  })}
                </Stack>
              </Paper>
            );
          })}
        </Stack>
      )}
      <Group justify="flex-end" mt="sm">
        <UnstyledButton
          component="a"
          href={new URL(`/${studio}/frontoffice/timetable`, baseUrl || window.location.origin).toString()}
          target="_blank"
          rel="noopener"
          fz="xs"
          c="dimmed"
        >
          {t('widget.openFull')}
        </UnstyledButton>
      </Group>
    </Box>
  );
}
