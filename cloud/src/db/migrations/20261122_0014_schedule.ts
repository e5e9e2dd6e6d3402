import type { Knex } from 'knex';

/**
 * The timetable (schedule module): experience levels, class service categories, schedule metas (the
 * recurring definition) with their pricing options, and the state of schedule events. Extends the
 * simple tables of 0002 (locations, location_rooms, class_services, schedule_events) in place.
 */
export async function up(knex: Knex): Promise<void> {
  const timestamps = (t: Knex.CreateTableBuilder) => {
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  };

  await knex.schema.alterTable('locations', (t) => {
    t.string('picture_url', 1000).nullable();
  });

  await knex.schema.createTable('experience_levels', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('service_type', 20).notNullable();
    t.string('name', 100).notNullable();
    t.integer('position').notNullable().defaultTo(0);
    timestamps(t);
    t.index(['studio_id', 'service_type']);
  });
  await knex.raw(
    'create unique index experience_levels_name_unique on experience_levels (studio_id, service_type, lower(name))',
  );

  await knex.schema.createTable('class_service_categories', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.jsonb('name').notNullable();
    t.integer('position').notNullable().defaultTo(0);
    timestamps(t);
    t.index(['studio_id']);
  });

  await knex.schema.alterTable('class_services', (t) => {
    t.uuid('category_id').nullable().references('class_service_categories.id').onDelete('SET NULL');
    t.uuid('experience_level_id').nullable().references('experience_levels.id').onDelete('SET NULL');
  });

  await knex.schema.createTable('schedule_metas', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('class_service_id').notNullable().references('class_services.id').onDelete('CASCADE');
    t.uuid('location_id').notNullable().references('locations.id').onDelete('RESTRICT');
    t.uuid('room_id').nullable().references('location_rooms.id').onDelete('SET NULL');
    t.specificType('instructor_ids', 'uuid[]').notNullable().defaultTo('{}');
    // ISO weekdays 1 (Monday) … 7 (Sunday).
    t.specificType('days_of_week', 'smallint[]').notNullable();
    t.string('start_time', 5).notNullable();
    t.integer('duration_minutes').notNullable();
    t.date('first_date').notNullable();
    t.date('last_date').nullable();
    t.integer('capacity').notNullable();
    t.integer('waiting_list_size').notNullable().defaultTo(0);
    t.integer('booking_opens_hours').nullable();
    t.integer('booking_closes_minutes').notNullable().defaultTo(0);
    t.integer('cancellation_cutoff_minutes').notNullable().defaultTo(0);
    t.boolean('bookable_online').notNullable().defaultTo(true);
    t.smallint('booking_accessibility').notNullable().defaultTo(1);
    t.specificType('booking_tag_ids', 'uuid[]').notNullable().defaultTo('{}');
    t.uuid('experience_level_id').nullable().references('experience_levels.id').onDelete('SET NULL');
    timestamps(t);
    t.index(['studio_id', 'class_service_id']);
  });
  await knex.raw(
    `alter table schedule_metas add constraint schedule_metas_booking_accessibility_check
       check (booking_accessibility between 0 and 3)`,
  );

  await knex.schema.createTable('schedule_meta_pricing_options', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('schedule_meta_id').notNullable().references('schedule_metas.id').onDelete('CASCADE');
    t.uuid('pricing_option_id').notNullable().references('pricing_options.id').onDelete('CASCADE');
    timestamps(t);
    t.unique(['schedule_meta_id', 'pricing_option_id']);
    t.index(['studio_id', 'pricing_option_id']);
  });

  await knex.schema.alterTable('schedule_events', (t) => {
    t.uuid('schedule_meta_id').nullable().references('schedule_metas.id').onDelete('SET NULL');
    // The studio's calendar day of the occurrence: one event per meta and day (idempotent generation).
    t.date('occurrence_date').nullable();
    t.specificType('instructor_ids', 'uuid[]').notNullable().defaultTo('{}');
    t.string('status', 12).notNullable().defaultTo('scheduled');
    t.boolean('is_hidden').notNullable().defaultTo(false);
    t.boolean('bookable_online').notNullable().defaultTo(true);
    t.integer('waiting_list_size').notNullable().defaultTo(0);
    t.string('livestream_url', 1000).nullable();
    t.string('notes', 1000).notNullable().defaultTo('');
    // Set when staff edit this one event: generation no longer overwrites it.
    t.timestamp('edited_at', { useTz: true }).nullable();
    t.timestamp('cancelled_at', { useTz: true }).nullable();
    t.timestamp('removed_at', { useTz: true }).nullable();
  });
  await knex.raw(
    `alter table schedule_events add constraint schedule_events_status_check
       check (status in ('scheduled', 'cancelled', 'removed'))`,
  );
  await knex.raw(
    `update schedule_events set instructor_ids = array[instructor_id] where instructor_id is not null`,
  );
  await knex.raw(
    `create unique index schedule_events_meta_occurrence_unique on schedule_events (schedule_meta_id, occurrence_date)
       where schedule_meta_id is not null`,
  );
  // The timetable reads a studio's week, optionally one location: both served by a range scan.
  await knex.raw(
    `create index schedule_events_studio_location_starts on schedule_events (studio_id, location_id, starts_at)`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists schedule_events_studio_location_starts');
  await knex.raw('drop index if exists schedule_events_meta_occurrence_unique');
  await knex.raw('alter table schedule_events drop constraint if exists schedule_events_status_check');
  await knex.schema.alterTable('schedule_events', (t) => {
    for (const column of [
      'schedule_meta_id',
      'occurrence_date',
      'instructor_ids',
      'status',
      'is_hidden',
      'bookable_online',
      'waiting_list_size',
      'livestream_url',
      'notes',
      'edited_at',
      'cancelled_at',
      'removed_at',
    ])
      t.dropColumn(column);
  });
  await knex.schema.dropTableIfExists('schedule_meta_pricing_options');
  await knex.schema.dropTableIfExists('schedule_metas');
  await knex.schema.alterTable('class_services', (t) => {
    t.dropColumn('category_id');
    t.dropColumn('experience_level_id');
  });
  await knex.schema.dropTableIfExists('class_service_categories');
  await knex.schema.dropTableIfExists('experience_levels');
  await knex.schema.alterTable('locations', (t) => t.dropColumn('picture_url'));
}
