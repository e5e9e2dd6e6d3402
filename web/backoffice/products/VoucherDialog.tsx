import { Group, Modal, MultiSelect, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { VoucherView } from '../../../shared/contracts/api/products';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VoucherRestrictionInit } from '../../../shared/contracts/api/products';
import { resolveLocaleText, type LocaleText } from '../../../shared/domain/locale-text';
import { parsePriceInput } from '../../../shared/domain/money';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useSubmitButton } from '../../ui/use-submit-button';
import { VoucherRedemptions } from './VoucherRedemptions';
import { useBackoffice } from '../backoffice.api';
import {
  productCalls,
  translated,
  useInvalidateProducts,
  useRestrictionInit,
  useStudioUuid,
} from './products.api';
import { usePhone } from './ProductsScreen';

/**
 * Adds a voucher, or (with `voucher`) edits one: its terms, archive/restore, and the list of its
 * redemptions. Members without `settings.edit` see the voucher and its redemptions read-only.
 */
export function VoucherDialog({
  opened,
  onClose,
  voucher = null,
}: {
  opened: boolean;
  onClose(): void;
  voucher?: VoucherView | null;
}) {
  const { t } = useTranslation(['products', 'catalog']);
  const phone = usePhone();
  const init = useRestrictionInit(opened);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={voucher ? t('catalog:vouchers.editTitle', { code: voucher.code }) : t('voucherForm.title')}
      fullScreen={phone}
      size="lg"
    >
      {opened && init.data ? (
        <Stack gap="lg">
          <VoucherForm key={voucher?.id ?? 'new'} init={init.data} onDone={onClose} voucher={voucher} />
          {voucher ? <VoucherRedemptions voucher={voucher} /> : null}
        </Stack>
      ) : null}
    </Modal>
  );
}

const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text.trim()));

/** Minor units or basis points as typed in the value field: 1500 → "15", 1250 → "12.5". */
function valueText(value: number, language: string): string {
  const text = (value / 100).toString();
  return language.startsWith('pl') ? text.replace('.', ',') : text;
}

function VoucherForm({
  init,
  onDone,
  voucher,
}: {
  init: VoucherRestrictionInit;
  onDone(): void;
  voucher: VoucherView | null;
}) {
  const { t, i18n } = useTranslation('products');
  const api = useApiClient();
  const studio = useStudioUuid();
  const { studio: studioInfo } = useBackoffice();
  const invalidate = useInvalidateProducts();
  const canEdit = init.abilities.edit;
  const archive = useSubmitButton();
  const [categories, setCategories] = useState<string[]>(voucher?.targets.productCategoryIds ?? []);
  const [products, setProducts] = useState<string[]>(voucher?.targets.productIds ?? []);
  const [pricingOptions, setPricingOptions] = useState<string[]>(voucher?.targets.pricingOptionIds ?? []);
  const form = useServerForm({
    initialValues: {
      code: voucher?.code ?? '',
      description: voucher?.description ?? '',
      type: String(voucher?.type ?? 0),
      discountType: voucher?.discountType ?? 'amount',
      value: voucher ? valueText(voucher.value, i18n.language) : '',
      usageLimitTotal: voucher?.usageLimitTotal == null ? '' : String(voucher.usageLimitTotal),
      usageLimitPerClient: voucher?.usageLimitPerClient == null ? '' : String(voucher.usageLimitPerClient),
      validFrom: voucher?.validFrom ?? '',
      validTo: voucher?.validTo ?? '',
      appliesTo: voucher?.appliesTo ?? 'all',
    },
    submit: (v) =>
      translated(t, async () => {
        // Amounts in the studio's currency and percentages are both typed with up to two decimals:
        // "15" is 15 zł (1500 grosze) or 15 % (1500 basis points).
        const value = parsePriceInput(v.value);
        if (value === null) {
          const message = t('errors.number');
          throw new ApiError(400, {
            error: { code: 1000, key: 'request.invalid', message, fields: { value: [message] } },
          });
        }
        const selected = v.appliesTo === 'selected';
        const fields = {
          description: v.description,
          type: Number(v.type) as 0 | 1,
          discountType: v.discountType as 'amount' | 'percentage',
          value,
          usageLimitTotal: v.type === '1' ? numberOrNull(v.usageLimitTotal) : null,
          usageLimitPerClient: numberOrNull(v.usageLimitPerClient),
          validFrom: v.validFrom || null,
          validTo: v.validTo || null,
          appliesTo: v.appliesTo as 'all' | 'selected',
          ...(selected
            ? { productCategoryIds: categories, productIds: products, pricingOptionIds: pricingOptions }
            : { productCategoryIds: [], productIds: [], pricingOptionIds: [] }),
        };
        if (voucher)
          return productCalls.updateVoucher(api, studio, voucher.id, {
            ...fields,
            ...(v.code ? { code: v.code } : {}),
          });
        return productCalls.createVoucher(api, studio, { ...fields, code: v.code || null });
      }),
    onSuccess: () => {
      void invalidate();
      onDone();
    },
  });
  const select = (
    name: 'type' | 'discountType' | 'appliesTo',
    data: Array<{ value: string; label: string }>,
    label: string,
  ) => (
    <Select
      name={name}
      label={label}
      data={data}
      value={form.values[name]}
      onChange={(value) => form.setValue(name, value ?? form.values[name])}
      error={form.fieldErrors[name]}
      allowDeselect={false}
      comboboxProps={{ withinPortal: true }}
      data-testid={`voucher-${name}`}
    />
  );
  return (
    <form {...form.formProps} data-testid="voucher-form">
      <fieldset disabled={!canEdit} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="md">
          <FormErrorList errors={form.formErrors} />
          <TextInput
            {...form.getInputProps('code')}
            label={t('voucherForm.code')}
            description={t('voucherForm.codeHint')}
            data-autofocus
          />
          <TextInput {...form.getInputProps('description')} label={t('voucherForm.description')} />
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            {select(
              'type',
              init.voucherTypes.map((o) => ({ value: String(o.value), label: t(o.labelKey) })),
              t('voucherForm.type'),
            )}
            {select(
              'discountType',
              init.discountTypes.map((d) => ({ value: d, label: t(`voucherForm.discountTypes.${d}`) })),
              t('voucherForm.discountType'),
            )}
            <TextInput
              {...form.getInputProps('value')}
              label={
                form.values.discountType === 'amount'
                  ? t('voucherForm.amount', { currency: init.currency })
                  : t('voucherForm.percent')
              }
              inputMode="decimal"
              required
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput {...form.getInputProps('validFrom')} type="date" label={t('voucherForm.validFrom')} />
            <TextInput {...form.getInputProps('validTo')} type="date" label={t('voucherForm.validTo')} />
          </SimpleGrid>
          <Text size="xs" c="dimmed" mt={-8}>
            {t('voucherForm.timeZone', { zone: studioInfo.timeZone })}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {form.values.type === '1' ? (
              <TextInput
                {...form.getInputProps('usageLimitTotal')}
                label={t('voucherForm.usageLimitTotal')}
                placeholder={t('voucherForm.unlimited')}
                inputMode="numeric"
              />
            ) : null}
            <TextInput
              {...form.getInputProps('usageLimitPerClient')}
              label={t('voucherForm.usageLimitPerClient')}
              placeholder={t('voucherForm.unlimited')}
              inputMode="numeric"
            />
          </SimpleGrid>
          {select(
            'appliesTo',
            init.appliesTo.map((a) => ({ value: a, label: t(`voucherForm.appliesToOptions.${a}`) })),
            t('voucherForm.appliesTo'),
          )}
          {form.values.appliesTo === 'selected' ? (
            <Stack gap="sm">
              <MultiSelect
                label={t('voucherForm.categories')}
                data={init.productCategories.map((c) => ({ value: c.id, label: c.name }))}
                value={categories}
                onChange={setCategories}
                searchable
                comboboxProps={{ withinPortal: true }}
              />
              <MultiSelect
                label={t('voucherForm.products')}
                data={init.products.map((p) => ({ value: p.id, label: p.name }))}
                value={products}
                onChange={setProducts}
                searchable
                comboboxProps={{ withinPortal: true }}
              />
              <MultiSelect
                label={t('voucherForm.pricingOptions')}
                data={init.pricingOptions.map((o) => ({
                  value: o.id,
                  label:
                    resolveLocaleText(o.name as LocaleText, i18n.language, studioInfo.defaultLocale) || o.id,
                }))}
                value={pricingOptions}
                onChange={setPricingOptions}
                searchable
                comboboxProps={{ withinPortal: true }}
              />
            </Stack>
          ) : null}
          {canEdit ? (
            <Group justify="space-between">
              {voucher ? (
                <SubmitButton
                  type="button"
                  variant="default"
                  state={archive.state}
                  onClick={() =>
                    void archive
                      .run(() =>
                        productCalls.updateVoucher(api, studio, voucher.id, {
                          archived: voucher.status !== 'archived',
                        }),
                      )
                      .then((outcome) => {
                        if (outcome.accepted && outcome.ok) {
                          void invalidate();
                          onDone();
                        }
                      })
                  }
                  data-testid="voucher-archive"
                >
                  {voucher.status === 'archived' ? t('catalog:form.restore') : t('catalog:form.archive')}
                </SubmitButton>
              ) : (
                <span />
              )}
              <SubmitButton state={form.buttonState} data-testid="voucher-submit">
                {voucher ? t('catalog:form.save') : t('voucherForm.create')}
              </SubmitButton>
            </Group>
          ) : null}
        </Stack>
      </fieldset>
    </form>
  );
}
