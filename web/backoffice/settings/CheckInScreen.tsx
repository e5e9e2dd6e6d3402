import { Alert, Center, Loader, NumberInput, Paper, Stack, Switch, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BookingSettings } from '../../../shared/contracts/api/bookings';
import { BookingsApi } from '../../../shared/contracts/http/bookings';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useBackoffice } from '../backoffice.api';
import { CHECK_IN_LIMITS, checkInFormValues, checkInPatch } from './check-in-form';
import { SettingsLayout } from './SettingsLayout';

// The same cache entry as Settings → Policies reads (both pages edit the studio's booking settings).
const bookingSettingsKey = (uuid: string) => ['studio-admin', 'booking-settings', uuid] as const;

/** Settings → Check-in: when staff (and the kiosk) may mark people present, and walk-ins. */
export function CheckInScreen() {
  const { t } = useTranslation('bookings-ui');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const settings = useQuery({
    queryKey: bookingSettingsKey(uuid),
    queryFn: ({ signal }) => api.call(BookingsApi.getSettingsBooking, { params: { uuid }, signal }),
  });
  return (
    <SettingsLayout page="checkIn">
      {settings.error ? (
        <Alert color="red">{t('checkInSettings.loadError')}</Alert>
      ) : !settings.data ? (
        <Center p="xl">
          <Loader size="sm" />
        </Center>
      ) : (
        <CheckInForm settings={settings.data} />
      )}
    </SettingsLayout>
  );
}

function CheckInForm({ settings }: { settings: BookingSettings }) {
  const { t } = useTranslation('bookings-ui');
  const api = useApiClient();
  const { studio, member } = useBackoffice();
  const canEdit = member.abilities.includes('settings.edit');
  const queryClient = useQueryClient();
  const initial = checkInFormValues(settings);
  const [untilEnd, setUntilEnd] = useState(initial.walkInUntilEnd);
  const [saved, setSaved] = useState(false);
  const form = useServerForm({
    initialValues: { checkInOpensMinutes: initial.checkInOpensMinutes, walkInMinutes: initial.walkInMinutes },
    submit: (v) =>
      api.call(BookingsApi.patchSettingsBooking, {
        params: { uuid: studio.uuid },
        body: checkInPatch({ ...v, walkInUntilEnd: untilEnd }),
      }),
    onSuccess: (next) => {
      queryClient.setQueryData(bookingSettingsKey(studio.uuid), next);
      setSaved(true);
    },
  });
  const minutes = (name: 'checkInOpensMinutes' | 'walkInMinutes', label: string, hint: string) => {
    const props = form.getInputProps(name);
    return (
      <NumberInput
        name={name}
        label={label}
        description={hint}
        value={props.value}
        error={props.error}
        min={CHECK_IN_LIMITS[name][0]}
        max={CHECK_IN_LIMITS[name][1]}
        allowDecimal={false}
        suffix={` ${t('checkInSettings.minutes')}`}
        readOnly={!canEdit}
        maw={360}
        data-testid={`check-in-${name}`}
        onChange={(value) => {
          setSaved(false);
          form.setValue(name, String(value));
        }}
      />
    );
  };
  return (
    <form {...form.formProps} data-testid="check-in-settings-form">
      <Stack gap="lg">
        <FormErrorList errors={form.formErrors} />
        <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
          <Stack gap="md">
            <Text fw={600}>{t('checkInSettings.title')}</Text>
            {minutes('checkInOpensMinutes', t('checkInSettings.opens'), t('checkInSettings.opensHint'))}
            <Switch
              label={t('checkInSettings.walkInUntilEnd')}
              checked={untilEnd}
              disabled={!canEdit}
              data-testid="check-in-walk-in-until-end"
              onChange={(e) => {
                setSaved(false);
                setUntilEnd(e.currentTarget.checked);
              }}
            />
            {untilEnd
              ? null
              : minutes('walkInMinutes', t('checkInSettings.walkIn'), t('checkInSettings.walkInHint'))}
          </Stack>
        </Paper>
        {saved ? (
          <Alert color="green" data-testid="check-in-saved">
            {t('checkInSettings.saved')}
          </Alert>
        ) : null}
        {canEdit ? (
          <SubmitButton state={form.buttonState} w="fit-content" data-testid="check-in-save">
            {t('checkInSettings.save')}
          </SubmitButton>
        ) : null}
      </Stack>
    </form>
  );
}
