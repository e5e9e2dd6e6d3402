import {
  ActionIcon,
  Button,
  Checkbox,
  Chip,
  Group,
  MultiSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { PricingOptionRestrictionInit } from '../../../shared/contracts/api/catalog';
import { weekdayName } from '../../features/catalog/labels';
import type { TimeWindowValues } from './sellable-form';

/** What a pass or a contract entitles to, as the form holds it. */
export interface EntitlementValues {
  serviceTypes: string[];
  classServiceIds: string[];
  locationIds: string[];
  tagIds: string[];
  timeWindows: TimeWindowValues[];
}

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 0];

/** The payload paths the entitlement block shows errors for, with one set per time window. */
export function entitlementFieldNames(timeWindowCount: number): string[] {
  return [
    'serviceTypes',
    'restrictions.classServiceIds',
    'restrictions.locationIds',
    'restrictions.tagIds',
    ...Array.from({ length: timeWindowCount }, (_, i) =>
      ['weekdays', 'fromMinutes', 'toMinutes'].map((f) => `restrictions.timeWindows.${i}.${f}`),
    ).flat(),
  ];
}

/**
 * The entitlement block of the pricing-option and contract editors: kinds of service, the services,
 * locations and client tags it is limited to, and days and hours. Both sell the same coverage (the
 * booking rule treats them alike), so both edit it with this one component; its texts are the
 * catalog namespace's. Field errors are looked up by the payload's paths (`restrictions.…`).
 */
export function EntitlementFields({
  values,
  onChange,
  serviceTypes,
  restrictions,
  error,
}: {
  values: EntitlementValues;
  onChange: (patch: Partial<EntitlementValues>) => void;
  serviceTypes: Array<{ value: string; labelKey: string }>;
  restrictions: PricingOptionRestrictionInit;
  error: (path: string) => ReactNode;
}) {
  const { t, i18n } = useTranslation('catalog');
  const chosen = new Set(values.serviceTypes);
  // Services of the kinds chosen, plus any already picked (so a change of kinds never hides them).
  const services = restrictions.classServices.filter(
    (s) => chosen.has(s.pricingOptionServiceType) || values.classServiceIds.includes(s.id),
  );
  const windows = values.timeWindows;
  return (
    <>
      <Checkbox.Group
        label={t('form.serviceTypes')}
        value={values.serviceTypes}
        onChange={(v) => onChange({ serviceTypes: v })}
        error={error('serviceTypes')}
      >
        <Group gap="md" mt={6}>
          {serviceTypes.map((s) => (
            <Checkbox key={s.value} value={s.value} label={t(s.labelKey)} />
          ))}
        </Group>
      </Checkbox.Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <MultiSelect
          label={t('form.classServices')}
          placeholder={values.classServiceIds.length ? undefined : t('form.anyService')}
          data={services.map((s) => ({ value: s.id, label: s.name }))}
          value={values.classServiceIds}
          onChange={(v) => onChange({ classServiceIds: v })}
          error={error('restrictions.classServiceIds')}
          searchable
          comboboxProps={{ withinPortal: true }}
        />
        <MultiSelect
          label={t('form.locations')}
          placeholder={values.locationIds.length ? undefined : t('form.anyLocation')}
          data={restrictions.locations.map((l) => ({ value: l.id, label: l.name }))}
          value={values.locationIds}
          onChange={(v) => onChange({ locationIds: v })}
          error={error('restrictions.locationIds')}
          searchable
          comboboxProps={{ withinPortal: true }}
        />
        <MultiSelect
          label={t('form.tags')}
          placeholder={values.tagIds.length ? undefined : t('form.anyClient')}
          data={restrictions.tags.map((x) => ({ value: x.id, label: x.name }))}
          value={values.tagIds}
          onChange={(v) => onChange({ tagIds: v })}
          error={error('restrictions.tagIds')}
          searchable
          comboboxProps={{ withinPortal: true }}
        />
      </SimpleGrid>
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          {t('form.timeWindows')}
        </Text>
        {windows.length === 0 ? (
          <Text size="xs" c="dimmed">
            {t('form.anyTime')}
          </Text>
        ) : null}
        {windows.map((w, i) => {
          const update = (patch: Partial<TimeWindowValues>) =>
            onChange({ timeWindows: windows.map((x, j) => (j === i ? { ...x, ...patch } : x)) });
          const prefix = `restrictions.timeWindows.${i}`;
          return (
            <Paper key={i} withBorder p="xs" radius="sm" data-testid="time-window">
              <Stack gap={6}>
                <Chip.Group
                  multiple
                  value={w.weekdays.map(String)}
                  onChange={(v) => update({ weekdays: v.map(Number) })}
                >
                  <Group gap={4}>
                    {WEEKDAYS.map((d) => (
                      <Chip key={d} value={String(d)} size="xs">
                        {weekdayName(d, i18n.language)}
                      </Chip>
                    ))}
                  </Group>
                </Chip.Group>
                {error(`${prefix}.weekdays`) ? (
                  <Text size="xs" c="red">
                    {error(`${prefix}.weekdays`)}
                  </Text>
                ) : null}
                <Group gap="xs" align="flex-start" wrap="nowrap">
                  <TextInput
                    type="time"
                    aria-label={t('form.from')}
                    value={w.from}
                    onChange={(e) => update({ from: e.currentTarget.value })}
                    error={error(`${prefix}.fromMinutes`)}
                    style={{ flex: 1 }}
                    data-testid="time-window-from"
                  />
                  <Text pt={6}>–</Text>
                  <TextInput
                    type="time"
                    aria-label={t('form.to')}
                    value={w.to === '24:00' ? '23:59' : w.to}
                    onChange={(e) => update({ to: e.currentTarget.value })}
                    error={error(`${prefix}.toMinutes`)}
                    style={{ flex: 1 }}
                    data-testid="time-window-to"
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mt={4}
                    aria-label={t('form.removeWindow')}
                    onClick={() => onChange({ timeWindows: windows.filter((_, j) => j !== i) })}
                  >
                    ×
                  </ActionIcon>
                </Group>
              </Stack>
            </Paper>
          );
        })}
        <Group>
          <Button
            variant="default"
            size="xs"
            onClick={() =>
              onChange({
                timeWindows: [...windows, { weekdays: [1, 2, 3, 4, 5], from: '06:00', to: '16:00' }],
              })
            }
            data-testid="add-time-window"
          >
            {t('form.addWindow')}
          </Button>
        </Group>
      </Stack>
    </>
  );
}
