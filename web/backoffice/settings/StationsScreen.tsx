import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  NativeSelect,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StudioPos } from '../../../shared/contracts/api/stations';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { errorCodeLabel, fitToForm, toFormErrors, type FormErrors } from '../../lib/form-errors';
import { useEditorForm } from '../../ui/use-editor-form';
import { useBackoffice } from '../backoffice.api';
import { stationCalls, useInvalidateStations, useStations, useStationsInit } from '../pos/stations.api';
import { IntroBar, ListEmpty, QueryBody, usePhone } from '../list-frame';
import { useStudioDateTime } from '../use-studio-date-time';
import { SettingsLayout } from './SettingsLayout';
import { TicketPrinterSection, ticketPrinterSummary } from './TicketPrinterSection';
import { TicketPrintersApi } from '../../../shared/contracts/http/stations';

/** Settings → POS stations: the tills, where they stand, which desk computer runs each, open shifts. */
export function StationsScreen() {
  const { t } = useTranslation('stations');
  const { member } = useBackoffice();
  const canEdit = member.abilities.includes('settings.edit');
  const stations = useStations();
  const phone = usePhone();
  const [adding, setAdding] = useState(false);
  const [assigning, setAssigning] = useState<StudioPos | null>(null);
  const [printerOf, setPrinterOf] = useState<StudioPos | null>(null);

  const body = (
    <QueryBody
      query={stations}
      noPermission={{
        title: t('settings:nav.stations'),
        text: t('settings.noPermission'),
        testId: 'stations-no-permission',
      }}
      loadFailed={{ title: t('settings.loadFailed') }}
    >
      {(data) => (
        <Stack gap="md">
          <IntroBar
            intro={t('settings.intro')}
            action={
              canEdit && (
                <Button onClick={() => setAdding(true)} fullWidth={phone} data-testid="station-add">
                  {t('settings.add')}
                </Button>
              )
            }
          />
          {data.items.length === 0 ? (
            <ListEmpty text={t('settings.empty')} testId="stations-empty" />
          ) : (
            data.items.map((pos) => (
              <StationCard
                key={pos.id}
                pos={pos}
                canEdit={canEdit}
                onAssign={() => setAssigning(pos)}
                onTicketPrinter={() => setPrinterOf(pos)}
              />
            ))
          )}
        </Stack>
      )}
    </QueryBody>
  );

  return (
    <SettingsLayout page="stations">
      {body}
      {canEdit && <AddStationDialog opened={adding} onClose={() => setAdding(false)} />}
      {canEdit && <AssignDialog pos={assigning} onClose={() => setAssigning(null)} />}
      {canEdit && <TicketPrinterDialog pos={printerOf} onClose={() => setPrinterOf(null)} />}
    </SettingsLayout>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500}>
        {value}
      </Text>
    </div>
  );
}

function StationCard({
  pos,
  canEdit,
  onAssign,
  onTicketPrinter,
}: {
  pos: StudioPos;
  canEdit: boolean;
  onAssign(): void;
  onTicketPrinter(): void;
}) {
  const { t } = useTranslation('stations');
  const dateTime = useStudioDateTime();
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const invalidate = useInvalidateStations();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const unassign = async () => {
    setBusy(true);
    setError(null);
    try {
      await stationCalls.unassign(api, studio, pos.id);
      await invalidate();
    } catch (e) {
      setError(toFormErrors(e, t).form[0] ?? null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder radius="md" padding="lg" data-testid="station" data-slug={pos.slug}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
            <Group gap="xs" wrap="wrap">
              <Title order={2} size="h4">
                {pos.name}
              </Title>
              <Badge variant="outline" color="gray" tt="none">
                {pos.slug}
              </Badge>
            </Group>
            {pos.openShift ? (
              <Text size="sm" c="teal.8" data-testid="station-shift">
                {t('settings.shiftOpen', {
                  time: dateTime(pos.openShift.openedAt),
                  name: pos.openShift.openedBy,
                })}
              </Text>
            ) : (
              <Text size="sm" c="dimmed" data-testid="station-shift">
                {t('settings.shiftClosed')}
              </Text>
            )}
          </Stack>
          {canEdit && (
            <Group gap="xs">
              {pos.device && (
                <Button
                  variant="default"
                  size="xs"
                  loading={busy}
                  onClick={() => void unassign()}
                  data-testid="station-unassign"
                >
                  {t('settings.unassign')}
                </Button>
              )}
              <Button variant="light" size="xs" onClick={onAssign} data-testid="station-assign">
                {t('settings.assign')}
              </Button>
              <Button
                variant="light"
                size="xs"
                onClick={onTicketPrinter}
                data-testid="station-ticket-printer-edit"
              >
                {t('settings.ticketPrinterEdit')}
              </Button>
            </Group>
          )}
        </Group>
        <Group gap="xl" wrap="wrap">
          <Fact label={t('settings.location')} value={pos.location?.name ?? t('settings.noLocation')} />
          <Fact
            label={t('settings.device')}
            value={
              pos.device
                ? pos.device.lastSeenAt
                  ? `${pos.device.name} · ${t('settings.lastSeen', { time: dateTime(pos.device.lastSeenAt) })}`
                  : pos.device.name
                : t('settings.noDevice')
            }
          />
          <Fact
            label={t('settings.printer')}
            value={pos.fiscalPrinter ? t('settings.printerYes') : t('settings.printerNo')}
          />
          <Fact label={t('settings.ticketPrinter')} value={ticketPrinterSummary(pos.ticketPrinter, t)} />
        </Group>
        {error && (
          <Alert color="red" variant="light">
            {error}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}

function AddStationDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation('stations');
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const init = useStationsInit(opened);
  const invalidate = useInvalidateStations();
  const fields = useEditorForm(() => ({ name: '', slug: '', locationId: '' }));
  const { name, slug, locationId } = fields.values;
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const errors: FormErrors = { fields: fields.errors, form: formErrors };
  const setErrors = (next: FormErrors) => {
    fields.setErrors(next.fields);
    setFormErrors(next.form);
  };
  const [busy, setBusy] = useState(false);

  const close = () => {
    fields.patch({ name: '', slug: '', locationId: '' });
    setErrors({ fields: {}, form: [] });
    onClose();
  };
  const save = async () => {
    setBusy(true);
    setErrors({ fields: {}, form: [] });
    try {
      await stationCalls.create(api, studio, { name, slug, locationId: locationId || null });
      await invalidate();
      close();
    } catch (e) {
      const found = toFormErrors(e, t, { messagesByKey: {} });
      if (e instanceof ApiError && e.key === 'studioPos.slugTaken')
        found.fields.slug = t('settings.slugTaken');
      setErrors(fitToForm(found, ['name', 'slug', 'locationId']));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={t('settings.add')} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('settings.name')}
            value={name}
            maxLength={80}
            onChange={(e) => fields.set('name', e.currentTarget.value)}
            error={errors.fields.name}
            data-testid="station-name"
            data-autofocus
          />
          <TextInput
            label={t('settings.slug')}
            description={t('settings.slugHint')}
            value={slug}
            maxLength={64}
            onChange={(e) => fields.set('slug', e.currentTarget.value)}
            error={errors.fields.slug}
            data-testid="station-slug"
          />
          <NativeSelect
            label={t('settings.location')}
            value={locationId}
            onChange={(e) => fields.set('locationId', e.currentTarget.value)}
            error={errors.fields.locationId}
            data={[
              { value: '', label: t('settings.noLocation') },
              ...(init.data?.locations ?? []).map((l) => ({ value: l.id, label: l.name })),
            ]}
          />
          {errors.form.map((m) => (
            <Alert key={m} color="red" variant="light">
              {m}
            </Alert>
          ))}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('settings.cancel')}
            </Button>
            <Button type="submit" loading={busy} data-testid="station-save">
              {t('settings.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function AssignDialog({ pos, onClose }: { pos: StudioPos | null; onClose(): void }) {
  const { t } = useTranslation('stations');
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const init = useStationsInit(pos !== null);
  const stations = useStations(pos !== null);
  const invalidate = useInvalidateStations();
  const assignForm = useEditorForm(() => ({ deviceId: '' }));
  const { deviceId } = assignForm.values;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const devices = init.data?.devices ?? [];
  const nameOf = (id: string | null) => stations.data?.items.find((p) => p.id === id)?.name ?? '';

  const close = () => {
    assignForm.set('deviceId', '');
    setError(null);
    onClose();
  };
  const assign = async () => {
    if (!pos || !deviceId) return;
    setBusy(true);
    setError(null);
    try {
      await stationCalls.assign(api, studio, pos.id, deviceId);
      await invalidate();
      close();
    } catch (e) {
      setError(toFormErrors(e, t).form[0] ?? t('common:errors.generalWithCode', { code: errorCodeLabel(e) }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={pos !== null}
      onClose={close}
      title={t('settings.assignTitle', { name: pos?.name ?? '' })}
      centered
    >
      <Stack gap="sm">
        {init.isPending ? (
          <Loader size="sm" />
        ) : devices.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="station-no-devices">
            {t('settings.noDevices')}
          </Text>
        ) : (
          <NativeSelect
            label={t('settings.chooseDevice')}
            value={deviceId || (pos?.device?.id ?? '')}
            onChange={(e) => assignForm.set('deviceId', e.currentTarget.value)}
            data={[
              { value: '', label: '—' },
              ...devices.map((d) => ({
                value: d.id,
                label:
                  d.posId && d.posId !== pos?.id
                    ? `${d.name} (${t('settings.deviceBusy', { name: nameOf(d.posId) })})`
                    : d.name,
              })),
            ]}
            data-testid="station-device"
          />
        )}
        {error && (
          <Alert color="red" variant="light">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('settings.cancel')}
          </Button>
          <Button
            onClick={() => void assign()}
            loading={busy}
            disabled={!deviceId}
            data-testid="station-assign-save"
          >
            {t('settings.assign')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The station editor's "Ticket printer" section (saved on its own: PUT studio-pos/{id}/ticket-printer). */
function TicketPrinterDialog({ pos, onClose }: { pos: StudioPos | null; onClose(): void }) {
  const { t } = useTranslation('stations');
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const invalidate = useInvalidateStations();
  return (
    <Modal
      opened={pos !== null}
      onClose={onClose}
      title={t('settings.ticketPrinterTitle', { name: pos?.name ?? '' })}
      centered
      size="lg"
    >
      {pos && (
        <Stack gap="sm">
          <TicketPrinterSection
            key={pos.id}
            current={pos.ticketPrinter}
            testId="station-ticket-printer"
            framed={false}
            save={async (input) => {
              await api.call(TicketPrintersApi.putStudioPosTicketPrinter, {
                params: { uuid: studio, studioPos: pos.id },
                body: input,
              });
              await invalidate();
            }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('settings.close')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
