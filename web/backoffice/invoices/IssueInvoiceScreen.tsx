import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
  Paper,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { InvoiceOrderDraft } from '../../../shared/contracts/api/invoices';
import { OrderStatus, PaymentMethod } from '../../../shared/enums';
import { useOrders } from '../orders/orders.api';
import { useStudioDates } from '../use-studio-date-time';
import { ApiError } from '../../lib/api-client';
import { fitToForm } from '../../lib/form-errors';
import { useEditorForm } from '../../ui/use-editor-form';
import {
  useInvoiceFormErrors,
  nipCheckFailure,
  money,
  rateLabel,
  useInvalidateInvoices,
  useInvoiceCalls,
  useOrderDraft,
} from './invoices.api';
import { unitLabel } from './unit-label';
import { PaymentSplitText } from './PaymentSplitText';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Spec §9: table search waits 600 ms after the last key. */
const SEARCH_DELAY_MS = 600;

/**
 * Issue a VAT invoice for an order: staff find the order by the client's name, e-mail or phone, or
 * by its number (the orders list's search), pick it, and the form shows its lines and payment with
 * the buyer typed or remembered. An order's page opens this screen with `?order=<id>`.
 */
export function IssueInvoiceScreen() {
  const { t } = useTranslation('invoices');
  const [params, setParams] = useSearchParams();
  const orderId = params.get('order');
  const draft = useOrderDraft(orderId && UUID_RE.test(orderId) ? orderId : null);

  return (
    <Stack gap="lg" maw={960}>
      <Anchor component={Link} to="/invoices" size="sm">
        ← {t('detail.back')}
      </Anchor>
      <Title order={1} size="h2">
        {t('fromOrder.title')}
      </Title>
      {orderId ? (
        <Group gap="xs">
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => setParams({})}
            data-testid="invoice-order-change"
          >
            {t('fromOrder.change')}
          </Button>
        </Group>
      ) : (
        <OrderPicker onPick={(id) => setParams({ order: id })} />
      )}
      {orderId && !UUID_RE.test(orderId) ? <Alert color="red">{t('fromOrder.notFound')}</Alert> : null}
      {draft.isFetching && !draft.data ? <Loader /> : null}
      {draft.isError ? (
        <Alert color="red">
          {draft.error instanceof ApiError && draft.error.status === 404
            ? t('fromOrder.notFound')
            : t('loadError')}
        </Alert>
      ) : null}
      {draft.data ? <DraftForm key={draft.data.order.id} draft={draft.data} /> : null}
    </Stack>
  );
}

/** The order search: client (name, e-mail, phone) or order number; each result opens its draft. */
function OrderPicker({ onPick }: { onPick: (orderId: string) => void }) {
  const { t, i18n } = useTranslation(['invoices', 'enums']);
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), SEARCH_DELAY_MS);
  const searching = debounced.length >= 2;
  const orders = useOrders({ q: searching ? debounced : '', status: 'all' });
  const items = searching ? (orders.data?.pages.flatMap((p) => p.items) ?? []) : [];
  const dates = useStudioDates();
  const date = (iso: string) => dates.dateTime(iso);
  return (
    <Stack gap="sm">
      <TextInput
        label={t('fromOrder.search')}
        description={t('fromOrder.searchHint')}
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        w={480}
        maw="100%"
        name="orderSearch"
        autoFocus
        data-testid="invoice-order-search"
      />
      {searching && orders.isFetching && items.length === 0 ? <Loader size="sm" /> : null}
      {searching && !orders.isFetching && items.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid="invoice-order-none">
          {t('fromOrder.noResults')}
        </Text>
      ) : null}
      <Stack gap="xs" data-testid="invoice-order-results">
        {items.map((order) => (
          <UnstyledButton
            key={order.id}
            onClick={() => onPick(order.id)}
            data-testid="invoice-order-result"
            data-order={order.id}
          >
            <Paper withBorder p="sm" radius="md">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text fw={600} size="sm">
                    {t('fromOrder.order', { reference: order.reference })} ·{' '}
                    {order.client
                      ? `${order.client.firstName} ${order.client.lastName}`.trim()
                      : t('fromOrder.walkIn')}
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    {date(order.createdAt)} · {order.summary}
                  </Text>
                </Stack>
                <Stack gap={2} align="flex-end" style={{ flexShrink: 0 }}>
                  <Text fw={600} size="sm">
                    {money(order.total, order.currency, i18n.language)}
                  </Text>
                  <Badge variant="light" color={order.status === OrderStatus.paid ? 'teal' : 'gray'}>
                    {t(`enums:orderStatus.${order.status}`)}
                  </Badge>
                </Stack>
              </Group>
            </Paper>
          </UnstyledButton>
        ))}
      </Stack>
      {searching && orders.hasNextPage ? (
        <Button variant="default" size="xs" onClick={() => void orders.fetchNextPage()}>
          {t('fromOrder.more')}
        </Button>
      ) : null}
    </Stack>
  );
}

interface BuyerForm {
  name: string;
  addressLine: string;
  postalCode: string;
  city: string;
  country: string;
  taxId: string;
  email: string;
}

function DraftForm({ draft }: { draft: InvoiceOrderDraft }) {
  const { t, i18n } = useTranslation(['invoices', 'enums']);
  const navigate = useNavigate();
  const calls = useInvoiceCalls();
  const invalidate = useInvalidateInvoices();
  const lang = i18n.language;
  const fields = useEditorForm(() => ({
    buyer: { ...draft.buyer, taxId: draft.buyer.taxId ?? '', email: draft.buyer.email ?? '' } as BuyerForm,
    saleDate: draft.saleDate,
    paymentMethod: String(draft.paymentMethod),
    termDays: draft.settings.paymentTermDays as number,
    remarks: '',
  }));
  const { buyer, saleDate, paymentMethod, termDays, remarks } = fields.values;
  const [rawErrors, setFailure] = useInvoiceFormErrors({ unexpected: 'withCode' });
  // Errors of fields this form has no input for (exemptionBasis, vatTreatment) are shown above the button.
  const errors = fitToForm(
    rawErrors,
    Object.keys(rawErrors.fields).filter(
      (f) =>
        f.startsWith('buyer.') || f.startsWith('recipient.') || f === 'saleDate' || f === 'paymentTermDays',
    ),
  );
  const [nipCheck, setNipCheck] = useState<{ ok: true; nip: string } | { ok: false; error: unknown } | null>(
    null,
  );
  const [busy, setBusy] = useState(false);
  const currency = draft.order.currency;

  const field = (key: keyof BuyerForm, label: string) => (
    <TextInput
      label={label}
      name={`buyer.${key}`}
      value={buyer[key]}
      onChange={(e) => {
        const value = e.currentTarget.value;
        fields.set('buyer', { ...fields.values.buyer, [key]: value });
        if (key === 'taxId') setNipCheck(null);
      }}
      error={errors.fields[`buyer.${key}`]}
    />
  );

  const checkNip = async () => {
    try {
      const result = await calls.checkNip(buyer.taxId);
      setNipCheck({ ok: true, nip: result.formatted });
    } catch (error) {
      // The server says why (format or check digit): translated when shown, in the screen's language.
      setNipCheck({ ok: false, error });
    }
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const invoice = await calls.issueForOrder(draft.order.id, {
        buyer: { ...buyer, taxId: buyer.taxId || null, email: buyer.email || null },
        saleDate,
        paymentMethod: Number(paymentMethod),
        paymentTermDays: termDays,
        remarks,
      });
      await invalidate();
      navigate(`/invoices/${invoice.id}`);
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const blocked =
    draft.reason === 'alreadyInvoiced' ? (
      <Alert color="yellow">
        {t('fromOrder.alreadyInvoiced', { number: draft.existingInvoice?.number })}{' '}
        {draft.existingInvoice ? (
          <Anchor component={Link} to={`/invoices/${draft.existingInvoice.id}`}>
            {t('fromOrder.open')}
          </Anchor>
        ) : null}
      </Alert>
    ) : draft.reason === 'orderStatus' ? (
      <Alert color="yellow">
        {t('fromOrder.orderStatus', { status: t(`enums:orderStatus.${draft.order.status}`) })}
      </Alert>
    ) : draft.reason === 'nothingToInvoice' ? (
      <Alert color="yellow">{t('fromOrder.nothingToInvoice')}</Alert>
    ) : draft.reason === 'receiptUnresolved' || draft.reason === 'receiptCoversOtherOrders' ? (
      <Alert color="yellow">{t(`errors.${draft.reason}`)}</Alert>
    ) : draft.receipt?.status === 'printed' ? (
      <Alert color="blue" data-testid="invoice-for-receipt">
        {t(draft.receipt.buyerNip ? 'fromOrder.forReceiptNip' : 'fromOrder.forReceipt', {
          number: draft.receipt.number,
          date: draft.receipt.date,
          nip: draft.receipt.buyerNip,
        })}
      </Alert>
    ) : draft.receipt ? (
      <Alert color="blue">{t('fromOrder.receiptReplaced')}</Alert>
    ) : null;

  return (
    <form onSubmit={submit} data-testid="invoice-issue-form">
      <Stack gap="lg">
        <Card withBorder>
          <Group justify="space-between" wrap="wrap">
            <Text fw={600}>{t('fromOrder.order', { reference: draft.order.reference })}</Text>
            <Text size="sm">
              {t('fromOrder.orderTotal')}: <b>{money(draft.order.total, currency, lang)}</b> ·{' '}
              {t('fromOrder.orderPaid')}: <b>{money(draft.order.paid, currency, lang)}</b> ·{' '}
              {t(`enums:orderStatus.${draft.order.status}`)}
            </Text>
          </Group>
        </Card>
        {blocked}
        {!draft.settings.complete ? (
          <Alert color="yellow">
            {t('list.settingsMissing')}{' '}
            <Anchor component={Link} to="/invoices/settings">
              {t('list.openSettings')}
            </Anchor>
          </Alert>
        ) : null}

        <Stack gap="xs">
          <Title order={2} size="h4">
            {t('fromOrder.lines')}
          </Title>
          <Table.ScrollContainer minWidth={560}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('fields.description')}</Table.Th>
                  <Table.Th ta="right">{t('fields.quantity')}</Table.Th>
                  <Table.Th ta="right">{t('fields.unitPrice')}</Table.Th>
                  <Table.Th ta="right">{t('detail.vatRateColumn')}</Table.Th>
                  <Table.Th ta="right">{t('detail.net')}</Table.Th>
                  <Table.Th ta="right">{t('detail.gross')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {draft.lines.map((line) => (
                  <Table.Tr key={line.position}>
                    <Table.Td>{line.description}</Table.Td>
                    <Table.Td ta="right">
                      {line.quantity} {unitLabel(line.unit, t)}
                    </Table.Td>
                    <Table.Td ta="right">{money(line.unitPrice, currency, lang)}</Table.Td>
                    <Table.Td ta="right">{rateLabel(line.vatRate, lang)}</Table.Td>
                    <Table.Td ta="right">{money(line.net, currency, lang)}</Table.Td>
                    <Table.Td ta="right">{money(line.gross, currency, lang)}</Table.Td>
                  </Table.Tr>
                ))}
                <Table.Tr>
                  <Table.Td colSpan={4} fw={600}>
                    {t('detail.total')}
                  </Table.Td>
                  <Table.Td ta="right" fw={600}>
                    {money(draft.totals.net, currency, lang)}
                  </Table.Td>
                  <Table.Td ta="right" fw={600}>
                    {money(draft.totals.gross, currency, lang)}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>

        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('fromOrder.buyer')}
          </Title>
          {field('name', t('fields.name'))}
          {field('addressLine', t('fields.addressLine'))}
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {field('postalCode', t('fields.postalCode'))}
            {field('city', t('fields.city'))}
            {field('country', t('fields.country'))}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Stack gap={4}>
              {field('taxId', t('fields.taxId'))}
              <Group gap="xs">
                <Button
                  size="compact-xs"
                  variant="subtle"
                  onClick={() => void checkNip()}
                  disabled={!buyer.taxId.trim() || buyer.country.toUpperCase() !== 'PL'}
                >
                  {t('fields.taxIdCheck')}
                </Button>
                {/* A refused submit already says why on the field: the check's failure is not repeated under it. */}
                {nipCheck && (nipCheck.ok || !errors.fields['buyer.taxId']) ? (
                  <Text size="xs" c={nipCheck.ok ? 'green' : 'red'} data-testid="invoice-nip-check">
                    {nipCheck.ok
                      ? t('fields.taxIdValid', { nip: nipCheck.nip })
                      : nipCheckFailure(nipCheck.error, t)}
                  </Text>
                ) : null}
              </Group>
            </Stack>
            {field('email', t('fields.email'))}
          </SimpleGrid>
        </Stack>

        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('fromOrder.payment')}
          </Title>
          {draft.paymentSplit ? <PaymentSplitText split={draft.paymentSplit} currency={currency} /> : null}
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              type="date"
              label={t('fromOrder.saleDate')}
              value={saleDate}
              onChange={(e) => fields.set('saleDate', e.currentTarget.value)}
              error={errors.fields.saleDate}
            />
            <Select
              label={t('fromOrder.paymentMethod')}
              value={paymentMethod}
              onChange={(v) => fields.set('paymentMethod', v ?? String(PaymentMethod.bankTransfer))}
              data={Object.values(PaymentMethod).map((m) => ({
                value: String(m),
                label: t(`enums:paymentMethod.${m}`),
              }))}
              allowDeselect={false}
            />
            <NumberInput
              label={t('fromOrder.paymentTermDays')}
              value={termDays}
              min={0}
              max={365}
              onChange={(v) => fields.set('termDays', typeof v === 'number' ? v : 0)}
              error={errors.fields.paymentTermDays}
            />
          </SimpleGrid>
          <Textarea
            label={t('fromOrder.remarks')}
            value={remarks}
            onChange={(e) => fields.set('remarks', e.currentTarget.value)}
            autosize
            minRows={2}
          />
        </Stack>
        {errors.form.map((m) => (
          <Alert key={m} color="red">
            {m}
          </Alert>
        ))}
        <Group>
          <Button
            type="submit"
            loading={busy}
            disabled={!draft.invoiceable}
            data-testid="invoice-issue-submit"
          >
            {t('fromOrder.issue')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
