import {
  Anchor,
  Checkbox,
  Loader,
  Paper,
  PasswordInput,
  SimpleGrid,
  Spoiler,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { z } from 'zod';
import type { AgreementKind, StudioAgreementView } from '../../../shared/contracts/api/client-accounts';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useStudioUuid } from '../studio';
import { signUp, useAgreements } from './account.api';
import { ACCOUNT_SLUGS } from './slugs';

const KINDS: AgreementKind[] = ['terms', 'privacy', 'marketing'];
const field = (kind: AgreementKind) => `agreements.${kind}` as const;

/**
 * Front office `signup`: a client creates an account at this studio and accepts its agreements.
 * Required agreements are checked here before anything is sent (and again by the server, whose
 * field errors appear under each box); afterwards the client is signed in and sees their profile.
 */
export function SignupScreen() {
  const { t, i18n } = useTranslation('account');
  const studio = useStudioUuid();
  const api = useApiClient();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const agreements = useAgreements(i18n.language);
  const form = useServerForm({
    initialValues: {
      firstName: '',
      lastName: '',
      emailAddress: '',
      password: '',
      phone: '',
      'agreements.terms': '',
      'agreements.privacy': '',
      'agreements.marketing': '',
    },
    keepWhitespace: ['password'],
    submit: (v) =>
      signUp(api, studio, {
        firstName: v.firstName,
        lastName: v.lastName,
        emailAddress: v.emailAddress,
        password: v.password,
        phone: v.phone || null,
        locale: i18n.language === 'pl' ? 'pl' : 'en',
        agreements: Object.fromEntries(
          (agreements.data?.items ?? []).map((a) => [a.kind, v[field(a.kind)] === 'true']),
        ),
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries();
      navigate(`/${ACCOUNT_SLUGS.profile}`);
    },
    errorOptions: { unexpected: 'withCode' },
    // Required agreements are checked here before anything is sent (and again by the server).
    schema: z.object(
      Object.fromEntries(
        (agreements.data?.items ?? [])
          .filter((a) => a.required)
          .map((a) => [field(a.kind), z.literal('true', { error: t('signup.mustAccept') })]),
      ),
    ),
  });

  const byKind = new Map((agreements.data?.items ?? []).map((a) => [a.kind, a]));
  return (
    <Paper
      withBorder
      shadow="sm"
      p={{ base: 'md', sm: 'xl' }}
      radius="md"
      maw={560}
      mx="auto"
      data-testid="signup"
    >
      <form {...form.formProps} data-testid="signup-form">
        <Stack gap="md">
          <div>
            <Title order={2} size="h3">
              {t('signup.title')}
            </Title>
            <Text c="dimmed" size="sm" mt={4}>
              {t('signup.intro')}
            </Text>
          </div>
          <FormErrorList errors={form.formErrors} />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput
              {...form.getInputProps('firstName')}
              label={t('signup.firstName')}
              autoComplete="given-name"
              required
            />
            <TextInput
              {...form.getInputProps('lastName')}
              label={t('signup.lastName')}
              autoComplete="family-name"
              required
            />
          </SimpleGrid>
          <TextInput
            {...form.getInputProps('emailAddress')}
            type="email"
            label={t('signup.email')}
            autoComplete="email"
            required
          />
          <PasswordInput
            {...form.getInputProps('password')}
            label={t('signup.password')}
            description={t('signup.passwordHint')}
            autoComplete="new-password"
            required
          />
          <TextInput
            {...form.getInputProps('phone')}
            type="tel"
            label={t('signup.phone')}
            autoComplete="tel"
          />
          <Stack gap="sm" data-testid="signup-agreements">
            <Text fw={600}>{t('signup.agreementsHeading')}</Text>
            {agreements.isPending ? (
              <Loader size="sm" />
            ) : byKind.size === 0 ? (
              <Text size="sm" c="dimmed">
                {t('signup.noAgreements')}
              </Text>
            ) : (
              KINDS.flatMap((kind) => {
                const a = byKind.get(kind);
                return a ? [<AgreementBox key={kind} agreement={a} form={form} />] : [];
              })
            )}
          </Stack>
          <SubmitButton state={form.buttonState} fullWidth data-testid="signup-submit">
            {t('signup.submit')}
          </SubmitButton>
          <Text size="sm" ta="center">
            {t('signup.haveAccount')}{' '}
            <Anchor component={Link} to={`/login?redirectAfterLogin=${ACCOUNT_SLUGS.profile}`}>
              {t('signup.signIn')}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </Paper>
  );
}

function AgreementBox({
  agreement,
  form,
}: {
  agreement: StudioAgreementView;
  form: ReturnType<typeof useServerForm<Record<string, string>, unknown>>;
}) {
  const { t } = useTranslation('account');
  const name = field(agreement.kind);
  return (
    <Stack gap={4}>
      <Checkbox
        name={name}
        checked={form.values[name] === 'true'}
        onChange={(event) => form.setValue(name, event.currentTarget.checked ? 'true' : '')}
        label={
          <span>
            {agreement.title}{' '}
            <Text span size="xs" c={agreement.required ? 'red.7' : 'dimmed'}>
              ({agreement.required ? t('signup.required') : t('signup.optional')})
            </Text>
          </span>
        }
        error={form.fieldErrors[name]}
        data-testid={`agreement-${agreement.kind}`}
      />
      <Spoiler
        maxHeight={0}
        showLabel={t('signup.readText')}
        hideLabel="×"
        ml={32}
        styles={{ control: { fontSize: 12 } }}
      >
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
          {agreement.content}
        </Text>
      </Spoiler>
    </Stack>
  );
}
