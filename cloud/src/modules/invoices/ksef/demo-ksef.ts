import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { InvoiceIssueInputSchema } from '../../../../../shared/contracts/api/invoices';
import { findStudio } from '../../identity/index';
import { issueInvoice } from '../invoice-issue.service';
import { invoiceDetail } from '../invoices.service';
import { invoiceFa3Xml } from '../ksef-fa3';
import { composeKsefNumber, sha256Base64 } from './ksef-crypto';
import { upoDocument } from './ksef-upo';

/**
 * The demo studio's KSeF: settings for the test environment (no token — a newcomer enters their own,
 * so the demo never calls KSeF), and two invoices to companies already accepted by KSeF three and
 * two days ago, with their KSeF numbers and UPOs, so the invoice list's KSeF tab, the detail's KSeF
 * card and the PDF's KSeF number and KOD I show at once.
 */
export async function seedDemoKsef(trx: Knex.Transaction, studioId: string, now: Date): Promise<void> {
  await trx('studio_ksef_settings').insert({ studioId, environment: 'test', updatedAt: now });
  const studio = await findStudio(trx, studioId);
  const owner = (await trx('memberships').where({ studioId, role: 'owner' }).first('userId')) as
    { userId: string } | undefined;
  if (!studio || !owner) return;
  const buyers = [
    {
      name: 'Firma Jogi & Syn sp. z o.o.',
      addressLine: 'ul. Źródlana 3',
      postalCode: '31-100',
      city: 'Kraków',
      taxId: '7740001454',
    },
    {
      name: 'Biuro Rachunkowe Bilans s.c.',
      addressLine: 'ul. Długa 5',
      postalCode: '80-831',
      city: 'Gdańsk',
      taxId: '5842681546',
    },
  ];
  for (const [i, buyer] of buyers.entries()) {
    const issuedAt = new Date(now.getTime() - (3 - i) * 86_400_000);
    const input = InvoiceIssueInputSchema.parse({
      buyer,
      lines: [
        {
          description: 'Wynajem sali — warsztaty',
          quantity: '2',
          unit: 'h',
          unitPrice: 15000,
          vatRate: 2300,
        },
      ],
    });
    const id = await issueInvoice(trx, studio, owner.userId, input, issuedAt);
    const invoice = await invoiceDetail(trx, studio, id, issuedAt);
    const xml = invoiceFa3Xml(invoice);
    const invoiceHash = sha256Base64(Buffer.from(xml, 'utf8'));
    const nip = invoice.seller.taxId ?? '';
    const ksefNumber = composeKsefNumber(
      nip,
      issuedAt,
      createHash('sha256').update(id).digest('hex').slice(0, 12),
    );
    const sessionReference = `${issuedAt.toISOString().slice(0, 10).replace(/-/g, '')}-SO-DEMO${i}0000000-00000DEMO0-0${i}`;
    await trx('invoice_ksef').insert({
      invoiceId: id,
      studioId,
      status: 'accepted',
      mode: 'online',
      environment: 'test',
      xml,
      invoiceHash,
      sessionReference,
      invoiceReference: `${sessionReference.slice(0, 9)}EE-DEMO${i}0000000-00000DEMO0-0${i}`,
      ksefNumber,
      upo: upoDocument({
        receiver: 'Ministerstwo Finansów - środowisko testowe (TE)',
        sessionReference,
        nip,
        authenticationHash: sha256Base64(sessionReference),
        ksefNumber,
        invoiceNumber: invoice.number,
        issueDate: invoice.issueDate,
        receivedAt: issuedAt,
        invoiceHash,
        offline: false,
      }),
      statusCode: 200,
      sentAt: issuedAt,
      acceptedAt: issuedAt,
      createdAt: issuedAt,
      updatedAt: issuedAt,
    });
  }
}
