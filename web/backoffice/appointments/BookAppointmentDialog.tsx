import {
  Alert,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClientSearch } from '../schedule/event-detail/event-bookings.api';
import { useStudioDateTime } from '../use-studio-date-time';
import { useAppointmentActions, useAppointmentInit } from './appointments.api';
import { errorMessageOf } from './error-message';

/** Click-to-book: a service the member performs, a client, and how it is paid (their pass or at the desk). */
export function BookAppointmentDialog({
  slot,
  onClose,
}: {
  slot: { memberId: string; startsAt: string };
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('appointments');
  const when = useStudioDateTime();
  const init = useAppointmentInit();
  const actions = useAppointmentActions();
  const services = (init.data?.services ?? []).filter(
    (s) => !s.archived && s.memberIds.includes(slot.memberId),
  );
  const [serviceId, setServiceId] = useState<string | null>(null);
  const [client, setClient] = useState<{ id: string; name: string } | null>(null);
  const [payment, setPayment] = useState<'pass' | 'desk'>('pass');
  const [text, setText] = useState('');
  const [q] = useDebouncedValue(text, 250);
  const search = useClientSearch(q);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const member = init.data?.members.find((m) => m.id === slot.memberId);
  const label = (n: Record<string, { value: string } | undefined>) =>
    n[i18n.language]?.value ?? n.en?.value ?? Object.values(n)[0]?.value ?? '';
  const submit = async () => {
    if (!serviceId || !client) return;
    setBusy(true);
    setError(null);
    try {
      await actions.enroll({
        serviceId,
        memberId: slot.memberId,
        startsAt: slot.startsAt,
        clientId: client.id,
        payment,
      });
      onClose();
    } catch (e) {
      setError(errorMessageOf(e, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('book.title')} data-testid="book-appointment-dialog">
      <Stack gap="sm">
        <Text size="sm">
          {when(slot.startsAt)} · {member ? `${member.firstName} ${member.lastName}` : ''}
        </Text>
        {services.length === 0 && init.data && <Text c="dimmed">{t('book.noServices')}</Text>}
        <Select
          label={t('book.service')}
          data={services.map((s) => ({ value: s.id, label: `${label(s.name)} (${s.durationMinutes} min)` }))}
          value={serviceId}
          onChange={setServiceId}
          data-testid="book-service"
        />
        {client ? (
          <Group justify="space-between">
            <Text fw={500} data-testid="book-client">
              {client.name}
            </Text>
            <Button size="xs" variant="subtle" onClick={() => setClient(null)}>
              {t('book.changeClient')}
            </Button>
          </Group>
        ) : (
          <Stack gap={4}>
            <TextInput
              label={t('book.client')}
              placeholder={t('book.clientPlaceholder')}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              rightSection={search.isFetching ? <Loader size="xs" /> : null}
              data-testid="book-client-search"
            />
            {(q.trim().length >= 2 ? (search.data?.items ?? []) : []).map((c) => (
              <UnstyledButton
                key={c.id}
                onClick={() => setClient({ id: c.id, name: `${c.firstName} ${c.lastName}`.trim() })}
                data-testid="book-client-result"
              >
                <Paper withBorder px="sm" py={4}>
                  <Text size="sm">
                    {c.firstName} {c.lastName}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {c.emailAddress}
                  </Text>
                </Paper>
              </UnstyledButton>
            ))}
          </Stack>
        )}
        <Select
          label={t('book.payment')}
          data={[
            { value: 'pass', label: t('payment.passOrContract') },
            { value: 'desk', label: t('payment.desk') },
          ]}
          value={payment}
          onChange={(v) => setPayment(v === 'desk' ? 'desk' : 'pass')}
          allowDeselect={false}
          data-testid="book-payment"
        />
        {error && (
          <Alert color="red" data-testid="book-error">
            {error}
          </Alert>
        )}
        <Button
          onClick={() => void submit()}
          disabled={!serviceId || !client}
          loading={busy}
          data-testid="book-submit"
        >
          {t('book.submit')}
        </Button>
      </Stack>
    </Modal>
  );
}
