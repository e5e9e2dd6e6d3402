import { Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { RouterProvider } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { SignInForm } from '../features/auth/SignInForm';
import { useSignOut } from '../features/auth/auth.api';
import { ApiError } from '../lib/api-client';
import { useApiClient, useSession } from '../lib/app-context';
import { failureText } from '../lib/form-errors';
import { AppFrame } from '../ui/AppFrame';
import { CenteredMessage } from '../ui/CenteredMessage';
import { useDocumentTitle } from '../ui/use-document-title';
import { BackofficeInitProvider, useBackofficeInit } from './backoffice.api';
import { createBackofficeRouter } from './router';

/**
 * Gatekeeper of the back office: sign-in when there is no user, then backoffice/init decides —
 * 403 (not staff here) → no-permission screen, 404 → unknown studio, success → the shell.
 */
export function BackofficeApp({ studioUuid }: { studioUuid: string | null }) {
  const { t } = useTranslation('backoffice');
  const session = useSession();
  useDocumentTitle(t('title'));

  if (!studioUuid) {
    return (
      <AppFrame title={t('title')}>
        <CenteredMessage title={t('status.notFound.title')} testId="studio-not-found">
          {t('status.notFound.text')}
        </CenteredMessage>
      </AppFrame>
    );
  }
  if (!session.userId || !session.sessionId) return <SignInScreen studioUuid={studioUuid} />;
  return <SignedIn studioUuid={studioUuid} />;
}

function SignInScreen({ studioUuid }: { studioUuid: string }) {
  const { t } = useTranslation('backoffice');
  return (
    <AppFrame title={t('title')} size="xs">
      <Paper withBorder shadow="sm" p="xl" radius="md" maw={420} mx="auto" data-testid="backoffice-sign-in">
        <Stack gap="lg">
          <div>
            <Title order={2} size="h3">
              {t('signIn.title')}
            </Title>
            <Text c="dimmed" size="sm" mt={4}>
              {t('signIn.subtitle')}
            </Text>
          </div>
          {/* The session change re-renders BackofficeApp, which then loads backoffice/init. */}
          <SignInForm studioUuid={studioUuid} onSignedIn={() => undefined} />
        </Stack>
      </Paper>
    </AppFrame>
  );
}

function SignedIn({ studioUuid }: { studioUuid: string }) {
  const { t } = useTranslation('backoffice');
  const api = useApiClient();
  const init = useBackofficeInit(studioUuid);
  const signOut = useSignOut();
  const router = useMemo(() => createBackofficeRouter(), []);
  const status = init.error instanceof ApiError ? init.error.status : null;

  // A session the server no longer knows (expired, signed out elsewhere): back to sign-in.
  useEffect(() => {
    if (status === 401) api.clearSession();
  }, [status, api]);

  if (init.data) {
    return (
      <BackofficeInitProvider value={init.data}>
        <RouterProvider router={router} />
      </BackofficeInitProvider>
    );
  }

  if (init.isPending || status === 401) {
    return (
      <Center mih="100vh">
        <Loader aria-label={t('status.loading')} />
      </Center>
    );
  }

  const signOutButton = (
    <Button
      variant="default"
      onClick={() => signOut.mutate()}
      loading={signOut.isPending}
      data-testid="sign-out"
    >
      {t('common:auth.signOut')}
    </Button>
  );

  if (status === 403) {
    return (
      <AppFrame title={t('title')}>
        <CenteredMessage
          title={t('status.noPermission.title')}
          actions={<Group>{signOutButton}</Group>}
          testId="no-permission"
        >
          {t('common:errors.noPermission')}
        </CenteredMessage>
      </AppFrame>
    );
  }
  if (status === 404) {
    return (
      <AppFrame title={t('title')}>
        <CenteredMessage
          title={t('status.notFound.title')}
          actions={<Group>{signOutButton}</Group>}
          testId="studio-not-found"
        >
          {t('status.notFound.text')}
        </CenteredMessage>
      </AppFrame>
    );
  }
  return (
    <AppFrame title={t('title')}>
      <CenteredMessage
        title={t('status.loadFailed.title')}
        testId="load-failed"
        actions={
          <Group>
            <Button onClick={() => void init.refetch()} loading={init.isFetching}>
              {t('common:actions.retry')}
            </Button>
            {signOutButton}
          </Group>
        }
      >
        {failureText(init.error, t, 'common:errors.generalWithCode')}
      </CenteredMessage>
    </AppFrame>
  );
}
