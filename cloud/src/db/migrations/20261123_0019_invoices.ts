import type { Knex } from 'knex';

/**
 * Polish VAT invoices and corrective invoices (spec §3 Invoice, §7 downloads by id and
 * `company/tax-identification-number/check`).
 *
 * - `studio_invoice_settings`: the seller's details an invoice needs and a studio did not have
 *   (legal name, NIP, IBAN, bank, place of issue, payment term, VAT exemption); one row per studio,
 *   created when first saved. The studio's name and address are the defaults.
 * - `invoice_number_series`: the last number of each series (studio, kind, year). The issuing
 *   transaction increments it with `insert … on conflict do update … returning`, which takes the
 *   row's lock until commit: two issues in parallel queue on it, and a rolled-back issue gives its
 *   number back, so numbers are gapless. A unique (studio, number) index is the backstop.
 * - `invoices`: seller, buyer and recipient are snapshots (jsonb) taken at issue; an invoice never
 *   changes after it is issued except for its cancellation. `order_id` names the sale it was issued
 *   for, without a foreign key (orders live in the sales module); at most one issued invoice per order.
 *   A corrective invoice points at the invoice it corrects; its amounts are the differences.
 * - `invoice_lines`: side 'line' for an invoice; 'before' and 'after' for a corrective invoice.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('studio_invoice_settings', (t) => {
    t.uuid('studio_id').primary().references('studios.id').onDelete('CASCADE');
    t.string('seller_name', 300).notNullable().defaultTo('');
    t.string('address_line', 300).notNullable().defaultTo('');
    t.string('postal_code', 20).notNullable().defaultTo('');
    t.string('city', 100).notNullable().defaultTo('');
    t.string('country', 2).notNullable().defaultTo('PL');
    t.string('tax_id', 20).nullable();
    t.string('iban', 34).nullable();
    t.string('bank_name', 200).notNullable().defaultTo('');
    t.string('place_of_issue', 100).notNullable().defaultTo('');
    t.integer('payment_term_days').notNullable().defaultTo(14);
    t.boolean('vat_exempt').notNullable().defaultTo(false);
    t.string('vat_exemption_basis', 500).notNullable().defaultTo('');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    `alter table studio_invoice_settings add constraint studio_invoice_settings_term
     check (payment_term_days between 0 and 365)`,
  );

  await knex.schema.createTable('invoice_number_series', (t) => {
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('kind', 12).notNullable();
    t.integer('year').notNullable();
    t.integer('last_number').notNullable();
    t.primary(['studio_id', 'kind', 'year']);
  });
  await knex.raw(
    `alter table invoice_number_series add constraint invoice_number_series_kind
     check (kind in ('invoice', 'corrective') and last_number > 0)`,
  );

  await knex.schema.createTable('invoices', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('kind', 12).notNullable();
    t.string('number', 40).notNullable();
    t.integer('series_year').notNullable();
    t.integer('sequence').notNullable();
    t.string('status', 12).notNullable().defaultTo('issued');
    // The studio's calendar days.
    t.date('issue_date').notNullable();
    t.date('sale_date').notNullable();
    t.string('place_of_issue', 100).notNullable().defaultTo('');
    t.string('currency', 3).notNullable();
    t.string('price_basis', 5).notNullable();
    t.string('vat_treatment', 16).notNullable();
    t.string('exemption_basis', 500).nullable();
    // { currency, rateTenThousandths, table, date } for an invoice in another currency than PLN.
    t.jsonb('exchange_rate').nullable();
    t.jsonb('seller').notNullable();
    t.jsonb('buyer').notNullable();
    t.jsonb('recipient').nullable();
    // Copies of the buyer's name and tax id for the list filters.
    t.string('buyer_name', 300).notNullable();
    t.string('buyer_tax_id', 20).nullable();
    t.uuid('client_id').nullable().references('users.id').onDelete('SET NULL');
    t.uuid('order_id').nullable();
    // Spec §3 payment method numbers.
    t.smallint('payment_method').notNullable();
    t.integer('payment_term_days').notNullable();
    t.date('payment_due_date').notNullable();
    t.integer('paid_amount').notNullable().defaultTo(0);
    // Minor units; a corrective invoice's are the differences (may be negative).
    t.integer('net_total').notNullable();
    t.integer('vat_total').notNullable();
    t.integer('gross_total').notNullable();
    // Per-rate summary: [{ vatRate, net, vat, gross }] or, corrective, [{ vatRate, before, after, difference }].
    t.jsonb('rates').notNullable();
    t.text('remarks').notNullable().defaultTo('');
    // Language of the printed document: 'pl' or 'pl-en' (bilingual).
    t.string('language', 8).notNullable();
    t.uuid('corrected_invoice_id').nullable().references('invoices.id').onDelete('RESTRICT');
    t.string('correction_reason', 500).nullable();
    // A corrective invoice that changes the buyer's details: the buyer as the corrected invoice had it.
    t.jsonb('buyer_before').nullable();
    t.timestamp('cancelled_at', { useTz: true }).nullable();
    t.uuid('cancelled_by').nullable().references('users.id').onDelete('SET NULL');
    t.string('cancel_reason', 500).nullable();
    t.uuid('issued_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['studio_id', 'number']);
    t.unique(['studio_id', 'kind', 'series_year', 'sequence']);
    t.index(['corrected_invoice_id']);
    t.index(['client_id']);
  });
  await knex.raw(`
    alter table invoices
      add constraint invoices_kind check (kind in ('invoice', 'corrective')),
      add constraint invoices_status check (status in ('issued', 'cancelled')),
      add constraint invoices_price_basis check (price_basis in ('net', 'gross')),
      add constraint invoices_vat_treatment check (vat_treatment in ('standard', 'reverseCharge', 'exempt')),
      add constraint invoices_corrective check ((kind = 'corrective') = (corrected_invoice_id is not null)),
      add constraint invoices_paid check (paid_amount >= 0),
      add constraint invoices_cancelled check ((status = 'cancelled') = (cancelled_at is not null))`);
  // Lists: newest first (UUIDv7 ids are time-ordered), filters by date, buyer and tax id.
  await knex.raw('create index invoices_by_id on invoices (studio_id, id desc)');
  await knex.raw('create index invoices_by_issue_date on invoices (studio_id, issue_date)');
  await knex.raw('create index invoices_by_buyer_tax_id on invoices (studio_id, buyer_tax_id)');
  await knex.raw('create index invoices_by_buyer_name on invoices (studio_id, lower(buyer_name))');
  await knex.raw(
    `create unique index invoices_one_per_order on invoices (studio_id, order_id)
     where order_id is not null and kind = 'invoice' and status = 'issued'`,
  );

  await knex.schema.createTable('invoice_lines', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('invoice_id').notNullable().references('invoices.id').onDelete('CASCADE');
    t.string('side', 6).notNullable();
    t.integer('position').notNullable();
    t.string('description', 500).notNullable();
    t.integer('quantity_thousandths').notNullable();
    t.string('unit', 20).notNullable();
    t.integer('unit_price').notNullable();
    // Basis points as text ('2300'), 'exempt' or 'reverseCharge'.
    t.string('vat_rate', 16).notNullable();
    t.integer('net').notNullable();
    t.integer('vat').notNullable();
    t.integer('gross').notNullable();
    t.unique(['invoice_id', 'side', 'position']);
  });
  await knex.raw(
    `alter table invoice_lines add constraint invoice_lines_side check (side in ('line', 'before', 'after')),
       add constraint invoice_lines_amounts check (quantity_thousandths >= 0 and unit_price >= 0)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['invoice_lines', 'invoices', 'invoice_number_series', 'studio_invoice_settings'])
    await knex.schema.dropTableIfExists(table);
}
