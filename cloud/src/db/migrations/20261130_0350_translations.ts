import type { Knex } from 'knex';

/**
 * Issue 25, translations. Products kept one name and description (the studio's default language);
 * their translations go beside them, per language (`LocaleText`, as order lines' `name_texts`): the
 * default-language text stays in `name` / `description`, so the POS, reports and the desk read them
 * unchanged. Every other catalogue item already keeps its texts per language (`name` jsonb).
 *
 * `studio_interface_texts`: a studio's own wording of an interface text (an i18next key of the front
 * office or kiosk) in one language, shown there instead of ours.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('products', (t) => {
    t.jsonb('name_texts').nullable();
    t.jsonb('description_texts').nullable();
  });
  await knex.schema.createTable('studio_interface_texts', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.text('locale').notNullable();
    /** `<namespace>:<key>` of locales/<locale>/<namespace>.json. */
    t.text('key').notNullable();
    t.text('value').notNullable();
    t.uuid('updated_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['studio_id', 'locale', 'key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('studio_interface_texts');
  await knex.schema.alterTable('products', (t) => {
    t.dropColumn('name_texts');
    t.dropColumn('description_texts');
  });
}
