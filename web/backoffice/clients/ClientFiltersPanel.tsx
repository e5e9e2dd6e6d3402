import {
  Button,
  Group,
  MultiSelect,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClientListInit } from '../../../shared/contracts/api/clients';
import {
  PANEL_DEFAULTS,
  isMonthDay,
  type ClientListFilters,
  type ClientStatusFilter,
} from './client-filters';

/**
 * The list's filter panel. Every change applies at once (the URL follows); a birthday range applies
 * when both of its days are complete, so half-typed days never refuse the list.
 */
export function ClientFiltersPanel({
  init,
  filters,
  onChange,
}: {
  init: ClientListInit;
  filters: ClientListFilters;
  /** A change: the filters it sets (the others stay as they are). */
  onChange(patch: Partial<ClientListFilters>): void;
}) {
  const { t } = useTranslation('clients');
  // The range's days as typed; the filter only takes complete ones.
  const [range, setRange] = useState(
    filters.birthday.kind === 'range'
      ? { from: filters.birthday.from, to: filters.birthday.to }
      : { from: '', to: '' },
  );
  const [birthdayKind, setBirthdayKind] = useState<'none' | 'thisMonth' | 'range'>(filters.birthday.kind);
  const setRangeDay = (end: 'from' | 'to', value: string) => {
    const next = { ...range, [end]: value };
    setRange(next);
    if (isMonthDay(next.from) && isMonthDay(next.to)) onChange({ birthday: { kind: 'range', ...next } });
    else if (filters.birthday.kind === 'range') onChange({ birthday: { kind: 'none' } });
  };
  const dayError = (value: string) => (value && !isMonthDay(value) ? t('filters.monthDayHint') : undefined);

  return (
    <Paper withBorder radius="md" p="md" data-testid="clients-filters">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="md">
          <Stack gap={6}>
            <MultiSelect
              label={t('filters.tags')}
              placeholder={filters.tagIds.length === 0 ? t('filters.anyTag') : undefined}
              data={init.tags.map((tag) => ({ value: tag.id, label: tag.name }))}
              value={filters.tagIds}
              onChange={(tagIds) => onChange({ tagIds })}
              searchable
              clearable
              maxValues={20}
              comboboxProps={{ withinPortal: true }}
              data-testid="clients-filter-tags"
            />
            {filters.tagIds.length > 1 ? (
              <SegmentedControl
                size="xs"
                value={filters.tagMode}
                onChange={(value) => onChange({ tagMode: value as 'any' | 'all' })}
                data={init.tagModes.map((mode) => ({ value: mode, label: t(`filters.tagModes.${mode}`) }))}
                data-testid="clients-filter-tag-mode"
              />
            ) : null}
          </Stack>
          <Select
            label={t('filters.status')}
            data={init.statuses.map((value) => ({ value, label: t(`status.${value}`) }))}
            value={filters.status}
            onChange={(value) => value && onChange({ status: value as ClientStatusFilter })}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-testid="clients-filter-status"
          />
          <Select
            label={t('filters.validPass')}
            data={[
              { value: 'either', label: t('filters.validPassEither') },
              { value: 'true', label: t('filters.validPassYes') },
              { value: 'false', label: t('filters.validPassNo') },
            ]}
            value={filters.hasValidPass === null ? 'either' : String(filters.hasValidPass)}
            onChange={(value) =>
              onChange({ hasValidPass: value === 'true' ? true : value === 'false' ? false : null })
            }
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-testid="clients-filter-pass"
          />
          <Stack gap={6}>
            <Select
              label={t('filters.birthday')}
              data={[
                { value: 'none', label: t('filters.birthdayAny') },
                ...init.birthdayFilters.map((value) => ({ value, label: t(`filters.birthdays.${value}`) })),
              ]}
              value={birthdayKind}
              onChange={(value) => {
                const kind = (value ?? 'none') as 'none' | 'thisMonth' | 'range';
                setBirthdayKind(kind);
                if (kind === 'range') {
                  if (isMonthDay(range.from) && isMonthDay(range.to))
                    onChange({ birthday: { kind, ...range } });
                  else if (filters.birthday.kind !== 'none') onChange({ birthday: { kind: 'none' } });
                } else onChange({ birthday: { kind } });
              }}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
              data-testid="clients-filter-birthday"
            />
            {birthdayKind === 'range' ? (
              <Group gap="xs" grow align="flex-start">
                <TextInput
                  aria-label={t('filters.birthdayFrom')}
                  placeholder={t('filters.birthdayFrom')}
                  value={range.from}
                  onChange={(event) => setRangeDay('from', event.currentTarget.value.trim())}
                  error={dayError(range.from)}
                  maxLength={5}
                  data-testid="clients-filter-birthday-from"
                />
                <TextInput
                  aria-label={t('filters.birthdayTo')}
                  placeholder={t('filters.birthdayTo')}
                  value={range.to}
                  onChange={(event) => setRangeDay('to', event.currentTarget.value.trim())}
                  error={dayError(range.to)}
                  maxLength={5}
                  data-testid="clients-filter-birthday-to"
                />
              </Group>
            ) : null}
          </Stack>
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              {t('filters.createdBetween')}
            </Text>
            <Group gap="xs" grow>
              <TextInput
                type="date"
                aria-label={t('filters.createdFrom')}
                value={filters.createdFrom}
                max={filters.createdTo || undefined}
                onChange={(event) => onChange({ createdFrom: event.currentTarget.value })}
                data-testid="clients-filter-created-from"
              />
              <TextInput
                type="date"
                aria-label={t('filters.createdTo')}
                value={filters.createdTo}
                min={filters.createdFrom || undefined}
                onChange={(event) => onChange({ createdTo: event.currentTarget.value })}
                data-testid="clients-filter-created-to"
              />
            </Group>
          </Stack>
        </SimpleGrid>
        <Group justify="flex-end">
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => {
              setRange({ from: '', to: '' });
              setBirthdayKind('none');
              onChange(PANEL_DEFAULTS);
            }}
            data-testid="clients-filters-clear"
          >
            {t('filters.clear')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
