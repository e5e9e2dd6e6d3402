import { SegmentedControl, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PassChangeFormValues } from '../catalog/pricing-option-form';

/**
 * The inputs of one staff change of a pass (extend, freeze or entries) and its reason: shared by the
 * client's Passes tab and the manager tool's bulk change. Error paths are the PATCH payload's.
 */
export function PassChangeFields({
  values,
  onChange,
  errors,
  unlimited = false,
}: {
  values: PassChangeFormValues;
  onChange(v: PassChangeFormValues): void;
  errors: Record<string, string>;
  /** An unlimited pass has no entries to change. */
  unlimited?: boolean;
}) {
  const { t } = useTranslation('catalog');
  const set = (patch: Partial<PassChangeFormValues>) => onChange({ ...values, ...patch });
  const kinds = (['extend', 'freeze', 'entries'] as const).filter((k) => !(unlimited && k === 'entries'));
  return (
    <Stack gap="sm">
      <SegmentedControl
        value={values.kind}
        onChange={(v) => set({ kind: v as PassChangeFormValues['kind'] })}
        data={kinds.map((k) => ({ value: k, label: t(`change.kinds.${k}`) }))}
        fullWidth
        data-testid="change-kind"
      />
      {values.kind === 'extend' ? (
        <TextInput
          label={t('change.extendDays')}
          value={values.extendDays}
          onChange={(e) => set({ extendDays: e.currentTarget.value })}
          error={errors.extendDays}
          inputMode="numeric"
          data-testid="change-extend-days"
        />
      ) : null}
      {values.kind === 'freeze' ? (
        <SimpleGrid cols={2}>
          <TextInput
            type="date"
            label={t('change.freezeFrom')}
            value={values.freezeFrom}
            onChange={(e) => set({ freezeFrom: e.currentTarget.value })}
            error={errors['freeze.from']}
            data-testid="change-freeze-from"
          />
          <TextInput
            type="date"
            label={t('change.freezeTo')}
            value={values.freezeTo}
            onChange={(e) => set({ freezeTo: e.currentTarget.value })}
            error={errors['freeze.to']}
            data-testid="change-freeze-to"
          />
        </SimpleGrid>
      ) : null}
      {values.kind === 'entries' ? (
        <TextInput
          label={t('change.entriesDelta')}
          description={t('change.entriesDeltaHint')}
          value={values.entriesDelta}
          onChange={(e) => set({ entriesDelta: e.currentTarget.value })}
          error={errors.entriesDelta}
          data-testid="change-entries-delta"
        />
      ) : null}
      <TextInput
        label={t('change.reason')}
        placeholder={t('change.reasonPlaceholder')}
        value={values.note}
        onChange={(e) => set({ note: e.currentTarget.value })}
        error={errors.note}
        required
        data-testid="change-reason"
      />
    </Stack>
  );
}

export const EMPTY_CHANGE: PassChangeFormValues = {
  kind: 'extend',
  extendDays: '',
  freezeFrom: '',
  freezeTo: '',
  entriesDelta: '',
  note: '',
};
