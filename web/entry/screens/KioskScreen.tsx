import { Button, Group, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { kioskPath } from '../../../shared/contracts/routes';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { BUTTON_LOCK_TIMEOUT_MS } from '../../ui/timings';
import { EntryCard, EntryPage } from '../components/EntryPage';
import { ENTRY_CALLS, authenticateKiosk } from '../entry.api';
import { KioskCredentialStore, browserLocalStorage, type KioskCredentials } from '../kiosk-credentials';
import { initialKioskState, isRejection, kioskStateAfterFailure, type KioskLoginState } from '../kiosk-login';
import { useReportFailure } from '../reporting';
import { useEntryForm } from '../use-entry-form';

/**
 * /kiosk (spec §2 "Kiosk login", §4): stored credentials sign the kiosk in at once (loading);
 * without them, or when the server refuses them, the form (unauthorized); any other failure is the
 * error state with a retry. Success stores the credentials and opens the kiosk app.
 */
export function KioskScreen() {
  const { t } = useTranslation('entry');
  const api = useApiClient();
  const report = useReportFailure();
  const [store] = useState(() => new KioskCredentialStore(browserLocalStorage()));
  const [state, setState] = useState<KioskLoginState>(() => initialKioskState(store.load()));
  // A new form each time the state returns to unauthorized, so it starts from the state's values.
  const [formKey, setFormKey] = useState(0);

  const open = (credentials: KioskCredentials, guid: string) => {
    store.save(credentials);
    window.location.replace(kioskPath(credentials.uuid, guid));
  };

  /** Refused credentials are not kept on the device (the next start would only fail again). */
  const forget = (credentials: KioskCredentials) => {
    const stored = store.load();
    if (stored && stored.uuid === credentials.uuid && stored.kioskKey === credentials.kioskKey) store.clear();
  };

  const fail = (error: unknown, credentials: KioskCredentials) => {
    if (isRejection(error)) forget(credentials);
    setFormKey((key) => key + 1);
    setState(kioskStateAfterFailure(error, credentials));
  };

  // loading: authenticate with the credentials of the state (stored ones, or a retry).
  const loadingCredentials = state.status === 'loading' ? state.credentials : null;
  useEffect(() => {
    if (!loadingCredentials) return;
    let current = true;
    // A call that never answers must not leave the kiosk spinning: after the button lock time
    // (45 s) it counts as a failure and the error state offers a retry.
    const timeout = setTimeout(() => {
      if (!current) return;
      current = false;
      fail(new Error('kiosk sign-in timed out'), loadingCredentials);
    }, BUTTON_LOCK_TIMEOUT_MS);
    authenticateKiosk(api, loadingCredentials).then(
      (result) => {
        if (current) open(loadingCredentials, result.studioKiosk.guid);
      },
      (error: unknown) => {
        if (!current) return;
        report(error, ENTRY_CALLS.kiosk);
        fail(error, loadingCredentials);
      },
    );
    return () => {
      current = false;
      clearTimeout(timeout);
    };
    // open/fail/report only use stable values; the effect runs once per loading state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loadingCredentials, api]);

  return (
    <EntryPage pageTitle={t('kiosk.pageTitle')}>
      {state.status === 'loading' ? (
        <EntryCard title={t('kiosk.title')} testId="kiosk-loading">
          <Group gap="sm" wrap="nowrap">
            <Loader size="sm" type="dots" />
            <Text>{t('kiosk.loading')}</Text>
          </Group>
        </EntryCard>
      ) : state.status === 'error' ? (
        <EntryCard title={t('kiosk.errorTitle')} testId="kiosk-error">
          <Text role="alert">{t('errors.general', { code: state.code })}</Text>
          <Stack gap="xs">
            <Button
              onClick={() => setState({ status: 'loading', credentials: state.credentials })}
              data-testid="kiosk-retry"
            >
              {t('actions.retry')}
            </Button>
            <Button
              variant="default"
              onClick={() => {
                setFormKey((key) => key + 1);
                setState({ status: 'unauthorized', credentials: state.credentials, rejected: false });
              }}
              data-testid="kiosk-edit"
            >
              {t('kiosk.editCredentials')}
            </Button>
          </Stack>
        </EntryCard>
      ) : (
        <KioskForm
          key={formKey}
          credentials={state.credentials}
          rejected={state.rejected}
          onAuthenticated={open}
          onRejected={forget}
          onFailed={fail}
        />
      )}
    </EntryPage>
  );
}

function KioskForm({
  credentials,
  rejected,
  onAuthenticated,
  onRejected,
  onFailed,
}: {
  credentials: KioskCredentials | null;
  rejected: boolean;
  onAuthenticated: (credentials: KioskCredentials, guid: string) => void;
  onRejected: (credentials: KioskCredentials) => void;
  onFailed: (error: unknown, credentials: KioskCredentials) => void;
}) {
  const { t } = useTranslation('entry');
  const api = useApiClient();
  const form = useEntryForm({
    initialValues: { uuid: credentials?.uuid ?? '', kioskKey: credentials?.kioskKey ?? '' },
    initialFieldErrors: rejected ? { kioskKey: t('validation.kioskInvalid') } : {},
    call: ENTRY_CALLS.kiosk,
    submit: (values) => authenticateKiosk(api, values),
    onSuccess: (result, values) => onAuthenticated(values, result.studioKiosk.guid),
    onError: (error, values) => {
      if (isRejection(error)) onRejected(values);
      if (error instanceof ApiError && error.status === 403) {
        form.setFieldErrors({ kioskKey: t('validation.kioskInvalid') });
        return 'handled';
      }
      // 400: the server's field messages under the inputs (the hook shows them).
      if (error instanceof ApiError && error.status === 400) return;
      onFailed(error, values);
      return 'handled';
    },
  });

  return (
    <EntryCard title={t('kiosk.title')} subtitle={t('kiosk.subtitle')} testId="kiosk-unauthorized">
      <form {...form.formProps} data-testid="kiosk-form">
        <Stack gap="md">
          <FormErrorList errors={form.formErrors} />
          <TextInput
            {...form.textProps('uuid')}
            label={t('fields.studioUuid')}
            placeholder="0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            autoFocus={!credentials?.uuid}
          />
          <PasswordInput
            {...form.textProps('kioskKey')}
            label={t('fields.kioskKey')}
            // Mantine's PasswordInput marks an error with data-invalid only; tell assistive technology too.
            aria-invalid={Boolean(form.fieldErrors.kioskKey)}
            autoComplete="off"
            autoFocus={Boolean(credentials?.uuid)}
          />
          <SubmitButton state={form.buttonState} fullWidth data-testid="kiosk-submit">
            {t('actions.logIn')}
          </SubmitButton>
        </Stack>
      </form>
    </EntryCard>
  );
}
