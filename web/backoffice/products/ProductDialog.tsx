import {
  Badge,
  Button,
  Divider,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProductInit, ProductView } from '../../../shared/contracts/api/products';
import { parsePriceInput } from '../../../shared/domain/money';
import { checkBarcode } from '../../../shared/domain/products';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import {
  percent,
  productCalls,
  translated,
  useInvalidateProducts,
  useProductInit,
  useStudioUuid,
} from './products.api';
import { usePhone } from './ProductsScreen';

/** Create (`product` = 'new') or edit a product. */
export function ProductDialog({
  product,
  onClose,
}: {
  product: ProductView | 'new' | null;
  onClose(): void;
}) {
  const { t } = useTranslation('products');
  const phone = usePhone();
  const init = useProductInit();
  return (
    <Modal
      opened={product !== null}
      onClose={onClose}
      title={product === 'new' ? t('form.createTitle') : t('form.editTitle')}
      fullScreen={phone}
      size="lg"
    >
      {product && product !== 'new' && product.trackStock && init.data ? (
        <StockPanel key={`stock-${product.id}`} product={product} reasons={init.data.stockReasons} />
      ) : null}
      {product && init.data ? (
        <ProductForm
          key={product === 'new' ? 'new' : product.id}
          product={product}
          init={init.data}
          onDone={onClose}
        />
      ) : null}
    </Modal>
  );
}

/** Minor units as the form shows them ("12.50", "12,50" in Polish). */
function priceText(amount: number, language: string): string {
  const text = (amount / 100).toFixed(2).replace(/\.00$/, '');
  return language.startsWith('pl') ? text.replace('.', ',') : text;
}

function localError(field: string, message: string): ApiError {
  return new ApiError(400, {
    error: { code: 1000, key: 'request.invalid', message, fields: { [field]: [message] } },
  });
}

function ProductForm({
  product,
  init,
  onDone,
}: {
  product: ProductView | 'new';
  init: ProductInit;
  onDone(): void;
}) {
  const { t, i18n } = useTranslation('products');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateProducts();
  const existing = product === 'new' ? null : product;
  const form = useServerForm({
    initialValues: {
      name: existing?.name ?? '',
      description: existing?.description ?? '',
      categoryId: existing?.category?.id ?? '',
      price: existing ? priceText(existing.price, i18n.language) : '',
      taxId: existing?.tax.id ?? init.defaultTaxId ?? '',
      trackStock: existing?.trackStock ? 'true' : 'false',
      initialStock: '',
      barcode: existing?.barcode ?? '',
      sku: existing?.sku ?? '',
    },
    submit: (v) =>
      translated(t, async () => {
        // Checked here first so the message is instant and in the screen's language; the server checks again.
        if (v.barcode) {
          const check = checkBarcode(v.barcode);
          if (!check.valid)
            throw localError(
              'barcode',
              t(check.reason === 'checkDigit' ? 'errors.checkDigit' : 'errors.barcodeFormat'),
            );
        }
        const priceValue = parsePriceInput(v.price);
        if (priceValue === null) throw localError('price', t('errors.price'));
        const common = {
          name: v.name,
          description: v.description,
          categoryId: v.categoryId || null,
          price: priceValue,
          ...(v.taxId ? { taxId: v.taxId } : {}),
          trackStock: v.trackStock === 'true',
          barcode: v.barcode || null,
          sku: v.sku || null,
        };
        if (existing) return productCalls.updateProduct(api, studio, existing.id, common);
        const stock = v.initialStock.trim() === '' ? undefined : Number(v.initialStock);
        return productCalls.createProduct(api, studio, {
          ...common,
          ...(common.trackStock && stock !== undefined ? { initialStock: stock } : {}),
        });
      }),
    onSuccess: () => {
      void invalidate();
      onDone();
    },
  });

  const archive = async () => {
    if (!existing) return;
    await productCalls.updateProduct(api, studio, existing.id, { archived: existing.status === 'active' });
    void invalidate();
    onDone();
  };

  return (
    <form {...form.formProps} data-testid="product-form">
      <Stack gap="md">
        <FormErrorList errors={form.formErrors} />
        <TextInput
          {...form.getInputProps('name')}
          label={t('form.name')}
          required
          maxLength={init.fields.name.maxLength}
          data-autofocus
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            {...form.getInputProps('price')}
            label={t('form.price', { currency: init.currency })}
            inputMode="decimal"
            required
          />
          <Select
            name="taxId"
            label={t('form.tax')}
            data={init.taxes.map((tax) => ({
              value: tax.id,
              label: `${tax.name} (${tax.rateBp === null ? t('list.exempt') : percent(tax.rateBp, i18n.language)}, ${tax.fiscalSlot})`,
            }))}
            value={form.values.taxId || null}
            onChange={(value) => form.setValue('taxId', value ?? '')}
            error={form.fieldErrors.taxId}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
        <Select
          name="categoryId"
          label={t('form.category')}
          placeholder={t('list.uncategorized')}
          data={init.categories.map((c) => ({ value: c.id, label: c.name }))}
          value={form.values.categoryId || null}
          onChange={(value) => form.setValue('categoryId', value ?? '')}
          error={form.fieldErrors.categoryId}
          clearable
          comboboxProps={{ withinPortal: true }}
          data-testid="product-category"
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            {...form.getInputProps('barcode')}
            label={t('form.barcode')}
            description={t('form.barcodeHint')}
            inputMode="numeric"
          />
          <TextInput
            {...form.getInputProps('sku')}
            label={t('form.sku')}
            maxLength={init.fields.sku.maxLength}
          />
        </SimpleGrid>
        <Switch
          label={t('form.trackStock')}
          checked={form.values.trackStock === 'true'}
          onChange={(e) => form.setValue('trackStock', e.currentTarget.checked ? 'true' : 'false')}
          data-testid="product-track-stock"
        />
        {form.values.trackStock === 'true' && !existing ? (
          <TextInput
            {...form.getInputProps('initialStock')}
            label={t('form.initialStock')}
            inputMode="numeric"
            w={200}
          />
        ) : null}
        <Textarea
          {...(form.getInputProps('description') as object)}
          label={t('form.description')}
          autosize
          minRows={2}
          maxLength={init.fields.description.maxLength}
        />
        <Group justify={existing ? 'space-between' : 'flex-end'}>
          {existing ? (
            <Button
              variant="subtle"
              color={existing.status === 'active' ? 'red' : 'blue'}
              onClick={() => void archive()}
            >
              {existing.status === 'active' ? t('form.archive') : t('form.restore')}
            </Button>
          ) : null}
          <SubmitButton state={form.buttonState} data-testid="product-submit">
            {existing ? t('form.save') : t('form.create')}
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}

/** The stock of a tracked product and a form to record a delivery, an adjustment or a loss. */
function StockPanel({ product, reasons }: { product: ProductView; reasons: ProductInit['stockReasons'] }) {
  const { t } = useTranslation('products');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateProducts();
  const [stock, setStock] = useState(product.stock ?? 0);
  const form = useServerForm({
    initialValues: { quantity: '', reason: 'delivery' },
    submit: (v) =>
      translated(t, async () => {
        const magnitude = Number(v.quantity.trim());
        if (v.quantity.trim() === '' || !Number.isInteger(magnitude))
          throw localError('quantity', t('errors.number'));
        // A loss takes away whatever sign was typed; deliveries add; adjustments take the sign as typed.
        const quantity =
          v.reason === 'loss'
            ? -Math.abs(magnitude)
            : v.reason === 'delivery'
              ? Math.abs(magnitude)
              : magnitude;
        return productCalls.recordStock(api, studio, product.id, {
          quantity,
          reason: v.reason as 'delivery' | 'adjustment' | 'loss',
        });
      }),
    onSuccess: (result) => {
      setStock(result.product.stock ?? 0);
      form.setValue('quantity', '');
      void invalidate();
    },
    errorOptions: { messagesByKey: { 'product.stockNegative': 'products:errors.stockNegative' } },
  });
  return (
    <form {...form.formProps} data-testid="product-stock-form">
      <Stack gap="sm" mb="md">
        <Group gap="xs">
          <Text fw={600}>{t('stock.title')}</Text>
          <Badge variant="light" color={stock <= 0 ? 'red' : 'green'} data-testid="product-stock-now">
            {stock}
          </Badge>
        </Group>
        <FormErrorList errors={form.formErrors} />
        <Group align="flex-start" gap="sm" wrap="wrap">
          <Select
            name="reason"
            aria-label={t('stock.reason')}
            data={reasons.map((r) => ({ value: r, label: t(`stock.reasons.${r}`) }))}
            value={form.values.reason}
            onChange={(value) => form.setValue('reason', value ?? 'delivery')}
            allowDeselect={false}
            w={170}
            comboboxProps={{ withinPortal: true }}
            data-testid="product-stock-reason"
          />
          <TextInput
            {...form.getInputProps('quantity')}
            aria-label={t('stock.quantity')}
            placeholder={t('stock.quantity')}
            inputMode="numeric"
            w={120}
          />
          <SubmitButton state={form.buttonState} variant="light" data-testid="product-stock-submit">
            {t('stock.record')}
          </SubmitButton>
        </Group>
      </Stack>
      <Divider mb="md" />
    </form>
  );
}
