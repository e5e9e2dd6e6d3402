import {
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEditorForm } from '../../ui/use-editor-form';
import { FISCAL_SLOTS, type FiscalSlot, type TaxView } from '../../../shared/contracts/api/catalog';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import {
  catalogCalls,
  percent,
  problemsError,
  useCan,
  useCatalogSubmit,
  useInvalidateCatalog,
  useStudio,
  useTaxes,
} from './catalog.api';
import { LoadError, Loading, usePhone } from './CatalogScreen';
import { bpToPercentText, taxPayload } from './pricing-option-form';

/**
 * Tax rates mapped to the fiscal printer's VAT slots A–G: one row per slot, so a manager sees which
 * slots are taken and which are free (a slot holds one rate).
 */
export function TaxesPanel() {
  const { t, i18n } = useTranslation('catalog');
  const phone = usePhone();
  const canEdit = useCan('settings.edit');
  const taxes = useTaxes();
  const [editing, setEditing] = useState<TaxView | { slot: FiscalSlot } | null>(null);
  if (taxes.error) return <LoadError error={taxes.error} onRetry={() => void taxes.refetch()} />;
  if (taxes.isPending) return <Loading />;
  const bySlot = new Map((taxes.data?.items ?? []).map((tax) => [tax.fiscalSlot, tax]));
  const taken = new Set(bySlot.keys());
  const free = FISCAL_SLOTS.filter((s) => !taken.has(s));
  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Text size="sm" c="dimmed" style={{ flex: 1, minWidth: 200 }}>
          {t('taxes.hint')}
        </Text>
        {canEdit && free.length > 0 ? (
          <Button onClick={() => setEditing({ slot: free[0]! })} fullWidth={phone} data-testid="tax-add">
            {t('taxes.add')}
          </Button>
        ) : null}
      </Group>
      <Paper withBorder radius="md">
        <Table verticalSpacing="xs" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={phone ? 56 : 90}>{t('taxes.slot')}</Table.Th>
              <Table.Th>{t('taxes.name')}</Table.Th>
              <Table.Th w={phone ? 70 : 110} ta="right">
                {t('taxes.rate')}
              </Table.Th>
              {phone ? null : <Table.Th w={120} />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {FISCAL_SLOTS.map((slot) => {
              const tax = bySlot.get(slot);
              const open = canEdit ? () => setEditing(tax ?? { slot }) : undefined;
              return (
                <Table.Tr
                  key={slot}
                  onClick={open}
                  style={{ cursor: open ? 'pointer' : undefined }}
                  data-testid="tax-row"
                  data-slot={slot}
                >
                  <Table.Td>
                    <Badge variant={tax ? 'filled' : 'outline'} color={tax ? 'blue' : 'gray'} radius="sm">
                      {slot}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {tax ? (
                      <Stack gap={2}>
                        <Text size="sm" fw={500}>
                          {tax.name}
                        </Text>
                        {phone && tax.isDefault ? (
                          <Badge size="xs" variant="light" color="green" w="fit-content">
                            {t('taxes.default')}
                          </Badge>
                        ) : null}
                      </Stack>
                    ) : (
                      <Text size="sm" c="dimmed">
                        {t('taxes.free')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">
                    {tax ? percent(tax.rateBp, i18n.language, t('taxes.exempt')) : ''}
                  </Table.Td>
                  {phone ? null : (
                    <Table.Td>
                      {tax?.isDefault ? (
                        <Badge variant="light" color="green">
                          {t('taxes.default')}
                        </Badge>
                      ) : null}
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Paper>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing && 'id' in editing ? t('taxes.editTitle') : t('taxes.newTitle')}
        fullScreen={phone}
      >
        {editing !== null ? (
          <TaxForm
            tax={'id' in editing ? editing : null}
            slot={'id' in editing ? editing.fiscalSlot : editing.slot}
            free={free}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Modal>
    </Stack>
  );
}

function TaxForm({
  tax,
  slot,
  free,
  onDone,
}: {
  tax: TaxView | null;
  slot: FiscalSlot;
  free: FiscalSlot[];
  onDone(): void;
}) {
  const { t, i18n } = useTranslation('catalog');
  const api = useApiClient();
  const studio = useStudio().uuid;
  const invalidate = useInvalidateCatalog();
  const { values, set } = useEditorForm(() => ({
    name: tax?.name ?? '',
    rate: tax && tax.rateBp !== null ? bpToPercentText(tax.rateBp, i18n.language) : '',
    exempt: tax ? tax.rateBp === null : false,
    fiscalSlot: slot as string,
    isDefault: tax?.isDefault ?? false,
  }));
  const form = useCatalogSubmit(['name', 'rateBp', 'fiscalSlot', 'isDefault']);
  const remove = useCatalogSubmit([]);
  const slots = [...new Set([slot, ...free])].sort();
  const done = (saved: unknown) => {
    if (saved === undefined) return;
    void invalidate();
    onDone();
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void form
          .run(async () => {
            const mapped = taxPayload(values);
            if (!mapped.ok) throw problemsError(t, mapped.fields);
            return tax
              ? catalogCalls.updateTax(api, studio, tax.id, mapped.payload)
              : catalogCalls.createTax(api, studio, mapped.payload);
          })
          .then(done);
      }}
      noValidate
      data-testid="tax-form"
    >
      <Stack gap="md">
        <FormErrorList errors={[...form.formErrors, ...remove.formErrors]} />
        <TextInput
          label={t('taxes.name')}
          placeholder="VAT 23%"
          value={values.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={form.fieldErrors.name}
          data-autofocus
          name="name"
        />
        <SimpleGrid cols={2}>
          <TextInput
            label={t('taxes.ratePercent')}
            value={values.exempt ? '' : values.rate}
            onChange={(e) => set('rate', e.currentTarget.value)}
            error={form.fieldErrors.rateBp}
            disabled={values.exempt}
            inputMode="decimal"
            rightSection={<Text size="sm">%</Text>}
            name="rateBp"
          />
          <Select
            label={t('taxes.slot')}
            data={slots}
            value={values.fiscalSlot}
            onChange={(v) => set('fiscalSlot', v ?? values.fiscalSlot)}
            error={form.fieldErrors.fiscalSlot}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-testid="tax-slot"
          />
        </SimpleGrid>
        <Checkbox
          label={t('taxes.exemptLabel')}
          checked={values.exempt}
          onChange={(e) => set('exempt', e.currentTarget.checked)}
        />
        <Checkbox
          label={t('taxes.defaultLabel')}
          description={t('taxes.defaultHint')}
          checked={values.isDefault}
          onChange={(e) => set('isDefault', e.currentTarget.checked)}
        />
        <Group justify="space-between">
          {tax ? (
            <SubmitButton
              type="button"
              variant="default"
              color="red"
              state={remove.state}
              onClick={() =>
                void remove
                  .run(async () => {
                    await catalogCalls.deleteTax(api, studio, tax.id);
                    return true;
                  })
                  .then(done)
              }
              data-testid="tax-delete"
            >
              {t('taxes.delete')}
            </SubmitButton>
          ) : (
            <span />
          )}
          <SubmitButton state={form.state} data-testid="tax-save">
            {t('form.save')}
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}
