import {
  Alert,
  Anchor,
  Button,
  Card,
  Checkbox,
  Group,
  Loader,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import {
  ACCOUNTING_RANGE_MESSAGES,
  AccountingRangeQuerySchema,
  JPK_V7M3_FIRST_MONTH,
  lastDayOfMonth,
  type AccountingSettings,
} from '../../../shared/contracts/api/accounting';
import { TAX_OFFICES } from '../../../shared/domain/accounting/tax-offices';
import { toFormErrors, type FormErrors } from '../../lib/form-errors';
import { money } from '../invoices/invoices.api';
import {
  useAccountingSettings,
  useAccountingSummary,
  useFileHref,
  useSaveAccountingSettings,
  type AccountingFile,
} from './accounting.api';

const monthStart = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-01`;
function lastMonth(): { from: string; to: string } {
  const now = new Date();
  const from = monthStart(new Date(now.getFullYear(), now.getMonth() - 1, 1));
  return { from, to: lastDayOfMonth(from) };
}
function thisMonth(): { from: string; to: string } {
  const from = monthStart(new Date());
  return { from, to: lastDayOfMonth(from) };
}

/** The server's range messages, worded in the screen's language. */
const RANGE_KEYS: Record<string, string> = Object.fromEntries(
  Object.entries(ACCOUNTING_RANGE_MESSAGES).map(([key, message]) => [message, `range.${key}`]),
);

/**
 * For the accountant (issue 19): pick a range, see what it holds, download JPK_FA, JPK_V7M (one whole
 * month) and the sales register (CSV, XLSX); the settings the JPK files need below.
 */
export function AccountingScreen() {
  const { t } = useTranslation('accounting');
  const [range, setRange] = useState(lastMonth);
  const settings = useAccountingSettings();
  const check = AccountingRangeQuerySchema.safeParse(range);
  const rangeError = check.success ? null : check.error.issues[0]!.message;
  const summary = useAccountingSummary(range.from, range.to, check.success);
  const ready = Boolean(settings.data?.settings) && Boolean(settings.data?.sellerReady);
  return (
    <Stack gap="lg" maw={1100}>
      <Title order={1} size="h2">
        {t('title')}
      </Title>
      <Text c="dimmed">{t('intro')}</Text>
      <Card withBorder>
        <Stack gap="sm">
          <Group align="end" wrap="wrap">
            <TextInput
              type="date"
              label={t('range.from')}
              value={range.from}
              onChange={(e) => setRange({ ...range, from: e.currentTarget.value })}
              data-testid="accounting-from"
            />
            <TextInput
              type="date"
              label={t('range.to')}
              value={range.to}
              onChange={(e) => setRange({ ...range, to: e.currentTarget.value })}
              data-testid="accounting-to"
            />
            <Button variant="default" onClick={() => setRange(lastMonth())}>
              {t('range.lastMonth')}
            </Button>
            <Button variant="default" onClick={() => setRange(thisMonth())}>
              {t('range.thisMonth')}
            </Button>
          </Group>
          {rangeError ? (
            <Text c="red" size="sm" role="alert">
              {RANGE_KEYS[rangeError] ? t(RANGE_KEYS[rangeError]!) : rangeError}
            </Text>
          ) : null}
          <Summary summary={summary.data} loading={summary.isLoading} />
        </Stack>
      </Card>
      <Downloads
        range={range}
        valid={check.success}
        ready={ready}
        wholeMonth={summary.data?.wholeMonth ?? false}
      />
      {settings.data && !settings.data.sellerReady ? (
        <Alert color="yellow" data-testid="accounting-seller-missing">
          {t('sellerMissing')}{' '}
          <Anchor component={Link} to="/invoices/settings">
            {t('sellerSettings')}
          </Anchor>
        </Alert>
      ) : null}
      {settings.isLoading ? <Loader /> : <SettingsForm current={settings.data?.settings ?? null} />}
    </Stack>
  );
}

function Summary({
  summary,
  loading,
}: {
  summary: ReturnType<typeof useAccountingSummary>['data'];
  loading: boolean;
}) {
  const { t, i18n } = useTranslation('accounting');
  if (loading) return <Loader size="sm" />;
  if (!summary) return null;
  const items = [
    [t('summary.invoices'), summary.invoices],
    [t('summary.corrections'), summary.corrections],
    [t('summary.forReceipts'), summary.forReceipts],
    [
      t('summary.receipts'),
      t('summary.receiptDays', { receipts: summary.receipts, days: summary.receiptDays }),
    ],
    [t('summary.gross'), money(summary.gross, summary.currency, i18n.language)],
  ] as const;
  return (
    <SimpleGrid cols={{ base: 2, sm: 5 }} data-testid="accounting-summary">
      {items.map(([label, value]) => (
        <div key={label}>
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text fw={600}>{value}</Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

function Downloads(props: {
  range: { from: string; to: string };
  valid: boolean;
  ready: boolean;
  wholeMonth: boolean;
}) {
  const { t } = useTranslation('accounting');
  const href = useFileHref();
  const monthOk = props.wholeMonth && props.range.from.slice(0, 7) >= JPK_V7M3_FIRST_MONTH;
  const files: { file: AccountingFile; label: string; hint: string; enabled: boolean; why?: string }[] = [
    {
      file: 'getJpkFa',
      label: 'JPK_FA (4)',
      hint: t('files.jpkFa'),
      enabled: props.ready,
      why: t('files.needsSettings'),
    },
    {
      file: 'getJpkV7m',
      label: 'JPK_V7M (3)',
      hint: t('files.jpkV7m'),
      enabled: props.ready && monthOk,
      why: props.ready ? t('range.month') : t('files.needsSettings'),
    },
    { file: 'getSalesRegisterCsv', label: t('files.registerCsv'), hint: t('files.csvHint'), enabled: true },
    {
      file: 'getSalesRegisterXlsx',
      label: t('files.registerXlsx'),
      hint: t('files.xlsxHint'),
      enabled: true,
    },
  ];
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      {files.map((f) => {
        const enabled = props.valid && f.enabled;
        return (
          <Card withBorder key={f.file}>
            <Stack gap={6}>
              <Text fw={600}>{f.label}</Text>
              <Text size="sm" c="dimmed">
                {f.hint}
              </Text>
              {enabled ? (
                <Button
                  component="a"
                  href={href(f.file, props.range.from, props.range.to)}
                  download
                  data-testid={`accounting-download-${f.file}`}
                >
                  {t('download')}
                </Button>
              ) : (
                <>
                  <Button disabled data-testid={`accounting-download-${f.file}`}>
                    {t('download')}
                  </Button>
                  {props.valid && f.why ? (
                    <Text size="xs" c="dimmed">
                      {f.why}
                    </Text>
                  ) : null}
                </>
              )}
            </Stack>
          </Card>
        );
      })}
    </SimpleGrid>
  );
}

const EMPTY: AccountingSettings = {
  taxOfficeCode: '',
  email: '',
  province: '',
  county: '',
  commune: '',
  street: '',
  houseNumber: '',
  flatNumber: '',
  naturalPerson: false,
  firstName: '',
  lastName: '',
  birthDate: null,
};
const FIELDS = ['email', 'province', 'county', 'commune', 'street', 'houseNumber', 'flatNumber'] as const;

function SettingsForm({ current }: { current: AccountingSettings | null }) {
  const { t } = useTranslation('accounting');
  const save = useSaveAccountingSettings();
  const [form, setForm] = useState<AccountingSettings>(current ?? EMPTY);
  const [errors, setErrors] = useState<FormErrors>({ fields: {}, form: [] });
  const [saved, setSaved] = useState(false);
  const offices = useMemo(
    () => TAX_OFFICES.map(([code, name]) => ({ value: code, label: `${code} — ${name}` })),
    [],
  );
  const submit = async () => {
    setSaved(false);
    try {
      await save(form);
      setErrors({ fields: {}, form: [] });
      setSaved(true);
    } catch (error) {
      setErrors(toFormErrors(error, t));
    }
  };
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('settings.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('settings.intro')}
        </Text>
        <Select
          searchable
          label={t('settings.taxOfficeCode')}
          data={offices}
          value={form.taxOfficeCode || null}
          onChange={(v) => setForm({ ...form, taxOfficeCode: v ?? '' })}
          error={errors.fields.taxOfficeCode}
          data-testid="accounting-tax-office"
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {FIELDS.map((field) => (
            <TextInput
              key={field}
              label={t(`settings.${field}`)}
              value={form[field]}
              onChange={(e) => setForm({ ...form, [field]: e.currentTarget.value })}
              error={errors.fields[field]}
              data-testid={`accounting-${field}`}
            />
          ))}
        </SimpleGrid>
        <Checkbox
          label={t('settings.naturalPerson')}
          description={t('settings.naturalPersonHint')}
          checked={form.naturalPerson}
          onChange={(e) => setForm({ ...form, naturalPerson: e.currentTarget.checked })}
          data-testid="accounting-natural-person"
        />
        {form.naturalPerson ? (
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              label={t('settings.firstName')}
              value={form.firstName}
              onChange={(e) => setForm({ ...form, firstName: e.currentTarget.value })}
              error={errors.fields.firstName}
            />
            <TextInput
              label={t('settings.lastName')}
              value={form.lastName}
              onChange={(e) => setForm({ ...form, lastName: e.currentTarget.value })}
              error={errors.fields.lastName}
            />
            <TextInput
              type="date"
              label={t('settings.birthDate')}
              value={form.birthDate ?? ''}
              onChange={(e) => setForm({ ...form, birthDate: e.currentTarget.value || null })}
              error={errors.fields.birthDate}
            />
          </SimpleGrid>
        ) : null}
        {errors.form.map((m) => (
          <Alert key={m} color="red">
            {m}
          </Alert>
        ))}
        <Group>
          <Button onClick={() => void submit()} data-testid="accounting-save">
            {t('settings.save')}
          </Button>
          {saved ? (
            <Text c="green" size="sm" role="status">
              {t('settings.saved')}
            </Text>
          ) : null}
        </Group>
      </Stack>
    </Card>
  );
}
