import { Alert, Button, CopyButton, Divider, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalendarFeed } from '../../../shared/contracts/api/appointments';
import { AppointmentsApi } from '../../../shared/contracts/http/appointments';
import { useApiClient } from '../../lib/app-context';

/** The iCalendar link as a calendar app subscribes to it (`webcal:` opens the system's calendar). */
export function webcalOf(url: string): string {
  return url.replace(/^https?:/, 'webcal:');
}

/**
 * "Calendar feed" (issue 21): the signed-in member's iCalendar link of their appointments (staff:
 * the ones they perform; clients: their own). The secret is stored hashed, so a link is shown only
 * right after it is made: making a new one replaces the old, and revoking stops it. Used by the back
 * office's staff calendar and the front office's appointments.
 */
export function CalendarFeedButton({ studio }: { studio: string }) {
  const { t } = useTranslation('appointments');
  const api = useApiClient();
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [fresh, setFresh] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const key = ['appointments-feed', studio] as const;
  const feed = useQuery({
    queryKey: key,
    enabled: opened,
    queryFn: ({ signal }) => api.call(AppointmentsApi.feedGet, { params: { uuid: studio }, signal }),
  });
  const run = async (make: boolean) => {
    setBusy(true);
    setError(null);
    try {
      if (make) {
        const made: CalendarFeed = await api.call(AppointmentsApi.feedCreate, { params: { uuid: studio } });
        setFresh(made.url);
      } else {
        await api.call(AppointmentsApi.feedRevoke, { params: { uuid: studio } });
        setFresh(null);
      }
      await queryClient.invalidateQueries({ queryKey: key });
    } catch {
      setError(t('feed.failed'));
    } finally {
      setBusy(false);
    }
  };
  const active = fresh !== null || feed.data?.active === true;
  // Google Calendar: connect (to Google's consent screen and back here) or disconnect.
  const googleKey = ['google-calendar', studio] as const;
  const google = useQuery({
    queryKey: googleKey,
    enabled: opened,
    queryFn: ({ signal }) =>
      api.call(AppointmentsApi.googleCalendarGet, {
        params: { uuid: studio },
        query: { returnTo: `${window.location.pathname}${window.location.search}${window.location.hash}` },
        signal,
      }),
  });
  const disconnect = async () => {
    setBusy(true);
    try {
      await api.call(AppointmentsApi.googleCalendarDelete, { params: { uuid: studio } });
      await queryClient.invalidateQueries({ queryKey: googleKey });
    } catch {
      setError(t('feed.failed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="default" size="xs" onClick={() => setOpened(true)} data-testid="calendar-feed-button">
        {t('feed.button')}
      </Button>
      <Modal
        opened={opened}
        onClose={() => {
          setOpened(false);
          setFresh(null);
        }}
        title={t('feed.title')}
      >
        <Stack gap="sm" data-testid="calendar-feed">
          <Text size="sm">{t(feed.data?.audience === 'staff' ? 'feed.aboutStaff' : 'feed.aboutClient')}</Text>
          {error && <Alert color="red">{error}</Alert>}
          {fresh && (
            <>
              <TextInput
                label={t('feed.url')}
                value={fresh}
                readOnly
                onFocus={(e) => e.currentTarget.select()}
                data-testid="calendar-feed-url"
              />
              <Text size="xs" c="dimmed">
                {t('feed.shownOnce')}
              </Text>
              <Group gap="xs">
                <CopyButton value={fresh}>
                  {({ copied, copy }) => (
                    <Button size="xs" onClick={copy} color={copied ? 'teal' : undefined}>
                      {copied ? t('feed.copied') : t('feed.copy')}
                    </Button>
                  )}
                </CopyButton>
                <Button size="xs" variant="light" component="a" href={webcalOf(fresh)}>
                  {t('feed.subscribe')}
                </Button>
              </Group>
            </>
          )}
          {!fresh && feed.data && (
            <Text size="sm" fw={500} data-testid="calendar-feed-state">
              {feed.data.active ? t('feed.active') : t('feed.none')}
            </Text>
          )}
          <Group gap="xs">
            <Button
              size="xs"
              variant={active ? 'default' : 'filled'}
              loading={busy}
              onClick={() => void run(true)}
            >
              {active ? t('feed.renew') : t('feed.create')}
            </Button>
            {active && (
              <Button size="xs" color="red" variant="light" loading={busy} onClick={() => void run(false)}>
                {t('feed.revoke')}
              </Button>
            )}
          </Group>
          <Divider label={t('google.title')} labelPosition="left" />
          {google.data && !google.data.available && (
            <Text size="sm" c="dimmed">
              {t('google.unavailable')}
            </Text>
          )}
          {google.data?.connected && (
            <Group gap="xs" justify="space-between" data-testid="google-calendar-connected">
              <Text size="sm">{t('google.connected', { email: google.data.email ?? '' })}</Text>
              <Button size="xs" color="red" variant="light" loading={busy} onClick={() => void disconnect()}>
                {t('google.disconnect')}
              </Button>
            </Group>
          )}
          {google.data?.authorizeUrl && (
            <Stack gap={4}>
              <Text size="sm">{t('google.about')}</Text>
              <Button
                size="xs"
                variant="default"
                component="a"
                href={google.data.authorizeUrl}
                data-testid="google-calendar-connect"
              >
                {t('google.connect')}
              </Button>
            </Stack>
          )}
        </Stack>
      </Modal>
    </>
  );
}
