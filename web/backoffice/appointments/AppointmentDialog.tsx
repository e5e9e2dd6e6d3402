import { Alert, Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClientAppointmentView } from '../../../shared/contracts/api/appointments';
import { formatMoney } from '../../lib/money';
import { useStudioDateTime } from '../use-studio-date-time';
import { useAppointmentActions } from './appointments.api';
import { errorMessageOf } from './error-message';

/** One appointment: who, when, how it is paid, and what staff may do with it now. */
export function AppointmentDialog({
  appointment: a,
  onClose,
}: {
  appointment: ClientAppointmentView;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('appointments');
  const when = useStudioDateTime();
  const actions = useAppointmentActions();
  const [error, setError] = useState<string | null>(null);
  const act = (fn: () => Promise<unknown>) => async () => {
    setError(null);
    try {
      await fn();
      onClose();
    } catch (e) {
      setError(errorMessageOf(e, t));
    }
  };
  const name =
    a.service.name[i18n.language]?.value ??
    a.service.name.en?.value ??
    Object.values(a.service.name)[0]?.value;
  return (
    <Modal opened onClose={onClose} title={name} data-testid="appointment-dialog">
      <Stack gap="sm">
        <Group gap="xs">
          <Badge data-testid="appointment-status">{t(`status.${a.status}`)}</Badge>
          <Badge variant="light">{t(`payment.${a.payment}`)}</Badge>
          {a.price > 0 && <Badge variant="outline">{formatMoney(a.price, a.currency)}</Badge>}
        </Group>
        <Text size="sm">{when(a.startsAt)}</Text>
        <Text size="sm">
          {t('dialog.member')}: {a.member.firstName} {a.member.lastName}
        </Text>
        <Text size="sm" data-testid="appointment-client">
          {t('dialog.client')}:{' '}
          {a.client ? `${a.client.firstName} ${a.client.lastName} (${a.client.email})` : '—'}
        </Text>
        {error && <Alert color="red">{error}</Alert>}
        <Group gap="xs">
          {a.status === 'pending' && (
            <>
              <Button
                size="xs"
                color="green"
                onClick={act(() => actions.confirm(a.id))}
                data-testid="appointment-confirm"
              >
                {t('dialog.confirm')}
              </Button>
              <Button
                size="xs"
                color="red"
                variant="light"
                onClick={act(() => actions.reject(a.id))}
                data-testid="appointment-reject"
              >
                {t('dialog.reject')}
              </Button>
            </>
          )}
          {(a.status === 'booked' || a.status === 'absent') && (
            <Button size="xs" onClick={act(() => actions.checkIn(a.id))} data-testid="appointment-check-in">
              {t('dialog.checkIn')}
            </Button>
          )}
          {(a.status === 'booked' || a.status === 'present') && (
            <>
              <Button
                size="xs"
                color="orange"
                variant="light"
                onClick={act(() => actions.noShow(a.id, true))}
                data-testid="appointment-no-show"
              >
                {t('dialog.noShow')}
              </Button>
              <Button
                size="xs"
                color="gray"
                variant="subtle"
                onClick={act(() => actions.noShow(a.id, false))}
              >
                {t('dialog.noShowWaived')}
              </Button>
            </>
          )}
          {['pending', 'booked', 'reserved'].includes(a.status) && (
            <Button
              size="xs"
              color="red"
              variant="subtle"
              onClick={act(() => actions.callOff(a.id))}
              data-testid="appointment-call-off"
            >
              {t('dialog.callOff')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
