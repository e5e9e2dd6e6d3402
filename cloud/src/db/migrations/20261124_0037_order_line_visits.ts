import type { Knex } from 'knex';

/**
 * A pass bought from "My visits" to pay a visit booked at the desk: the order line remembers the
 * visit (`for_visit_id`), and fulfilling the line pays that visit with the new pass (bookings README,
 * "Paying a visit online"). Set null if the visit row ever goes; the pass sale stands either way.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('client_order_lines', (t) => {
    t.uuid('for_visit_id').nullable().references('id').inTable('client_visits').onDelete('SET NULL');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('client_order_lines', (t) => {
    t.dropColumn('for_visit_id');
  });
}
