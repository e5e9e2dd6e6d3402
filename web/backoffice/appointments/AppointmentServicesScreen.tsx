import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type {
  AppointmentServiceInput,
  AppointmentServiceView,
} from '../../../shared/contracts/api/appointments';
import { formatMoney } from '../../lib/money';
import { useEditorForm } from '../../ui/use-editor-form';
import { useAppointmentActions, useAppointmentInit } from './appointments.api';
import { errorMessageOf } from './error-message';

type Draft = {
  nameEn: string;
  namePl: string;
  categoryId: string | null;
  durationMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  slotStepMinutes: number;
  price: number | '';
  locationId: string | null;
  roomId: string | null;
  online: boolean;
  confirmation: 'auto' | 'manual';
  bookableOnline: boolean;
  bookingOpensHours: number | '';
  bookingClosesMinutes: number;
  cancellationCutoffMinutes: number;
  memberIds: string[];
};

const draftOf = (s: AppointmentServiceView | null): Draft => ({
  nameEn: s?.name.en?.value ?? '',
  namePl: s?.name.pl?.value ?? '',
  categoryId: s?.categoryId ?? null,
  durationMinutes: s?.durationMinutes ?? 60,
  bufferBeforeMinutes: s?.bufferBeforeMinutes ?? 0,
  bufferAfterMinutes: s?.bufferAfterMinutes ?? 0,
  slotStepMinutes: s?.slotStepMinutes ?? 15,
  price: s ? (s.price === null ? '' : s.price / 100) : '',
  locationId: s?.locationId ?? null,
  roomId: s?.roomId ?? null,
  online: s?.online ?? false,
  confirmation: s?.confirmation ?? 'auto',
  bookableOnline: s?.bookableOnline ?? true,
  bookingOpensHours: s?.bookingOpensHours ?? '',
  bookingClosesMinutes: s?.bookingClosesMinutes ?? 0,
  cancellationCutoffMinutes: s?.cancellationCutoffMinutes ?? 1440,
  memberIds: s?.memberIds ?? [],
});

/** The appointment services and the editor of one (duration, buffers, price, where, who, rules). */
export function AppointmentServicesScreen() {
  const { t, i18n } = useTranslation('appointments');
  const init = useAppointmentInit();
  const [editing, setEditing] = useState<AppointmentServiceView | null | 'new'>(null);
  const label = (n: Record<string, { value: string } | undefined>) =>
    n[i18n.language]?.value ?? n.en?.value ?? Object.values(n)[0]?.value ?? '';
  const services = init.data?.services ?? [];
  return (
    <Stack gap="md" maw={1100}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('services.title')}
        </Title>
        <Group gap="xs">
          <Button component={Link} to="/appointments" variant="default" size="xs">
            {t('calendar.title')}
          </Button>
          <Button size="xs" onClick={() => setEditing('new')} data-testid="service-new">
            {t('services.new')}
          </Button>
        </Group>
      </Group>
      {editing && (
        <ServiceEditor
          key={editing === 'new' ? 'new' : editing.id}
          service={editing === 'new' ? null : editing}
          onDone={() => setEditing(null)}
        />
      )}
      <Table.ScrollContainer minWidth={640}>
        <Table striped data-testid="services-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('services.name')}</Table.Th>
              <Table.Th>{t('services.duration')}</Table.Th>
              <Table.Th>{t('services.price')}</Table.Th>
              <Table.Th>{t('services.confirmation')}</Table.Th>
              <Table.Th>{t('services.staff')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {services.map((s) => (
              <Table.Tr key={s.id} data-testid="service-row">
                <Table.Td>
                  {label(s.name)} {s.archived && <Badge color="gray">{t('services.archived')}</Badge>}
                  {s.online && <Badge variant="light">{t('services.online')}</Badge>}
                </Table.Td>
                <Table.Td>
                  {s.durationMinutes} min
                  {(s.bufferBeforeMinutes > 0 || s.bufferAfterMinutes > 0) && (
                    <Text size="xs" c="dimmed">
                      {t('services.buffers', { before: s.bufferBeforeMinutes, after: s.bufferAfterMinutes })}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {s.price === null ? t('services.passOnly') : formatMoney(s.price, s.currency)}
                </Table.Td>
                <Table.Td>{t(`services.confirmationType.${s.confirmation}`)}</Table.Td>
                <Table.Td>{s.memberIds.length}</Table.Td>
                <Table.Td>
                  <Button size="xs" variant="subtle" onClick={() => setEditing(s)} data-testid="service-edit">
                    {t('services.edit')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

function ServiceEditor({ service, onDone }: { service: AppointmentServiceView | null; onDone: () => void }) {
  const { t, i18n } = useTranslation('appointments');
  const init = useAppointmentInit();
  const actions = useAppointmentActions();
  const form = useEditorForm<Draft>(() => draftOf(service));
  const [error, setError] = useState<string | null>(null);
  const v = form.values;
  const location = init.data?.locations.find((l) => l.id === v.locationId);
  const save = async () => {
    setError(null);
    const body: AppointmentServiceInput = {
      name: {
        ...(v.nameEn ? { en: { value: v.nameEn } } : {}),
        ...(v.namePl ? { pl: { value: v.namePl } } : {}),
      },
      categoryId: v.categoryId,
      durationMinutes: v.durationMinutes,
      bufferBeforeMinutes: v.bufferBeforeMinutes,
      bufferAfterMinutes: v.bufferAfterMinutes,
      slotStepMinutes: v.slotStepMinutes,
      price: v.price === '' ? null : Math.round(Number(v.price) * 100),
      locationId: v.online ? null : v.locationId,
      roomId: v.online ? null : v.roomId,
      online: v.online,
      confirmation: v.confirmation,
      bookableOnline: v.bookableOnline,
      bookingOpensHours: v.bookingOpensHours === '' ? null : Number(v.bookingOpensHours),
      bookingClosesMinutes: v.bookingClosesMinutes,
      cancellationCutoffMinutes: v.cancellationCutoffMinutes,
      memberIds: v.memberIds,
    };
    try {
      await actions.saveService(service?.id ?? null, body);
      onDone();
    } catch (e) {
      setError(errorMessageOf(e, t));
    }
  };
  const num = (key: keyof Draft, labelKey: string, min = 0) => (
    <NumberInput
      label={t(labelKey)}
      min={min}
      value={v[key] as number}
      onChange={(n) => form.set(key, (n === '' ? '' : Number(n)) as never)}
    />
  );
  return (
    <Card withBorder data-testid="service-editor">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('services.nameEn')}
            value={v.nameEn}
            onChange={(e) => form.set('nameEn', e.currentTarget.value)}
            data-testid="service-name-en"
          />
          <TextInput
            label={t('services.namePl')}
            value={v.namePl}
            onChange={(e) => form.set('namePl', e.currentTarget.value)}
          />
          <Select
            label={t('services.category')}
            clearable
            data={(init.data?.categories ?? []).map((c) => ({
              value: c.id,
              label: c.name[i18n.language]?.value ?? c.name.en?.value ?? '',
            }))}
            value={v.categoryId}
            onChange={(c) => form.set('categoryId', c)}
          />
          <NumberInput
            label={t('services.pricePln')}
            min={0}
            decimalScale={2}
            value={v.price}
            onChange={(n) => form.set('price', n === '' ? '' : Number(n))}
          />
          {num('durationMinutes', 'services.duration', 5)}
          {num('slotStepMinutes', 'services.step', 5)}
          {num('bufferBeforeMinutes', 'services.bufferBefore')}
          {num('bufferAfterMinutes', 'services.bufferAfter')}
          <Select
            label={t('services.location')}
            clearable
            disabled={v.online}
            data={(init.data?.locations ?? []).map((l) => ({ value: l.id, label: l.name }))}
            value={v.locationId}
            onChange={(l) => form.patch({ locationId: l, roomId: null })}
          />
          <Select
            label={t('services.room')}
            clearable
            disabled={v.online || !location}
            data={(location?.rooms ?? []).map((r) => ({ value: r.id, label: r.name }))}
            value={v.roomId}
            onChange={(r) => form.set('roomId', r)}
          />
          <Select
            label={t('services.confirmation')}
            data={(['auto', 'manual'] as const).map((c) => ({
              value: c,
              label: t(`services.confirmationType.${c}`),
            }))}
            value={v.confirmation}
            allowDeselect={false}
            onChange={(c) => form.set('confirmation', c === 'manual' ? 'manual' : 'auto')}
            data-testid="service-confirmation"
          />
          <MultiSelect
            label={t('services.staff')}
            data={(init.data?.members ?? []).map((m) => ({
              value: m.id,
              label: `${m.firstName} ${m.lastName}`,
            }))}
            value={v.memberIds}
            onChange={(ids) => form.set('memberIds', ids)}
            data-testid="service-staff"
          />
          <NumberInput
            label={t('services.opensHours')}
            min={1}
            value={v.bookingOpensHours}
            onChange={(n) => form.set('bookingOpensHours', n === '' ? '' : Number(n))}
          />
          {num('bookingClosesMinutes', 'services.closesMinutes')}
          {num('cancellationCutoffMinutes', 'services.cutoffMinutes')}
        </SimpleGrid>
        <Group>
          <Checkbox
            label={t('services.online')}
            checked={v.online}
            onChange={(e) => form.set('online', e.currentTarget.checked)}
          />
          <Checkbox
            label={t('services.bookableOnline')}
            checked={v.bookableOnline}
            onChange={(e) => form.set('bookableOnline', e.currentTarget.checked)}
          />
        </Group>
        {error && <Alert color="red">{error}</Alert>}
        <Group>
          <Button onClick={() => void save()} data-testid="service-save">
            {t('services.save')}
          </Button>
          <Button variant="default" onClick={onDone}>
            {t('services.cancel')}
          </Button>
          {service && !service.archived && (
            <Button
              color="red"
              variant="subtle"
              onClick={() => void actions.archiveService(service.id).then(onDone)}
            >
              {t('services.archive')}
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
