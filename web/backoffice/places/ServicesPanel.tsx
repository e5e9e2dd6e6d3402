import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  ColorInput,
  ColorSwatch,
  Group,
  Loader,
  Modal,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  ClassServiceInit,
  ClassServiceType,
  PlaceCategoryView,
  PlaceClassServiceView,
} from '../../../shared/contracts/api/places';
import { useApiClient } from '../../lib/app-context';
import { toFormErrors } from '../../lib/form-errors';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { numberOrText } from './LocationsPanel';
import {
  localeValue,
  PLACES_ERROR_OPTIONS,
  placesCalls,
  toLocaleText,
  translated,
  useCan,
  useCategories,
  useClassServiceInit,
  useClassServices,
  useInvalidatePlaces,
  usePhone,
  useStudioUuid,
  type PlacesStatus,
} from './places.api';

const SWATCHES = ['#7048e8', '#9c36b5', '#1098ad', '#f76707', '#37b24d', '#e03131', '#228be6', '#f59f00'];

/** Class services grouped by category, with the categories and experience levels they use. */
export function ServicesPanel() {
  const { t, i18n } = useTranslation('places');
  const can = useCan();
  const editable = can('settings.edit');
  const [status, setStatus] = useState<PlacesStatus>('active');
  const services = useClassServices(status);
  const init = useClassServiceInit();
  const [editing, setEditing] = useState<PlaceClassServiceView | 'new' | null>(null);
  const [categoriesOpen, setCategoriesOpen] = useState(false);
  const [levelsOpen, setLevelsOpen] = useState(false);
  const categories = init.data?.categories ?? [];
  const levels = new Map((init.data?.experienceLevels ?? []).map((l) => [l.id, l.name]));
  const groups = [
    ...categories.map((c) => ({ id: c.id, name: localeValue(c.name, i18n.language) })),
    { id: null, name: t('services.uncategorised') },
  ]
    .map((g) => ({ ...g, items: (services.data?.items ?? []).filter((s) => s.categoryId === g.id) }))
    .filter((g) => g.items.length > 0);

  return (
    <Stack gap="md" data-testid="services-panel">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <SegmentedControl
          value={status}
          onChange={(v) => setStatus(v as PlacesStatus)}
          data={[
            { value: 'active', label: t('status.active') },
            { value: 'archived', label: t('status.archived') },
          ]}
        />
        <Group gap="xs">
          <Button variant="default" onClick={() => setCategoriesOpen(true)} data-testid="categories-open">
            {t('categories.title')}
          </Button>
          <Button variant="default" onClick={() => setLevelsOpen(true)} data-testid="levels-open">
            {t('levels.title')}
          </Button>
          {editable && (
            <Button onClick={() => setEditing('new')} data-testid="service-add">
              {t('services.add')}
            </Button>
          )}
        </Group>
      </Group>
      {services.isLoading && <Loader aria-label={t('loading')} />}
      {services.error && <Alert color="red">{t('loadFailed')}</Alert>}
      {services.data?.items.length === 0 && (
        <Text c="dimmed">{status === 'active' ? t('services.empty') : t('services.emptyArchived')}</Text>
      )}
      {groups.map((group) => (
        <Stack key={group.id ?? 'none'} gap={6}>
          <Text fw={600} size="sm" c="dimmed" tt="uppercase">
            {group.name}
          </Text>
          {group.items.map((service) => (
            <Paper key={service.id} withBorder radius="md" p={0}>
              <UnstyledButton
                w="100%"
                p="sm"
                onClick={() => editable && setEditing(service)}
                disabled={!editable}
                data-testid="service-row"
              >
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Group gap="sm" wrap="nowrap" miw={0}>
                    <ColorSwatch color={service.color} size={18} />
                    <Text fw={500} lineClamp={1}>
                      {localeValue(service.name, i18n.language)}
                    </Text>
                  </Group>
                  <Group gap={6}>
                    <Badge variant="light" color={service.serviceType === 'course' ? 'grape' : 'blue'}>
                      {t(`services.type.${service.serviceType}`)}
                    </Badge>
                    <Badge variant="outline" color="gray">
                      {t('services.minutes', { count: service.durationMinutes })}
                    </Badge>
                    {service.freeOfCharge && (
                      <Badge variant="light" color="teal" data-testid="service-free-badge">
                        {t('services.free')}
                      </Badge>
                    )}
                    {service.defaultCapacity !== null && (
                      <Badge variant="outline" color="gray">
                        {t('rooms.capacityValue', { count: service.defaultCapacity })}
                      </Badge>
                    )}
                    {service.experienceLevelId && levels.get(service.experienceLevelId) && (
                      <Badge variant="outline" color="teal">
                        {levels.get(service.experienceLevelId)}
                      </Badge>
                    )}
                    {service.activeMetaCount > 0 && (
                      <Badge variant="dot" color="green">
                        {t('services.series', { count: service.activeMetaCount })}
                      </Badge>
                    )}
                  </Group>
                </Group>
              </UnstyledButton>
            </Paper>
          ))}
        </Stack>
      ))}
      {init.data && <ServiceDialog service={editing} init={init.data} onClose={() => setEditing(null)} />}
      <CategoriesDialog
        opened={categoriesOpen}
        onClose={() => setCategoriesOpen(false)}
        editable={editable}
      />
      {init.data && (
        <LevelsDialog
          opened={levelsOpen}
          onClose={() => setLevelsOpen(false)}
          init={init.data}
          editable={can('schedule.edit')}
        />
      )}
    </Stack>
  );
}

function ServiceDialog({
  service,
  init,
  onClose,
}: {
  service: PlaceClassServiceView | 'new' | null;
  init: ClassServiceInit;
  onClose(): void;
}) {
  const { t } = useTranslation('places');
  const phone = usePhone();
  return (
    <Modal
      opened={service !== null}
      onClose={onClose}
      title={service === 'new' ? t('services.createTitle') : t('services.editTitle')}
      fullScreen={phone}
      size="lg"
    >
      {service && (
        <ServiceForm
          key={service === 'new' ? 'new' : service.id}
          service={service}
          init={init}
          onDone={onClose}
        />
      )}
    </Modal>
  );
}

function ServiceForm({
  service,
  init,
  onDone,
}: {
  service: PlaceClassServiceView | 'new';
  init: ClassServiceInit;
  onDone(): void;
}) {
  const { t, i18n } = useTranslation('places');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidatePlaces();
  const existing = service === 'new' ? null : service;
  const [archiveError, setArchiveError] = useState<string | null>(null);
  const form = useServerForm({
    initialValues: {
      serviceType: existing?.serviceType ?? 'classroom',
      nameEn: existing?.name.en?.value ?? '',
      namePl: existing?.name.pl?.value ?? '',
      descriptionEn: existing?.description.en?.value ?? '',
      descriptionPl: existing?.description.pl?.value ?? '',
      durationMinutes: existing ? String(existing.durationMinutes) : '60',
      defaultCapacity: existing?.defaultCapacity != null ? String(existing.defaultCapacity) : '',
      color: existing?.color ?? SWATCHES[0]!,
      categoryId: existing?.categoryId ?? '',
      experienceLevelId: existing?.experienceLevelId ?? '',
      freeOfCharge: existing?.freeOfCharge ? 'yes' : '',
    },
    submit: (v) =>
      translated(t, () => {
        const common = {
          name: toLocaleText(v.nameEn, v.namePl),
          description: toLocaleText(v.descriptionEn, v.descriptionPl),
          durationMinutes: numberOrText(v.durationMinutes) as number,
          defaultCapacity: v.defaultCapacity === '' ? null : (numberOrText(v.defaultCapacity) as number),
          color: v.color,
          categoryId: v.categoryId || null,
          experienceLevelId: v.experienceLevelId || null,
          freeOfCharge: v.freeOfCharge === 'yes',
        };
        const calls = placesCalls(api, studio);
        return existing
          ? calls.updateService(existing.id, common)
          : calls.createService({ ...common, serviceType: v.serviceType as ClassServiceType });
      }),
    onSuccess: () => {
      void invalidate();
      onDone();
    },
    errorOptions: PLACES_ERROR_OPTIONS,
  });
  // The server names `name` when no language is filled: show it under both inputs.
  const nameError = form.fieldErrors.name;
  const categories = init.categories.filter((c) => !c.archived || c.id === existing?.categoryId);
  const levels = init.experienceLevels.filter((l) => l.serviceType === form.values.serviceType);

  const archive = async () => {
    if (!existing) return;
    setArchiveError(null);
    try {
      await placesCalls(api, studio).archiveService(existing.id, !existing.archived);
      await invalidate();
      onDone();
    } catch (error) {
      setArchiveError(toFormErrors(error, t, PLACES_ERROR_OPTIONS).form.join(' ') || t('errors.failed'));
    }
  };

  return (
    <form {...form.formProps} data-testid="service-form">
      <Stack gap="sm">
        <FormErrorList errors={form.formErrors} />
        {existing?.archived && <Alert color="gray">{t('services.archivedHint')}</Alert>}
        {!existing && (
          <SegmentedControl
            value={form.values.serviceType}
            onChange={(v) => {
              form.setValue('serviceType', v);
              form.setValue('experienceLevelId', '');
            }}
            data={init.serviceTypes.map((type) => ({ value: type, label: t(`services.type.${type}`) }))}
            data-testid="service-type"
          />
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            {...form.getInputProps('nameEn')}
            label={t('services.nameEn')}
            error={form.fieldErrors['name.en.value'] ?? nameError}
            data-autofocus
          />
          <TextInput
            {...form.getInputProps('namePl')}
            label={t('services.namePl')}
            error={form.fieldErrors['name.pl.value'] ?? nameError}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            {...form.getInputProps('durationMinutes')}
            label={t('services.duration')}
            inputMode="numeric"
            required
          />
          <TextInput
            {...form.getInputProps('defaultCapacity')}
            label={t('services.defaultCapacity')}
            description={t('services.defaultCapacityHint')}
            inputMode="numeric"
          />
          <ColorInput
            name="color"
            label={t('services.color')}
            value={form.values.color}
            onChange={(v) => form.setValue('color', v)}
            error={form.fieldErrors.color}
            swatches={SWATCHES}
            format="hex"
            popoverProps={{ withinPortal: true }}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            name="categoryId"
            label={t('services.category')}
            placeholder={t('services.uncategorised')}
            data={categories.map((c) => ({ value: c.id, label: localeValue(c.name, i18n.language) }))}
            value={form.values.categoryId || null}
            onChange={(v) => form.setValue('categoryId', v ?? '')}
            error={form.fieldErrors.categoryId}
            clearable
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            name="experienceLevelId"
            label={t('services.level')}
            placeholder={t('services.noLevel')}
            data={levels.map((l) => ({ value: l.id, label: l.name }))}
            value={form.values.experienceLevelId || null}
            onChange={(v) => form.setValue('experienceLevelId', v ?? '')}
            error={form.fieldErrors.experienceLevelId}
            clearable
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
        <Switch
          label={t('services.freeOfCharge')}
          description={t('services.freeOfChargeHint')}
          checked={form.values.freeOfCharge === 'yes'}
          onChange={(e) => form.setValue('freeOfCharge', e.currentTarget.checked ? 'yes' : '')}
          data-testid="service-free"
        />
        <Textarea
          {...(form.getInputProps('descriptionEn') as object)}
          label={t('services.descriptionEn')}
          autosize
          minRows={2}
        />
        <Textarea
          {...(form.getInputProps('descriptionPl') as object)}
          label={t('services.descriptionPl')}
          autosize
          minRows={2}
        />
        {archiveError && <FormErrorList errors={[archiveError]} />}
        <Group justify={existing ? 'space-between' : 'flex-end'}>
          {existing && (
            <Button
              variant="subtle"
              color={existing.archived ? 'blue' : 'red'}
              onClick={() => void archive()}
              data-testid="service-archive"
            >
              {existing.archived ? t('restore') : t('archive')}
            </Button>
          )}
          {!existing?.archived && (
            <SubmitButton state={form.buttonState} data-testid="service-submit">
              {existing ? t('save') : t('create')}
            </SubmitButton>
          )}
        </Group>
      </Stack>
    </form>
  );
}

function CategoriesDialog({
  opened,
  onClose,
  editable,
}: {
  opened: boolean;
  onClose(): void;
  editable: boolean;
}) {
  const { t, i18n } = useTranslation('places');
  const phone = usePhone();
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidatePlaces();
  const categories = useCategories();
  const [editing, setEditing] = useState<PlaceCategoryView | null>(null);
  const calls = placesCalls(api, studio);
  const form = useServerForm({
    initialValues: { en: '', pl: '' },
    submit: (v) =>
      translated(t, () =>
        editing
          ? calls.updateCategory(editing.id, { name: toLocaleText(v.en, v.pl) })
          : calls.createCategory({ name: toLocaleText(v.en, v.pl) }),
      ),
    onSuccess: () => {
      form.setValue('en', '');
      form.setValue('pl', '');
      setEditing(null);
      void invalidate();
    },
    errorOptions: PLACES_ERROR_OPTIONS,
  });
  const startEdit = (c: PlaceCategoryView) => {
    setEditing(c);
    form.setValue('en', c.name.en?.value ?? '');
    form.setValue('pl', c.name.pl?.value ?? '');
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('categories.title')} fullScreen={phone}>
      <Stack gap="md">
        <Stack gap={4} data-testid="categories-list">
          {categories.data?.items.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('categories.empty')}
            </Text>
          )}
          {(categories.data?.items ?? []).map((c) => (
            <Group key={c.id} justify="space-between" wrap="nowrap" gap="xs">
              <Text c={c.archived ? 'dimmed' : undefined} lineClamp={1}>
                {localeValue(c.name, i18n.language)}{' '}
                <Text span c="dimmed" size="sm">
                  ({t('categories.count', { count: c.serviceCount })})
                </Text>
              </Text>
              {editable && (
                <Group gap={4} wrap="nowrap">
                  {!c.archived && (
                    <Button variant="subtle" size="compact-xs" onClick={() => startEdit(c)}>
                      {t('edit')}
                    </Button>
                  )}
                  <Button
                    variant="subtle"
                    size="compact-xs"
                    color={c.archived ? 'blue' : 'red'}
                    onClick={() => void calls.archiveCategory(c.id, !c.archived).then(invalidate)}
                  >
                    {c.archived ? t('restore') : t('archive')}
                  </Button>
                </Group>
              )}
            </Group>
          ))}
        </Stack>
        {editable && (
          <form {...form.formProps} data-testid="category-form">
            <Stack gap="sm">
              <FormErrorList errors={form.formErrors} />
              <Text fw={600} size="sm">
                {editing ? t('categories.rename') : t('categories.add')}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  {...form.getInputProps('en')}
                  label={t('categories.nameEn')}
                  error={form.fieldErrors['name.en.value'] ?? form.fieldErrors.name}
                />
                <TextInput
                  {...form.getInputProps('pl')}
                  label={t('categories.namePl')}
                  error={form.fieldErrors['name.pl.value'] ?? form.fieldErrors.name}
                />
              </SimpleGrid>
              <Group justify="flex-end" gap="xs">
                {editing && (
                  <Button
                    variant="default"
                    onClick={() => {
                      setEditing(null);
                      form.setValue('en', '');
                      form.setValue('pl', '');
                    }}
                  >
                    {t('cancel')}
                  </Button>
                )}
                <SubmitButton state={form.buttonState} data-testid="category-submit">
                  {editing ? t('save') : t('categories.add')}
                </SubmitButton>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Modal>
  );
}

function LevelsDialog({
  opened,
  onClose,
  init,
  editable,
}: {
  opened: boolean;
  onClose(): void;
  init: ClassServiceInit;
  editable: boolean;
}) {
  const { t } = useTranslation('places');
  const phone = usePhone();
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidatePlaces();
  const [serviceType, setServiceType] = useState<ClassServiceType>('classroom');
  const [error, setError] = useState<string | null>(null);
  const levels = init.experienceLevels.filter((l) => l.serviceType === serviceType);
  const calls = placesCalls(api, studio);
  const run = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
      await invalidate();
    } catch (e) {
      setError(toFormErrors(e, t, PLACES_ERROR_OPTIONS).form.join(' ') || t('errors.failed'));
    }
  };
  const move = (index: number, by: number) => {
    const ids = levels.map((l) => l.id);
    const [id] = ids.splice(index, 1);
    ids.splice(index + by, 0, id!);
    void run(() => calls.reorderLevels(serviceType, ids));
  };
  const form = useServerForm({
    initialValues: { name: '' },
    submit: (v) => translated(t, () => calls.createLevel(serviceType, v.name)),
    onSuccess: () => {
      form.setValue('name', '');
      void invalidate();
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('levels.title')} fullScreen={phone}>
      <Stack gap="md">
        <SegmentedControl
          value={serviceType}
          onChange={(v) => setServiceType(v as ClassServiceType)}
          data={init.serviceTypes.map((type) => ({ value: type, label: t(`services.type.${type}`) }))}
        />
        <Text size="sm" c="dimmed">
          {t('levels.hint')}
        </Text>
        <Stack gap={4} data-testid="levels-list">
          {levels.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('levels.empty')}
            </Text>
          )}
          {levels.map((level, i) => (
            <Group key={level.id} justify="space-between" wrap="nowrap">
              <Text>
                {i + 1}. {level.name}
              </Text>
              {editable && (
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                    aria-label={t('levels.up', { name: level.name })}
                  >
                    ↑
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    disabled={i === levels.length - 1}
                    onClick={() => move(i, 1)}
                    aria-label={t('levels.down', { name: level.name })}
                  >
                    ↓
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    onClick={() => void run(() => calls.deleteLevel(level.id))}
                    aria-label={t('levels.delete', { name: level.name })}
                  >
                    ×
                  </ActionIcon>
                </Group>
              )}
            </Group>
          ))}
        </Stack>
        {error && <FormErrorList errors={[error]} />}
        {editable && (
          <form {...form.formProps}>
            <Stack gap="xs">
              <FormErrorList errors={form.formErrors} />
              <Group align="flex-end" gap="sm" wrap="nowrap">
                <TextInput {...form.getInputProps('name')} label={t('levels.name')} style={{ flex: 1 }} />
                <SubmitButton state={form.buttonState}>{t('levels.add')}</SubmitButton>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Modal>
  );
}
