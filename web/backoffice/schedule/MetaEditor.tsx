import {
  Alert,
  Button,
  Chip,
  Group,
  Loader,
  Modal,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEditorForm } from '../../ui/use-editor-form';
import type { ScheduleInit, ScheduleMetaView } from '../../../shared/contracts/api/schedule';
import { ISO_WEEKDAYS } from '../../../shared/domain/schedule/occurrences';
import { BookingAccessibility } from '../../../shared/enums/visits';
import { useApiClient } from '../../lib/app-context';
import { toFormErrors, type FormErrors } from '../../lib/form-errors';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useSubmitButton } from '../../ui/use-submit-button';
import { useBackoffice } from '../backoffice.api';
import {
  SCHEDULE_ERROR_OPTIONS,
  scheduleCalls,
  useInvalidateSchedule,
  useMeta,
  usePhone,
  useStudioUuid,
} from './schedule.api';
import { serviceName, todayIn, weekdayLabel } from '../../features/schedule/week';
import { formatMoney } from '../../lib/money';
import { CutoffInput } from './CutoffInput';

interface Values {
  classServiceId: string | null;
  locationId: string | null;
  roomId: string | null;
  instructorIds: string[];
  daysOfWeek: string[];
  startTime: string;
  durationMinutes: number | string;
  firstDate: string;
  lastDate: string;
  capacity: number | string;
  waitingListSize: number | string;
  cancellationCutoffMinutes: number | string;
  bookingOpensHours: number | string;
  bookableOnline: boolean;
  bookingAccessibility: string;
  bookingTagIds: string[];
  pricingOptionIds: string[];
}

/** Where and when a class clicked into the calendar starts (its empty time, its column). */
export interface MetaPrefill {
  date: string;
  startTime: string;
  durationMinutes?: number;
  locationId?: string | null;
  roomId?: string;
  instructorIds?: string[];
}

/** ISO weekday (1 Monday … 7 Sunday) of a calendar day. */
const isoWeekday = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay() || 7;

function initialValues(
  init: ScheduleInit,
  meta: ScheduleMetaView | undefined,
  prefill?: MetaPrefill,
): Values {
  const location = init.locations.find((l) => l.id === prefill?.locationId) ?? init.locations[0];
  const room =
    location?.rooms.find((r) => r.id === prefill?.roomId) ??
    (prefill?.locationId ? undefined : location?.rooms[0]);
  if (meta)
    return {
      classServiceId: meta.classService.id,
      locationId: meta.locationId,
      roomId: meta.roomId,
      instructorIds: meta.instructorIds,
      daysOfWeek: meta.daysOfWeek.map(String),
      startTime: meta.startTime,
      durationMinutes: meta.durationMinutes,
      firstDate: meta.firstDate,
      lastDate: meta.lastDate ?? '',
      capacity: meta.capacity,
      waitingListSize: meta.waitingListSize,
      cancellationCutoffMinutes: meta.cancellationCutoffMinutes,
      bookingOpensHours: meta.bookingOpensHours ?? '',
      bookableOnline: meta.bookableOnline,
      bookingAccessibility: String(meta.bookingAccessibility),
      bookingTagIds: meta.bookingTagIds,
      pricingOptionIds: meta.pricingOptions.map((p) => p.id),
    };
  const service = init.classServices[0];
  return {
    classServiceId: service?.id ?? null,
    locationId: location?.id ?? null,
    roomId: room?.id ?? null,
    instructorIds: prefill?.instructorIds ?? [],
    daysOfWeek: prefill ? [String(isoWeekday(prefill.date))] : [],
    startTime: prefill?.startTime ?? '18:00',
    durationMinutes: prefill?.durationMinutes ?? service?.durationMinutes ?? 60,
    firstDate: prefill?.date ?? todayIn(init.timeZone),
    lastDate: '',
    capacity: room?.capacity || 12,
    waitingListSize: 0,
    // The studio's booking defaults (Settings → Policies).
    cancellationCutoffMinutes: init.bookingDefaults.cancellationCutoffMinutes,
    bookingOpensHours: init.bookingDefaults.bookingOpensHours,
    bookableOnline: true,
    bookingAccessibility: String(BookingAccessibility.enabledForAll),
    bookingTagIds: [],
    pricingOptionIds: [],
  };
}

const num = (v: number | string) => (v === '' ? undefined : Number(v));

/** The recurring definition of a class: create one under a class service, or edit one (PATCH). */
export function MetaEditor({
  init,
  metaId,
  prefill,
  onClose,
  onSaved,
}: {
  init: ScheduleInit;
  metaId: string | null;
  /** A new class from the calendar's empty time: one-off by default, on that day and time. */
  prefill?: MetaPrefill;
  onClose(): void;
  onSaved(message: string): void;
}) {
  const { t } = useTranslation('schedule');
  const phone = usePhone();
  const meta = useMeta(metaId);
  return (
    <Modal
      opened
      onClose={onClose}
      title={t(metaId ? 'editor.editTitle' : prefill ? 'editor.newClassTitle' : 'editor.newTitle')}
      size="xl"
      fullScreen={phone}
    >
      {metaId && !meta.data ? (
        meta.error ? (
          <Alert color="red">{t('loadFailed')}</Alert>
        ) : (
          <Loader />
        )
      ) : (
        <MetaForm init={init} meta={meta.data} prefill={prefill} onSaved={onSaved} />
      )}
    </Modal>
  );
}

function MetaForm({
  init,
  meta,
  prefill,
  onSaved,
}: {
  init: ScheduleInit;
  meta?: ScheduleMetaView | undefined;
  prefill?: MetaPrefill | undefined;
  onSaved(message: string): void;
}) {
  const { t, i18n } = useTranslation('schedule');
  const desk = useTranslation('desk').t;
  const { studio: studioInfo } = useBackoffice();
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateSchedule();
  const button = useSubmitButton();
  const { values, set, patch } = useEditorForm<Values>(() => initialValues(init, meta, prefill));
  // A new class happens once (on its first date) or every chosen weekday: both are a series (meta)
  // to the API, a one-off one from its first date to the same date.
  const [repeat, setRepeat] = useState<'once' | 'weekly'>(prefill ? 'once' : 'weekly');
  const once = !meta && repeat === 'once';
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const errors: FormErrors = failure
    ? toFormErrors(failure.error, t, SCHEDULE_ERROR_OPTIONS)
    : { fields: {}, form: [] };
  const rooms = init.locations.find((l) => l.id === values.locationId)?.rooms ?? [];
  const tagged =
    values.bookingAccessibility === String(BookingAccessibility.disabledForTags) ||
    values.bookingAccessibility === String(BookingAccessibility.enabledForTags);
  const fieldError = (name: string) => errors.fields[name];
  // Errors for fields without an input here are shown at the top.
  const shown = new Set(['classServiceId', ...Object.keys(values)]);
  const orphan = Object.entries(errors.fields)
    .filter(([k]) => !shown.has(k.split('.')[0]!))
    .map(([, m]) => m);

  const payload = () => ({
    locationId: values.locationId ?? '',
    roomId: values.roomId,
    instructorIds: values.instructorIds,
    daysOfWeek: once
      ? values.firstDate
        ? [isoWeekday(values.firstDate)]
        : []
      : values.daysOfWeek.map(Number).sort((a, b) => a - b),
    startTime: values.startTime,
    durationMinutes: num(values.durationMinutes),
    firstDate: values.firstDate,
    lastDate: once ? values.firstDate || null : values.lastDate || null,
    capacity: num(values.capacity),
    waitingListSize: num(values.waitingListSize) ?? 0,
    cancellationCutoffMinutes: num(values.cancellationCutoffMinutes) ?? 0,
    bookingOpensHours: num(values.bookingOpensHours) ?? null,
    bookableOnline: values.bookableOnline,
    bookingAccessibility: Number(values.bookingAccessibility) as BookingAccessibility,
    bookingTagIds: tagged ? values.bookingTagIds : [],
    pricingOptionIds: values.pricingOptionIds,
  });

  const submit = () =>
    void button
      .run(async () => {
        setFailure(null);
        const calls = scheduleCalls(api, studio);
        if (meta) {
          await calls.updateMeta(meta.id, payload() as Parameters<typeof calls.updateMeta>[1]);
          return t('editor.saved');
        }
        const created = await calls.createMeta(
          values.classServiceId ?? '',
          payload() as Parameters<typeof calls.createMeta>[1],
        );
        // A new series shows up at once: its classes are generated for the coming weeks.
        const result = await calls.generate({ scheduleMetaIds: [created.id] });
        return once && result.created === 1
          ? t('editor.createdOnce')
          : t('editor.created', { count: result.created });
      })
      .then(async (outcome) => {
        if (!outcome.accepted) return;
        if (outcome.ok) {
          await invalidate();
          onSaved(outcome.value);
        } else setFailure({ error: outcome.error });
      });

  const remove = () =>
    void (async () => {
      if (!meta || !window.confirm(t('editor.deleteConfirm'))) return;
      try {
        await scheduleCalls(api, studio).deleteMeta(meta.id);
        await invalidate();
        onSaved(t('editor.deleted'));
      } catch (error) {
        setFailure({ error });
      }
    })();

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      data-testid="schedule-meta-form"
    >
      <Stack gap="sm">
        <FormErrorList errors={[...errors.form, ...orphan]} />
        <Select
          label={t('editor.classService')}
          data={init.classServices.map((s) => ({
            value: s.id,
            label: serviceName(s.name, i18n.language, studioInfo.defaultLocale),
          }))}
          value={values.classServiceId}
          onChange={(v) => {
            set('classServiceId', v);
            const service = init.classServices.find((s) => s.id === v);
            if (service && !meta) set('durationMinutes', service.durationMinutes);
          }}
          disabled={Boolean(meta)}
          allowDeselect={false}
          required
          data-testid="meta-class-service"
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('location')}
            data={init.locations.map((l) => ({ value: l.id, label: l.name }))}
            value={values.locationId}
            onChange={(v) => patch({ locationId: v, roomId: null })}
            error={fieldError('locationId')}
            allowDeselect={false}
            required
            data-testid="meta-location"
          />
          <Select
            label={t('room')}
            data={rooms.map((r) => ({ value: r.id, label: r.name }))}
            value={values.roomId}
            onChange={(v) => set('roomId', v)}
            error={fieldError('roomId')}
            clearable
            data-testid="meta-room"
          />
        </SimpleGrid>
        <MultiSelect
          label={t('instructors')}
          data={init.instructors.map((p) => ({ value: p.id, label: `${p.firstName} ${p.lastName}` }))}
          value={values.instructorIds}
          onChange={(v) => set('instructorIds', v)}
          error={fieldError('instructorIds')}
          searchable
          data-testid="meta-instructors"
        />
        {!meta && (
          <SegmentedControl
            value={repeat}
            onChange={(v) => setRepeat(v as 'once' | 'weekly')}
            data={[
              { value: 'once', label: t('editor.once') },
              { value: 'weekly', label: t('editor.weekly') },
            ]}
            aria-label={t('editor.repeat')}
            data-testid="meta-repeat"
          />
        )}
        <Stack gap={4} display={once ? 'none' : undefined}>
          <Text size="sm" fw={500}>
            {t('editor.days')}
          </Text>
          <Chip.Group multiple value={values.daysOfWeek} onChange={(v) => set('daysOfWeek', v)}>
            <Group gap={6} data-testid="meta-days">
              {ISO_WEEKDAYS.map((d) => (
                <Chip key={d} value={String(d)} size="sm" data-testid={`meta-day-${d}`}>
                  {weekdayLabel(d, i18n.language)}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          {fieldError('daysOfWeek') && (
            <Alert color="red" p={6}>
              {fieldError('daysOfWeek')}
            </Alert>
          )}
        </Stack>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <TextInput
            type="time"
            label={t('editor.startTime')}
            value={values.startTime}
            onChange={(e) => set('startTime', e.currentTarget.value)}
            error={fieldError('startTime')}
            required
            data-testid="meta-start-time"
          />
          <NumberInput
            label={t('editor.duration')}
            min={5}
            max={1440}
            value={values.durationMinutes}
            onChange={(v) => set('durationMinutes', v)}
            error={fieldError('durationMinutes')}
            data-testid="meta-duration"
          />
          <TextInput
            type="date"
            label={t(once ? 'editor.date' : 'editor.firstDate')}
            value={values.firstDate}
            onChange={(e) => set('firstDate', e.currentTarget.value)}
            error={fieldError('firstDate')}
            required
            data-testid="meta-first-date"
          />
          <TextInput
            type="date"
            label={t('editor.lastDate')}
            display={once ? 'none' : undefined}
            value={values.lastDate}
            onChange={(e) => set('lastDate', e.currentTarget.value)}
            error={fieldError('lastDate')}
            data-testid="meta-last-date"
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <NumberInput
            label={t('capacity')}
            min={1}
            max={1000}
            value={values.capacity}
            onChange={(v) => set('capacity', v)}
            error={fieldError('capacity')}
            data-testid="meta-capacity"
          />
          <NumberInput
            label={t('editor.waitingList')}
            min={0}
            max={1000}
            value={values.waitingListSize}
            onChange={(v) => set('waitingListSize', v)}
            error={fieldError('waitingListSize')}
            data-testid="meta-waiting-list"
          />
          <NumberInput
            label={t('editor.bookingOpens')}
            min={1}
            value={values.bookingOpensHours}
            onChange={(v) => set('bookingOpensHours', v)}
            error={fieldError('bookingOpensHours')}
          />
          <CutoffInput
            label={desk('cutoff.label')}
            minutes={values.cancellationCutoffMinutes}
            onChange={(v) => set('cancellationCutoffMinutes', v)}
            error={fieldError('cancellationCutoffMinutes')}
            testId="meta-cancellation-cutoff"
          />
        </SimpleGrid>
        <Switch
          label={t('editor.bookableOnline')}
          checked={values.bookableOnline}
          onChange={(e) => set('bookableOnline', e.currentTarget.checked)}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('editor.accessibility')}
            data={Object.values(BookingAccessibility).map((v) => ({
              value: String(v),
              label: t(`enums:bookingAccessibility.${v}`),
            }))}
            value={values.bookingAccessibility}
            onChange={(v) => set('bookingAccessibility', v ?? '1')}
            allowDeselect={false}
          />
          {tagged && (
            <MultiSelect
              label={t('editor.tags')}
              data={init.tags.map((tag) => ({ value: tag.id, label: tag.name }))}
              value={values.bookingTagIds}
              onChange={(v) => set('bookingTagIds', v)}
              error={fieldError('bookingTagIds')}
            />
          )}
        </SimpleGrid>
        <MultiSelect
          label={t('editor.pricingOptions')}
          data={init.pricingOptions.map((p) => ({
            value: p.id,
            label: `${serviceName(p.name, i18n.language, studioInfo.defaultLocale)} (${formatMoney(p.price, studioInfo.currency)})`,
          }))}
          value={values.pricingOptionIds}
          onChange={(v) => set('pricingOptionIds', v)}
          error={fieldError('pricingOptionIds')}
          searchable
        />
        <Group justify="space-between">
          {meta ? (
            <Button variant="subtle" color="red" onClick={remove} data-testid="meta-delete">
              {t('editor.delete')}
            </Button>
          ) : (
            <span />
          )}
          <SubmitButton state={button.state} data-testid="meta-submit">
            {t(meta ? 'editor.save' : once ? 'editor.createOnce' : 'editor.create')}
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}
