import { Alert, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ClientAccountsApi } from '../../../shared/contracts/http/client-accounts';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useStudioUuid } from '../studio';

/** `security`: password change (current password again; other devices are signed out). */
export function SecurityScreen() {
  const { t } = useTranslation('account');
  const api = useApiClient();
  const studio = useStudioUuid();
  const [done, setDone] = useState(false);
  const [mismatch, setMismatch] = useState<string | undefined>();
  const form = useServerForm({
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    keepWhitespace: ['currentPassword', 'newPassword', 'confirmPassword'],
    submit: (v) =>
      api.call(ClientAccountsApi.changePassword, {
        params: { uuid: studio },
        body: { currentPassword: v.currentPassword, newPassword: v.newPassword },
      }),
    onSuccess: () => {
      setDone(true);
      form.setValue('currentPassword', '');
      form.setValue('newPassword', '');
      form.setValue('confirmPassword', '');
    },
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    setDone(false);
    if (form.values.newPassword !== form.values.confirmPassword) {
      event.preventDefault();
      setMismatch(t('security.mismatch'));
      return;
    }
    setMismatch(undefined);
    form.formProps.onSubmit(event);
  };
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md" data-testid="account-security">
      <form {...form.formProps} onSubmit={onSubmit}>
        <Stack gap="md" maw={420}>
          <div>
            <Title order={2} size="h3">
              {t('security.title')}
            </Title>
            <Text size="sm" c="dimmed" mt={4}>
              {t('security.intro')}
            </Text>
          </div>
          {done && (
            <Alert color="green" variant="light" data-testid="security-done">
              {t('security.done')}
            </Alert>
          )}
          <FormErrorList errors={form.formErrors} />
          <PasswordInput
            {...form.getInputProps('currentPassword')}
            label={t('security.currentPassword')}
            autoComplete="current-password"
            required
          />
          <PasswordInput
            {...form.getInputProps('newPassword')}
            label={t('security.newPassword')}
            autoComplete="new-password"
            required
          />
          <PasswordInput
            {...form.getInputProps('confirmPassword')}
            error={mismatch}
            label={t('security.confirmPassword')}
            autoComplete="new-password"
            required
          />
          <SubmitButton state={form.buttonState} data-testid="security-submit">
            {t('security.submit')}
          </SubmitButton>
        </Stack>
      </form>
    </Paper>
  );
}
