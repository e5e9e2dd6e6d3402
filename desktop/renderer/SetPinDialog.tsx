import { Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { StationState } from '../../shared/contracts/ipc';
import { ApiError } from '../../web/lib/api-client';
import { FormErrorList } from '../../web/ui/FormErrorList';
import { SubmitButton } from '../../web/ui/SubmitButton';
import { useServerForm } from '../../web/ui/use-server-form';
import { call } from './bridge';
import { STATION_ERROR_MESSAGES } from './station-errors';
import { stationKeys, useDesktop } from './station.api';
import { useQueryClient } from '@tanstack/react-query';

export const PIN_PATTERN = /^\d{4,8}$/;

/** Checked here so a typo costs no round trip; main checks the format again (PinSchema). */
export function pinProblems(pin: string, repeat: string): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  if (!PIN_PATTERN.test(pin)) fields.pin = ['desktop:pin.format'];
  else if (pin !== repeat) fields.repeat = ['desktop:pin.mismatch'];
  return fields;
}

export function SetPinDialog({
  opened,
  onClose,
  state,
}: {
  opened: boolean;
  onClose: () => void;
  state: StationState;
}) {
  const { t } = useTranslation('desktop');
  return (
    <Modal opened={opened} onClose={onClose} title={t('pin.setTitle')} centered data-testid="set-pin-dialog">
      {opened ? <SetPinForm onDone={onClose} hasPin={state.staff?.hasPin ?? false} /> : null}
    </Modal>
  );
}

function SetPinForm({ onDone, hasPin }: { onDone: () => void; hasPin: boolean }) {
  const { t } = useTranslation('desktop');
  const { bridge } = useDesktop();
  const queryClient = useQueryClient();
  const form = useServerForm({
    initialValues: { pin: '', repeat: '' },
    submit: async (values) => {
      const problems = pinProblems(values.pin, values.repeat);
      if (Object.keys(problems).length > 0) {
        const fields = Object.fromEntries(Object.entries(problems).map(([k, v]) => [k, v.map((m) => t(m))]));
        throw new ApiError(400, {
          error: { code: 1000, key: 'request.invalid', message: 'invalid pin', fields },
        });
      }
      return call(bridge, 'stationSetPin', { pin: values.pin });
    },
    onSuccess: (state) => {
      queryClient.setQueryData(stationKeys.state, state);
      onDone();
    },
    errorOptions: { messagesByKey: STATION_ERROR_MESSAGES },
  });
  return (
    <form {...form.formProps} data-testid="set-pin-form">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('pin.setHint')}
        </Text>
        <FormErrorList errors={form.formErrors} />
        <PasswordInput
          {...form.getInputProps('pin')}
          label={t('pin.new')}
          inputMode="numeric"
          autoComplete="off"
          maxLength={8}
          data-autofocus
          data-testid="set-pin-input"
        />
        <PasswordInput
          {...form.getInputProps('repeat')}
          label={t('pin.repeat')}
          inputMode="numeric"
          autoComplete="off"
          maxLength={8}
          data-testid="set-pin-repeat"
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} data-testid="set-pin-later">
            {hasPin ? t('pin.cancel') : t('pin.later')}
          </Button>
          <SubmitButton state={form.buttonState} data-testid="set-pin-submit">
            {t('pin.save')}
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}
