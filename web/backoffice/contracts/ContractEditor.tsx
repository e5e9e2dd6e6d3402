import { Paper, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useEditorForm } from '../../ui/use-editor-form';
import { useParams } from 'react-router-dom';
import type { ContractInit } from '../../../shared/contracts/api/contracts';
import { useApiClient } from '../../lib/app-context';
import { useStudio } from '../catalog/catalog.api';
import { LoadError, Loading } from '../catalog/CatalogScreen';
import {
  SellableEditorShell,
  BilingualTextFields,
  EditorSection,
  CoverageAndSalesSections,
  TaxSelect,
} from '../catalog/SellableEditorParts';
import { entitlementFieldNames } from '../catalog/EntitlementFields';
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
import {
  activationLabel,
  durationLabel,
  noticeLabel,
  pricePerPeriod,
  signUpFeeLabel,
} from '../../features/contracts/labels';
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
  'position',
];
function ContractEditor({ init }: { init: ContractInit }) {
  const { t, i18n } = useTranslation('contracts');
  const api = useApiClient();
  const studio = useStudio();
  const invalidate = useInvalidateContracts();
  const contract = init.contract;
  const isNew = contract === null;
  const { values, set, patch } = useEditorForm<ContractFormValues>(() =>
    contract ? formFromContract(contract, i18n.language) : emptyContractForm(),
  );
  const form = useContractSubmit([...FIELD_NAMES, ...entitlementFieldNames(values.timeWindows.length)]);
  const archive = useContractSubmit([]);
  const err = (path: string) => form.fieldErrors[path];

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

  const save = async () => {
    const mapped = contractPayload(values, { isNew });
    if (!mapped.ok) throw problemsError(t, mapped.fields);
    return isNew
      ? contractCalls.create(api, studio.uuid, mapped.payload)
      : contractCalls.update(api, studio.uuid, contract.id, mapped.payload);
  };

  return (
    <SellableEditorShell
      ns="contracts"
      testIdPrefix="contract"
      listPath="/contracts"
      item={contract}
      form={form}
      archive={archive}
      save={save}
      toggleArchive={async () =>
        contract && contractCalls.update(api, studio.uuid, contract.id, { archived: !contract.archived })
      }
      invalidate={invalidate}
    >
      <EditorSection title={t('editor.basics')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <BilingualTextFields
            ns="contracts"
            values={values}
            onChange={set}
            error={err}
            testIdPrefix="contract"
          />
        </SimpleGrid>
      </EditorSection>

      <EditorSection title={t('editor.billing')} hint={t('editor.billingHint', { zone: studio.timeZone })}>
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
          <TaxSelect
            ns="contracts"
            exemptKey="form.exempt"
            taxes={init.taxes}
            value={values.taxId}
            onChange={(v) => set('taxId', v)}
            error={err('taxId')}
            isNew={isNew}
            testId="contract-tax"
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
      </EditorSection>

      <EditorSection title={t('editor.duration')}>
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
      </EditorSection>

      <CoverageAndSalesSections
        ns="contracts"
        values={values}
        onChange={patch}
        init={init}
        error={err}
        testIdPrefix="contract"
      >
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
      </CoverageAndSalesSections>

      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md" bg="gray.0" data-testid="contract-summary">
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
    </SellableEditorShell>
  );
}
