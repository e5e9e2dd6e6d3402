import type { Knex } from 'knex';

/**
 * What the Ministry of Finance's JPK files need of the studio beyond its invoice seller details
 * (issue 19, "for the accountant"): the tax office the files are for (KodUrzedu, four digits of the
 * MF list), the taxpayer's e-mail (JPK_V7M Podmiot1) and the seller's address in the parts JPK_FA(4)
 * asks for (voivodeship, county, commune, street, building and flat number; the postal code and town
 * are the invoice settings'); a sole trader's first name, surname and date of birth (JPK_V7M names a
 * natural person so). One row per studio, written by the accountant.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('studio_accounting_settings', (t) => {
    t.uuid('studio_id').primary().references('id').inTable('studios').onDelete('CASCADE');
    t.string('tax_office_code', 4).notNullable();
    t.string('email', 255).notNullable();
    t.string('province', 36).notNullable();
    t.string('county', 36).notNullable();
    t.string('commune', 36).notNullable();
    t.string('street', 65).notNullable().defaultTo('');
    t.string('house_number', 9).notNullable();
    t.string('flat_number', 10).notNullable().defaultTo('');
    /** A natural person (a sole trader) files JPK_V7M as one: first name, surname, date of birth. */
    t.boolean('natural_person').notNullable().defaultTo(false);
    t.string('first_name', 30).notNullable().defaultTo('');
    t.string('last_name', 81).notNullable().defaultTo('');
    t.date('birth_date').nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    "alter table studio_accounting_settings add constraint studio_accounting_settings_tax_office check (tax_office_code ~ '^[0-9]{4}$')",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('studio_accounting_settings');
}
