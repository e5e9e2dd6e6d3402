import {
  Alert,
  Anchor,
  Autocomplete,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  NumberInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { InvoiceListItem, InvoiceSettingsView } from '../../../shared/contracts/api/invoices';
import { EXEMPTION_BASIS_PRESETS } from '../../../shared/domain/invoices/notes';
import { errorCodeLabel } from '../../lib/form-errors';
import { useEditorForm } from '../../ui/use-editor-form';
import {
  useInvoiceFormErrors,
  money,
  useCanInvoice,
  useInvalidateInvoices,
  useInvoiceCalls,
  useInvoiceSettings,
  useInvoices,
} from './invoices.api';
import { KsefPanel } from './ksef/KsefScreens';
import { ListLoading } from '../list-frame';
import { formatDate } from '../../../shared/i18n/dates';

/** Spec §9: table search waits 600 ms after the last key. */
const SEARCH_DELAY_MS = 600;

export function usePhone(): boolean {
  return useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
}

export function InvoicesScreen({ tab }: { tab: 'list' | 'settings' | 'ksef' }) {
  const { t } = useTranslation('invoices');
  const navigate = useNavigate();
  return (
    <Stack gap="lg" maw={1100}>
      <Title order={1} size="h2">
        {t('title')}
      </Title>
      <Tabs value={tab} onChange={(v) => navigate(v === 'list' ? '/invoices' : `/invoices/${v}`)}>
        <Tabs.List>
          <Tabs.Tab value="list">{t('tabs.invoices')}</Tabs.Tab>
          <Tabs.Tab value="settings" data-testid="invoices-tab-settings">
            {t('tabs.settings')}
          </Tabs.Tab>
          <Tabs.Tab value="ksef" data-testid="invoices-tab-ksef">
            {t('ksef:tab')}
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>
      {tab === 'list' ? <InvoiceList /> : tab === 'ksef' ? <KsefPanel /> : <SettingsPanel />}
    </Stack>
  );
}

function InvoiceList() {
  const { t, i18n } = useTranslation('invoices');
  const phone = usePhone();
  const canInvoice = useCanInvoice();
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q, SEARCH_DELAY_MS);
  const [status, setStatus] = useState<'all' | 'issued' | 'cancelled'>('all');
  const [kind, setKind] = useState<'all' | 'invoice' | 'corrective'>('all');
  const list = useInvoices({ q: debounced.trim() || undefined, status, kind });
  const settings = useInvoiceSettings();
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = Boolean(debounced.trim()) || status !== 'all' || kind !== 'all';

  return (
    <Stack gap="md">
      {settings.data && !settings.data.complete ? (
        <Alert color="yellow" data-testid="invoices-settings-missing">
          <Group justify="space-between" gap="xs">
            <Text size="sm">{t('list.settingsMissing')}</Text>
            <Anchor component={Link} to="/invoices/settings" size="sm">
              {t('list.openSettings')}
            </Anchor>
          </Group>
        </Alert>
      ) : null}
      <Group align="end" gap="sm" wrap="wrap">
        <TextInput
          label={t('list.search')}
          placeholder={t('list.searchPlaceholder')}
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          w={phone ? '100%' : 260}
        />
        <SegmentedControl
          value={kind}
          onChange={(v) => setKind(v as typeof kind)}
          data={[
            { value: 'all', label: t('list.all') },
            { value: 'invoice', label: t('kind.invoice') },
            { value: 'corrective', label: t('kind.corrective') },
          ]}
          size="xs"
        />
        <SegmentedControl
          value={status}
          onChange={(v) => setStatus(v as typeof status)}
          data={[
            { value: 'all', label: t('list.all') },
            { value: 'issued', label: t('status.issued') },
            { value: 'cancelled', label: t('status.cancelled') },
          ]}
          size="xs"
        />
        {canInvoice ? (
          <Button component={Link} to="/invoices/new" ml={phone ? 0 : 'auto'} data-testid="invoices-issue">
            {t('list.issueFromOrder')}
          </Button>
        ) : null}
      </Group>
      {list.isPending ? (
        <ListLoading />
      ) : list.isError ? (
        <Alert color="red">
          {t('loadError')} ({errorCodeLabel(list.error)}){' '}
          <Anchor component="button" onClick={() => void list.refetch()}>
            {t('retry')}
          </Anchor>
        </Alert>
      ) : items.length === 0 ? (
        <Text c="dimmed" py="lg">
          {filtered ? t('list.noMatches') : t('list.empty')}
        </Text>
      ) : phone ? (
        <Stack gap="xs">
          {items.map((item) => (
            <Card key={item.id} withBorder padding="sm" component={Link} to={`/invoices/${item.id}`}>
              <Group justify="space-between" wrap="nowrap">
                <Text fw={600}>{item.number}</Text>
                <Text fw={600}>{money(item.gross, item.currency, i18n.language)}</Text>
              </Group>
              <Text size="sm">{item.buyer.name}</Text>
              <Group gap="xs">
                <Text size="xs" c="dimmed">
                  {formatDate(item.issueDate, i18n.language)}
                </Text>
                <StatusBadges item={item} />
              </Group>
            </Card>
          ))}
        </Stack>
      ) : (
        <Table striped highlightOnHover data-testid="invoices-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('list.number')}</Table.Th>
              <Table.Th>{t('list.issueDate')}</Table.Th>
              <Table.Th>{t('list.buyer')}</Table.Th>
              <Table.Th ta="right">{t('list.net')}</Table.Th>
              <Table.Th ta="right">{t('list.gross')}</Table.Th>
              <Table.Th ta="right">{t('list.due')}</Table.Th>
              <Table.Th>{t('list.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.id}>
                <Table.Td>
                  <Anchor component={Link} to={`/invoices/${item.id}`} fw={600}>
                    {item.number}
                  </Anchor>
                  {item.forReceipt ? (
                    <Badge size="xs" variant="light" ml={6} title={t('fp.hint')} data-testid="invoice-fp">
                      {t('fp.badge')}
                    </Badge>
                  ) : null}
                  {item.correctedInvoiceNumber ? (
                    <Text size="xs" c="dimmed">
                      {t('list.corrects', { number: item.correctedInvoiceNumber })}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>{formatDate(item.issueDate, i18n.language)}</Table.Td>
                <Table.Td>
                  {item.buyer.name}
                  {item.buyer.taxId ? (
                    <Text size="xs" c="dimmed">
                      {item.buyer.taxId}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td ta="right">{money(item.net, item.currency, i18n.language)}</Table.Td>
                <Table.Td ta="right">{money(item.gross, item.currency, i18n.language)}</Table.Td>
                <Table.Td ta="right">{money(item.due, item.currency, i18n.language)}</Table.Td>
                <Table.Td>
                  <StatusBadges item={item} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {list.hasNextPage ? (
        <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
          {t('list.loadMore')}
        </Button>
      ) : null}
    </Stack>
  );
}

function StatusBadges({ item }: { item: InvoiceListItem }) {
  const { t } = useTranslation('invoices');
  return (
    <Group gap={4} wrap="nowrap">
      {item.kind === 'corrective' ? (
        <Badge variant="light" color="grape" size="sm">
          {t('kind.corrective')}
        </Badge>
      ) : null}
      {item.status === 'cancelled' ? (
        <Badge variant="light" color="red" size="sm">
          {t('status.cancelled')}
        </Badge>
      ) : null}
    </Group>
  );
}

type SettingsForm = Omit<InvoiceSettingsView, 'complete' | 'taxId' | 'iban'> & {
  taxId: string;
  iban: string;
};

function SettingsPanel() {
  const { t } = useTranslation('invoices');
  const settings = useInvoiceSettings();
  if (settings.isPending) return <ListLoading />;
  if (settings.isError) return <Alert color="red">{t('loadError')}</Alert>;
  return <SettingsEditor initial={settings.data} />;
}

function SettingsEditor({ initial }: { initial: InvoiceSettingsView }) {
  const { t } = useTranslation('invoices');
  const canInvoice = useCanInvoice();
  const calls = useInvoiceCalls();
  const invalidate = useInvalidateInvoices();
  const settingsForm = useEditorForm<SettingsForm>(() => ({
    ...initial,
    taxId: initial.taxId ?? '',
    iban: initial.iban ?? '',
  }));
  const form = settingsForm.values;
  const [errors, setFailure] = useInvoiceFormErrors();
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setSaved(false), 2500);
    return () => clearTimeout(timer);
  }, [saved]);
  const { set } = settingsForm;
  const text = (key: keyof SettingsForm, label: string) => (
    <TextInput
      label={label}
      name={key}
      value={String(form[key] ?? '')}
      onChange={(e) => set(key, e.currentTarget.value as never)}
      error={errors.fields[key]}
      disabled={!canInvoice}
    />
  );
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setFailure(null);
    try {
      const { complete: _complete, ...body } = { ...form, complete: undefined };
      await calls.saveSettings(body);
      await invalidate();
      setSaved(true);
    } catch (error) {
      setFailure(error);
    } finally {
      setSaving(false);
    }
  };
  return (
    <form onSubmit={submit} data-testid="invoice-settings-form">
      <Stack gap="md" maw={720}>
        <div>
          <Title order={2} size="h4">
            {t('settings.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('settings.hint')}
          </Text>
        </div>
        {!initial.complete ? <Alert color="yellow">{t('settings.incomplete')}</Alert> : null}
        {text('sellerName', t('fields.sellerName'))}
        {text('addressLine', t('fields.addressLine'))}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {text('postalCode', t('fields.postalCode'))}
          {text('city', t('fields.city'))}
          {text('country', t('fields.country'))}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {text('taxId', t('fields.taxId'))}
          {text('placeOfIssue', t('fields.placeOfIssue'))}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {text('iban', t('fields.iban'))}
          {text('bankName', t('fields.bankName'))}
        </SimpleGrid>
        <NumberInput
          label={t('fields.paymentTermDays')}
          value={form.paymentTermDays}
          min={0}
          max={365}
          onChange={(v) => set('paymentTermDays', typeof v === 'number' ? v : 0)}
          error={errors.fields.paymentTermDays}
          disabled={!canInvoice}
          maw={240}
        />
        <Checkbox
          label={t('fields.vatExempt')}
          checked={form.vatExempt}
          onChange={(e) => set('vatExempt', e.currentTarget.checked)}
          disabled={!canInvoice}
        />
        <Autocomplete
          label={t('fields.vatExemptionBasis')}
          description={t(form.vatExempt ? 'settings.basisHintExempt' : 'settings.basisHint')}
          name="vatExemptionBasis"
          data={[...EXEMPTION_BASIS_PRESETS]}
          value={form.vatExemptionBasis}
          onChange={(v) => set('vatExemptionBasis', v)}
          error={errors.fields.vatExemptionBasis}
          disabled={!canInvoice}
          data-testid="invoice-settings-exemption-basis"
        />
        {errors.form.map((m) => (
          <Alert key={m} color="red">
            {m}
          </Alert>
        ))}
        {canInvoice ? (
          <Group>
            <Button type="submit" loading={saving} data-testid="invoice-settings-save">
              {t('settings.save')}
            </Button>
            {saved ? (
              <Text c="green" size="sm">
                {t('settings.saved')}
              </Text>
            ) : null}
          </Group>
        ) : null}
      </Stack>
    </form>
  );
}
