import {
  Anchor,
  Badge,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { TaxView } from '../../../shared/contracts/api/catalog';
import type { SubmitButtonState } from '../../ui/submit-button-machine';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { percent, useCan, useLocaleName } from './catalog.api';
import { EntitlementFields, type EntitlementValues } from './EntitlementFields';
import type { PricingOptionRestrictionInit } from '../../../shared/contracts/api/catalog';

/**
 * The frame both sellable editors share — the pricing-option (pass) editor and the contract editor:
 * sections, the header with its back link, the bilingual name and description, the VAT rate and the
 * archive/save bar. Each editor keeps its own fields and texts: `ns` is the editor's i18next
 * namespace, whose `form.*`, `editor.back` and `list.*` keys these parts read.
 */
export type EditorNamespace = 'catalog' | 'contracts';

export function EditorSection({
  title,
  hint,
  children,
}: {
  title: string;
  hint?: string;
  children: ReactNode;
}) {
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

function EditorHeader({
  ns,
  backTo,
  title,
  archived,
}: {
  ns: EditorNamespace;
  backTo: string;
  /** The item's name; null for a new one (the editor's "new" title), '' for an unnamed one. */
  title: string | null;
  archived: boolean;
}) {
  const { t } = useTranslation(ns);
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap">
      <Stack gap={2} miw={0}>
        <Anchor component={Link} to={backTo} size="sm">
          ← {t('editor.back')}
        </Anchor>
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {title === null ? t('editor.newTitle') : title || t('list.unnamed')}
        </Title>
      </Stack>
      {archived ? (
        <Badge color="gray" variant="light">
          {t('list.archivedShort')}
        </Badge>
      ) : null}
    </Group>
  );
}

export interface BilingualTextValues {
  nameEn: string;
  namePl: string;
  descriptionEn: string;
  descriptionPl: string;
}

/** Name and description in English and Polish; errors come on the payload's `name`/`description`. */
export function BilingualTextFields({
  ns,
  values,
  onChange,
  error,
  testIdPrefix,
}: {
  ns: EditorNamespace;
  values: BilingualTextValues;
  onChange(key: keyof BilingualTextValues, value: string): void;
  error(path: string): string | undefined;
  testIdPrefix: string;
}) {
  const { t } = useTranslation(ns);
  return (
    <>
      <TextInput
        label={t('form.nameEn')}
        value={values.nameEn}
        onChange={(e) => onChange('nameEn', e.currentTarget.value)}
        error={error('name')}
        name="nameEn"
        data-testid={`${testIdPrefix}-name-en`}
      />
      <TextInput
        label={t('form.namePl')}
        value={values.namePl}
        onChange={(e) => onChange('namePl', e.currentTarget.value)}
        name="namePl"
        data-testid={`${testIdPrefix}-name-pl`}
      />
      <Textarea
        label={t('form.descriptionEn')}
        value={values.descriptionEn}
        onChange={(e) => onChange('descriptionEn', e.currentTarget.value)}
        error={error('description')}
        autosize
        minRows={2}
      />
      <Textarea
        label={t('form.descriptionPl')}
        value={values.descriptionPl}
        onChange={(e) => onChange('descriptionPl', e.currentTarget.value)}
        autosize
        minRows={2}
      />
    </>
  );
}

/**
 * The VAT rate of what is sold: empty means the studio's default rate, which the placeholder names
 * for a new item.
 */
export function TaxSelect({
  ns,
  exemptKey,
  taxes,
  value,
  onChange,
  error,
  isNew,
  testId,
}: {
  ns: EditorNamespace;
  /** The namespace's key of the exempt label ("zw." in Polish). */
  exemptKey: string;
  taxes: TaxView[];
  value: string;
  onChange(value: string): void;
  error?: string;
  isNew: boolean;
  testId: string;
}) {
  const { t, i18n } = useTranslation(ns);
  const label = (tax: TaxView) =>
    `${tax.name} (${percent(tax.rateBp, i18n.language, t(exemptKey))}, ${tax.fiscalSlot})`;
  const defaultTax = taxes.find((x) => x.isDefault);
  return (
    <Select
      label={t('form.tax')}
      placeholder={isNew && defaultTax ? t('form.defaultTax', { tax: label(defaultTax) }) : t('form.noTax')}
      data={taxes.map((x) => ({ value: x.id, label: label(x) }))}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      error={error}
      clearable
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
    />
  );
}

/** Archive (or restore) on the left for a saved item, Save on the right. */
function ArchiveSaveBar({
  ns,
  archived,
  archiveState,
  onArchive,
  saveState,
  testIdPrefix,
}: {
  ns: EditorNamespace;
  /** The saved item's archived flag; null for a new item (no archive button). */
  archived: boolean | null;
  archiveState: SubmitButtonState;
  onArchive(): void;
  saveState: SubmitButtonState;
  testIdPrefix: string;
}) {
  const { t } = useTranslation(ns);
  return (
    <Group justify="space-between">
      {archived === null ? (
        <span />
      ) : (
        <SubmitButton
          type="button"
          variant="default"
          state={archiveState}
          onClick={onArchive}
          data-testid={`${testIdPrefix}-archive`}
        >
          {archived ? t('form.restore') : t('form.archive')}
        </SubmitButton>
      )}
      <SubmitButton state={saveState} data-testid={`${testIdPrefix}-save`}>
        {t('form.save')}
      </SubmitButton>
    </Group>
  );
}

/**
 * The editor's form: its fields sit in a fieldset that is disabled for staff who may only look, with
 * the form-level errors above them; `actions` (the archive/save bar) follow outside the fieldset.
 */
function EditorForm({
  onSubmit,
  readOnly,
  formErrors,
  testId,
  children,
  actions,
}: {
  onSubmit(): void;
  readOnly: boolean;
  formErrors: string[];
  testId: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      noValidate
      data-testid={testId}
    >
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="md">
          <FormErrorList errors={formErrors} />
          {children}
        </Stack>
      </fieldset>
      {actions}
    </form>
  );
}

/** What `useStructuredSubmit` gives an editor: a guarded run, its button state and its errors. */
interface EditorSubmit {
  run<T>(action: () => Promise<T>): Promise<T | undefined>;
  state: SubmitButtonState;
  formErrors: string[];
}

/**
 * A sellable's editor page: header, the form with its sections (`children`), then `beforeActions`
 * (parts saved on their own, outside the form's fieldset), the archive/save bar for staff who may
 * edit, and the archive's errors. Saving or archiving that succeeds calls `done` (back to the list).
 */
export function SellableEditorShell({
  ns,
  testIdPrefix,
  listPath,
  item,
  form,
  archive,
  save,
  toggleArchive,
  invalidate,
  beforeActions,
  children,
}: {
  ns: EditorNamespace;
  testIdPrefix: string;
  listPath: string;
  /** The saved item; null for a new one. */
  item: { name: Parameters<ReturnType<typeof useLocaleName>>[0]; archived: boolean } | null;
  form: EditorSubmit;
  archive: EditorSubmit;
  save(): Promise<unknown>;
  toggleArchive(): Promise<unknown>;
  /** Refreshes the lists the item shows in, after a save or an archive. */
  invalidate(): Promise<unknown>;
  beforeActions?: ReactNode;
  children: ReactNode;
}) {
  const canEdit = useCan('settings.edit');
  const name = useLocaleName();
  const navigate = useNavigate();
  const done = () => {
    void invalidate();
    navigate(listPath);
  };
  const title = item ? name(item.name) : null;
  const archived = item ? item.archived : null;
  const run = (submit: EditorSubmit, action: () => Promise<unknown>) =>
    void submit.run(action).then((saved) => {
      if (saved) done();
    });
  return (
    <Stack gap="md" maw={900} data-testid={`${testIdPrefix}-editor`}>
      <EditorHeader ns={ns} backTo={listPath} title={title} archived={Boolean(archived)} />
      <EditorForm
        onSubmit={() => run(form, save)}
        readOnly={!canEdit}
        formErrors={form.formErrors}
        testId={`${testIdPrefix}-form`}
        actions={
          <Stack gap="md" mt="md">
            {beforeActions}
            {canEdit ? (
              <ArchiveSaveBar
                ns={ns}
                archived={archived}
                archiveState={archive.state}
                onArchive={() => run(archive, toggleArchive)}
                saveState={form.state}
                testIdPrefix={testIdPrefix}
              />
            ) : null}
            <FormErrorList errors={archive.formErrors} />
          </Stack>
        }
      >
        {children}
      </EditorForm>
    </Stack>
  );
}

const COVERAGE_KEYS: Record<EditorNamespace, { covers: string; hint: string; desk: string; online: string }> =
  {
    catalog: {
      covers: 'editor.covers',
      hint: 'editor.coversHint',
      desk: 'channels.deskLong',
      online: 'channels.onlineLong',
    },
    contracts: {
      covers: 'editor.entitlement',
      hint: 'editor.entitlementHint',
      desk: 'form.sellAtDesk',
      online: 'form.sellOnline',
    },
  };

/**
 * What the item covers (the one entitlement editor both sellables use) and where it is sold (at the
 * desk, online); `children` are the editor's own sales fields under the two switches.
 */
export function CoverageAndSalesSections({
  ns,
  values,
  onChange,
  init,
  error,
  testIdPrefix,
  children,
}: {
  ns: EditorNamespace;
  values: EntitlementValues & { sellAtDesk: boolean; sellOnline: boolean };
  onChange(patch: Partial<EntitlementValues> & { sellAtDesk?: boolean; sellOnline?: boolean }): void;
  init: {
    serviceTypes: Array<{ value: string; labelKey: string }>;
    restrictions: PricingOptionRestrictionInit;
  };
  error(path: string): string | undefined;
  testIdPrefix: string;
  children: ReactNode;
}) {
  const { t } = useTranslation(ns);
  const keys = COVERAGE_KEYS[ns];
  return (
    <>
      <EditorSection title={t(keys.covers)} hint={t(keys.hint)}>
        <EntitlementFields
          values={values}
          onChange={onChange}
          serviceTypes={init.serviceTypes}
          restrictions={init.restrictions}
          error={error}
        />
      </EditorSection>
      <EditorSection title={t('editor.sales')}>
        <Group gap="xl">
          <Switch
            label={t(keys.desk)}
            checked={values.sellAtDesk}
            onChange={(e) => onChange({ sellAtDesk: e.currentTarget.checked })}
            data-testid={`${testIdPrefix}-sell-desk`}
          />
          <Switch
            label={t(keys.online)}
            checked={values.sellOnline}
            onChange={(e) => onChange({ sellOnline: e.currentTarget.checked })}
            data-testid={`${testIdPrefix}-sell-online`}
          />
        </Group>
        {children}
      </EditorSection>
    </>
  );
}
