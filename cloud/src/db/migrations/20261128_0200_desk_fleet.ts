import type { Knex } from 'knex';

/**
 * The desk fleet (issue 29): which update channel each studio's desks follow, the releases published
 * to the update feed (the installers themselves are in file storage), what each station last reported
 * at its contact (version, outbox depth, printers, errors, a pending "upload logs" request) and the
 * crash reports the desks' crash reporter sent. cloud/src/modules/desk-fleet/README.md.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('desk_fleet_settings', (t) => {
    t.uuid('studio_id').primary().references('id').inTable('studios').onDelete('CASCADE');
    t.string('channel', 16).notNullable().defaultTo('stable');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    "alter table desk_fleet_settings add constraint desk_fleet_settings_channel check (channel in ('stable', 'beta'))",
  );

  await knex.schema.createTable('desk_releases', (t) => {
    t.uuid('id').primary();
    t.string('channel', 16).notNullable();
    t.string('platform', 8).notNullable();
    t.string('version', 64).notNullable();
    /** electron-builder's UpdateInfo (version, files, path, sha512, releaseDate) as published. */
    t.jsonb('info').notNullable();
    /** electron-updater's stagingPercentage; null = every station. */
    t.integer('staging_percentage').nullable();
    t.string('published_by', 120).notNullable().defaultTo('');
    t.timestamp('published_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['channel', 'platform', 'version']);
    t.index(['channel', 'platform', 'published_at']);
  });
  await knex.raw(
    "alter table desk_releases add constraint desk_releases_channel check (channel in ('stable', 'beta'))",
  );
  await knex.raw(
    "alter table desk_releases add constraint desk_releases_platform check (platform in ('win', 'mac'))",
  );
  await knex.raw(
    'alter table desk_releases add constraint desk_releases_staging check (staging_percentage between 0 and 100)',
  );

  await knex.schema.createTable('desk_station_reports', (t) => {
    t.uuid('device_id').primary().references('id').inTable('sync_devices').onDelete('CASCADE');
    t.uuid('studio_id').notNullable().references('id').inTable('studios').onDelete('CASCADE');
    t.string('app_version', 64).notNullable();
    t.string('platform', 16).notNullable().defaultTo('');
    t.string('mode', 8).notNullable().defaultTo('desk');
    t.integer('outbox_depth').notNullable().defaultTo(0);
    t.timestamp('last_sync_at', { useTz: true }).nullable();
    t.timestamp('last_contact_at', { useTz: true }).notNullable();
    /** { fiscal: PrinterReport | null, ticket: PrinterReport | null } as the station saw them. */
    t.jsonb('printers').notNullable().defaultTo('{}');
    /** The station's last errors: [{ at, source, message }], newest first, at most 20. */
    t.jsonb('recent_errors').notNullable().defaultTo('[]');
    t.timestamp('logs_requested_at', { useTz: true }).nullable();
    t.uuid('logs_requested_by').nullable();
    t.timestamp('logs_uploaded_at', { useTz: true }).nullable();
    t.string('logs_key', 255).nullable();
    t.index(['studio_id']);
  });

  await knex.schema.createTable('desk_crash_reports', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('id').inTable('studios').onDelete('CASCADE');
    t.uuid('device_id').notNullable().references('id').inTable('sync_devices').onDelete('CASCADE');
    t.string('app_version', 64).notNullable().defaultTo('');
    t.string('platform', 16).notNullable().defaultTo('');
    t.string('process_type', 32).notNullable().defaultTo('');
    t.string('storage_key', 255).nullable();
    t.integer('size').notNullable().defaultTo(0);
    /** The other form fields the crash reporter sent (strings, capped). */
    t.jsonb('fields').notNullable().defaultTo('{}');
    t.timestamp('received_at', { useTz: true }).notNullable();
    t.index(['device_id', 'received_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('desk_crash_reports');
  await knex.schema.dropTableIfExists('desk_station_reports');
  await knex.schema.dropTableIfExists('desk_releases');
  await knex.schema.dropTableIfExists('desk_fleet_settings');
}
