import {
  Box,
  Button,
  Checkbox,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SignupStudio } from '../../../shared/contracts/api/entry';
import { useApiClient } from '../../lib/app-context';
import { currentLocale } from '../../lib/i18n';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { EntryCard, EntryPage } from '../components/EntryPage';
import { AutomationIcon, CalendarIcon, CheckCircleIcon, ManagementIcon } from '../components/icons';
import { StudioLogo } from '../components/StudioLogo';
import { StudioList, StudioRow } from '../components/StudioOption';
import { ENTRY_CALLS, createStudio, preflightSignupEmail } from '../entry.api';
import { useReportFailure } from '../reporting';
import {
  INITIAL_SIGNUP_STATE,
  signupStudioLogo,
  signupTransition,
  type SignupEvent,
  type SignupState,
} from '../signup-flow';
import { useEntryForm } from '../use-entry-form';

/** The sign-up payload fields of spec §3 (the hidden locale is added when sending). */
type SignupValues = {
  emailAddress: string;
  name: string;
  firstName: string;
  lastName: string;
  termsOfUseAndPrivacyPolicyAgreement: boolean;
};

const EMPTY_VALUES: SignupValues = {
  emailAddress: '',
  name: '',
  firstName: '',
  lastName: '',
  termsOfUseAndPrivacyPolicyAgreement: false,
};

/**
 * /signup (spec §2 "Sign-up", §3, §4): the business-account sign-up with its three states. The
 * typed values survive the detour through studioAlreadyExists.
 */
export function SignupScreen() {
  const { t } = useTranslation('entry');
  const [state, setState] = useState<SignupState>(INITIAL_SIGNUP_STATE);
  const [draft, setDraft] = useState<SignupValues>(EMPTY_VALUES);
  const dispatch = (event: SignupEvent) => setState((previous) => signupTransition(previous, event));

  return (
    <EntryPage
      pageTitle={t('signup.pageTitle')}
      size={state.step === 'signup' && state.showBullets ? 'lg' : 'sm'}
    >
      {state.step === 'signup' ? (
        <SignupCard
          key={state.checkExisting ? 'first' : 'again'}
          initialValues={draft}
          showBullets={state.showBullets}
          checkExisting={state.checkExisting}
          onExisting={(studios, values) => {
            setDraft(values);
            dispatch({ type: 'existingFound', studios });
          }}
          onCreated={(result, values) => {
            setDraft(values);
            dispatch({ type: 'created', emailAddress: values.emailAddress, result });
          }}
        />
      ) : state.step === 'studioAlreadyExists' ? (
        <StudioAlreadyExists
          studios={state.studios}
          onCreateAccount={() => dispatch({ type: 'createAccount' })}
        />
      ) : (
        <EntryCard title={t('signup.success.title')} testId="signup-success">
          <Group gap="md" wrap="nowrap" align="flex-start">
            <ThemeIcon size={44} radius="xl" color="green" variant="light" style={{ flexShrink: 0 }}>
              <CheckCircleIcon />
            </ThemeIcon>
            <Stack gap="xs">
              <Text fw={600}>{t('signup.success.created')}</Text>
              <Text>{t('signup.success.checkEmail', { email: state.emailAddress })}</Text>
            </Stack>
          </Group>
        </EntryCard>
      )}
    </EntryPage>
  );
}

type CreateOutcome =
  | { kind: 'exists'; studios: SignupStudio[] }
  | { kind: 'created'; result: Awaited<ReturnType<typeof createStudio>> };

function SignupCard({
  initialValues,
  showBullets,
  checkExisting,
  onExisting,
  onCreated,
}: {
  initialValues: SignupValues;
  showBullets: boolean;
  checkExisting: boolean;
  onExisting: (studios: SignupStudio[], values: SignupValues) => void;
  onCreated: (result: Awaited<ReturnType<typeof createStudio>>, values: SignupValues) => void;
}) {
  const { t, i18n } = useTranslation('entry');
  const api = useApiClient();
  const report = useReportFailure();
  // The hidden locale field: the language the page is shown in (the page context's, or the switch's).
  const locale = currentLocale(i18n);
  const form = useEntryForm({
    initialValues,
    call: ENTRY_CALLS.studioCreate,
    submit: async (values): Promise<CreateOutcome> => {
      if (checkExisting) {
        // The existence check never stops a sign-up: its failures are swallowed (spec §8).
        const studios = await preflightSignupEmail(api, values.emailAddress).then(
          (result) => result.studios,
          (error: unknown) => {
            report(error, ENTRY_CALLS.preflight);
            return [];
          },
        );
        if (studios.length > 0) return { kind: 'exists', studios };
      }
      const result = await createStudio(api, {
        emailAddress: values.emailAddress,
        name: values.name,
        firstName: values.firstName,
        lastName: values.lastName,
        termsOfUseAndPrivacyPolicyAgreement: values.termsOfUseAndPrivacyPolicyAgreement,
        locale,
      });
      return { kind: 'created', result };
    },
    onSuccess: (outcome, values) => {
      if (outcome.kind === 'exists') onExisting(outcome.studios, values);
      else onCreated(outcome.result, values);
    },
  });

  const formElement = (
    <form {...form.formProps} data-testid="signup-form">
      <Stack gap="md">
        <FormErrorList errors={form.formErrors} />
        <TextInput
          {...form.textProps('emailAddress')}
          type="email"
          label={t('fields.email')}
          placeholder={t('fields.emailPlaceholder')}
          autoComplete="email"
          inputMode="email"
          autoFocus
        />
        <TextInput
          {...form.textProps('name')}
          label={t('fields.studioName')}
          placeholder={t('fields.studioNamePlaceholder')}
          autoComplete="organization"
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
          <TextInput
            {...form.textProps('firstName')}
            label={t('fields.firstName')}
            autoComplete="given-name"
          />
          <TextInput
            {...form.textProps('lastName')}
            label={t('fields.lastName')}
            autoComplete="family-name"
          />
        </SimpleGrid>
        <Checkbox
          {...form.checkboxProps('termsOfUseAndPrivacyPolicyAgreement')}
          label={t('fields.terms')}
          data-testid="terms-checkbox"
        />
        <input type="hidden" name="locale" value={locale} />
        <SubmitButton state={form.buttonState} fullWidth data-testid="signup-submit">
          {t('actions.createAccount')}
        </SubmitButton>
      </Stack>
    </form>
  );

  if (!showBullets) {
    return (
      <EntryCard title={t('signup.title')} subtitle={t('signup.subtitle')} testId="signup-screen" maw={520}>
        {formElement}
      </EntryCard>
    );
  }

  return (
    <Paper withBorder shadow="sm" radius="md" data-testid="signup-screen" style={{ overflow: 'hidden' }}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing={0}>
        <Box bg="studio.0" p={{ base: 'lg', sm: 'xl' }} data-testid="signup-bullets">
          <Title order={2} size="h3">
            {t('signup.pitch.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={6} mb="lg">
            {t('signup.pitch.subtitle')}
          </Text>
          <SimpleGrid
            component="ul"
            cols={{ base: 1, sm: 3, md: 1 }}
            spacing="lg"
            className="entry-studio-list"
          >
            <Bullet
              icon={<CalendarIcon />}
              title={t('signup.pitch.schedule.title')}
              text={t('signup.pitch.schedule.text')}
            />
            <Bullet
              icon={<ManagementIcon />}
              title={t('signup.pitch.management.title')}
              text={t('signup.pitch.management.text')}
            />
            <Bullet
              icon={<AutomationIcon />}
              title={t('signup.pitch.automation.title')}
              text={t('signup.pitch.automation.text')}
            />
          </SimpleGrid>
        </Box>
        <Stack gap="lg" p={{ base: 'lg', sm: 'xl' }}>
          <div>
            <Title order={2} size="h3">
              {t('signup.title')}
            </Title>
            <Text c="dimmed" size="sm" mt={6}>
              {t('signup.subtitle')}
            </Text>
          </div>
          {formElement}
        </Stack>
      </SimpleGrid>
    </Paper>
  );
}

function Bullet({ icon, title, text }: { icon: ReactNode; title: string; text: string }) {
  return (
    <Group component="li" wrap="nowrap" align="flex-start" gap="sm" data-testid="signup-bullet">
      <ThemeIcon size={40} radius="md" variant="white" style={{ flexShrink: 0 }}>
        {icon}
      </ThemeIcon>
      <div>
        <Text fw={600}>{title}</Text>
        <Text size="sm" c="dimmed">
          {text}
        </Text>
      </div>
    </Group>
  );
}

function StudioAlreadyExists({
  studios,
  onCreateAccount,
}: {
  studios: SignupStudio[];
  onCreateAccount: () => void;
}) {
  const { t } = useTranslation('entry');
  return (
    <EntryCard
      title={t('signup.exists.title')}
      subtitle={t('signup.exists.subtitle')}
      testId="signup-studio-already-exists"
      maw={520}
    >
      <StudioList testId="studio-list">
        {studios.map((studio) => (
          <StudioRow
            key={studio.uuid}
            name={studio.name}
            logo={<StudioLogo name={studio.name} logoUrl={signupStudioLogo(studio)} />}
            address={studio.rootSearchAddress}
            actionLabel={t('actions.logIn')}
            href={studio.frontOfficeLink}
          />
        ))}
      </StudioList>
      <Button onClick={onCreateAccount} data-testid="create-account">
        {t('actions.createAccount')}
      </Button>
    </EntryCard>
  );
}
