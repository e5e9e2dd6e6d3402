import type { InvoiceSettingsInput, InvoiceSettingsView } from '../../../../shared/contracts/api/invoices';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { presentSettings, type SettingsRow } from './invoices.presenter';

import { type Trx } from './invoices.rows';

// ------------------------------------------------------------------------------------ settings

export async function settingsRow(db: Db, studio: Studio): Promise<SettingsRow> {
  const row: SettingsRow | undefined = await db('studio_invoice_settings')
    .where({ studioId: studio.id })
    .first();
  // Until saved, the studio's own name and address stand in; the NIP has no default.
  return (
    row ?? {
      sellerName: studio.name,
      addressLine: studio.addressLine,
      postalCode: studio.postalCode,
      city: studio.city,
      country: studio.country,
      taxId: null,
      iban: null,
      bankName: '',
      placeOfIssue: studio.city,
      paymentTermDays: 14,
      vatExempt: false,
      vatExemptionBasis: '',
    }
  );
}

export async function invoiceSettings(db: Db, studio: Studio): Promise<InvoiceSettingsView> {
  return presentSettings(await settingsRow(db, studio));
}

export async function saveInvoiceSettings(
  trx: Trx,
  studio: Studio,
  input: InvoiceSettingsInput,
  now: Date,
): Promise<InvoiceSettingsView> {
  const row = {
    studioId: studio.id,
    sellerName: input.sellerName,
    addressLine: input.addressLine,
    postalCode: input.postalCode,
    city: input.city,
    country: input.country,
    taxId: input.taxId,
    iban: input.iban,
    bankName: input.bankName,
    placeOfIssue: input.placeOfIssue,
    paymentTermDays: input.paymentTermDays,
    vatExempt: input.vatExempt,
    vatExemptionBasis: input.vatExemptionBasis,
    updatedAt: now,
  };
  await trx('studio_invoice_settings').insert(row).onConflict('studio_id').merge();
  return invoiceSettings(trx, studio);
}
