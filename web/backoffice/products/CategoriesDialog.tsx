import { ActionIcon, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ProductsApi } from '../../../shared/contracts/http/products';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { productKeys, translated, useInvalidateProducts, useStudioUuid } from './products.api';
import { usePhone } from './ProductsScreen';

/** The studio's product categories: add one, or delete one that holds no active product. */
export function CategoriesDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation('products');
  const phone = usePhone();
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateProducts();
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const categories = useQuery({
    queryKey: [...productKeys.all(studio), 'categories'],
    queryFn: ({ signal }) =>
      api.call(ProductsApi.getProductCategoryCollection, { params: { uuid: studio }, signal }),
    enabled: opened,
  });
  const form = useServerForm({
    initialValues: { name: '' },
    submit: (v) =>
      translated(t, () =>
        api.call(ProductsApi.postProductCategory, {
          params: { uuid: studio },
          body: { name: v.name, position: categories.data?.items.length ?? 0 },
        }),
      ),
    onSuccess: () => {
      form.setValue('name', '');
      void invalidate();
    },
  });
  const remove = async (id: string) => {
    setDeleteError(null);
    try {
      await api.call(ProductsApi.deleteProductCategory, { params: { uuid: studio, productCategory: id } });
      void invalidate();
    } catch (error) {
      setDeleteError(
        error instanceof ApiError && error.status === 409 ? t('categories.inUse') : t('loadError'),
      );
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('categories.title')} fullScreen={phone}>
      <Stack gap="md">
        <Stack gap={4} data-testid="categories-list">
          {(categories.data?.items ?? []).map((c) => (
            <Group key={c.id} justify="space-between" wrap="nowrap">
              <Text>
                {c.name}{' '}
                <Text span c="dimmed" size="sm">
                  ({t('categories.count', { count: c.productCount })})
                </Text>
              </Text>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('categories.delete', { name: c.name })}
                onClick={() => void remove(c.id)}
              >
                ×
              </ActionIcon>
            </Group>
          ))}
        </Stack>
        {deleteError ? <FormErrorList errors={[deleteError]} /> : null}
        <form {...form.formProps} data-testid="category-form">
          <Stack gap="sm">
            <FormErrorList errors={form.formErrors} />
            <Group align="flex-end" gap="sm" wrap="nowrap">
              <TextInput {...form.getInputProps('name')} label={t('categories.name')} style={{ flex: 1 }} />
              <SubmitButton state={form.buttonState} data-testid="category-submit">
                {t('categories.add')}
              </SubmitButton>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Modal>
  );
}
