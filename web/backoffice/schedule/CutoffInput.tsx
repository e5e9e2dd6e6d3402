import { Group, NativeSelect, NumberInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

type Unit = 'minutes' | 'hours' | 'days';
const FACTOR: Record<Unit, number> = { minutes: 1, hours: 60, days: 1440 };

/** The largest unit a stored number of minutes is a whole number of (720 → 12 hours, 2880 → 2 days). */
export function unitOf(minutes: number): Unit {
  if (minutes > 0 && minutes % 1440 === 0) return 'days';
  if (minutes % 60 === 0) return 'hours';
  return 'minutes';
}

/**
 * The free-cancellation window entered as people say it — "12 hours", "2 days" — not "720 minutes"
 * (issue 26). The API keeps minutes: the field converts both ways; the unit starts at the largest
 * one the stored value is whole in.
 */
export function CutoffInput({
  label,
  minutes,
  onChange,
  error,
  testId,
}: {
  label: string;
  minutes: number | string;
  onChange(minutes: number | string): void;
  error?: string | undefined;
  testId?: string;
}) {
  const { t } = useTranslation('desk');
  const total = typeof minutes === 'number' ? minutes : Number(minutes) || 0;
  const [unit, setUnit] = useState<Unit>(() => unitOf(total));
  const shown = minutes === '' ? '' : Math.round((total / FACTOR[unit]) * 100) / 100;
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <NumberInput
        label={label}
        min={0}
        value={shown}
        onChange={(v) => onChange(v === '' ? '' : Math.round(Number(v) * FACTOR[unit]))}
        error={error}
        style={{ flex: 1, minWidth: 0 }}
        data-testid={testId}
      />
      <NativeSelect
        aria-label={t('cutoff.unit')}
        value={unit}
        onChange={(e) => setUnit(e.currentTarget.value as Unit)}
        data={(['minutes', 'hours', 'days'] as const).map((u) => ({ value: u, label: t(`cutoff.${u}`) }))}
        data-testid={testId ? `${testId}-unit` : undefined}
        mb={error ? 22 : 0}
      />
    </Group>
  );
}
