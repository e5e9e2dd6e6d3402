import type { Knex } from 'knex';

/**
 * Contracts (memberships) pay for appointments (issue 21), as they pay for classes: an appointment
 * covered by a client contract is stored with `payment = 'contract'` and the contract's id.
 * cloud/src/modules/appointments/README.md "Payment".
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('client_appointments', (t) => {
    t.uuid('client_contract_id').nullable().references('client_contracts.id').onDelete('SET NULL');
  });
  await knex.raw(`alter table client_appointments
    drop constraint client_appointments_payment,
    add constraint client_appointments_payment check (payment in ('pass', 'wallet', 'online', 'desk', 'free', 'contract'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`update client_appointments set payment = 'desk' where payment = 'contract'`);
  await knex.raw(`alter table client_appointments
    drop constraint client_appointments_payment,
    add constraint client_appointments_payment check (payment in ('pass', 'wallet', 'online', 'desk', 'free'))`);
  await knex.schema.alterTable('client_appointments', (t) => {
    t.dropColumn('client_contract_id');
  });
}
