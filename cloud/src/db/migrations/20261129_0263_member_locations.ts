import type { Knex } from 'knex';

/**
 * Reports (issue 20): a staff member's own locations — where they work. The dashboard opens on them
 * (today's classes, waiting lists and the attendance charts of those locations); a member without any
 * sees every location. Set by the member from the dashboard (`PUT backoffice/dashboard/locations`).
 * Gone with the location (cascade) or the studio.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table member_locations (
      studio_id uuid not null references studios(id) on delete cascade,
      user_id uuid not null references users(id) on delete cascade,
      location_id uuid not null references locations(id) on delete cascade,
      primary key (studio_id, user_id, location_id)
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('member_locations');
}
