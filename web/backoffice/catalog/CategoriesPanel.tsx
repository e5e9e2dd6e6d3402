import { Badge, Button, Group, Modal, Paper, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PricingOptionCategoryView } from '../../../shared/contracts/api/catalog';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { useEditorForm } from '../../ui/use-editor-form';
import { SubmitButton } from '../../ui/SubmitButton';
import {
  catalogCalls,
  problemsError,
  useCan,
  useCatalogSubmit,
  useCategories,
  useInvalidateCatalog,
  useLocaleName,
  useStudio,
} from './catalog.api';
import { Empty, LoadError, Loading, usePhone } from './CatalogScreen';

/** Pricing-option categories: names in both languages, order, archiving. */
export function CategoriesPanel() {
  const { t } = useTranslation('catalog');
  const phone = usePhone();
  const canEdit = useCan('settings.edit');
  const name = useLocaleName();
  const categories = useCategories();
  const [editing, setEditing] = useState<PricingOptionCategoryView | 'new' | null>(null);
  if (categories.error)
    return <LoadError error={categories.error} onRetry={() => void categories.refetch()} />;
  const items = categories.data?.items ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="center">
        <Text size="sm" c="dimmed" style={{ flex: 1, minWidth: 200 }}>
          {t('categories.hint')}
        </Text>
        {canEdit ? (
          <Button onClick={() => setEditing('new')} fullWidth={phone} data-testid="category-add">
            {t('categories.add')}
          </Button>
        ) : null}
      </Group>
      {categories.isPending ? (
        <Loading />
      ) : items.length === 0 ? (
        <Empty text={t('categories.empty')} />
      ) : (
        <Paper withBorder radius="md">
          <Table verticalSpacing="xs" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('categories.name')}</Table.Th>
                <Table.Th w={90} ta="right">
                  {t('categories.position')}
                </Table.Th>
                <Table.Th w={110} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((c) => (
                <Table.Tr
                  key={c.id}
                  onClick={canEdit ? () => setEditing(c) : undefined}
                  style={{ cursor: canEdit ? 'pointer' : undefined }}
                  data-testid="category-row"
                >
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {name(c.name)}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {[c.name.en?.value, c.name.pl?.value].filter(Boolean).join(' · ')}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">{c.position}</Table.Td>
                  <Table.Td>
                    {c.archived ? (
                      <Badge color="gray" variant="light">
                        {t('list.archivedShort')}
                      </Badge>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('categories.newTitle') : t('categories.editTitle')}
        fullScreen={phone}
      >
        {editing !== null ? (
          <CategoryForm category={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        ) : null}
      </Modal>
    </Stack>
  );
}

function CategoryForm({ category, onDone }: { category: PricingOptionCategoryView | null; onDone(): void }) {
  const { t } = useTranslation('catalog');
  const api = useApiClient();
  const studio = useStudio().uuid;
  const invalidate = useInvalidateCatalog();
  const fields = useEditorForm(() => ({
    en: category?.name.en?.value ?? '',
    pl: category?.name.pl?.value ?? '',
    position: String(category?.position ?? 0),
  }));
  const { en, pl, position } = fields.values;
  const form = useCatalogSubmit(['name', 'position']);
  const archive = useCatalogSubmit([]);
  const save = () =>
    void form
      .run(async () => {
        const name: Record<string, { value: string }> = {};
        if (en.trim()) name.en = { value: en.trim() };
        if (pl.trim()) name.pl = { value: pl.trim() };
        const problems: Record<string, string[]> = {};
        if (!name.en && !name.pl) problems.name = ['errors.nameRequired'];
        if (!/^\d+$/.test(position.trim())) problems.position = ['errors.wholePositive'];
        if (Object.keys(problems).length) throw problemsError(t, problems);
        const body = { name, position: Number(position.trim()) };
        return category
          ? catalogCalls.updateCategory(api, studio, category.id, body)
          : catalogCalls.createCategory(api, studio, body);
      })
      .then((saved) => {
        if (!saved) return;
        void invalidate();
        onDone();
      });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
      noValidate
      data-testid="category-form"
    >
      <Stack gap="md">
        <FormErrorList errors={[...form.formErrors, ...archive.formErrors]} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('form.nameEn')}
            value={en}
            onChange={(e) => fields.set('en', e.currentTarget.value)}
            error={form.fieldErrors.name}
            name="name.en"
            data-autofocus
          />
          <TextInput
            label={t('form.namePl')}
            value={pl}
            onChange={(e) => fields.set('pl', e.currentTarget.value)}
            name="name.pl"
          />
        </SimpleGrid>
        <TextInput
          label={t('categories.position')}
          description={t('categories.positionHint')}
          value={position}
          onChange={(e) => fields.set('position', e.currentTarget.value)}
          error={form.fieldErrors.position}
          inputMode="numeric"
          w={160}
        />
        <Group justify="space-between">
          {category ? (
            <SubmitButton
              type="button"
              variant="default"
              state={archive.state}
              onClick={() =>
                void archive
                  .run(() =>
                    catalogCalls.updateCategory(api, studio, category.id, { archived: !category.archived }),
                  )
                  .then((saved) => {
                    if (!saved) return;
                    void invalidate();
                    onDone();
                  })
              }
              data-testid="category-archive"
            >
              {category.archived ? t('form.restore') : t('form.archive')}
            </SubmitButton>
          ) : (
            <span />
          )}
          <SubmitButton state={form.state} data-testid="category-save">
            {t('form.save')}
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}
