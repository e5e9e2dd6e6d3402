import { v7 as uuidv7 } from 'uuid';
import {
  REVERSE_CHARGE_MESSAGES,
  type InvoiceCorrectiveInput,
} from '../../../../shared/contracts/api/invoices';
import {
  computeCorrection,
  correctionProblems,
  formatInvoiceNumber,
  invoiceSeriesYear,
  invoiceVatRateKey,
  InvoiceInputError,
  paymentDueDate,
  type InvoiceLineInput,
} from '../../../../shared/domain/invoices';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { presentLine, type BuyerSnapshot, type InvoiceLineRow, type InvoiceRow } from './invoices.presenter';

import { todayOf, invoiceRow, type Trx } from './invoices.rows';
import { takeNumber, lineFields, lineRow } from './invoice-issue.service';
import { assertNotInKsef, queueKsefSend } from './ksef/ksef-send.service';

// ------------------------------------------------------------------------------------ corrections

const asInput = (l: InvoiceLineRow): InvoiceLineInput => ({
  description: l.description,
  quantity: { thousandths: l.quantityThousandths },
  unit: l.unit,
  unitPrice: l.unitPrice,
  vatRate: presentLine(l).vatRate,
});

/** The invoice as it stands now: its own lines and buyer, or those after its latest correction. */
async function currentState(db: Db, invoice: InvoiceRow) {
  const latest: { id: string; buyer: BuyerSnapshot } | undefined = await db('invoices')
    .where({ correctedInvoiceId: invoice.id, status: 'issued' })
    .orderBy('id', 'desc')
    .first('id', 'buyer');
  const lines = (await db('invoice_lines')
    .where(latest ? { invoiceId: latest.id, side: 'after' } : { invoiceId: invoice.id, side: 'line' })
    .orderBy('position')) as InvoiceLineRow[];
  return { lines, buyer: latest?.buyer ?? invoice.buyer };
}

export async function correctInvoice(
  trx: Trx,
  studio: Studio,
  actorId: string,
  invoiceId: string,
  input: InvoiceCorrectiveInput,
  now: Date,
): Promise<string> {
  const original = await invoiceRow(trx, studio.id, invoiceId, true);
  if (original.kind === 'corrective')
    throw new AppError('invoice.correctiveNotCorrectable', {
      message: 'correct the original invoice, not its correction',
    });
  if (original.status === 'cancelled')
    throw new AppError('invoice.cancelledNotCorrectable', {
      message: 'a cancelled invoice cannot be corrected',
    });
  if (original.vatTreatment === 'reverseCharge' && input.buyer && input.buyer.country === 'PL')
    throw AppError.invalid({ 'buyer.country': [REVERSE_CHARGE_MESSAGES.domestic] });
  const state = await currentState(trx, original);
  const shape = correctionProblems(state.lines.length, input.lines);
  if (shape.length > 0)
    throw AppError.invalid({ lines: ['list every line of the invoice (quantity 0 takes a line back)'] });
  let correction;
  try {
    correction = computeCorrection({
      basis: original.priceBasis,
      treatment: original.vatTreatment,
      before: state.lines.map(asInput),
      after: input.lines,
    });
  } catch (err) {
    if (err instanceof InvoiceInputError) throw AppError.invalid(lineFields(err));
    throw err;
  }
  const buyerChanged =
    input.buyer !== undefined && JSON.stringify(input.buyer) !== JSON.stringify(state.buyer);
  if (!correction.changed && !buyerChanged)
    throw new AppError('invoice.correctionNoChange', {
      message: 'the correction changes nothing',
      fields: { lines: ['the correction changes nothing'] },
    });
  const issueDate = todayOf(studio, now);
  const year = invoiceSeriesYear(issueDate);
  const sequence = await takeNumber(trx, studio.id, 'corrective', year);
  const id = uuidv7();
  const buyer: BuyerSnapshot = input.buyer
    ? { ...input.buyer, clientId: input.buyer.clientId ?? original.clientId }
    : state.buyer;
  await trx('invoices').insert({
    id,
    studioId: studio.id,
    kind: 'corrective',
    number: formatInvoiceNumber({ kind: 'corrective', year, sequence }),
    seriesYear: year,
    sequence,
    status: 'issued',
    issueDate,
    saleDate: original.saleDate,
    placeOfIssue: original.placeOfIssue,
    currency: original.currency,
    priceBasis: original.priceBasis,
    vatTreatment: original.vatTreatment,
    exemptionBasis: original.exemptionBasis,
    exchangeRate: original.exchangeRate ? JSON.stringify(original.exchangeRate) : null,
    seller: JSON.stringify(original.seller),
    buyer: JSON.stringify(buyer),
    buyerBefore: buyerChanged ? JSON.stringify(state.buyer) : null,
    recipient: original.recipient ? JSON.stringify(original.recipient) : null,
    buyerName: buyer.name,
    buyerTaxId: buyer.taxId,
    clientId: original.clientId,
    orderId: original.orderId,
    paymentMethod: original.paymentMethod,
    paymentTermDays: original.paymentTermDays,
    paymentDueDate: paymentDueDate(issueDate, original.paymentTermDays),
    paidAmount: 0,
    netTotal: correction.difference.net,
    vatTotal: correction.difference.vat,
    grossTotal: correction.difference.gross,
    rates: JSON.stringify(correction.rates.map((r) => ({ ...r, vatRate: invoiceVatRateKey(r.vatRate) }))),
    remarks: '',
    language: original.language,
    correctedInvoiceId: original.id,
    correctionReason: input.reason,
    issuedBy: actorId,
    createdAt: now,
    updatedAt: now,
  });
  await trx('invoice_lines').insert([
    ...correction.before.lines.map((l, i) => lineRow(studio.id, id, 'before', l, i)),
    ...correction.after.lines.map((l, i) => lineRow(studio.id, id, 'after', l, i)),
  ]);
  await queueKsefSend(trx, studio.id, id, now);
  return id;
}

// ------------------------------------------------------------------------------------ cancelling

/**
 * Cancels an invoice that should not have been issued (wrong buyer, issued twice). Its number stays
 * taken: the series has no gap, the document is marked cancelled. An invoice with corrections, or a
 * correction that a later one builds on, cannot be cancelled.
 */
export async function cancelInvoice(
  trx: Trx,
  studio: Studio,
  actorId: string,
  invoiceId: string,
  reason: string,
  now: Date,
): Promise<void> {
  const invoice = await invoiceRow(trx, studio.id, invoiceId, true);
  if (invoice.status === 'cancelled')
    throw new AppError('invoice.alreadyCancelled', { message: 'the invoice is already cancelled' });
  await assertNotInKsef(trx, invoice.id);
  const later =
    invoice.kind === 'invoice'
      ? await trx('invoices').where({ correctedInvoiceId: invoice.id, status: 'issued' }).first('id')
      : await trx('invoices')
          .where({ correctedInvoiceId: invoice.correctedInvoiceId, status: 'issued' })
          .where('id', '>', invoice.id)
          .first('id');
  if (later)
    throw new AppError('invoice.hasCorrections', {
      message: 'cancel its corrections first (newest first)',
    });
  await trx('invoices').where({ id: invoice.id }).update({
    status: 'cancelled',
    cancelledAt: now,
    cancelledBy: actorId,
    cancelReason: reason,
    updatedAt: now,
  });
}
