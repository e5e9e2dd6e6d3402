import { Anchor, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { FRONT_OFFICE_QUERY, frontOfficePath } from '../../../shared/contracts/routes';
import { useMe } from '../../features/auth/auth.api';
import { SignInForm } from '../../features/auth/SignInForm';
import { useSession } from '../../lib/app-context';
import { REDIRECT_DELAY_MS } from '../../ui/timings';
import { useEditorForm } from '../../ui/use-editor-form';
import { safeRedirectTarget } from '../redirect';
import { afterLogin } from '../staff/login-destinations';
import { StaffDestinations } from '../staff/StaffDestinations';
import { useStudioUuid } from '../studio';

/**
 * Front-office sign-in. Query parameters (spec §2, keys from shared/contracts/routes.ts):
 * `username` prefills the email, `showLoginForm=1` skips the email step, `redirectAfterLogin`
 * says where to go afterwards (front-office paths only, see safeRedirectTarget).
 * The email step has no server call yet (no preflight in this app): Next only moves on.
 */
export function LoginScreen() {
  const { t } = useTranslation('frontoffice');
  const studioUuid = useStudioUuid();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const session = useSession();
  const username = params.get(FRONT_OFFICE_QUERY.username) ?? '';
  const target = afterLoginPath(
    params.get(FRONT_OFFICE_QUERY.redirectAfterLogin),
    frontOfficePath(studioUuid),
  );
  const [step, setStep] = useState<'email' | 'password'>(
    params.get(FRONT_OFFICE_QUERY.showLoginForm) === '1' ? 'password' : 'email',
  );
  const emailForm = useEditorForm(() => ({ email: username }));
  const { email } = emailForm.values;
  const emailError = emailForm.errors.email;
  const signedIn = Boolean(session.userId && session.sessionId);
  const me = useMe();
  // Staff go to their back office (or choose); clients and explicit targets stay in the client zone.
  const next = me.data
    ? afterLogin(me.data, studioUuid, target !== '/')
    : me.isError
      ? ({ kind: 'client' } as const)
      : null;

  // Already signed in (from the page or just now): go on after the spec's redirect delay.
  useEffect(() => {
    if (!signedIn || !next || next.kind === 'choose') return;
    const timer = setTimeout(() => {
      if (next.kind === 'backoffice') window.location.assign(next.href);
      else navigate(target, { replace: true });
    }, REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [signedIn, next?.kind, next?.kind === 'backoffice' ? next.href : null, navigate, target]); // eslint-disable-line react-hooks/exhaustive-deps

  if (signedIn && next?.kind === 'choose') return <StaffDestinations destinations={next.destinations} />;

  const onEmailNext = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = email.trim();
    if (!value) {
      emailForm.setErrors({ email: t('common:validation.required') });
      return;
    }
    emailForm.set('email', value);
    emailForm.setErrors({});
    setStep('password');
  };

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" maw={420} mx="auto" data-testid="frontoffice-login">
      <Stack gap="lg">
        <div>
          <Title order={2} size="h3">
            {t('login.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {signedIn ? t('login.redirecting') : t('login.subtitle')}
          </Text>
        </div>
        {signedIn ? null : step === 'email' ? (
          <form onSubmit={onEmailNext} noValidate data-testid="login-email-step">
            <Stack gap="md">
              <TextInput
                name="emailAddress"
                type="email"
                label={t('common:auth.email')}
                autoComplete="username"
                autoFocus
                value={email}
                error={emailError}
                onChange={(event) => emailForm.set('email', event.currentTarget.value)}
              />
              <Button type="submit" fullWidth data-testid="login-next">
                {t('common:actions.next')}
              </Button>
            </Stack>
          </form>
        ) : (
          <Stack gap="xs">
            <SignInForm
              key={email}
              studioUuid={studioUuid}
              defaultEmail={email}
              autoFocusPassword={Boolean(email)}
              onSignedIn={() => undefined}
            />
            <Anchor component="button" type="button" size="sm" onClick={() => setStep('email')} ta="center">
              {t('login.otherEmail')}
            </Anchor>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/** A sign-in must not land on the sign-in page again. */
function afterLoginPath(raw: string | null, basename: string): string {
  const target = safeRedirectTarget(raw, basename);
  if (!target || target === '/login' || target.startsWith('/login?')) return '/';
  return target;
}
