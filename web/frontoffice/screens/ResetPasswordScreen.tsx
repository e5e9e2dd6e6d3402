import { Alert, Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { IdentityApi } from '../../../shared/contracts/http/identity';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useStudioUuid } from '../studio';

/** The page of the password-reset email link: `reset-password?token=…` → POST account/reset. */
export function ResetPasswordScreen() {
  const { t } = useTranslation('frontoffice');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [done, setDone] = useState(false);

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" maw={420} mx="auto" data-testid="reset-password">
      <Stack gap="lg">
        <Title order={2} size="h3">
          {t('resetPassword.title')}
        </Title>
        {!token ? (
          <Alert color="yellow" variant="light" data-testid="reset-password-no-token">
            {t('resetPassword.noToken')}
          </Alert>
        ) : done ? (
          <Stack gap="md">
            <Alert color="green" variant="light" data-testid="reset-password-done">
              {t('resetPassword.done')}
            </Alert>
            <Button component={Link} to="/login?showLoginForm=1">
              {t('common:auth.signIn')}
            </Button>
          </Stack>
        ) : (
          <ResetForm token={token} onDone={() => setDone(true)} />
        )}
      </Stack>
    </Paper>
  );
}

function ResetForm({ token, onDone }: { token: string; onDone(): void }) {
  const { t } = useTranslation('frontoffice');
  const api = useApiClient();
  const studioUuid = useStudioUuid();
  const form = useServerForm({
    initialValues: { password: '' },
    keepWhitespace: ['password'],
    submit: (values) =>
      api.call(IdentityApi.reset, {
        params: { uuid: studioUuid },
        body: { token, password: values.password },
      }),
    onSuccess: () => onDone(),
    errorOptions: {
      unexpected: 'withCode',
      messagesByKey: { 'auth.resetTokenInvalid': 'frontoffice:resetPassword.tokenInvalid' },
    },
  });
  return (
    <form {...form.formProps}>
      <Stack gap="md">
        <Text c="dimmed" size="sm">
          {t('resetPassword.text')}
        </Text>
        <FormErrorList errors={form.formErrors} />
        <PasswordInput
          {...form.getInputProps('password')}
          label={t('resetPassword.newPassword')}
          autoComplete="new-password"
          autoFocus
          required
        />
        <SubmitButton state={form.buttonState} fullWidth>
          {t('resetPassword.submit')}
        </SubmitButton>
      </Stack>
    </form>
  );
}
