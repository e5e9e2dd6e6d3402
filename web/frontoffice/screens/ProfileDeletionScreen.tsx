import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  List,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router-dom';
import type { Me } from '../../../shared/contracts/api/auth';
import { FRONT_OFFICE_QUERY, PROFILE_DELETION_SLUG } from '../../../shared/contracts/routes';
import { eraseAccount } from '../../features/account/erasure.api';
import { useMe } from '../../features/auth/auth.api';
import { ApiError } from '../../lib/api-client';
import { useApiClient, useSession } from '../../lib/app-context';
import { errorCodeLabel } from '../../lib/form-errors';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useStudioUuid } from '../studio';

/** Where a signed-out visitor goes: the sign-in, which brings them back here afterwards. */
const LOGIN_THEN_BACK = `/login?${new URLSearchParams({
  [FRONT_OFFICE_QUERY.redirectAfterLogin]: PROFILE_DELETION_SLUG,
})}`;

/**
 * `profile/delete`: a client erases their account in this studio (the end of the entry app's
 * /delete flow). Says what is erased and what the law makes the studio keep, asks for the password
 * and an explicit confirmation, then DELETE {uuid}/account. Members of staff are told up front that
 * the owner must remove them first (the server would answer 409).
 */
export function ProfileDeletionScreen() {
  const { t } = useTranslation('frontoffice');
  const studioUuid = useStudioUuid();
  const session = useSession();
  const api = useApiClient();
  const queryClient = useQueryClient();
  const me = useMe();
  const [erasedAt, setErasedAt] = useState<string | null>(null);
  const expired = me.error instanceof ApiError && me.error.status === 401;

  // The page said "signed in" but the server no longer knows the session: treat as signed out.
  useEffect(() => {
    if (expired) api.clearSession();
  }, [expired, api]);
  // Forget the credentials only once the confirmation is on screen, so losing the session does not
  // first bounce the page to the sign-in.
  useEffect(() => {
    if (erasedAt === null) return;
    api.clearSession();
    queryClient.clear();
  }, [erasedAt, api, queryClient]);

  if (erasedAt !== null) return <ErasureDone studioName={erasedAt} />;
  if (!session.userId || !session.sessionId) return <Navigate to={LOGIN_THEN_BACK} replace />;

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" maw={560} mx="auto" data-testid="profile-deletion">
      {me.isPending || expired ? (
        <Loader size="sm" />
      ) : !me.data ? (
        <Alert color="red" variant="light" role="alert">
          {t('common:errors.generalWithCode', { code: errorCodeLabel(me.error) })}
        </Alert>
      ) : (
        <Standing me={me.data} studioUuid={studioUuid} onErased={(name) => setErasedAt(name)} />
      )}
    </Paper>
  );
}

function Standing({
  me,
  studioUuid,
  onErased,
}: {
  me: Me;
  studioUuid: string;
  onErased(studioName: string): void;
}) {
  const { t } = useTranslation('frontoffice');
  const here = me.memberships.find((m) => m.studioUuid === studioUuid);
  const home = (
    <Button component={Link} to="/" variant="light" w="fit-content">
      {t('notFound.home')}
    </Button>
  );

  if (!here || !here.isClient) {
    return (
      <Stack gap="md" data-testid="profile-deletion-not-client">
        <Title order={2} size="h3">
          {t('profileDeletion.title')}
        </Title>
        <Text c="dimmed">{t('profileDeletion.notClient')}</Text>
        {home}
      </Stack>
    );
  }
  if (here.isMember) {
    return (
      <Stack gap="md" data-testid="profile-deletion-staff">
        <Title order={2} size="h3">
          {t('profileDeletion.titleAt', { studio: here.studioName })}
        </Title>
        <Alert color="yellow" variant="light">
          {t('profileDeletion.staffConflict')}
        </Alert>
        {home}
      </Stack>
    );
  }
  const otherStudios = me.memberships.filter((m) => m.studioUuid !== studioUuid).map((m) => m.studioName);
  return (
    <ErasureForm
      studioUuid={studioUuid}
      studioName={here.studioName}
      otherStudios={otherStudios}
      onErased={() => onErased(here.studioName)}
    />
  );
}

function ErasureForm({
  studioUuid,
  studioName,
  otherStudios,
  onErased,
}: {
  studioUuid: string;
  studioName: string;
  otherStudios: string[];
  onErased(): void;
}) {
  const { t } = useTranslation('frontoffice');
  const api = useApiClient();
  const [confirmed, setConfirmed] = useState(false);
  const [confirmError, setConfirmError] = useState<string | undefined>();
  const form = useServerForm({
    initialValues: { password: '' },
    keepWhitespace: ['password'],
    submit: (values) => eraseAccount(api, studioUuid, values),
    onSuccess: () => onErased(),
    errorOptions: {
      unexpected: 'withCode',
      messagesByKey: { 'resource.conflict': 'frontoffice:profileDeletion.staffConflict' },
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (!confirmed) {
      event.preventDefault();
      setConfirmError(t('profileDeletion.confirmRequired'));
      return;
    }
    form.formProps.onSubmit(event);
  };

  return (
    <form {...form.formProps} onSubmit={onSubmit} data-testid="profile-deletion-form">
      <Stack gap="lg">
        <div>
          <Title order={2} size="h3">
            {t('profileDeletion.titleAt', { studio: studioName })}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('profileDeletion.intro')}
          </Text>
        </div>

        <Stack gap={6}>
          <Text fw={600}>{t('profileDeletion.erasedHeading')}</Text>
          <List size="sm" spacing={4} data-testid="profile-deletion-erased">
            <List.Item>{t('profileDeletion.erasedStanding', { studio: studioName })}</List.Item>
            <List.Item>
              {otherStudios.length === 0
                ? t('profileDeletion.erasedPersonalData')
                : t('profileDeletion.keptForOtherStudios', { studios: otherStudios.join(', ') })}
            </List.Item>
            <List.Item>{t('profileDeletion.erasedSignOut')}</List.Item>
          </List>
        </Stack>

        <Stack gap={6}>
          <Text fw={600}>{t('profileDeletion.keptHeading')}</Text>
          <List size="sm" spacing={4} data-testid="profile-deletion-kept">
            <List.Item>{t('profileDeletion.keptFinancial')}</List.Item>
          </List>
        </Stack>

        <FormErrorList errors={form.formErrors} />
        <PasswordInput
          {...form.getInputProps('password')}
          label={t('profileDeletion.password')}
          description={t('profileDeletion.passwordHint')}
          autoComplete="current-password"
          required
        />
        <Checkbox
          name="confirm"
          checked={confirmed}
          onChange={(event) => {
            setConfirmed(event.currentTarget.checked);
            if (event.currentTarget.checked) setConfirmError(undefined);
          }}
          label={t('profileDeletion.confirm')}
          error={confirmError}
          data-testid="profile-deletion-confirm"
        />
        <Stack gap="xs">
          <SubmitButton state={form.buttonState} color="red" fullWidth data-testid="profile-deletion-submit">
            {t('profileDeletion.submit')}
          </SubmitButton>
          <Button component={Link} to="/" variant="subtle" fullWidth>
            {t('profileDeletion.keep')}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}

function ErasureDone({ studioName }: { studioName: string }) {
  const { t } = useTranslation('frontoffice');
  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" maw={560} mx="auto" data-testid="profile-deleted">
      <Stack gap="md">
        <Title order={2} size="h3">
          {t('profileDeletion.doneTitle')}
        </Title>
        <Alert color="green" variant="light" data-testid="profile-deleted-message">
          {t('profileDeletion.done', { studio: studioName })}
        </Alert>
        <Text c="dimmed" size="sm">
          {t('profileDeletion.doneSignedOut')}
        </Text>
        {/* The entry app's sign-in (outside this studio's front office): a full page load. */}
        <Anchor href="/login" data-testid="profile-deleted-login">
          {t('profileDeletion.doneLogin')}
        </Anchor>
      </Stack>
    </Paper>
  );
}
