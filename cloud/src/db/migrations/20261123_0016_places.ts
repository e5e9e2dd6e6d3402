import type { Knex } from 'knex';

/**
 * Places and class services become editable in the back office (cloud/src/modules/places): locations,
 * rooms, class services and their categories can be archived (kept for history, hidden from pickers),
 * a class service carries a default capacity for new schedule metas, and active locations and rooms
 * have unique names (case-insensitive) within their studio / location.
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of ['locations', 'location_rooms', 'class_service_categories'])
    await knex.schema.alterTable(table, (t) => {
      t.timestamp('archived_at', { useTz: true }).nullable();
    });
  await knex.schema.alterTable('class_services', (t) => {
    t.timestamp('archived_at', { useTz: true }).nullable();
    t.integer('default_capacity').nullable();
  });
  await knex.raw(
    `create unique index locations_active_name_unique on locations (studio_id, lower(name))
       where archived_at is null`,
  );
  await knex.raw(
    `create unique index location_rooms_active_name_unique on location_rooms (location_id, lower(name))
       where archived_at is null`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists location_rooms_active_name_unique');
  await knex.raw('drop index if exists locations_active_name_unique');
  await knex.schema.alterTable('class_services', (t) => {
    t.dropColumn('default_capacity');
    t.dropColumn('archived_at');
  });
  for (const table of ['class_service_categories', 'location_rooms', 'locations'])
    await knex.schema.alterTable(table, (t) => t.dropColumn('archived_at'));
}
