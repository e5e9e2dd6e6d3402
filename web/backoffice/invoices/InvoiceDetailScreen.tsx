import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PaymentSplitText } from './PaymentSplitText';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { InvoiceLineView, InvoiceView } from '../../../shared/contracts/api/invoices';
import { useEditorForm } from '../../ui/use-editor-form';
import {
  useInvoiceFormErrors,
  money,
  rateLabel,
  useCanInvoice,
  useInvalidateInvoices,
  useInvoice,
  useInvoiceCalls,
} from './invoices.api';
import { KsefStatePanel } from './ksef/KsefScreens';
import { useInvoiceKsef } from './ksef/ksef.api';
import { ListLoading } from '../list-frame';
import { unitLabel } from './unit-label';
import { formatDate } from '../../../shared/i18n/dates';
import { useStudioDates } from '../use-studio-date-time';

export function InvoiceDetailScreen() {
  const { invoiceId = '' } = useParams();
  const { t } = useTranslation('invoices');
  const invoice = useInvoice(invoiceId);
  return (
    <Stack gap="lg" maw={1100}>
      <Anchor component={Link} to="/invoices" size="sm">
        ← {t('detail.back')}
      </Anchor>
      {invoice.isPending ? (
        <ListLoading />
      ) : invoice.isError ? (
        <Alert color="red">{t('loadError')}</Alert>
      ) : (
        <Detail invoice={invoice.data} />
      )}
    </Stack>
  );
}

function Party({ title, party }: { title: string; party: InvoiceView['buyer'] | InvoiceView['seller'] }) {
  const { t } = useTranslation('invoices');
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {title}
      </Text>
      <Text fw={600}>{party.name}</Text>
      <Text size="sm">{party.addressLine}</Text>
      <Text size="sm">
        {party.postalCode} {party.city}
        {party.country !== 'PL' ? `, ${party.country}` : ''}
      </Text>
      {party.taxId ? (
        <Text size="sm">
          {t('fields.taxId')}: {party.taxId}
        </Text>
      ) : null}
    </Card>
  );
}

function Lines({ lines, currency }: { lines: InvoiceLineView[]; currency: string }) {
  const { t, i18n } = useTranslation('invoices');
  const lang = i18n.language;
  const phone = useMediaQuery('(max-width: 47.99em)');
  // On a phone eight columns do not fit: each line is a card with its amounts underneath.
  if (phone)
    return (
      <Stack gap="xs" data-testid="invoice-lines">
        {lines.map((l) => (
          <Card key={l.position} withBorder padding="sm">
            <Text fw={600} size="sm">
              {l.position}. {l.description}
            </Text>
            <Text size="sm" c="dimmed">
              {l.quantity} {unitLabel(l.unit, t)} × {money(l.unitPrice, currency, lang)} ·{' '}
              {rateLabel(l.vatRate, lang)}
            </Text>
            <Group justify="space-between" gap="xs" mt={4} wrap="nowrap">
              <Text size="xs" c="dimmed">
                {t('detail.net')} {money(l.net, currency, lang)}
              </Text>
              <Text size="xs" c="dimmed">
                {t('detail.vat')} {money(l.vat, currency, lang)}
              </Text>
              <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                {money(l.gross, currency, lang)}
              </Text>
            </Group>
          </Card>
        ))}
      </Stack>
    );
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            <Table.Th>{t('fields.description')}</Table.Th>
            <Table.Th ta="right">{t('fields.quantity')}</Table.Th>
            <Table.Th ta="right">{t('fields.unitPrice')}</Table.Th>
            <Table.Th ta="right">{t('detail.net')}</Table.Th>
            <Table.Th ta="right">{t('detail.vatRateColumn')}</Table.Th>
            <Table.Th ta="right">{t('detail.vatAmount')}</Table.Th>
            <Table.Th ta="right">{t('detail.gross')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((l) => (
            <Table.Tr key={l.position}>
              <Table.Td>{l.position}</Table.Td>
              <Table.Td>{l.description}</Table.Td>
              <Table.Td ta="right">
                {l.quantity} {unitLabel(l.unit, t)}
              </Table.Td>
              <Table.Td ta="right">{money(l.unitPrice, currency, lang)}</Table.Td>
              <Table.Td ta="right">{money(l.net, currency, lang)}</Table.Td>
              <Table.Td ta="right">{rateLabel(l.vatRate, lang)}</Table.Td>
              <Table.Td ta="right">{money(l.vat, currency, lang)}</Table.Td>
              <Table.Td ta="right">{money(l.gross, currency, lang)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Detail({ invoice }: { invoice: InvoiceView }) {
  const { t, i18n } = useTranslation(['invoices', 'enums']);
  const lang = i18n.language;
  const dates = useStudioDates();
  const canInvoice = useCanInvoice();
  const [correcting, setCorrecting] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const c = invoice.currency;
  const correctable = invoice.kind === 'invoice' && invoice.status === 'issued';
  // Once on its way to KSeF (or in it), an invoice is only corrected, never cancelled.
  const inKsef = ['waiting', 'sent', 'accepted'].includes(useInvoiceKsef(invoice.id).data?.state ?? 'none');
  const refund = invoice.totals.gross < 0;

  return (
    <Stack gap="lg" data-testid="invoice-detail">
      <Group justify="space-between" align="start" wrap="wrap">
        <div>
          <Text c="dimmed" size="sm">
            {t(`kind.${invoice.kind}`)}
          </Text>
          <Title order={1} size="h2" data-testid="invoice-number">
            {invoice.number}
          </Title>
          <Group gap="xs" mt={4}>
            <Badge color={invoice.status === 'cancelled' ? 'red' : 'blue'} variant="light">
              {t(`status.${invoice.status}`)}
            </Badge>
            {invoice.receipt ? (
              <Badge variant="light" color="grape" title={t('fp.hint')} data-testid="invoice-fp">
                {t('fp.badge')}
              </Badge>
            ) : null}
            <Badge color={invoice.payment.state === 'overdue' ? 'red' : 'gray'} variant="light">
              {t(`paymentState.${invoice.payment.state}`)}
            </Badge>
          </Group>
        </div>
        <Group gap="xs">
          <Button component="a" href={invoice.downloadPath} download data-testid="invoice-download">
            {t('detail.download')}
          </Button>
          <Button
            component="a"
            variant="default"
            href={invoice.downloadPath.replace(/\/pdf$/, '/ksef.xml')}
            download
            data-testid="invoice-download-ksef"
          >
            {t('detail.downloadKsef')}
          </Button>
          {canInvoice && correctable ? (
            <Button variant="default" onClick={() => setCorrecting(true)} data-testid="invoice-correct">
              {t('detail.correct')}
            </Button>
          ) : null}
          {canInvoice && invoice.status === 'issued' && !inKsef ? (
            <Button variant="subtle" color="red" onClick={() => setCancelling(true)}>
              {t('detail.cancel')}
            </Button>
          ) : null}
        </Group>
      </Group>
      {invoice.cancellation ? (
        <Alert color="red">
          {t('detail.cancelled', {
            date: dates.date(invoice.cancellation.at),
            reason: invoice.cancellation.reason,
          })}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Text size="sm">
          {t('detail.issueDate')}: <b>{formatDate(invoice.issueDate, i18n.language)}</b>
        </Text>
        <Text size="sm">
          {t('detail.saleDate')}: <b>{formatDate(invoice.saleDate, i18n.language)}</b>
        </Text>
        {invoice.placeOfIssue ? (
          <Text size="sm">
            {t('detail.placeOfIssue')}: <b>{invoice.placeOfIssue}</b>
          </Text>
        ) : null}
      </SimpleGrid>
      <KsefStatePanel invoiceId={invoice.id} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Party title={t('detail.seller')} party={invoice.seller} />
        <Party title={t('detail.buyer')} party={invoice.buyer} />
      </SimpleGrid>
      {invoice.correction ? (
        <Card withBorder padding="sm">
          <Text size="sm">
            {t('detail.correctedInvoice')}:{' '}
            <Anchor component={Link} to={`/invoices/${invoice.correction.correctedInvoice.id}`}>
              {invoice.correction.correctedInvoice.number}
            </Anchor>{' '}
            ({formatDate(invoice.correction.correctedInvoice.issueDate, i18n.language)})
          </Text>
          <Text size="sm">
            {t('detail.correctionReason')}: {invoice.correction.reason}
          </Text>
        </Card>
      ) : null}
      {invoice.correction ? (
        <>
          <Title order={2} size="h4">
            {t('detail.before')}
          </Title>
          <Lines lines={invoice.correction.before} currency={c} />
          <Title order={2} size="h4">
            {t('detail.after')}
          </Title>
          <Lines lines={invoice.correction.after} currency={c} />
        </>
      ) : (
        <>
          <Title order={2} size="h4">
            {t('detail.lines')}
          </Title>
          <Lines lines={invoice.lines} currency={c} />
        </>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Stack gap={4}>
          {invoice.payment.split ? (
            <PaymentSplitText split={invoice.payment.split} currency={c} />
          ) : (
            <Text size="sm">
              {t('detail.paymentMethod')}: <b>{t(`enums:paymentMethod.${invoice.payment.method}`)}</b>
            </Text>
          )}
          {invoice.payment.state === 'due' || invoice.payment.state === 'overdue' ? (
            <Text size="sm">
              {t('detail.paymentDue')}: <b>{formatDate(invoice.payment.dueDate, i18n.language)}</b> (
              {t('detail.days', { count: invoice.payment.termDays })})
            </Text>
          ) : null}
          {invoice.seller.iban && (invoice.payment.state === 'due' || invoice.payment.state === 'overdue') ? (
            <Text size="sm">
              {t('detail.account')}: {invoice.seller.iban}
            </Text>
          ) : null}
          {invoice.notes.map((note) => (
            <Text size="sm" fw={600} key={note.kind}>
              {note.kind === 'reverseCharge'
                ? t('pdf.notes.reverseCharge')
                : note.kind === 'vatExempt'
                  ? t('pdf.notes.vatExempt', { basis: note.basis })
                  : note.kind === 'receipt'
                    ? t(note.printer ? 'pdf.notes.receipt' : 'pdf.notes.receiptNoPrinter', {
                        number: note.number,
                        date: note.date,
                        printer: note.printer,
                      })
                    : `${note.currency} ${note.rate} (${note.table})`}
            </Text>
          ))}
          {invoice.remarks ? (
            <Text size="sm">
              {t('detail.remarks')}: {invoice.remarks}
            </Text>
          ) : null}
          {invoice.corrections.length > 0 ? (
            <Text size="sm">
              {t('detail.corrections')}:{' '}
              {invoice.corrections.map((r, i) => (
                <span key={r.id}>
                  {i > 0 ? ', ' : ''}
                  <Anchor component={Link} to={`/invoices/${r.id}`}>
                    {r.number}
                  </Anchor>
                </span>
              ))}
            </Text>
          ) : null}
          {invoice.issuedBy ? (
            <Text size="sm" c="dimmed">
              {t('detail.issuedBy')}: {invoice.issuedBy.name}
            </Text>
          ) : null}
        </Stack>
        <Card withBorder padding="sm" data-testid="invoice-totals">
          {/* Four money columns: tight spacing and no wrapping keep them on a 390 px phone; a
              longer amount scrolls inside the card rather than being cut off. */}
          <Table.ScrollContainer minWidth={0} type="native">
            <Table horizontalSpacing={6} fz="sm" style={{ whiteSpace: 'nowrap' }}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('detail.rate')}</Table.Th>
                  <Table.Th ta="right">{t('detail.net')}</Table.Th>
                  <Table.Th ta="right">{t('detail.vat')}</Table.Th>
                  <Table.Th ta="right">{t('detail.gross')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {invoice.rates.map((r) => (
                  <Table.Tr key={String(r.vatRate)}>
                    <Table.Td>{rateLabel(r.vatRate, lang)}</Table.Td>
                    <Table.Td ta="right">{money(r.net, c, lang)}</Table.Td>
                    <Table.Td ta="right">{money(r.vat, c, lang)}</Table.Td>
                    <Table.Td ta="right">{money(r.gross, c, lang)}</Table.Td>
                  </Table.Tr>
                ))}
                <Table.Tr fw={700}>
                  <Table.Td>{t('detail.total')}</Table.Td>
                  <Table.Td ta="right">{money(invoice.totals.net, c, lang)}</Table.Td>
                  <Table.Td ta="right">{money(invoice.totals.vat, c, lang)}</Table.Td>
                  <Table.Td ta="right">{money(invoice.totals.gross, c, lang)}</Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between" mt="sm">
            <Text size="sm">{t('detail.paid')}</Text>
            <Text size="sm">{money(invoice.totals.paid, c, lang)}</Text>
          </Group>
          <Group justify="space-between">
            <Text fw={700}>{refund ? t('paymentState.refundDue') : t('detail.due')}</Text>
            <Text fw={700} data-testid="invoice-due">
              {money(refund ? -invoice.totals.gross : invoice.totals.due, c, lang)}
            </Text>
          </Group>
        </Card>
      </SimpleGrid>
      {correcting ? <CorrectionDialog invoice={invoice} onClose={() => setCorrecting(false)} /> : null}
      {cancelling ? <CancelDialog invoice={invoice} onClose={() => setCancelling(false)} /> : null}
    </Stack>
  );
}

interface EditLine {
  description: string;
  quantity: string;
  unit: string;
  unitPrice: number;
  vatRate: InvoiceLineView['vatRate'];
}

function CorrectionDialog({ invoice, onClose }: { invoice: InvoiceView; onClose(): void }) {
  const { t } = useTranslation('invoices');
  const navigate = useNavigate();
  const calls = useInvoiceCalls();
  const invalidate = useInvalidateInvoices();
  // Start from the invoice as it stands: after its latest correction, if any.
  const fields = useEditorForm(() => ({
    lines: invoice.lines.map(({ description, quantity, unit, unitPrice, vatRate }): EditLine => ({
      description,
      quantity,
      unit,
      unitPrice,
      vatRate,
    })),
    reason: '',
  }));
  const { lines, reason } = fields.values;
  const [errors, setFailure] = useInvoiceFormErrors({ unexpected: 'withCode' });
  const [busy, setBusy] = useState(false);
  const update = (i: number, patch: Partial<EditLine>) =>
    fields.set(
      'lines',
      lines.map((l, j) => (j === i ? { ...l, ...patch } : l)),
    );
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const created = await calls.correct(invoice.id, { reason, lines });
      await invalidate();
      onClose();
      navigate(`/invoices/${created.id}`);
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('correct.title', { number: invoice.number })} size="xl">
      <form onSubmit={submit} data-testid="invoice-correction-form">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('correct.hint')}
          </Text>
          {lines.map((line, i) => (
            <Group key={i} gap="xs" align="start" wrap="wrap">
              <TextInput
                label={i === 0 ? t('fields.description') : undefined}
                value={line.description}
                onChange={(e) => update(i, { description: e.currentTarget.value })}
                error={errors.fields[`lines.${i}.description`]}
                style={{ flex: '1 1 200px' }}
              />
              <TextInput
                label={i === 0 ? t('fields.quantity') : undefined}
                value={line.quantity}
                onChange={(e) => update(i, { quantity: e.currentTarget.value })}
                error={errors.fields[`lines.${i}.quantity`]}
                w={90}
                name={`lines.${i}.quantity`}
              />
              <NumberInput
                label={i === 0 ? t('fields.unitPrice') : undefined}
                value={line.unitPrice / 100}
                decimalScale={2}
                min={0}
                onChange={(v) => update(i, { unitPrice: Math.round((typeof v === 'number' ? v : 0) * 100) })}
                error={errors.fields[`lines.${i}.unitPrice`]}
                w={120}
              />
              <ActionIcon
                variant="subtle"
                mt={i === 0 ? 26 : 4}
                aria-label="remove"
                disabled={i < invoice.lines.length}
                onClick={() =>
                  fields.set(
                    'lines',
                    lines.filter((_, j) => j !== i),
                  )
                }
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          <Textarea
            label={t('fields.reason')}
            value={reason}
            onChange={(e) => fields.set('reason', e.currentTarget.value)}
            error={errors.fields.reason}
            name="reason"
            autosize
          />
          {errors.form.map((m) => (
            <Alert key={m} color="red">
              {m}
            </Alert>
          ))}
          <Group justify="flex-end">
            <Button type="submit" loading={busy} data-testid="invoice-correction-submit">
              {t('correct.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function CancelDialog({ invoice, onClose }: { invoice: InvoiceView; onClose(): void }) {
  const { t } = useTranslation('invoices');
  const calls = useInvoiceCalls();
  const invalidate = useInvalidateInvoices();
  const fields = useEditorForm(() => ({ reason: '' }));
  const { reason } = fields.values;
  const [errors, setFailure] = useInvoiceFormErrors({ unexpected: 'withCode' });
  const [busy, setBusy] = useState(false);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await calls.cancel(invoice.id, reason);
      await invalidate();
      onClose();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={t('cancel.title', { number: invoice.number })}>
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Text size="sm">{t('cancel.hint')}</Text>
          <Textarea
            label={t('fields.reason')}
            value={reason}
            onChange={(e) => fields.set('reason', e.currentTarget.value)}
            error={errors.fields.reason}
          />
          {errors.form.map((m) => (
            <Alert key={m} color="red">
              {m}
            </Alert>
          ))}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('cancel.keep')}
            </Button>
            <Button type="submit" color="red" loading={busy}>
              {t('cancel.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
