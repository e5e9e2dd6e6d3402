import { Alert, Button, Group, Loader, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { InvoiceOrderDraft } from '../../../shared/contracts/api/invoices';
import { useOffline } from '../../lib/connectivity';
import { failureText } from '../../lib/form-errors';
import {
  useCanInvoice,
  useInvalidateInvoices,
  useInvoiceCalls,
  useInvoiceFormErrors,
  useOrderDraft,
} from '../invoices/invoices.api';
import { useEditorForm } from '../../ui/use-editor-form';
import type { PosStationSink } from './station-sink';

/**
 * "Invoice" after a desk sale: the sale's order in the cloud (asked through the station, which pushes
 * the sale first if it is still waiting), the buyer (company and NIP), issued by the cloud's invoices
 * module; the PDF is fetched through the station and downloaded. Online only; issuing needs
 * `sales.invoices`.
 */
export function StationInvoiceButton({ sink, saleId }: { sink: PosStationSink; saleId: string }) {
  const { t } = useTranslation('retail');
  const offline = useOffline();
  const canInvoice = useCanInvoice();
  const [open, setOpen] = useState(false);
  const reason = offline ? t('station.invoice.offline') : !canInvoice ? t('station.invoice.noRight') : null;
  return (
    <Stack gap={4}>
      <Button
        variant="default"
        size="lg"
        disabled={reason !== null}
        onClick={() => setOpen(true)}
        data-testid="pos-invoice"
      >
        {t('station.invoice.button')}
      </Button>
      {reason && (
        <Text size="sm" c="dimmed" data-testid="pos-invoice-reason">
          {reason}
        </Text>
      )}
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={t('station.invoice.title')}
        size="lg"
        data-testid="pos-invoice-dialog"
      >
        {open && <InvoiceForSale sink={sink} saleId={saleId} />}
      </Modal>
    </Stack>
  );
}

function InvoiceForSale({ sink, saleId }: { sink: PosStationSink; saleId: string }) {
  const { t } = useTranslation('retail');
  const orders = useQuery({
    queryKey: ['pos-station', 'sale-orders', saleId],
    queryFn: () => sink.saleOrders(saleId),
    retry: false,
  });
  const orderId = orders.data?.orderIds[0] ?? null;
  const draft = useOrderDraft(orderId);
  if (orders.isError) return <Alert color="red">{failureText(orders.error, t, 'errors.general')}</Alert>;
  if (orders.data && orders.data.reason)
    return (
      <Stack gap="sm">
        <Alert color="yellow" data-testid="pos-invoice-not-ready">
          {t(`station.invoice.${orders.data.reason}`)}
        </Alert>
        {orders.data.reason === 'waitingToSync' && (
          <Button variant="light" w="fit-content" onClick={() => void orders.refetch()}>
            {t('retry')}
          </Button>
        )}
      </Stack>
    );
  if (draft.isError) return <Alert color="red">{failureText(draft.error, t, 'errors.general')}</Alert>;
  if (!draft.data) return <Loader aria-label={t('loading')} />;
  return <BuyerForm sink={sink} draft={draft.data} />;
}

interface IssuedInvoice {
  id: string;
  number: string;
}

function BuyerForm({ sink, draft }: { sink: PosStationSink; draft: InvoiceOrderDraft }) {
  const { t } = useTranslation(['retail', 'invoices']);
  const calls = useInvoiceCalls();
  const invalidate = useInvalidateInvoices();
  const [errors, setFailure] = useInvoiceFormErrors({ unexpected: 'withCode' });
  const buyerForm = useEditorForm(() => ({
    name: draft.buyer.name,
    taxId: draft.buyer.taxId ?? '',
    addressLine: draft.buyer.addressLine,
    postalCode: draft.buyer.postalCode,
    city: draft.buyer.city,
  }));
  const buyer = buyerForm.values;
  const [busy, setBusy] = useState(false);
  // An invoice already issued for the order (a second click, another desk) is shown, not issued again.
  const [issued, setIssued] = useState<IssuedInvoice | null>(draft.existingInvoice);
  const [issuedHere, setIssuedHere] = useState(false);
  const [pdfError, setPdfError] = useState<string | null>(null);

  const download = async (invoice: IssuedInvoice) => {
    setPdfError(null);
    try {
      const pdf = await sink.invoicePdf(invoice.id);
      const bytes = Uint8Array.from(atob(pdf.base64), (c) => c.charCodeAt(0));
      const url = URL.createObjectURL(new Blob([bytes], { type: pdf.contentType }));
      const link = document.createElement('a');
      link.href = url;
      link.download = pdf.fileName;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      setPdfError(failureText(error, t, 'errors.general'));
    }
  };

  if (issued)
    return (
      <Stack gap="sm" data-testid="pos-invoice-issued">
        <Alert color="teal">
          {issuedHere
            ? t('station.invoice.issued', { number: issued.number })
            : t('station.invoice.already', { number: issued.number })}
        </Alert>
        <Group>
          <Button onClick={() => void download(issued)} data-testid="pos-invoice-download">
            {t('station.invoice.download')}
          </Button>
        </Group>
        {pdfError && <Text c="red">{pdfError}</Text>}
      </Stack>
    );

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const invoice = await calls.issueForOrder(draft.order.id, {
        buyer: {
          name: buyer.name,
          addressLine: buyer.addressLine,
          postalCode: buyer.postalCode,
          city: buyer.city,
          country: 'PL',
          taxId: buyer.taxId.trim() || null,
          email: draft.buyer.email,
        },
        saleDate: draft.saleDate,
        paymentTermDays: draft.settings.paymentTermDays,
        remarks: '',
      });
      setIssued(invoice);
      setIssuedHere(true);
      await invalidate();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  const field = (key: keyof typeof buyer, label: string) => (
    <TextInput
      label={label}
      name={`buyer.${key}`}
      value={buyer[key]}
      onChange={(e) => {
        const value = e.currentTarget.value;
        buyerForm.set(key, value);
      }}
      error={errors.fields[`buyer.${key}`]}
      data-testid={`pos-invoice-${key}`}
    />
  );
  return (
    <form onSubmit={(e) => void submit(e)}>
      <Stack gap="sm">
        {!draft.invoiceable && <Alert color="yellow">{t('station.invoice.notInvoiceable')}</Alert>}
        {!draft.settings.complete && <Alert color="yellow">{t('invoices:list.settingsMissing')}</Alert>}
        {field('name', t('station.invoice.company'))}
        {field('taxId', t('station.invoice.nip'))}
        {field('addressLine', t('invoices:fields.addressLine'))}
        <SimpleGrid cols={2}>
          {field('postalCode', t('invoices:fields.postalCode'))}
          {field('city', t('invoices:fields.city'))}
        </SimpleGrid>
        {errors.form.map((m) => (
          <Alert key={m} color="red">
            {m}
          </Alert>
        ))}
        <Group>
          <Button
            type="submit"
            loading={busy}
            disabled={!draft.invoiceable || !buyer.taxId.trim() || !buyer.name.trim()}
            data-testid="pos-invoice-issue"
          >
            {t('station.invoice.issue')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
