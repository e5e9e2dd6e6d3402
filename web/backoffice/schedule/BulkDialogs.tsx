import { Alert, Button, Checkbox, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ScheduleEventView } from '../../../shared/contracts/api/schedule';
import { addLocalDays } from '../../../shared/domain/schedule/occurrences';
import { useApiClient } from '../../lib/app-context';
import { toFormErrors } from '../../lib/form-errors';
import { useBackoffice } from '../backoffice.api';
import { formatDay, formatTime, serviceName, todayIn } from '../../features/schedule/week';
import { localDateOf } from '../../../shared/domain/entitlements/local-dates';
import {
  SCHEDULE_ERROR_OPTIONS,
  scheduleCalls,
  useInvalidateSchedule,
  usePhone,
  useStudioUuid,
} from './schedule.api';

/** The server's default generation window: today and the next 55 days (schedule README). */
const GENERATION_DAYS = 55;

/** "Generate classes" adds many classes at once: said first, done on a second press. */
export function GenerateDialog({
  timeZone,
  onClose,
  onDone,
}: {
  timeZone: string;
  onClose(): void;
  onDone(message: string, ok: boolean): void;
}) {
  const { t, i18n } = useTranslation('schedule');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateSchedule();
  const [busy, setBusy] = useState(false);
  const until = formatDay(addLocalDays(todayIn(timeZone), GENERATION_DAYS), i18n.language, 'long');
  const run = async () => {
    setBusy(true);
    try {
      const result = await scheduleCalls(api, studio).generate();
      await invalidate();
      onDone(t('generated', { count: result.created }), true);
    } catch (error) {
      onDone(toFormErrors(error, t, SCHEDULE_ERROR_OPTIONS).form.join(' '), false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('generateConfirm.title')} data-testid="schedule-generate-dialog">
      <Stack gap="md">
        <Text size="sm">{t('generateConfirm.text', { until })}</Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('back')}
          </Button>
          <Button onClick={() => void run()} loading={busy} data-testid="schedule-generate-confirm">
            {t('generate')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Cancelling several classes (a closed studio, a sick instructor): tick the classes of the range on
 * screen that can still be cancelled, then confirm once more with how many and how many bookings.
 */
export function BulkCancelDialog({
  events,
  range,
  timeZone,
  onClose,
  onDone,
}: {
  events: ScheduleEventView[];
  range: string;
  timeZone: string;
  onClose(): void;
  onDone(message: string): void;
}) {
  const { t, i18n } = useTranslation('schedule');
  const api = useApiClient();
  const studio = useStudioUuid();
  const phone = usePhone();
  const { studio: studioInfo } = useBackoffice();
  const invalidate = useInvalidateSchedule();
  // The classes and range as they were when the dialog opened: the screen behind may change (a phone
  // narrows the week to a day) without changing what was ticked.
  const [{ open, title }] = useState(() => {
    const now = Date.now();
    return {
      open: events.filter((e) => e.status === 'scheduled' && Date.parse(e.endsAt) > now),
      title: range,
    };
  });
  const [chosen, setChosen] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const picked = open.filter((e) => chosen.includes(e.id));
  const booked = picked.reduce((sum, e) => sum + e.taken + e.waiting, 0);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      await scheduleCalls(api, studio).bulkAction(
        picked.map((e) => e.id),
        'cancel',
      );
      await invalidate();
      onDone(t('bulkCancel.done', { count: picked.length }));
    } catch (e) {
      setError(toFormErrors(e, t, SCHEDULE_ERROR_OPTIONS).form.join(' '));
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('bulkCancel.title', { range: title })}
      size="lg"
      fullScreen={phone}
      data-testid="schedule-bulk-cancel-dialog"
    >
      <Stack gap="sm">
        {error && <Alert color="red">{error}</Alert>}
        {open.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('bulkCancel.none')}
          </Text>
        ) : confirming ? (
          <Alert
            color="red"
            title={t('bulkCancel.confirmTitle', { count: picked.length })}
            data-testid="bulk-cancel-confirmation"
          >
            <Stack gap="sm">
              <Text size="sm">{t('bulkCancel.confirmText', { count: booked })}</Text>
              <Group justify="flex-end" gap="xs">
                <Button variant="default" onClick={() => setConfirming(false)}>
                  {t('back')}
                </Button>
                <Button
                  color="red"
                  loading={busy}
                  onClick={() => void run()}
                  data-testid="bulk-cancel-confirm"
                >
                  {t('bulkCancel.confirm', { count: picked.length })}
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : (
          <>
            <Checkbox
              label={t('bulkCancel.all', { count: open.length })}
              checked={picked.length === open.length}
              indeterminate={picked.length > 0 && picked.length < open.length}
              onChange={(e) => setChosen(e.currentTarget.checked ? open.map((x) => x.id) : [])}
              data-testid="bulk-cancel-all"
            />
            <ScrollArea.Autosize mah={phone ? undefined : 360}>
              <Stack gap={6}>
                {open.map((e) => (
                  <Checkbox
                    key={e.id}
                    checked={chosen.includes(e.id)}
                    onChange={(x) =>
                      setChosen((c) =>
                        x.currentTarget.checked ? [...c, e.id] : c.filter((id) => id !== e.id),
                      )
                    }
                    data-testid="bulk-cancel-item"
                    label={
                      <span style={{ overflowWrap: 'anywhere' }}>
                        {formatDay(localDateOf(new Date(e.startsAt), timeZone), i18n.language)}{' '}
                        {formatTime(e.startsAt, i18n.language, timeZone)} ·{' '}
                        <b>{serviceName(e.classService.name, i18n.language, studioInfo.defaultLocale)}</b> ·{' '}
                        {e.roomName ?? e.locationName} · {e.taken}/{e.capacity}
                      </span>
                    }
                  />
                ))}
              </Stack>
            </ScrollArea.Autosize>
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={onClose}>
                {t('back')}
              </Button>
              <Button
                color="red"
                disabled={picked.length === 0}
                onClick={() => setConfirming(true)}
                data-testid="bulk-cancel-submit"
              >
                {t('bulkCancel.submit', { count: picked.length })}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Modal>
  );
}
