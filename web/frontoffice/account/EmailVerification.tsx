import { Alert, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { IdentityApi } from '../../../shared/contracts/http/identity';
import { useMe } from '../../features/auth/auth.api';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useStudioUuid } from '../studio';
import { ACCOUNT_SLUGS } from './slugs';

/**
 * Above the account pages while the account has not confirmed its email address: what it means
 * (records a studio keeps for the address stay apart until then) and a button for a new link.
 */
export function VerifyEmailNotice() {
  const { t } = useTranslation('account');
  const me = useMe();
  const api = useApiClient();
  const studioUuid = useStudioUuid();
  const resend = useMutation({
    mutationFn: () => api.call(IdentityApi.sendEmailVerification, { params: { uuid: studioUuid } }),
  });
  if (!me.data || me.data.emailVerified) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      mb="md"
      title={t('verifyEmail.noticeTitle')}
      data-testid="verify-email-notice"
    >
      <Stack gap="xs">
        <Text size="sm">{t('verifyEmail.notice', { email: me.data.emailAddress })}</Text>
        <Group>
          {resend.isSuccess ? (
            <Text size="sm" c="green" data-testid="verify-email-sent">
              {t('verifyEmail.sent')}
            </Text>
          ) : (
            <Button size="xs" variant="default" loading={resend.isPending} onClick={() => resend.mutate()}>
              {t('verifyEmail.resend')}
            </Button>
          )}
          {resend.isError && (
            <Text size="sm" c="red">
              {t('verifyEmail.resendFailed')}
            </Text>
          )}
        </Group>
      </Stack>
    </Alert>
  );
}

/** The page of the confirmation link: `verify-email?token=…` → POST account/verify-email, once. */
export function VerifyEmailScreen() {
  const { t } = useTranslation('account');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const api = useApiClient();
  const studioUuid = useStudioUuid();
  const queryClient = useQueryClient();
  const confirm = useMutation({
    mutationFn: () => api.call(IdentityApi.verifyEmail, { params: { uuid: studioUuid }, body: { token } }),
    onSuccess: () => void queryClient.invalidateQueries(),
  });
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    confirm.mutate();
  }, [token, confirm]);
  const invalid = confirm.error instanceof ApiError && confirm.error.key === 'auth.emailVerificationInvalid';
  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" maw={460} mx="auto" data-testid="verify-email">
      <Stack gap="lg">
        <Title order={2} size="h3">
          {t('verifyEmail.title')}
        </Title>
        {!token ? (
          <Alert color="yellow" variant="light">
            {t('verifyEmail.noToken')}
          </Alert>
        ) : confirm.isSuccess ? (
          <Stack gap="md">
            <Alert color="green" variant="light" data-testid="verify-email-done">
              {t('verifyEmail.done')}
            </Alert>
            <Button component={Link} to={`/${ACCOUNT_SLUGS.profile}`}>
              {t('verifyEmail.toAccount')}
            </Button>
          </Stack>
        ) : confirm.isError ? (
          <Alert color="red" variant="light" data-testid="verify-email-failed">
            {invalid ? t('verifyEmail.invalid') : t('verifyEmail.failed')}
          </Alert>
        ) : (
          <Group>
            <Loader size="sm" />
            <Text>{t('verifyEmail.checking')}</Text>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
