import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  NativeSelect,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { v7 as uuidv7 } from 'uuid';
import type { ShiftView, StudioPos } from '../../../shared/contracts/api/stations';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { failureText } from '../../lib/form-errors';
import { useBackoffice } from '../backoffice.api';
import { usePrice } from '../../features/pos/use-price';
import { amountText, parseAmount, useStudioUuid } from './pos.api';
import { posStationKeys, usePosStation } from './station-sink';
import { stationCalls, stationKeys } from './stations.api';
import { formatTime } from '../../../shared/i18n/dates';

const ERROR_KEYS: Record<string, string> = {
  'shift.alreadyOpen': 'shift.errors.alreadyOpen',
  'shift.closed': 'shift.errors.closed',
  'shift.notEnoughCash': 'shift.errors.notEnoughCash',
  'shift.salesWaiting': 'shift.errors.salesWaiting',
  'shift.notOpen': 'shift.errors.notOpen',
  'shift.printerFailed': 'shift.errors.printerFailed',
};

function useShiftError() {
  const { t } = useTranslation('stations');
  // Errors are kept as they came and worded when shown, so a language switch rewords them too.
  return (error: unknown): string => {
    if (error && typeof error === 'object' && 'i18nKey' in error) return t(String(error.i18nKey));
    if (error instanceof ApiError && error.key && ERROR_KEYS[error.key]) return t(ERROR_KEYS[error.key]!);
    if (error instanceof ApiError && [401, 403, 405].includes(error.status))
      return t('common:errors.noPermission');
    return failureText(error, t, 'shift.errors.general');
  };
}

function useTime(): (iso: string) => string {
  const { i18n } = useTranslation();
  const { studio } = useBackoffice();
  return (iso) => formatTime(iso, i18n.language, studio.timeZone);
}

/** Which station this till is: shown above the sale, with a picker when the studio has several. */
export function StationPicker({
  stations,
  chosen,
  onChoose,
}: {
  stations: StudioPos[];
  chosen: string | null;
  onChoose(id: string | null): void;
}) {
  const { t } = useTranslation('stations');
  return (
    <NativeSelect
      label={t('shift.station')}
      value={chosen ?? ''}
      onChange={(e) => onChoose(e.currentTarget.value || null)}
      data={[
        { value: '', label: t('shift.chooseStation') },
        ...stations.map((s) => ({ value: s.id, label: `${s.name} (${s.slug})` })),
      ]}
      data-testid="pos-station"
      maw={360}
    />
  );
}

/** No shift open: the float to open one with. */
export function OpenShiftCard({ pos, currency }: { pos: StudioPos; currency: string }) {
  const { t, i18n } = useTranslation('stations');
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const shiftError = useShiftError();
  const [text, setText] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // One id per attempt: a retry after a lost answer opens the same shift.
  const [attempt, setAttempt] = useState(() => uuidv7());
  const amount = parseAmount(text);
  const station = usePosStation();

  const open = async () => {
    if (amount === null) return setError({ i18nKey: 'shift.invalidAmount' });
    setBusy(true);
    setError(null);
    try {
      // At the desktop the shift is the station's own (offline too); in the browser, the cloud's.
      if (station) await station.openShift(amount);
      else await stationCalls.openShift(api, studio, pos.id, { id: attempt, float: amount });
      await queryClient.invalidateQueries({
        queryKey: station ? posStationKeys.all : stationKeys.all(studio),
      });
    } catch (e) {
      if (e instanceof ApiError && e.status < 500) setAttempt(uuidv7());
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder padding="lg" maw={520} data-testid="shift-open-card">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('shift.open')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('shift.none')}
        </Text>
        <TextInput
          label={t('shift.float')}
          inputMode="decimal"
          placeholder={amountText(0, i18n.language)}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && void open()}
          error={text && amount === null ? t('shift.invalidAmount') : undefined}
          rightSection={<Text size="xs">{currency}</Text>}
          data-testid="shift-float"
        />
        {error !== null && (
          <Alert color="red" data-testid="shift-error">
            {shiftError(error)}
          </Alert>
        )}
        <Button onClick={() => void open()} loading={busy} data-testid="shift-open">
          {t('shift.open')}
        </Button>
      </Stack>
    </Card>
  );
}

function Figure({
  label,
  value,
  testId,
  strong,
}: {
  label: string;
  value: ReactNode;
  testId?: string;
  strong?: boolean;
}) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={strong ? 700 : 500} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

/** The open shift: its cash figures, cash in/out and the close. */
export function ShiftBar({
  pos,
  shift,
  onClosed,
}: {
  pos: StudioPos;
  shift: ShiftView;
  /** The closed shift's summary shown by the caller (the desk's screen drops the bar once it is closed). */
  onClosed?(shift: ShiftView): void;
}) {
  const { t } = useTranslation('stations');
  const price = usePrice();
  const time = useTime();
  const [dialog, setDialog] = useState<'cash' | 'close' | null>(null);
  const money = (n: number) => price(n, shift.currency);
  return (
    <Card withBorder padding="sm" data-testid="shift-bar">
      <Group justify="space-between" align="center" gap="sm" wrap="wrap">
        <Stack gap={2}>
          <Group gap="xs">
            <Badge color="teal" variant="light">
              {t('shift.title')}
            </Badge>
            <Text fw={600}>{pos.name}</Text>
          </Group>
          <Text size="xs" c="dimmed">
            {t('shift.openedBy', { name: shift.openedBy, time: time(shift.openedAt) })}
          </Text>
        </Stack>
        <Group gap="lg" wrap="wrap">
          <Figure label={t('shift.float')} value={money(shift.float)} />
          <Figure label={t('shift.cashSales')} value={money(shift.cashSales)} testId="shift-cash-sales" />
          {(shift.cashIn > 0 || shift.cashOut > 0) && (
            <Figure
              label={`${t('shift.cashIn')} / ${t('shift.cashOut')}`}
              value={`+${money(shift.cashIn)} / −${money(shift.cashOut)}`}
              testId="shift-cash-moves"
            />
          )}
          <Figure label={t('shift.expected')} value={money(shift.expected)} testId="shift-expected" strong />
        </Group>
        <Group gap="xs">
          <Button variant="light" onClick={() => setDialog('cash')} data-testid="shift-cash">
            {t('shift.cashTitle')}
          </Button>
          <Button variant="outline" color="red" onClick={() => setDialog('close')} data-testid="shift-close">
            {t('shift.close')}
          </Button>
        </Group>
      </Group>
      <CashDialog opened={dialog === 'cash'} pos={pos} shift={shift} onClose={() => setDialog(null)} />
      <CloseDialog
        opened={dialog === 'close'}
        pos={pos}
        shift={shift}
        onClose={() => setDialog(null)}
        {...(onClosed ? { onClosed } : {})}
      />
    </Card>
  );
}

function CashDialog({
  opened,
  pos,
  shift,
  onClose,
}: {
  opened: boolean;
  pos: StudioPos;
  shift: ShiftView;
  onClose(): void;
}) {
  const { t } = useTranslation('stations');
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const shiftError = useShiftError();
  const [kind, setKind] = useState<'in' | 'out'>('out');
  const [text, setText] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const amount = parseAmount(text);
  const station = usePosStation();

  const record = async () => {
    if (amount === null || amount <= 0) return setError({ i18nKey: 'shift.invalidAmount' });
    setBusy(true);
    setError(null);
    try {
      if (station) await station.cash({ kind, amount, reason });
      else await stationCalls.cash(api, studio, pos.id, shift.id, { id: uuidv7(), kind, amount, reason });
      await queryClient.invalidateQueries({
        queryKey: station ? posStationKeys.all : stationKeys.all(studio),
      });
      setText('');
      setReason('');
      onClose();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('shift.cashTitle')} centered>
      <Stack gap="sm">
        <SegmentedControl
          value={kind}
          onChange={(v) => setKind(v as 'in' | 'out')}
          data={[
            { value: 'in', label: t('shift.cashIn') },
            { value: 'out', label: t('shift.cashOut') },
          ]}
          data-testid="shift-cash-kind"
        />
        <TextInput
          label={t('shift.amount')}
          inputMode="decimal"
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          error={text && amount === null ? t('shift.invalidAmount') : undefined}
          rightSection={<Text size="xs">{shift.currency}</Text>}
          data-testid="shift-cash-amount"
          data-autofocus
        />
        <TextInput
          label={t('shift.reason')}
          value={reason}
          maxLength={200}
          onChange={(e) => setReason(e.currentTarget.value)}
          data-testid="shift-cash-reason"
        />
        {error !== null && (
          <Alert color="red" data-testid="shift-error">
            {shiftError(error)}
          </Alert>
        )}
        <Button onClick={() => void record()} loading={busy} data-testid="shift-cash-record">
          {t('shift.record')}
        </Button>
      </Stack>
    </Modal>
  );
}

function DifferenceText({ difference, currency }: { difference: number; currency: string }) {
  const { t } = useTranslation('stations');
  const price = usePrice();
  if (difference === 0)
    return (
      <Text c="teal.8" fw={700} data-testid="shift-difference">
        {t('shift.exact')}
      </Text>
    );
  const amount = price(Math.abs(difference), currency);
  return (
    <Text c={difference < 0 ? 'red.7' : 'orange.8'} fw={700} data-testid="shift-difference">
      {difference < 0 ? t('shift.short', { amount }) : t('shift.over', { amount })}
    </Text>
  );
}

function CloseDialog({
  opened,
  pos,
  shift,
  onClose,
  onClosed,
}: {
  opened: boolean;
  pos: StudioPos;
  shift: ShiftView;
  onClose(): void;
  onClosed?(shift: ShiftView): void;
}) {
  const { t } = useTranslation('stations');
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const shiftError = useShiftError();
  const price = usePrice();
  const [text, setText] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [closed, setClosed] = useState<ShiftView | null>(null);
  const counted = parseAmount(text);
  const station = usePosStation();
  const money = (n: number) => price(n, shift.currency);

  const close = async () => {
    if (counted === null) return setError({ i18nKey: 'shift.invalidAmount' });
    setBusy(true);
    setError(null);
    try {
      const result = station
        ? (await station.close({ counted, note })).shift
        : await stationCalls.close(api, studio, pos.id, shift.id, { counted, note });
      if (onClosed) {
        setText('');
        setNote('');
        onClose();
        onClosed(result);
      } else setClosed(result);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const done = async () => {
    setClosed(null);
    setText('');
    setNote('');
    onClose();
    await queryClient.invalidateQueries({ queryKey: station ? posStationKeys.all : stationKeys.all(studio) });
  };

  return (
    <Modal
      opened={opened}
      onClose={() => (closed ? void done() : onClose())}
      title={closed ? t('shift.closed') : t('shift.closeTitle')}
      centered
      size="md"
    >
      {closed ? (
        <ClosedSummary shift={closed} onNext={() => void done()} />
      ) : (
        <Stack gap="sm">
          <SimpleGrid cols={2} spacing="xs">
            <Figure label={t('shift.float')} value={money(shift.float)} />
            <Figure label={t('shift.cashSales')} value={money(shift.cashSales)} />
            <Figure label={t('shift.cashRefunds')} value={money(shift.cashRefunds)} />
            <Figure
              label={`${t('shift.cashIn')} / ${t('shift.cashOut')}`}
              value={`+${money(shift.cashIn)} / −${money(shift.cashOut)}`}
            />
          </SimpleGrid>
          <Group justify="space-between">
            <Text fw={600}>{t('shift.expected')}</Text>
            <Text fw={700} size="lg" data-testid="shift-close-expected">
              {money(shift.expected)}
            </Text>
          </Group>
          <TextInput
            label={t('shift.counted')}
            inputMode="decimal"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            error={text && counted === null ? t('shift.invalidAmount') : undefined}
            rightSection={<Text size="xs">{shift.currency}</Text>}
            data-testid="shift-counted"
            data-autofocus
          />
          {counted !== null && (
            <DifferenceText difference={counted - shift.expected} currency={shift.currency} />
          )}
          <TextInput
            label={t('shift.note')}
            value={note}
            maxLength={500}
            onChange={(e) => setNote(e.currentTarget.value)}
          />
          {error !== null && (
            <Alert color="red" data-testid="shift-error">
              {shiftError(error)}
            </Alert>
          )}
          <Button color="red" onClick={() => void close()} loading={busy} data-testid="shift-close-confirm">
            {t('shift.closeButton')}
          </Button>
        </Stack>
      )}
    </Modal>
  );
}

/** The closed shift's summary (counted against expected, by method, the daily report) until dismissed. */
export function ClosedShiftModal({ shift, onDone }: { shift: ShiftView | null; onDone(): void }) {
  const { t } = useTranslation('stations');
  return (
    <Modal opened={shift !== null} onClose={onDone} title={t('shift.closed')} centered size="md">
      {shift && <ClosedSummary shift={shift} onNext={onDone} />}
    </Modal>
  );
}

function ClosedSummary({ shift, onNext }: { shift: ShiftView; onNext(): void }) {
  const { t } = useTranslation('stations');
  const price = usePrice();
  const time = useTime();
  const money = (n: number) => price(n, shift.currency);
  return (
    <Stack gap="sm" data-testid="shift-closed">
      <Text size="sm" c="dimmed">
        {t('shift.closedAt', {
          name: shift.closedBy ?? '',
          time: shift.closedAt ? time(shift.closedAt) : '',
        })}
      </Text>
      <SimpleGrid cols={2} spacing="xs">
        <Figure label={t('shift.expected')} value={money(shift.expected)} />
        <Figure label={t('shift.counted')} value={money(shift.counted ?? 0)} testId="shift-closed-counted" />
        <Figure label={t('shift.sales')} value={shift.sales} />
        <Figure label={t('shift.cashSales')} value={money(shift.cashSales)} />
      </SimpleGrid>
      {shift.difference !== null && (
        <DifferenceText difference={shift.difference} currency={shift.currency} />
      )}
      {shift.byMethod.length > 0 && (
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            {t('shift.byMethod')}
          </Text>
          {shift.byMethod.map((m) => (
            <Group key={m.method} justify="space-between">
              <Text size="sm">{t(`enums:paymentMethod.${m.method}`)}</Text>
              <Text size="sm">{money(m.amount)}</Text>
            </Group>
          ))}
        </Stack>
      )}
      {shift.dailyReport && <Text size="sm">{t(`shift.dailyReport.${shift.dailyReport}`)}</Text>}
      <Button onClick={onNext} data-testid="shift-next">
        {t('shift.newShift')}
      </Button>
    </Stack>
  );
}
