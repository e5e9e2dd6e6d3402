import { Alert, Center, Loader, NumberInput, Paper, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BookingSettings } from '../../../shared/contracts/api/bookings';
import type { StudioPolicies } from '../../../shared/contracts/api/studio-admin';
import { BookingsApi } from '../../../shared/contracts/http/bookings';
import { StudioAdminApi } from '../../../shared/contracts/http/studio-admin';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useBackoffice } from '../backoffice.api';
import { SettingsLayout } from '../settings/SettingsLayout';
import { studioAdminKeys, useBookingSettings, useSettingsSaved, useStudioSettings } from './studio-admin.api';

/**
 * Settings → Policies, gathered on one page: the booking defaults (how far ahead, until when, free
 * cancellation) and the booking settings' fees and rules (late cancellation, no-show, waiting list,
 * paying at the desk), saved together.
 */
export function PoliciesScreen() {
  const { t } = useTranslation('studio-admin');
  const settings = useStudioSettings();
  const booking = useBookingSettings();
  return (
    <SettingsLayout page="policies">
      {settings.error || booking.error ? (
        <Alert color="red">{t('loadError')}</Alert>
      ) : !settings.data || !booking.data ? (
        <Center p="xl">
          <Loader size="sm" />
        </Center>
      ) : (
        <PoliciesForm policies={settings.data.policies} booking={booking.data} />
      )}
    </SettingsLayout>
  );
}

const zl = (minor: number) => (minor / 100).toFixed(2);
const grosze = (value: string) => Math.round(Number(value.replace(',', '.')) * 100);

function PoliciesForm({ policies, booking }: { policies: StudioPolicies; booking: BookingSettings }) {
  const { t } = useTranslation('studio-admin');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const canEdit = useBackoffice().member.abilities.includes('settings.edit');
  const saved = useSettingsSaved();
  const queryClient = useQueryClient();
  const [forgive, setForgive] = useState(booking.forgiveFirstOffence);
  const [payAtDesk, setPayAtDesk] = useState(booking.payAtDeskAllowed);
  const form = useServerForm({
    initialValues: {
      bookingWindowDays: String(policies.bookingWindowDays),
      bookingCutoffMinutes: String(policies.bookingCutoffMinutes),
      cancellationCutoffMinutes: String(policies.cancellationCutoffMinutes),
      lateCancelFee: zl(booking.lateCancelFee),
      noShowFee: zl(booking.noShowFee),
      promotionCutoffMinutes: String(booking.promotionCutoffMinutes),
    },
    submit: async (v) => {
      const view = await api.call(StudioAdminApi.patchSettings, {
        params: { uuid },
        body: {
          bookingWindowDays: Number(v.bookingWindowDays),
          bookingCutoffMinutes: Number(v.bookingCutoffMinutes),
          cancellationCutoffMinutes: Number(v.cancellationCutoffMinutes),
        },
      });
      const fees = await api.call(BookingsApi.patchSettingsBooking, {
        params: { uuid },
        body: {
          lateCancelFee: grosze(v.lateCancelFee),
          noShowFee: grosze(v.noShowFee),
          promotionCutoffMinutes: Number(v.promotionCutoffMinutes),
          forgiveFirstOffence: forgive,
          payAtDeskAllowed: payAtDesk,
        },
      });
      return { view, fees };
    },
    onSuccess: ({ view, fees }) => {
      saved(view);
      queryClient.setQueryData(studioAdminKeys.booking(uuid), fees);
    },
  });
  const number = (name: keyof typeof form.values, suffix: string, decimals = 0) => {
    const props = form.getInputProps(name);
    return (
      <NumberInput
        name={name}
        label={t(`policies.${name}`)}
        description={t(`policies.${name}Hint`)}
        value={props.value}
        error={props.error}
        min={0}
        decimalScale={decimals}
        fixedDecimalScale={decimals > 0}
        suffix={` ${suffix}`}
        readOnly={!canEdit}
        onChange={(value) => form.setValue(name, String(value))}
      />
    );
  };
  return (
    <form {...form.formProps} data-testid="policies-form">
      <Stack gap="lg">
        <FormErrorList errors={form.formErrors} />
        <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
          <Stack gap="md">
            <Text fw={600}>{t('policies.booking')}</Text>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              {number('bookingWindowDays', t('units.days'))}
              {number('bookingCutoffMinutes', t('units.minutes'))}
              {number('cancellationCutoffMinutes', t('units.minutes'))}
            </SimpleGrid>
          </Stack>
        </Paper>
        <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
          <Stack gap="md">
            <Text fw={600}>{t('policies.fees')}</Text>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              {number('lateCancelFee', booking.currency, 2)}
              {number('noShowFee', booking.currency, 2)}
              {number('promotionCutoffMinutes', t('units.minutes'))}
            </SimpleGrid>
            <Switch
              label={t('policies.forgiveFirstOffence')}
              checked={forgive}
              disabled={!canEdit}
              onChange={(e) => setForgive(e.currentTarget.checked)}
            />
            <Switch
              label={t('policies.payAtDeskAllowed')}
              checked={payAtDesk}
              disabled={!canEdit}
              onChange={(e) => setPayAtDesk(e.currentTarget.checked)}
            />
          </Stack>
        </Paper>
        {canEdit ? (
          <SubmitButton state={form.buttonState} w="fit-content" data-testid="policies-save">
            {t('save')}
          </SubmitButton>
        ) : null}
      </Stack>
    </form>
  );
}
