import {
  Button,
  Checkbox,
  Chip,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { EntryService, EntryServiceInit } from '../../../shared/contracts/api/entries';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useEditorForm } from '../../ui/use-editor-form';
import { useStructuredSubmit } from '../../ui/use-structured-submit';
import { useSaveEntryService } from './entries.api';

const FIELDS = [
  'name',
  'name.en.value',
  'name.pl.value',
  'locationId',
  'maxEntriesPerDay',
  'capacity',
  'stayMinutes',
  'price',
  'openingHours',
  'openingHours.0.weekdays',
  'openingHours.0.fromMinutes',
  'openingHours.0.toMinutes',
];
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 0];
const toTime = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const toMinutes = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/**
 * Adds or edits an entry service: its name in both languages, location, limits (entries a day,
 * people at once, how long an entry counts as inside) and one weekly opening window ("always open"
 * sends none). A service saved elsewhere with several windows keeps them unless the window is edited.
 */
export function EntryServiceForm({
  service,
  init,
  onDone,
}: {
  service: EntryService | null;
  init: EntryServiceInit;
  onDone(): void;
}) {
  const { t } = useTranslation('entries');
  const save = useSaveEntryService();
  const window = service?.openingHours[0];
  const form = useEditorForm(() => ({
    en: service?.name.en?.value ?? '',
    pl: service?.name.pl?.value ?? '',
    locationId: service?.locationId ?? '',
    maxEntriesPerDay: service?.maxEntriesPerDay ?? ('' as number | ''),
    capacity: service?.capacity ?? ('' as number | ''),
    stayMinutes: service?.stayMinutes ?? init.defaults.stayMinutes,
    price: service?.price == null ? ('' as number | '') : service.price / 100,
    alwaysOpen: service ? service.openingHours.length === 0 : false,
    weekdays: window?.weekdays ?? [1, 2, 3, 4, 5],
    from: toTime(window?.fromMinutes ?? 360),
    to: toTime(window?.toMinutes ?? 1320),
    windowTouched: !service,
  }));
  const submit = useStructuredSubmit(FIELDS);
  const v = form.values;
  const onSubmit = async () => {
    const body = {
      name: { en: { value: v.en }, pl: { value: v.pl } },
      locationId: v.locationId || null,
      maxEntriesPerDay: v.maxEntriesPerDay === '' ? null : v.maxEntriesPerDay,
      capacity: v.capacity === '' ? null : v.capacity,
      stayMinutes: v.stayMinutes,
      price: v.price === '' ? null : Math.round(v.price * 100),
      ...(v.windowTouched || v.alwaysOpen !== (service?.openingHours.length === 0)
        ? {
            openingHours: v.alwaysOpen
              ? []
              : [{ weekdays: v.weekdays, fromMinutes: toMinutes(v.from), toMinutes: toMinutes(v.to) }],
          }
        : {}),
    };
    const saved = await submit.run(() => save(service?.id ?? null, body));
    if (saved) onDone();
  };
  const err = submit.fieldErrors;
  const touch = <K extends keyof typeof v>(key: K, value: (typeof v)[K]) =>
    form.patch({ [key]: value, windowTouched: true } as never);
  return (
    <Paper withBorder p="md" radius="md" data-testid="entry-service-form">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void onSubmit();
        }}
        noValidate
      >
        <Stack gap="sm">
          <Title order={3} size="h4">
            {service ? t('form.editTitle') : t('form.addTitle')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('form.namePl')}
              value={v.pl}
              onChange={(e) => form.set('pl', e.currentTarget.value)}
              error={err['name.pl.value'] ?? err.name}
              data-testid="entry-service-name-pl"
            />
            <TextInput
              label={t('form.nameEn')}
              value={v.en}
              onChange={(e) => form.set('en', e.currentTarget.value)}
              error={err['name.en.value']}
              data-testid="entry-service-name-en"
            />
          </SimpleGrid>
          <NativeSelect
            label={t('form.location')}
            value={v.locationId}
            onChange={(e) => form.set('locationId', e.currentTarget.value)}
            data={[
              { value: '', label: t('form.anyLocation') },
              ...init.locations.map((l) => ({ value: l.id, label: l.name })),
            ]}
            error={err.locationId}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput
              label={t('form.maxEntriesPerDay')}
              description={t('form.emptyNoLimit')}
              min={1}
              max={init.limits.maxEntriesPerDayMax}
              value={v.maxEntriesPerDay}
              onChange={(n) => form.set('maxEntriesPerDay', n === '' ? '' : Number(n))}
              error={err.maxEntriesPerDay}
              data-testid="entry-service-max-per-day"
            />
            <NumberInput
              label={t('form.capacity')}
              description={t('form.emptyNoLimit')}
              min={1}
              max={init.limits.capacityMax}
              value={v.capacity}
              onChange={(n) => form.set('capacity', n === '' ? '' : Number(n))}
              error={err.capacity}
              data-testid="entry-service-capacity"
            />
            <NumberInput
              label={t('form.stayMinutes')}
              description={t('form.stayHelp')}
              min={init.limits.stayMinutesMin}
              max={init.limits.stayMinutesMax}
              value={v.stayMinutes}
              onChange={(n) => form.set('stayMinutes', Number(n) || 0)}
              error={err.stayMinutes}
            />
            <NumberInput
              label={t('form.price')}
              description={t('form.priceHelp')}
              min={0}
              decimalScale={2}
              value={v.price}
              onChange={(n) => form.set('price', n === '' ? '' : Number(n))}
              error={err.price}
              data-testid="entry-service-price"
            />
          </SimpleGrid>
          <Checkbox
            label={t('form.alwaysOpen')}
            checked={v.alwaysOpen}
            onChange={(e) => touch('alwaysOpen', e.currentTarget.checked)}
            data-testid="entry-service-always-open"
          />
          {!v.alwaysOpen && (
            <Stack gap={6}>
              <Chip.Group
                multiple
                value={v.weekdays.map(String)}
                onChange={(days) => touch('weekdays', days.map(Number))}
              >
                <Group gap={6}>
                  {WEEKDAYS.map((d) => (
                    <Chip key={d} value={String(d)} size="xs">
                      {t(`weekdays.${d}`)}
                    </Chip>
                  ))}
                </Group>
              </Chip.Group>
              <Group grow>
                <TextInput
                  type="time"
                  label={t('form.from')}
                  value={v.from}
                  onChange={(e) => touch('from', e.currentTarget.value)}
                  error={err['openingHours.0.fromMinutes']}
                />
                <TextInput
                  type="time"
                  label={t('form.to')}
                  value={v.to}
                  onChange={(e) => touch('to', e.currentTarget.value)}
                  error={err['openingHours.0.toMinutes'] ?? err['openingHours.0.weekdays']}
                />
              </Group>
            </Stack>
          )}
          <FormErrorList errors={submit.formErrors} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>
              {t('form.cancel')}
            </Button>
            <SubmitButton type="submit" state={submit.state} data-testid="entry-service-save">
              {t('form.save')}
            </SubmitButton>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
