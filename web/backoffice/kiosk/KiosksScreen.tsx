import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Checkbox,
  Group,
  Image,
  Loader,
  Modal,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CHECK_IN_METHODS,
  DEFAULT_KIOSK_SETTINGS,
  type CheckInMethod,
  type KioskQrCode,
  type SmartLock,
  type SmartLockTestReason,
  type StudioKiosk,
} from '../../../shared/contracts/api/kiosk';
import type { Ability } from '../../../shared/policies/abilities';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { CenteredMessage } from '../../ui/CenteredMessage';
import { useEditorForm } from '../../ui/use-editor-form';
import { useBackoffice } from '../backoffice.api';
import { TicketPrinterSection, ticketPrinterSummary } from '../settings/TicketPrinterSection';
import { kioskCalls, useInvalidateKiosks, useKioskInit, useKiosks, useSmartLocks } from './kiosk.api';
import { TicketPrintersApi } from '../../../shared/contracts/http/stations';

function useCan(): (ability: Ability) => boolean {
  const { member } = useBackoffice();
  return (ability) => member.abilities.includes(ability);
}

/** Field errors of a 400 keyed by the payload's paths; anything else one form-level message. */
function failure(
  error: unknown,
  t: (k: string) => string,
): { fields: Record<string, string>; form: string | null } {
  if (error instanceof ApiError && error.status === 400)
    return {
      fields: Object.fromEntries(Object.entries(error.fields).map(([k, v]) => [k, v[0] ?? ''])),
      form: null,
    };
  if (error instanceof ApiError && [401, 403, 405].includes(error.status))
    return { fields: {}, form: t('admin.noPermission') };
  return { fields: {}, form: t('admin.saveFailed') };
}

type Failure = ReturnType<typeof failure>;

/** A form's last failure: field messages kept by its @mantine/form values, the form-level one beside them. */
function useFailure(fields: {
  errors: Record<string, string>;
  setErrors(next: Record<string, string>): void;
}): [Failure, (next: Failure) => void] {
  const [form, setForm] = useState<string | null>(null);
  const set = (next: Failure) => {
    fields.setErrors(next.fields);
    setForm(next.form);
  };
  return [{ fields: fields.errors, form }, set];
}

/** What both admin forms need to save: the API, the studio, the failure shown and the busy flag. */
function useAdminSave(
  fields: { errors: Record<string, string>; setErrors(next: Record<string, string>): void },
  onClose: () => void,
) {
  const { t } = useTranslation('kiosk');
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const invalidate = useInvalidateKiosks();
  const [errors, setErrors] = useFailure(fields);
  const [busy, setBusy] = useState(false);
  /** Runs one save; on success the lists reload and the dialog closes. */
  const run = async (event: FormEvent, call: () => Promise<unknown>) => {
    event.preventDefault();
    setBusy(true);
    try {
      await call();
      await invalidate();
      onClose();
    } catch (e) {
      setErrors(failure(e, t));
    } finally {
      setBusy(false);
    }
  };
  return { t, api, studio, invalidate, errors, busy, run };
}

/** An admin form in its dialog: the form-wide error on top, the name field first. */
function AdminFormModal(props: {
  title: string;
  testId: string;
  onClose: () => void;
  onSubmit: (event: FormEvent) => void;
  form: string | null;
  name: string;
  nameError?: string;
  onName: (name: string) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('kiosk');
  return (
    <Modal opened onClose={props.onClose} title={props.title} centered size="lg">
      <form onSubmit={props.onSubmit} data-testid={props.testId}>
        <Stack>
          {props.form && <Alert color="red">{props.form}</Alert>}
          <TextInput
            label={t('admin.name')}
            value={props.name}
            onChange={(e) => props.onName(e.currentTarget.value)}
            error={props.nameError}
            data-testid={`${props.testId}-name`}
          />
          {props.children}
        </Stack>
      </form>
    </Modal>
  );
}

function CancelSave({ onClose, busy, testId }: { onClose: () => void; busy: boolean; testId: string }) {
  const { t } = useTranslation('kiosk');
  return (
    <Group>
      <Button variant="default" onClick={onClose}>
        {t('admin.cancel')}
      </Button>
      <Button type="submit" loading={busy} data-testid={testId}>
        {t('admin.save')}
      </Button>
    </Group>
  );
}

/** Kiosks (check-in devices) and the smart locks they open: one back-office page, Settings abilities. */
export function KiosksScreen() {
  const { t } = useTranslation('kiosk');
  const can = useCan();
  const kiosks = useKiosks();
  const locks = useSmartLocks();
  const init = useKioskInit();
  const [editing, setEditing] = useState<StudioKiosk | 'new' | null>(null);
  const [editingLock, setEditingLock] = useState<SmartLock | 'new' | null>(null);
  const [qr, setQr] = useState<{ kiosk: StudioKiosk; code: KioskQrCode } | null>(null);
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const invalidate = useInvalidateKiosks();
  const [tests, setTests] = useState<
    Record<
      string,
      | { ok: boolean; message: string; reason?: SmartLockTestReason | null; httpStatus?: number | null }
      | 'busy'
    >
  >({});

  const error = kiosks.error ?? locks.error;
  if (error)
    return error instanceof ApiError && [401, 403, 405].includes(error.status) ? (
      <CenteredMessage title={t('admin.title')} testId="kiosks-no-permission">
        {t('admin.noPermission')}
      </CenteredMessage>
    ) : (
      <Alert color="red" title={t('admin.loadFailed')} data-testid="kiosks-load-failed" />
    );
  if (!kiosks.data || !locks.data)
    return (
      <Center h={200}>
        <Loader />
      </Center>
    );

  const edit = can('settings.edit');
  const locationName = (id: string | null) =>
    id ? (init.data?.locations.find((l) => l.id === id)?.name ?? '') : t('admin.anyLocation');
  const lockName = (id: string | null) =>
    id ? (locks.data.items.find((l) => l.id === id)?.name ?? '') : t('admin.noLock');

  const showQr = async (kiosk: StudioKiosk) => {
    setQr({ kiosk, code: await kioskCalls.qrCode(api, studio, kiosk.id) });
  };
  const test = async (lock: SmartLock) => {
    setTests((s) => ({ ...s, [lock.id]: 'busy' }));
    try {
      const result = await kioskCalls.testLock(api, studio, lock.id);
      setTests((s) => ({ ...s, [lock.id]: result }));
      await invalidate();
    } catch {
      setTests((s) => ({ ...s, [lock.id]: { ok: false, message: t('admin.saveFailed') } }));
    }
  };

  return (
    <Stack gap="xl" maw={1100} data-testid="kiosks-screen">
      <Title order={1} size="h2">
        {t('admin.title')}
      </Title>

      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} size="h3">
            {t('admin.kiosks')}
          </Title>
          {edit && (
            <Button onClick={() => setEditing('new')} data-testid="kiosk-add">
              {t('admin.addKiosk')}
            </Button>
          )}
        </Group>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {kiosks.data.items.map((kiosk) => (
            <Card key={kiosk.id} withBorder radius="md" padding="lg" data-testid="kiosk-card">
              <Stack gap="xs">
                <Group justify="space-between" wrap="nowrap">
                  <Text fw={700} size="lg">
                    {kiosk.name}
                  </Text>
                  {kiosk.isDefault && <Badge variant="light">{t('admin.default')}</Badge>}
                </Group>
                <Text size="sm">
                  {t('admin.location')}: {locationName(kiosk.locationId)}
                </Text>
                <Text size="sm">
                  {t('admin.lock')}: {lockName(kiosk.smartLockId)}
                </Text>
                <Text size="sm" data-testid="kiosk-card-ticket-printer">
                  {t('stations:ticketPrinter.title')}: {ticketPrinterSummary(kiosk.ticketPrinter, t)}
                </Text>
                <Group gap={6}>
                  {kiosk.settings.checkInMethods.map((m) => (
                    <Badge key={m} variant="outline" color="gray">
                      {t(`admin.method.${m}`)}
                    </Badge>
                  ))}
                </Group>
                {kiosk.kioskKey && (
                  <Text size="sm" ff="monospace" data-testid="kiosk-key-value">
                    {t('admin.key')}: {kiosk.kioskKey}
                  </Text>
                )}
                <Group gap="xs" mt="xs">
                  {edit && (
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => setEditing(kiosk)}
                      data-testid="kiosk-edit"
                    >
                      {t('admin.edit')}
                    </Button>
                  )}
                  {edit && (
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => void showQr(kiosk)}
                      data-testid="kiosk-qr"
                    >
                      {t('admin.qr')}
                    </Button>
                  )}
                  <Button size="xs" variant="subtle" component="a" href={kiosk.kioskUrl} target="_blank">
                    {t('admin.open')}
                  </Button>
                  {edit && !kiosk.isDefault && (
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      onClick={async () => {
                        await kioskCalls.removeKiosk(api, studio, kiosk.id);
                        await invalidate();
                      }}
                    >
                      {t('admin.remove')}
                    </Button>
                  )}
                </Group>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      </Stack>

      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} size="h3">
            {t('admin.locks')}
          </Title>
          {edit && (
            <Button variant="light" onClick={() => setEditingLock('new')} data-testid="lock-add">
              {t('admin.addLock')}
            </Button>
          )}
        </Group>
        {locks.data.items.length === 0 && <Text c="dimmed">{t('admin.noLocks')}</Text>}
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {locks.data.items.map((lock) => {
            const result = tests[lock.id];
            const last = result && result !== 'busy' ? result : lock.lastTest;
            return (
              <Card key={lock.id} withBorder radius="md" padding="lg" data-testid="lock-card">
                <Stack gap="xs">
                  <Text fw={700} size="lg">
                    {lock.name}
                  </Text>
                  <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {lock.config.method} {lock.config.url}
                  </Text>
                  <Text size="sm">
                    {t('admin.usedBy')}:{' '}
                    {lock.kioskIds
                      .map((id) => kiosks.data.items.find((k) => k.id === id)?.name)
                      .filter(Boolean)
                      .join(', ') || '—'}
                  </Text>
                  <Text
                    size="sm"
                    c={last ? (last.ok ? 'teal.8' : 'red.8') : 'dimmed'}
                    data-testid="lock-test-result"
                  >
                    {last
                      ? t(last.ok ? 'admin.testOk' : 'admin.testFailed', {
                          // Tests recorded before reasons existed keep their English text.
                          message: last.reason
                            ? t(`admin.lockResult.${last.reason}`, { status: last.httpStatus, seconds: 4 })
                            : last.message,
                        })
                      : t('admin.neverTested')}
                  </Text>
                  {edit && (
                    <Group gap="xs" mt="xs">
                      <Button
                        size="xs"
                        loading={result === 'busy'}
                        onClick={() => void test(lock)}
                        data-testid="lock-test"
                      >
                        {t('admin.test')}
                      </Button>
                      <Button size="xs" variant="light" onClick={() => setEditingLock(lock)}>
                        {t('admin.edit')}
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={async () => {
                          await kioskCalls.removeLock(api, studio, lock.id);
                          await invalidate();
                        }}
                      >
                        {t('admin.remove')}
                      </Button>
                    </Group>
                  )}
                </Stack>
              </Card>
            );
          })}
        </SimpleGrid>
      </Stack>

      {editing && (
        <KioskFormModal
          kiosk={editing === 'new' ? null : editing}
          locations={init.data?.locations ?? []}
          locks={locks.data.items}
          onClose={() => setEditing(null)}
        />
      )}
      {editingLock && (
        <LockFormModal
          lock={editingLock === 'new' ? null : editingLock}
          onClose={() => setEditingLock(null)}
        />
      )}
      <Modal
        opened={qr !== null}
        onClose={() => setQr(null)}
        title={qr ? `${t('admin.qr')}: ${qr.kiosk.name}` : ''}
        centered
      >
        {qr && (
          <Stack align="center" data-testid="kiosk-qr-modal">
            <Image
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr.code.svg)}`}
              alt={t('admin.qr')}
              w={260}
              h={260}
            />
            <Text size="sm" ta="center">
              {t('admin.qrHelp')}
            </Text>
            <Anchor href={qr.kiosk.kioskUrl} target="_blank" size="sm" style={{ wordBreak: 'break-all' }}>
              {qr.kiosk.kioskUrl}
            </Anchor>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}

function KioskFormModal({
  kiosk,
  locations,
  locks,
  onClose,
}: {
  kiosk: StudioKiosk | null;
  locations: Array<{ id: string; name: string }>;
  locks: SmartLock[];
  onClose: () => void;
}) {
  const settings = kiosk?.settings ?? DEFAULT_KIOSK_SETTINGS;
  const fields = useEditorForm(() => ({
    name: kiosk?.name ?? '',
    locationId: kiosk?.locationId ?? (null as string | null),
    smartLockId: kiosk?.smartLockId ?? (null as string | null),
    methods: [...settings.checkInMethods] as string[],
    printTicket: settings.printTicket,
    idleSeconds: settings.idleSeconds as number | string,
  }));
  const { name, locationId, smartLockId, methods, printTicket, idleSeconds } = fields.values;
  const { t, api, studio, invalidate, errors, busy, run } = useAdminSave(fields, onClose);

  const save = async (event: FormEvent, regenerateKey = false) => {
    const payload = {
      name,
      locationId,
      smartLockId,
      settings: {
        checkInMethods: CHECK_IN_METHODS.filter((m) => methods.includes(m)) as CheckInMethod[],
        printTicket,
        idleSeconds: Number(idleSeconds),
      },
    };
    await run(event, () =>
      kiosk
        ? kioskCalls.updateKiosk(api, studio, kiosk.id, {
            ...payload,
            ...(regenerateKey ? { regenerateKey } : {}),
          })
        : kioskCalls.createKiosk(api, studio, payload),
    );
  };

  return (
    <AdminFormModal
      title={kiosk ? kiosk.name : t('admin.addKiosk')}
      testId="kiosk-form"
      onClose={onClose}
      onSubmit={(e) => void save(e)}
      form={errors.form}
      name={name}
      nameError={errors.fields.name}
      onName={(v) => fields.set('name', v)}
    >
      <Select
        label={t('admin.location')}
        data={[
          { value: '', label: t('admin.anyLocation') },
          ...locations.map((l) => ({ value: l.id, label: l.name })),
        ]}
        value={locationId ?? ''}
        onChange={(v) => fields.set('locationId', v || null)}
        error={errors.fields.locationId}
        allowDeselect={false}
      />
      <Select
        label={t('admin.lock')}
        data={[
          { value: '', label: t('admin.noLock') },
          ...locks.map((l) => ({ value: l.id, label: l.name })),
        ]}
        value={smartLockId ?? ''}
        onChange={(v) => fields.set('smartLockId', v || null)}
        error={errors.fields.smartLockId}
        allowDeselect={false}
        data-testid="kiosk-form-lock"
      />
      <Checkbox.Group
        label={t('admin.methods')}
        value={methods}
        onChange={(v) => fields.set('methods', v)}
        error={errors.fields['settings.checkInMethods']}
      >
        <Group mt="xs">
          {CHECK_IN_METHODS.map((m) => (
            <Checkbox key={m} value={m} label={t(`admin.method.${m}`)} />
          ))}
        </Group>
      </Checkbox.Group>
      <Switch
        label={t('admin.printTicket')}
        checked={printTicket}
        onChange={(e) => fields.set('printTicket', e.currentTarget.checked)}
      />
      <NumberInput
        label={t('admin.idleSeconds')}
        value={idleSeconds}
        onChange={(v) => fields.set('idleSeconds', v)}
        min={10}
        max={600}
        error={errors.fields['settings.idleSeconds']}
      />
      {kiosk && (
        <TicketPrinterSection
          current={kiosk.ticketPrinter}
          testId="kiosk-ticket-printer"
          save={async (input) => {
            await api.call(TicketPrintersApi.putStudioKioskTicketPrinter, {
              params: { uuid: studio, kioskGuid: kiosk.id },
              body: input,
            });
            await invalidate();
          }}
        />
      )}
      <Group justify="space-between" mt="md">
        {kiosk ? (
          <Button
            variant="subtle"
            color="orange"
            onClick={(e) => {
              if (window.confirm(t('admin.newKeyConfirm'))) void save(e, true);
            }}
          >
            {t('admin.newKey')}
          </Button>
        ) : (
          <span />
        )}
        <CancelSave onClose={onClose} busy={busy} testId="kiosk-form-save" />
      </Group>
    </AdminFormModal>
  );
}

function LockFormModal({ lock, onClose }: { lock: SmartLock | null; onClose: () => void }) {
  const fields = useEditorForm(() => ({
    name: lock?.name ?? '',
    url: lock?.config.url ?? '',
    method: (lock?.config.method ?? 'POST') as 'POST' | 'GET',
    secret: '',
    openSeconds: (lock?.config.openSeconds ?? 5) as number | string,
  }));
  const { name, url, method, secret, openSeconds } = fields.values;
  const { t, api, studio, errors, busy, run } = useAdminSave(fields, onClose);

  const save = async (event: FormEvent) => {
    const config = {
      url: url.trim(),
      method,
      ...(secret ? { secret } : {}),
      openSeconds: Number(openSeconds),
    };
    await run(event, () =>
      lock
        ? kioskCalls.updateLock(api, studio, lock.id, { name, config })
        : kioskCalls.createLock(api, studio, { name, driver: 'httpRelay', config }),
    );
  };

  return (
    <AdminFormModal
      title={lock ? lock.name : t('admin.addLock')}
      testId="lock-form"
      onClose={onClose}
      onSubmit={(e) => void save(e)}
      form={errors.form}
      name={name}
      nameError={errors.fields.name}
      onName={(v) => fields.set('name', v)}
    >
      <TextInput
        label={t('admin.relayUrl')}
        value={url}
        onChange={(e) => fields.set('url', e.currentTarget.value)}
        error={errors.fields['config.url']}
        placeholder="https://relay.example.com/relay/0"
        data-testid="lock-form-url"
      />
      <Select
        label={t('admin.relayMethod')}
        data={['POST', 'GET']}
        value={method}
        onChange={(v) => fields.set('method', v === 'GET' ? 'GET' : 'POST')}
        allowDeselect={false}
      />
      <PasswordInput
        label={t('admin.secret')}
        description={lock?.config.hasSecret ? t('admin.secretKept') : undefined}
        value={secret}
        onChange={(e) => fields.set('secret', e.currentTarget.value)}
        error={errors.fields['config.secret']}
      />
      <NumberInput
        label={t('admin.openSeconds')}
        value={openSeconds}
        onChange={(v) => fields.set('openSeconds', v)}
        min={1}
        max={30}
        error={errors.fields['config.openSeconds']}
      />
      <Group justify="flex-end" mt="md">
        <CancelSave onClose={onClose} busy={busy} testId="lock-form-save" />
      </Group>
    </AdminFormModal>
  );
}
