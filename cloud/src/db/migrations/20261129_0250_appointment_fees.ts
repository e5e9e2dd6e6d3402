import type { Knex } from 'knex';

/**
 * Late-cancellation and no-show fees of appointments (issue 21), as `client_visit_fees` are for
 * classes: one row per appointment and kind, the amount the studio's booking settings name, whether
 * it was forgiven (first offence), voided (attendance corrected) and the order that bills it.
 * cloud/src/modules/appointments/README.md "Fees".
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('client_appointment_fees', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_appointment_id').notNullable().references('client_appointments.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('kind', 16).notNullable();
    t.integer('amount').notNullable();
    t.string('currency', 3).notNullable();
    t.boolean('forgiven').notNullable().defaultTo(false);
    t.timestamp('voided_at', { useTz: true }).nullable();
    t.uuid('client_order_id').nullable().references('client_orders.id').onDelete('SET NULL');
    t.uuid('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['client_appointment_id', 'kind']);
    t.index(['studio_id', 'client_id']);
  });
  await knex.raw(`alter table client_appointment_fees
    add constraint client_appointment_fees_kind check (kind in ('lateCancel', 'noShow')),
    add constraint client_appointment_fees_amount check (amount > 0)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('client_appointment_fees');
}
