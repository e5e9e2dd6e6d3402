import {
  ActionIcon,
  Button,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useEditorForm } from '../../ui/use-editor-form';
import { useParams } from 'react-router-dom';
import type { PricingOptionInit, PromotionView } from '../../../shared/contracts/api/catalog';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import {
  catalogCalls,
  formatDay,
  price,
  problemsError,
  useCan,
  useCatalogSubmit,
  useInvalidateCatalog,
  useLocaleName,
  usePricingOptionInit,
  useStudio,
} from './catalog.api';
import { LoadError, Loading } from './CatalogScreen';
import { entitlementFieldNames } from './EntitlementFields';
import {
  BilingualTextFields,
  CoverageAndSalesSections,
  EditorSection,
  SellableEditorShell,
  TaxSelect,
} from './SellableEditorParts';
import {
  emptyPricingOptionForm,
  formFromPricingOption,
  pricingOptionPayload,
  promotionPayload,
  validityFieldsOf,
  type PricingOptionFormValues,
  type PromotionFormValues,
} from './pricing-option-form';

/** `#/catalog/pricing-options/new` and `#/catalog/pricing-options/:id`. */
export function PricingOptionEditorScreen() {
  const { id } = useParams();
  const isNew = !id || id === 'new';
  const init = usePricingOptionInit(isNew ? undefined : id);
  if (init.error) return <LoadError error={init.error} onRetry={() => void init.refetch()} />;
  if (!init.data) return <Loading />;
  return <PricingOptionEditor key={id ?? 'new'} init={init.data} />;
}

/** A promotion typed for an option not saved yet: sent right after the option is created. */
type PendingPromotion = PromotionFormValues & { key: number };

function PricingOptionEditor({ init }: { init: PricingOptionInit }) {
  const { t, i18n } = useTranslation('catalog');
  const api = useApiClient();
  const studio = useStudio();
  const invalidate = useInvalidateCatalog();
  const name = useLocaleName();
  const option = init.pricingOption;
  const isNew = option === null;
  const { values, set, patch } = useEditorForm<PricingOptionFormValues>(() =>
    option ? formFromPricingOption(option, i18n.language) : emptyPricingOptionForm(),
  );
  const [pending, setPending] = useState<PendingPromotion[]>([]);
  const fieldNames = [
    'name',
    'description',
    'categoryId',
    'price',
    'taxId',
    'entries',
    'expirationType',
    'validityCount',
    'validityUnit',
    'validUntil',
    ...entitlementFieldNames(values.timeWindows.length),
    'limitPerClient',
    'shareLimit',
    'position',
  ];
  const form = useCatalogSubmit(fieldNames);
  const archive = useCatalogSubmit([]);
  const err = (path: string) => form.fieldErrors[path];
  const shown = validityFieldsOf(Number(values.expirationType));

  const save = async () => {
    const mapped = pricingOptionPayload(values, { isNew });
    if (!mapped.ok) throw problemsError(t, mapped.fields);
    for (const p of pending) {
      const promo = promotionPayload(p);
      if (!promo.ok) throw problemsError(t, { '': ['errors.promotionIncomplete'] });
    }
    if (!isNew) return catalogCalls.updateOption(api, studio.uuid, option.id, mapped.payload);
    const created = await catalogCalls.createOption(api, studio.uuid, mapped.payload);
    for (const p of pending) {
      const promo = promotionPayload(p);
      if (promo.ok) await catalogCalls.addPromotion(api, studio.uuid, created.id, promo.payload);
    }
    return created;
  };

  return (
    <SellableEditorShell
      ns="catalog"
      testIdPrefix="option"
      listPath="/catalog"
      item={option}
      form={form}
      archive={archive}
      save={save}
      toggleArchive={async () =>
        option && catalogCalls.updateOption(api, studio.uuid, option.id, { archived: !option.archived })
      }
      invalidate={invalidate}
      beforeActions={
        <EditorSection title={t('promotions.title')} hint={t('promotions.hint', { zone: studio.timeZone })}>
          {option ? (
            <SavedPromotions optionId={option.id} promotions={option.promotions} currency={init.currency} />
          ) : (
            <PendingPromotions pending={pending} onChange={setPending} currency={init.currency} />
          )}
        </EditorSection>
      }
    >
      <EditorSection title={t('editor.basics')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <BilingualTextFields
            ns="catalog"
            values={values}
            onChange={set}
            error={err}
            testIdPrefix="option"
          />
          <Select
            label={t('form.category')}
            placeholder={t('list.uncategorized')}
            data={init.categories.map((c) => ({ value: c.id, label: name(c.name) }))}
            value={values.categoryId || null}
            onChange={(v) => set('categoryId', v ?? '')}
            error={err('categoryId')}
            clearable
            comboboxProps={{ withinPortal: true }}
            data-testid="option-category"
          />
          <TextInput
            label={t('form.position')}
            description={t('form.positionHint')}
            value={values.position}
            onChange={(e) => set('position', e.currentTarget.value)}
            error={err('position')}
            inputMode="numeric"
          />
        </SimpleGrid>
      </EditorSection>

      <EditorSection title={t('editor.priceAndEntries')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('form.price', { currency: init.currency })}
            value={values.price}
            onChange={(e) => set('price', e.currentTarget.value)}
            error={err('price')}
            inputMode="decimal"
            required
            data-testid="option-price"
          />
          <TaxSelect
            ns="catalog"
            exemptKey="taxes.exempt"
            taxes={init.taxes}
            value={values.taxId}
            onChange={(v) => set('taxId', v)}
            error={err('taxId')}
            isNew={isNew}
            testId="option-tax"
          />
          <TextInput
            label={t('form.entries')}
            value={values.unlimited ? '' : values.entries}
            placeholder={values.unlimited ? t('terms.unlimited') : undefined}
            onChange={(e) => set('entries', e.currentTarget.value)}
            error={err('entries')}
            disabled={values.unlimited}
            inputMode="numeric"
            data-testid="option-entries"
          />
          <Switch
            mt={{ base: 0, sm: 30 }}
            label={t('form.unlimited')}
            checked={values.unlimited}
            onChange={(e) => set('unlimited', e.currentTarget.checked)}
            data-testid="option-unlimited"
          />
        </SimpleGrid>
      </EditorSection>

      <EditorSection title={t('editor.validity')}>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Select
            label={t('form.expirationType')}
            data={init.expirationTypes.map((x) => ({ value: String(x.value), label: t(x.labelKey) }))}
            value={values.expirationType}
            onChange={(v) => set('expirationType', v ?? values.expirationType)}
            error={err('expirationType')}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-testid="option-expiration"
          />
          {shown.count ? (
            <TextInput
              label={shown.count === 'months' ? t('form.months') : t('form.validityCount')}
              description={shown.count === 'months' ? t('form.monthsHint') : undefined}
              value={values.validityCount}
              onChange={(e) => set('validityCount', e.currentTarget.value)}
              error={err('validityCount')}
              inputMode="numeric"
              placeholder={shown.count === 'months' ? '1' : undefined}
              data-testid="option-validity-count"
            />
          ) : null}
          {shown.unit ? (
            <Select
              label={t('form.validityUnit')}
              data={init.validityUnits.map((u) => ({ value: u, label: t(`form.units.${u}`) }))}
              value={values.validityUnit}
              onChange={(v) => set('validityUnit', (v ?? 'day') as PricingOptionFormValues['validityUnit'])}
              error={err('validityUnit')}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
              data-testid="option-validity-unit"
            />
          ) : null}
          {shown.date ? (
            <TextInput
              type="date"
              label={t('form.validUntil')}
              value={values.validUntil}
              onChange={(e) => set('validUntil', e.currentTarget.value)}
              error={err('validUntil')}
              data-testid="option-valid-until"
            />
          ) : null}
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t(`form.expirationHint.${values.expirationType}`, { zone: studio.timeZone })}
        </Text>
      </EditorSection>

      <CoverageAndSalesSections
        ns="catalog"
        values={values}
        onChange={patch}
        init={init}
        error={err}
        testIdPrefix="option"
      >
        <LimitsAndSharing values={values} set={set} error={err} />
      </CoverageAndSalesSections>
    </SellableEditorShell>
  );
}

/** How often one client may buy the option, and whether it can be shared (and with how many). */
function LimitsAndSharing({
  values,
  set,
  error: err,
}: {
  values: PricingOptionFormValues;
  set<K extends keyof PricingOptionFormValues>(key: K, value: PricingOptionFormValues[K]): void;
  error(path: string): string | undefined;
}) {
  const { t } = useTranslation('catalog');
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('form.limitPerClient')}
          placeholder={t('form.noLimit')}
          value={values.limitPerClient}
          onChange={(e) => set('limitPerClient', e.currentTarget.value)}
          error={err('limitPerClient')}
          inputMode="numeric"
        />
      </SimpleGrid>
      <Switch
        label={t('form.shareable')}
        description={t('form.shareableHint')}
        checked={values.shareable}
        onChange={(e) => set('shareable', e.currentTarget.checked)}
      />
      {values.shareable ? (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('form.shareLimit')}
            placeholder={t('form.noLimit')}
            value={values.shareLimit}
            onChange={(e) => set('shareLimit', e.currentTarget.value)}
            error={err('shareLimit')}
            inputMode="numeric"
          />
        </SimpleGrid>
      ) : null}
    </>
  );
}

function PromotionFields({
  values,
  onChange,
  currency,
  errors = {},
}: {
  values: PromotionFormValues;
  onChange(v: PromotionFormValues): void;
  currency: string;
  errors?: Record<string, string>;
}) {
  const { t } = useTranslation('catalog');
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <TextInput
        label={t('promotions.price', { currency })}
        value={values.price}
        onChange={(e) => onChange({ ...values, price: e.currentTarget.value })}
        error={errors.price}
        inputMode="decimal"
        data-testid="promotion-price"
      />
      <TextInput
        type="date"
        label={t('promotions.startsOn')}
        value={values.startsOn}
        onChange={(e) => onChange({ ...values, startsOn: e.currentTarget.value })}
        error={errors.startsOn}
        data-testid="promotion-starts"
      />
      <TextInput
        type="date"
        label={t('promotions.endsOn')}
        value={values.endsOn}
        onChange={(e) => onChange({ ...values, endsOn: e.currentTarget.value })}
        error={errors.endsOn}
        data-testid="promotion-ends"
      />
    </SimpleGrid>
  );
}

function PromotionTable({
  rows,
  currency,
  onRemove,
}: {
  rows: Array<{ key: string; price: number | null; startsOn: string; endsOn: string; removing?: ReactNode }>;
  currency: string;
  onRemove?: (key: string) => void;
}) {
  const { t, i18n } = useTranslation('catalog');
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('promotions.none')}
      </Text>
    );
  return (
    <Table verticalSpacing={4}>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.key} data-testid="promotion-row">
            <Table.Td fw={600} style={{ whiteSpace: 'nowrap' }}>
              {r.price === null ? '—' : price(r.price, currency, i18n.language)}
            </Table.Td>
            <Table.Td>
              {r.startsOn ? formatDay(r.startsOn, i18n.language) : '…'} –{' '}
              {r.endsOn ? formatDay(r.endsOn, i18n.language) : '…'}
            </Table.Td>
            <Table.Td w={40}>
              {r.removing ??
                (onRemove ? (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('promotions.remove')}
                    onClick={() => onRemove(r.key)}
                  >
                    ×
                  </ActionIcon>
                ) : null)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

const EMPTY_PROMOTION: PromotionFormValues = { price: '', startsOn: '', endsOn: '' };

function PendingPromotions({
  pending,
  onChange,
  currency,
}: {
  pending: PendingPromotion[];
  onChange(p: PendingPromotion[]): void;
  currency: string;
}) {
  const { t } = useTranslation('catalog');
  const [draft, setDraft] = useState<PromotionFormValues>(EMPTY_PROMOTION);
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <Stack gap="sm">
      <PromotionTable
        rows={pending.map((p) => {
          const mapped = promotionPayload(p);
          return {
            key: String(p.key),
            price: mapped.ok ? mapped.payload.price : null,
            startsOn: p.startsOn,
            endsOn: p.endsOn,
          };
        })}
        currency={currency}
        onRemove={(key) => onChange(pending.filter((p) => String(p.key) !== key))}
      />
      <PromotionFields values={draft} onChange={setDraft} currency={currency} errors={errors} />
      <Group>
        <Button
          variant="default"
          size="xs"
          onClick={() => {
            const mapped = promotionPayload(draft);
            if (!mapped.ok) {
              setErrors(Object.fromEntries(Object.entries(mapped.fields).map(([k, v]) => [k, t(v[0]!)])));
              return;
            }
            setErrors({});
            onChange([...pending, { ...draft, key: Date.now() }]);
            setDraft(EMPTY_PROMOTION);
          }}
          data-testid="promotion-add"
        >
          {t('promotions.add')}
        </Button>
      </Group>
      {pending.length > 0 ? (
        <Text size="xs" c="dimmed">
          {t('promotions.sentWithOption')}
        </Text>
      ) : null}
    </Stack>
  );
}

function SavedPromotions({
  optionId,
  promotions,
  currency,
}: {
  optionId: string;
  promotions: PromotionView[];
  currency: string;
}) {
  const { t } = useTranslation('catalog');
  const api = useApiClient();
  const studio = useStudio().uuid;
  const canEdit = useCan('settings.edit');
  const invalidate = useInvalidateCatalog();
  const [draft, setDraft] = useState<PromotionFormValues>(EMPTY_PROMOTION);
  const add = useCatalogSubmit(['price', 'startsOn', 'endsOn']);
  const [removing, setRemoving] = useState<string | null>(null);
  return (
    <Stack gap="sm">
      <PromotionTable
        rows={[...promotions]
          .sort((a, b) => a.startsOn.localeCompare(b.startsOn))
          .map((p) => ({ key: p.id, price: p.price, startsOn: p.startsOn, endsOn: p.endsOn }))}
        currency={currency}
        onRemove={
          canEdit
            ? (key) => {
                if (removing) return;
                setRemoving(key);
                void catalogCalls
                  .deletePromotion(api, studio, optionId, key)
                  .then(() => invalidate())
                  .finally(() => setRemoving(null));
              }
            : undefined
        }
      />
      {canEdit ? (
        <>
          <FormErrorList errors={add.formErrors} />
          <PromotionFields values={draft} onChange={setDraft} currency={currency} errors={add.fieldErrors} />
          <Group>
            <SubmitButton
              type="button"
              variant="default"
              size="xs"
              state={add.state}
              onClick={() =>
                void add
                  .run(async () => {
                    const mapped = promotionPayload(draft);
                    if (!mapped.ok) throw problemsError(t, mapped.fields);
                    return catalogCalls.addPromotion(api, studio, optionId, mapped.payload);
                  })
                  .then((saved) => {
                    if (!saved) return;
                    setDraft(EMPTY_PROMOTION);
                    void invalidate();
                  })
              }
              data-testid="promotion-add"
            >
              {t('promotions.add')}
            </SubmitButton>
          </Group>
        </>
      ) : null}
    </Stack>
  );
}
