import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useEditorForm } from '../../ui/use-editor-form';
import type { KioskClient } from '../../../shared/contracts/api/kiosk';
import { ApiError } from '../../lib/api-client';
import type { KioskApiClient } from '../kiosk-api';
import { kioskErrorMessage } from '../kiosk-messages';

/** Check-in without a card: first name, last name and birth date, all three required to match. */
export function NameScreen({
  api,
  onFound,
  onBack,
}: {
  api: KioskApiClient;
  onFound: (client: KioskClient) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation('kiosk');
  const {
    values,
    set: setField,
    errors: fieldErrors,
    setErrors: setFieldErrors,
  } = useEditorForm(() => ({ firstName: '', lastName: '', birthDate: '' }));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (name: keyof typeof values) => (e: { currentTarget: { value: string } }) => {
    setField(name, e.currentTarget.value);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      onFound(await api.identify({ method: 'name', ...values }));
    } catch (e) {
      if (e instanceof ApiError && e.status === 400)
        setFieldErrors(
          Object.fromEntries(Object.keys(e.fields).map((name) => [name, t('name.fieldInvalid')])),
        );
      else setError(kioskErrorMessage(e, t));
    } finally {
      setBusy(false);
    }
  };

  const big = { input: { height: 64, fontSize: 24 } };
  return (
    <Paper withBorder radius="lg" p="xl" shadow="sm" data-testid="kiosk-name">
      <form onSubmit={submit}>
        <Stack gap="lg">
          <Title order={2}>{t('name.title')}</Title>
          {error && (
            <Alert color="red" variant="filled" radius="lg" data-testid="kiosk-message">
              <Text size="xl" fw={600}>
                {error}
              </Text>
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              size="xl"
              label={t('name.firstName')}
              value={values.firstName}
              onChange={set('firstName')}
              error={fieldErrors.firstName}
              autoComplete="off"
              data-testid="kiosk-first-name"
              styles={big}
            />
            <TextInput
              size="xl"
              label={t('name.lastName')}
              value={values.lastName}
              onChange={set('lastName')}
              error={fieldErrors.lastName}
              autoComplete="off"
              data-testid="kiosk-last-name"
              styles={big}
            />
          </SimpleGrid>
          <TextInput
            size="xl"
            type="date"
            label={t('name.birthDate')}
            value={values.birthDate}
            onChange={set('birthDate')}
            error={fieldErrors.birthDate}
            data-testid="kiosk-birth-date"
            styles={big}
          />
          <Group grow>
            <Button size="xl" h={72} variant="default" onClick={onBack} data-testid="kiosk-back">
              {t('common.back')}
            </Button>
            <Button type="submit" size="xl" h={72} loading={busy} data-testid="kiosk-name-submit">
              {t('name.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
