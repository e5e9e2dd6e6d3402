import type { Knex } from 'knex';

/**
 * Check-in as it happens at the desk (issue 26): the studio sets when check-in opens (minutes before
 * the start; 60 was a constant) and how long after the start staff may still add a walk-in (null:
 * until the class ends, as before). Both are the studio's booking settings.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('studio_booking_settings', (t) => {
    t.integer('check_in_opens_minutes').notNullable().defaultTo(60);
    t.integer('walk_in_minutes').nullable();
  });
  await knex.raw(
    `alter table studio_booking_settings
       add constraint studio_booking_settings_check_in check (check_in_opens_minutes between 0 and 1440),
       add constraint studio_booking_settings_walk_in check (walk_in_minutes is null or walk_in_minutes between 0 and 1440)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('studio_booking_settings', (t) => {
    t.dropColumn('check_in_opens_minutes');
    t.dropColumn('walk_in_minutes');
  });
}
