import type { Knex } from 'knex';

/**
 * The ESC/POS ticket printer of each POS station and each kiosk
 * (`shared/contracts/api/ticket-printers.ts`): one jsonb column each, null meaning none. A jsonb
 * value rather than columns: the station reads it whole, the back office writes it whole, and the
 * shape is checked by the contract on the way in and on the way out.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('studio_pos', (t) => {
    t.jsonb('ticket_printer').nullable();
  });
  await knex.schema.alterTable('studio_kiosks', (t) => {
    t.jsonb('ticket_printer').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('studio_kiosks', (t) => {
    t.dropColumn('ticket_printer');
  });
  await knex.schema.alterTable('studio_pos', (t) => {
    t.dropColumn('ticket_printer');
  });
}
