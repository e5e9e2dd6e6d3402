import { Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useMe, useSignOut } from '../../features/auth/auth.api';
import { ApiError } from '../../lib/api-client';
import { useApiClient, useSession } from '../../lib/app-context';
import { useStudioUuid } from '../studio';

/**
 * Front-office index. There is no public studio endpoint yet, so the studio is named only when the
 * signed-in user's memberships tell us its name; otherwise the heading is a plain "Welcome".
 */
export function FrontofficeHome() {
  const { t } = useTranslation('frontoffice');
  const studioUuid = useStudioUuid();
  const session = useSession();
  const me = useMe();
  const signOut = useSignOut();
  const api = useApiClient();
  const expired = me.error instanceof ApiError && me.error.status === 401;
  // The page said "signed in" but the server no longer knows the session: treat as signed out.
  useEffect(() => {
    if (expired) api.clearSession();
  }, [expired, api]);
  const signedIn = Boolean(session.userId && session.sessionId);
  const studioName = me.data?.memberships.find((m) => m.studioUuid === studioUuid)?.studioName;

  return (
    <Paper withBorder shadow="xs" p="xl" radius="md" data-testid="frontoffice-home">
      <Stack gap="md">
        <Title order={2} data-testid="frontoffice-heading">
          {studioName ? t('home.welcomeTo', { studio: studioName }) : t('home.welcome')}
        </Title>
        {!signedIn ? (
          <>
            <Text c="dimmed">{t('home.signedOut')}</Text>
            <Group>
              <Button component={Link} to="/login" data-testid="go-to-login">
                {t('common:auth.signIn')}
              </Button>
              <Button component={Link} to="/signup" variant="default" data-testid="go-to-signup">
                {t('nav.signup')}
              </Button>
              <Button component={Link} to="/timetable" variant="subtle" data-testid="go-to-timetable">
                {t('nav.timetable')}
              </Button>
            </Group>
          </>
        ) : me.isPending ? (
          <Loader size="sm" />
        ) : (
          <>
            <Text data-testid="frontoffice-signed-in">
              {me.data
                ? t('home.signedInAs', {
                    name: `${me.data.firstName} ${me.data.lastName}`.trim(),
                    email: me.data.emailAddress,
                  })
                : t('home.signedIn')}
            </Text>
            <Group>
              <Button component={Link} to="/timetable" data-testid="go-to-timetable">
                {t('nav.timetable')}
              </Button>
              <Button
                variant="default"
                onClick={() => signOut.mutate()}
                loading={signOut.isPending}
                data-testid="sign-out"
              >
                {t('common:auth.signOut')}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}
