import type { Knex } from 'knex';

/**
 * Video courses (issue 22). `videos` are the studio's uploaded files and their VideoStatus (init,
 * uploading, transcoding, available, failed); a video service is a course, its video events the
 * lessons in order; a client video is a client's access to one lesson with its watch metrics.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('videos', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.text('title').notNullable();
    t.text('status').notNullable();
    t.text('failure_reason').nullable();
    t.bigInteger('size_bytes').notNullable();
    t.text('file_name').notNullable();
    t.double('duration_seconds').nullable();
    /** The HLS renditions made: [{ name, width, height, bandwidth }]. */
    t.jsonb('renditions').notNullable().defaultTo('[]');
    t.boolean('has_thumbnail').notNullable().defaultTo(false);
    t.integer('transcode_attempts').notNullable().defaultTo(0);
    t.uuid('created_by_user_id').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'created_at']);
  });
  await knex.schema.createTable('video_services', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.jsonb('name').notNullable();
    t.jsonb('description').notNullable().defaultTo('{}');
    t.text('slug').notNullable();
    t.boolean('published').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['studio_id', 'slug']);
  });
  await knex.schema.createTable('video_events', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('video_service_id').notNullable().references('video_services.id').onDelete('CASCADE');
    t.uuid('video_id').notNullable().references('videos.id').onDelete('RESTRICT');
    t.jsonb('name').notNullable();
    t.integer('position').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'video_service_id', 'position']);
    t.index(['studio_id', 'video_id']);
  });
  await knex.schema.createTable('client_videos', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('video_event_id').notNullable().references('video_events.id').onDelete('CASCADE');
    /** pass or contract: what gave access when the client booked the video. */
    t.text('access').notNullable();
    t.uuid('client_pricing_option_id')
      .nullable()
      .references('client_pricing_options.id')
      .onDelete('SET NULL');
    t.uuid('client_contract_id').nullable();
    /** The key its playlist and segment links are signed with (HMAC; shared by every instance). */
    t.text('stream_secret').notNullable();
    t.double('position_seconds').notNullable().defaultTo(0);
    t.double('watched_seconds').notNullable().defaultTo(0);
    t.double('progress').notNullable().defaultTo(0);
    t.timestamp('completed_at', { useTz: true }).nullable();
    t.timestamp('last_watched_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['studio_id', 'client_id', 'video_event_id']);
    t.index(['studio_id', 'video_event_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('client_videos');
  await knex.schema.dropTable('video_events');
  await knex.schema.dropTable('video_services');
  await knex.schema.dropTable('videos');
}
