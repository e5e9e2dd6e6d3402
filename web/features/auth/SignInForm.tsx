import { PasswordInput, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LoginResult } from '../../../shared/contracts/api/auth';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { authKeys, login } from './auth.api';

export interface SignInFormProps {
  studioUuid?: string | null;
  defaultEmail?: string;
  /** Hide the email input (the email was given in an earlier step) but still send it. */
  emailReadOnly?: boolean;
  autoFocusPassword?: boolean;
  onSignedIn(result: LoginResult): void;
}

/** Email + password sign-in against auth/login, shared by back office and front office. */
export function SignInForm({
  studioUuid,
  defaultEmail = '',
  emailReadOnly,
  autoFocusPassword,
  onSignedIn,
}: SignInFormProps) {
  const { t } = useTranslation('common');
  const api = useApiClient();
  const queryClient = useQueryClient();
  const form = useServerForm({
    initialValues: { emailAddress: defaultEmail, password: '' },
    keepWhitespace: ['password'],
    submit: (values) => login(api, { ...values, ...(studioUuid ? { studioUuid } : {}) }),
    onSuccess: (result) => {
      queryClient.setQueryData([...authKeys.me, result.userId], result.me);
      onSignedIn(result);
    },
    errorOptions: {
      unexpected: 'withCode',
      messagesByKey: { 'auth.invalidCredentials': 'common:errors.invalidCredentials' },
    },
  });

  return (
    <form {...form.formProps} data-testid="sign-in-form">
      <Stack gap="md">
        <FormErrorList errors={form.formErrors} />
        <TextInput
          {...form.getInputProps('emailAddress')}
          type="email"
          label={t('auth.email')}
          autoComplete="username"
          required
          readOnly={emailReadOnly}
          autoFocus={!emailReadOnly && !autoFocusPassword}
        />
        <PasswordInput
          {...form.getInputProps('password')}
          label={t('auth.password')}
          autoComplete="current-password"
          required
          autoFocus={autoFocusPassword}
        />
        <SubmitButton state={form.buttonState} fullWidth data-testid="sign-in-submit">
          {t('auth.signIn')}
        </SubmitButton>
      </Stack>
    </form>
  );
}
