import type { Knex } from 'knex';

/**
 * The back office's review of station flags and quarantined commands: who closed an item and how
 * (`resolved`: dealt with; `dismissed`: nothing to do), and the open items of a studio newest first.
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of ['sync_flags', 'sync_quarantine']) {
    await knex.schema.alterTable(table, (t) => {
      t.uuid('resolved_by').nullable().references('users.id').onDelete('SET NULL');
      t.string('resolution', 20).nullable();
    });
    await knex.raw(
      `alter table ${table} add constraint ${table}_resolution check (resolution in ('resolved', 'dismissed'))`,
    );
    await knex.raw(
      `create index ${table}_open on ${table} (studio_id, created_at desc) where resolved_at is null`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['sync_flags', 'sync_quarantine']) {
    await knex.raw(`drop index if exists ${table}_open`);
    await knex.schema.alterTable(table, (t) => {
      t.dropChecks([`${table}_resolution`]);
      t.dropColumn('resolution');
      t.dropColumn('resolved_by');
    });
  }
}
