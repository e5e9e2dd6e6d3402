import {
  Anchor,
  Badge,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { ContractInit } from '../../../shared/contracts/api/contracts';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { percent, useCan, useLocaleName, useStudio } from '../catalog/catalog.api';
import { LoadError, Loading } from '../catalog/CatalogScreen';
import { EntitlementFields } from '../catalog/EntitlementFields';
import {
  contractPayload,
  emptyContractForm,
  formFromContract,
  type ContractFormValues,
} from './contract-form';
import {
  contractCalls,
  problemsError,
  useContractInit,
  useContractSubmit,
  useInvalidateContracts,
} from './contracts.api';
import { activationLabel, durationLabel, noticeLabel, pricePerPeriod, signUpFeeLabel } from './labels';
import { parsePriceInput } from '../../../shared/domain/money';

/** `#/contracts/new` and `#/contracts/:id`. */
export function ContractEditorScreen() {
  const { id } = useParams();
  const isNew = !id || id === 'new';
  const init = useContractInit(isNew ? undefined : id);
  if (init.error) return <LoadError error={init.error} onRetry={() => void init.refetch()} />;
  if (!init.data) return <Loading />;
  return <ContractEditor key={id ?? 'new'} init={init.data} />;
}

function Section({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  return (
    <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4">
            {title}
          </Title>
          {hint ? (
            <Text size="xs" c="dimmed">
              {hint}
            </Text>
          ) : null}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}

const FIELD_NAMES = [
  'name',
  'description',
  'price',
  'periodUnit',
  'periodLength',
  'durationPeriods',
  'activationType',
  'proRata',
  'noticePeriods',
  'signUpFee',
  'taxId',
  'serviceTypes',
  'restrictions.classServiceIds',
  'restrictions.locationIds',
  'restrictions.tagIds',
  'position',
];
const windowFields = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    ['weekdays', 'fromMinutes', 'toMinutes'].map((f) => `restrictions.timeWindows.${i}.${f}`),
  ).flat();

function ContractEditor({ init }: { init: ContractInit }) {
  const { t, i18n } = useTranslation('contracts');
  const api = useApiClient();
  const studio = useStudio();
  const navigate = useNavigate();
  const invalidate = useInvalidateContracts();
  const canEdit = useCan('settings.edit');
  const name = useLocaleName();
  const contract = init.contract;
  const isNew = contract === null;
  const [values, setValues] = useState<ContractFormValues>(() =>
    contract ? formFromContract(contract, i18n.language) : emptyContractForm(),
  );
  const set = <K extends keyof ContractFormValues>(key: K, value: ContractFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  const form = useContractSubmit([...FIELD_NAMES, ...windowFields(values.timeWindows.length)]);
  const archive = useContractSubmit([]);
  const err = (path: string) => form.fieldErrors[path];
  const taxLabel = (id: string) => {
    const tax = init.taxes.find((x) => x.id === id);
    return tax
      ? `${tax.name} (${percent(tax.rateBp, i18n.language, t('form.exempt'))}, ${tax.fiscalSlot})`
      : '';
  };
  const defaultTax = init.taxes.find((x) => x.isDefault);

  // The summary reads the terms as typed, so the manager sees what the client will be told.
  const periodLength = Number(values.periodLength) || 1;
  const summary = {
    price: parsePriceInput(values.price) ?? 0,
    currency: init.currency,
    periodUnit: values.periodUnit,
    periodLength,
    durationPeriods: values.openEnded ? null : Number(values.durationPeriods) || 1,
    noticePeriods: Number(values.noticePeriods) || 0,
    signUpFee: parsePriceInput(values.signUpFee) ?? 0,
    proRata: values.activationType === '1' && values.proRata,
    activationType: Number(values.activationType),
  };

  const save = () =>
    void form
      .run(async () => {
        const mapped = contractPayload(values, { isNew });
        if (!mapped.ok) throw problemsError(t, mapped.fields);
        return isNew
          ? contractCalls.create(api, studio.uuid, mapped.payload)
          : contractCalls.update(api, studio.uuid, contract.id, mapped.payload);
      })
      .then((saved) => {
        if (!saved) return;
        void invalidate();
        navigate('/contracts');
      });

  return (
    <Stack gap="md" maw={900} data-testid="contract-editor">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={2} miw={0}>
          <Anchor component={Link} to="/contracts" size="sm">
            ← {t('editor.back')}
          </Anchor>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {isNew ? t('editor.newTitle') : name(contract.name) || t('list.unnamed')}
          </Title>
        </Stack>
        {contract?.archived ? (
          <Badge color="gray" variant="light">
            {t('list.archivedShort')}
          </Badge>
        ) : null}
      </Group>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
        noValidate
        data-testid="contract-form"
      >
        <fieldset disabled={!canEdit} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack gap="md">
            <FormErrorList errors={form.formErrors} />
            <Section title={t('editor.basics')}>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label={t('form.nameEn')}
                  value={values.nameEn}
                  onChange={(e) => set('nameEn', e.currentTarget.value)}
                  error={err('name')}
                  name="nameEn"
                  data-testid="contract-name-en"
                />
                <TextInput
                  label={t('form.namePl')}
                  value={values.namePl}
                  onChange={(e) => set('namePl', e.currentTarget.value)}
                  name="namePl"
                  data-testid="contract-name-pl"
                />
                <Textarea
                  label={t('form.descriptionEn')}
                  value={values.descriptionEn}
                  onChange={(e) => set('descriptionEn', e.currentTarget.value)}
                  error={err('description')}
                  autosize
                  minRows={2}
                />
                <Textarea
                  label={t('form.descriptionPl')}
                  value={values.descriptionPl}
                  onChange={(e) => set('descriptionPl', e.currentTarget.value)}
                  autosize
                  minRows={2}
                />
              </SimpleGrid>
            </Section>

            <Section title={t('editor.billing')} hint={t('editor.billingHint', { zone: studio.timeZone })}>
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <TextInput
                  label={t('form.price', { currency: init.currency })}
                  value={values.price}
                  onChange={(e) => set('price', e.currentTarget.value)}
                  error={err('price')}
                  inputMode="decimal"
                  required
                  data-testid="contract-price"
                />
                <TextInput
                  label={t('form.periodLength')}
                  value={values.periodLength}
                  onChange={(e) => set('periodLength', e.currentTarget.value)}
                  error={err('periodLength')}
                  inputMode="numeric"
                  data-testid="contract-period-length"
                />
                <Select
                  label={t('form.periodUnit')}
                  data={init.periodUnits.map((u) => ({ value: u, label: t(`form.units.${u}`) }))}
                  value={values.periodUnit}
                  onChange={(v) => set('periodUnit', (v ?? 'month') as ContractFormValues['periodUnit'])}
                  error={err('periodUnit')}
                  allowDeselect={false}
                  comboboxProps={{ withinPortal: true }}
                  data-testid="contract-period-unit"
                />
                <Select
                  label={t('form.activationType')}
                  data={init.activationTypes.map((a) => ({ value: String(a.value), label: t(a.labelKey) }))}
                  value={values.activationType}
                  onChange={(v) => set('activationType', v ?? values.activationType)}
                  error={err('activationType')}
                  allowDeselect={false}
                  comboboxProps={{ withinPortal: true }}
                  data-testid="contract-activation"
                />
                <TextInput
                  label={t('form.signUpFee', { currency: init.currency })}
                  description={t('form.signUpFeeHint')}
                  value={values.signUpFee}
                  onChange={(e) => set('signUpFee', e.currentTarget.value)}
                  error={err('signUpFee')}
                  inputMode="decimal"
                  data-testid="contract-sign-up-fee"
                />
                <Select
                  label={t('form.tax')}
                  placeholder={
                    isNew && defaultTax
                      ? t('form.defaultTax', { tax: taxLabel(defaultTax.id) })
                      : t('form.noTax')
                  }
                  data={init.taxes.map((x) => ({ value: x.id, label: taxLabel(x.id) }))}
                  value={values.taxId || null}
                  onChange={(v) => set('taxId', v ?? '')}
                  error={err('taxId')}
                  clearable
                  comboboxProps={{ withinPortal: true }}
                  data-testid="contract-tax"
                />
              </SimpleGrid>
              <Text size="xs" c="dimmed">
                {t(`form.activationHint.${values.activationType}`)}
              </Text>
              {values.activationType === '1' ? (
                <Switch
                  label={t('form.proRata')}
                  checked={values.proRata}
                  onChange={(e) => set('proRata', e.currentTarget.checked)}
                  data-testid="contract-pro-rata"
                />
              ) : null}
            </Section>

            <Section title={t('editor.duration')}>
              <Switch
                label={t('form.openEnded')}
                checked={values.openEnded}
                onChange={(e) => set('openEnded', e.currentTarget.checked)}
                data-testid="contract-open-ended"
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                {values.openEnded ? null : (
                  <TextInput
                    label={t('form.durationPeriods')}
                    value={values.durationPeriods}
                    onChange={(e) => set('durationPeriods', e.currentTarget.value)}
                    error={err('durationPeriods')}
                    inputMode="numeric"
                    data-testid="contract-duration"
                  />
                )}
                <TextInput
                  label={t('form.noticePeriods')}
                  description={t('form.noticeHint')}
                  value={values.noticePeriods}
                  onChange={(e) => set('noticePeriods', e.currentTarget.value)}
                  error={err('noticePeriods')}
                  inputMode="numeric"
                  data-testid="contract-notice"
                />
              </SimpleGrid>
            </Section>

            <Section title={t('editor.entitlement')} hint={t('editor.entitlementHint')}>
              <EntitlementFields
                values={values}
                onChange={(patch) => setValues((v) => ({ ...v, ...patch }))}
                serviceTypes={init.serviceTypes}
                restrictions={init.restrictions}
                error={err}
              />
            </Section>

            <Section title={t('editor.sales')}>
              <Group gap="xl">
                <Switch
                  label={t('form.sellAtDesk')}
                  checked={values.sellAtDesk}
                  onChange={(e) => set('sellAtDesk', e.currentTarget.checked)}
                  data-testid="contract-sell-desk"
                />
                <Switch
                  label={t('form.sellOnline')}
                  checked={values.sellOnline}
                  onChange={(e) => set('sellOnline', e.currentTarget.checked)}
                  data-testid="contract-sell-online"
                />
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label={t('form.position')}
                  description={t('form.positionHint')}
                  value={values.position}
                  onChange={(e) => set('position', e.currentTarget.value)}
                  error={err('position')}
                  inputMode="numeric"
                />
              </SimpleGrid>
            </Section>

            <Paper
              withBorder
              p={{ base: 'sm', sm: 'lg' }}
              radius="md"
              bg="gray.0"
              data-testid="contract-summary"
            >
              <Stack gap={4}>
                <Text fw={600}>{t('editor.summary')}</Text>
                <Text size="sm">
                  {pricePerPeriod(t, summary, i18n.language)} · {durationLabel(t, summary)}
                </Text>
                <Text size="sm" c="dimmed">
                  {activationLabel(t, summary)} · {noticeLabel(t, summary)} ·{' '}
                  {signUpFeeLabel(t, summary, i18n.language)}
                </Text>
              </Stack>
            </Paper>
          </Stack>
        </fieldset>

        {canEdit ? (
          <Group justify="space-between" mt="md">
            {contract ? (
              <SubmitButton
                type="button"
                variant="default"
                state={archive.state}
                onClick={() =>
                  void archive
                    .run(() =>
                      contractCalls.update(api, studio.uuid, contract.id, { archived: !contract.archived }),
                    )
                    .then((saved) => {
                      if (!saved) return;
                      void invalidate();
                      navigate('/contracts');
                    })
                }
                data-testid="contract-archive"
              >
                {contract.archived ? t('form.restore') : t('form.archive')}
              </SubmitButton>
            ) : (
              <span />
            )}
            <SubmitButton state={form.state} data-testid="contract-save">
              {t('form.save')}
            </SubmitButton>
          </Group>
        ) : null}
        <FormErrorList errors={archive.formErrors} />
      </form>
    </Stack>
  );
}
