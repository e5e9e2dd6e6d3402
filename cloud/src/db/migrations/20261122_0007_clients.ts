import type { Knex } from 'knex';

/**
 * The back-office clients module: the studio's record of each client (`clients`), tags and their
 * assignments, client notes, and recorded bulk-message requests.
 *
 * `clients` is the STUDIO's record of a person who is its client (one row per client membership,
 * same id as the membership): the name, email and phone the studio keeps, birth date, sex, and the
 * client standing (archived or not). The `users` row stays the person's sign-in identity; a studio
 * never rewrites the account of someone who also belongs elsewhere or has a password.
 *
 * Three triggers keep the records whole whichever module writes people:
 * - a membership that becomes a client (any module, the demo seed, test factories) gets its record,
 *   filled from the user; an archived membership archives the record (and bringing it back undoes
 *   that archiving only); statement-level, so a bulk insert costs one set-based statement;
 * - a change a person makes to their own user row (name, email, phone) reaches every studio record
 *   that still held the old value (a value the studio changed itself is kept);
 * - an account erasure (`account_erasures`) empties that studio's record and deletes its notes and
 *   tag assignments.
 *
 * Search: generated, diacritic-folded keys with btree indexes (prefix search, name sort, keyset
 * pages); where PostgreSQL has pg_trgm, also a trigram index for contains-search. PGlite ships
 * without pg_trgm unless it is loaded, so the extension is created only when available, inside a
 * savepoint; the service checks for the index at run time.
 *
 * The fold below is frozen as shipped; shared/domain/clients/search.ts folds search queries the same
 * way (an integration test compares the two).
 */
const FOLD_FROM = 'ąàáâãäåāăćçčĉċďđęèéêëēĕėěğĝġģĥħìíîïĩīĭįıĵķĺļľŀłńñňņòóôõöøōŏőŕřŗśšşŝșťţțùúûüũūŭůűųŵýÿŷźżž';
const FOLD_TO = 'aaaaaaaaacccccddeeeeeeeeegggghhiiiiiiiiijklllllnnnnooooooooorrrssssstttuuuuuuuuuuwyyyzzz';
// Capitals are folded by translate() itself, so the fold does not depend on the database's ctype;
// lower() then runs with the database's default collation (a C-collated operand would make it
// ASCII-only) for every other script.
const CAPITALS = [...FOLD_FROM]
  .map((ch, i) => [ch.toUpperCase(), [...FOLD_TO][i]!] as const)
  .filter(([up]) => up.length === 1 && !/[A-Z]/.test(up));
const FROM_ALL = FOLD_FROM + CAPITALS.map(([up]) => up).join('');
const TO_ALL = FOLD_TO + CAPITALS.map(([, to]) => to).join('');
const fold = (expr: string) => `lower(translate((${expr}) collate "default", '${FROM_ALL}', '${TO_ALL}'))`;
const digits = (expr: string) => `regexp_replace(coalesce(${expr}, ''), '\\D', '', 'g')`;
/** Placeholder and erased addresses (RFC 2606 `.invalid`) are no contact address. */
const contactEmail = (expr: string) => `case when ${expr} like '%.invalid' then null else lower(${expr}) end`;

const CLIENT_SEARCH_TRGM_INDEX = 'clients_search_trgm';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table clients (
      id uuid primary key,
      studio_id uuid not null references studios (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      first_name varchar(100) not null default '',
      last_name varchar(100) not null default '',
      email varchar(254) collate "C" null,
      phone varchar(40) null,
      birth_date date null,
      sex smallint null check (sex in (0, 1)),
      archived_at timestamptz null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      first_key text collate "C" generated always as (${fold('first_name')}) stored,
      last_key text collate "C" generated always as (${fold('last_name')}) stored,
      phone_digits text collate "C" generated always as (nullif(${digits('phone')}, '')) stored,
      phone_key text collate "C" generated always as (
        case when length(${digits('phone')}) >= 6 then right(${digits('phone')}, 9) end
      ) stored,
      birth_md smallint generated always as (
        (extract(month from birth_date) * 100 + extract(day from birth_date))::smallint
      ) stored,
      search_text text collate "C" generated always as (
        ${fold(`first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || ${digits('phone')}`)}
      ) stored,
      constraint clients_studio_user unique (studio_id, user_id)
    )`);
  // Name order (and keyset pages over it) and last-name prefixes; first names; contact look-ups.
  await knex.raw('create index clients_by_name on clients (studio_id, last_key, first_key, id)');
  await knex.raw('create index clients_by_first_name on clients (studio_id, first_key)');
  await knex.raw('create index clients_by_email on clients (studio_id, email)');
  await knex.raw('create index clients_by_phone_digits on clients (studio_id, phone_digits)');
  await knex.raw('create index clients_by_phone_key on clients (studio_id, phone_key)');
  await knex.raw('create index clients_by_created on clients (studio_id, created_at, id)');
  await knex.raw('create index clients_by_birthday on clients (studio_id, birth_md)');
  await knex.raw(
    'create index clients_archived on clients (studio_id, archived_at) where archived_at is not null',
  );
  await knex.raw('create index clients_by_user on clients (user_id)');

  const trgm = await knex.raw(`select 1 from pg_available_extensions where name = 'pg_trgm'`);
  if (trgm.rows.length > 0) {
    try {
      // A savepoint: without the privilege to create it, the migration goes on without trigrams.
      await knex.transaction(async (sp) => {
        await sp.raw('create extension if not exists pg_trgm');
        await sp.raw(
          `create index ${CLIENT_SEARCH_TRGM_INDEX} on clients using gin (search_text gin_trgm_ops)`,
        );
      });
    } catch {
      // Prefix search on the btree indexes only.
    }
  }

  await knex.schema.createTable('tags', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.string('name', 50).notNullable();
    t.smallint('type').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'type']);
  });
  await knex.raw('alter table tags add constraint tags_type check (type in (0, 1))');
  await knex.raw('create unique index tags_studio_name_lower on tags (studio_id, lower(name))');

  await knex.schema.createTable('user_tags', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('tag_id').notNullable().references('tags.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // The tag filter (tag → people) and a person's tags.
    t.unique(['tag_id', 'user_id']);
    t.index(['studio_id', 'user_id']);
  });

  await knex.schema.createTable('client_notes', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('client_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('author_id').nullable().references('users.id').onDelete('SET NULL');
    t.string('type', 10).notNullable();
    t.text('content').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'client_id', 'created_at']);
  });
  await knex.raw(
    `alter table client_notes add constraint client_notes_type check (type in ('private', 'public'))`,
  );

  // Bulk "message" only records what was asked; campaigns will send it.
  await knex.schema.createTable('client_message_requests', (t) => {
    t.uuid('id').primary();
    t.uuid('studio_id').notNullable().references('studios.id').onDelete('CASCADE');
    t.uuid('requested_by').nullable().references('users.id').onDelete('SET NULL');
    t.string('subject', 200).notNullable();
    t.text('content').notNullable();
    t.jsonb('recipient_ids').notNullable();
    t.integer('recipient_count').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['studio_id', 'created_at']);
  });

  // The "has a valid pass" filter: active passes of a client by expiry.
  await knex.raw(
    'create index client_pricing_options_valid on client_pricing_options (studio_id, client_id, expires_at) where status = 1',
  );

  // Statement-level with transition tables: one set-based statement per INSERT or UPDATE, however
  // many rows it touched (bulk imports, the bench seed).
  const fromMemberships = (rows: string, where: string) => `
    insert into clients (id, studio_id, user_id, first_name, last_name, email, phone, archived_at,
                         created_at, updated_at)
    select n.id, n.studio_id, u.id, u.first_name, u.last_name, ${contactEmail('u.email')}, u.phone,
           n.archived_at, ${rows}, now()
    ${where}
    on conflict (studio_id, user_id) do nothing;`;
  await knex.raw(`
    create function clients_from_new_memberships() returns trigger language plpgsql as $$
    begin
      ${fromMemberships('n.created_at', 'from new_rows n join users u on u.id = n.user_id where n.is_client')}
      return null;
    end $$`);
  await knex.raw(`
    create trigger memberships_client_records_insert
    after insert on memberships referencing new table as new_rows
    for each statement execute function clients_from_new_memberships()`);
  await knex.raw(`
    create function clients_from_changed_memberships() returns trigger language plpgsql as $$
    begin
      -- Became a client.
      ${fromMemberships(
        'now()',
        `from new_rows n join old_rows o on o.id = n.id join users u on u.id = n.user_id
         where n.is_client and not o.is_client`,
      )}
      -- An archived membership archives the record.
      update clients c set archived_at = coalesce(c.archived_at, n.archived_at), updated_at = now()
      from new_rows n join old_rows o on o.id = n.id
      where n.archived_at is not null and o.archived_at is null
        and c.studio_id = n.studio_id and c.user_id = n.user_id;
      -- A membership brought back undoes only the archiving it caused, not the studio's own.
      update clients c set archived_at = null, updated_at = now()
      from new_rows n join old_rows o on o.id = n.id
      where n.archived_at is null and o.archived_at is not null
        and c.studio_id = n.studio_id and c.user_id = n.user_id and c.archived_at = o.archived_at;
      return null;
    end $$`);
  await knex.raw(`
    create trigger memberships_client_records_update
    after update on memberships referencing old table as old_rows new table as new_rows
    for each statement execute function clients_from_changed_memberships()`);

  await knex.raw(`
    create function clients_follow_user() returns trigger language plpgsql as $$
    begin
      update clients c set
        first_name = case when c.first_name = old.first_name then new.first_name else c.first_name end,
        last_name = case when c.last_name = old.last_name then new.last_name else c.last_name end,
        email = case when c.email is not distinct from ${contactEmail('old.email')}
                     then ${contactEmail('new.email')} else c.email end,
        phone = case when c.phone is not distinct from old.phone then new.phone else c.phone end,
        updated_at = now()
      where c.user_id = new.id;
      return null;
    end $$`);
  await knex.raw(`
    create trigger users_client_records
    after update of first_name, last_name, email, phone on users
    for each row
    when (old.first_name is distinct from new.first_name or old.last_name is distinct from new.last_name
          or old.email is distinct from new.email or old.phone is distinct from new.phone)
    execute function clients_follow_user()`);

  await knex.raw(`
    create function clients_erase() returns trigger language plpgsql as $$
    begin
      update clients set first_name = '', last_name = '', email = null, phone = null, birth_date = null,
                         sex = null, archived_at = coalesce(archived_at, new.erased_at), updated_at = now()
      where studio_id = new.studio_id and user_id = new.user_id;
      delete from client_notes where studio_id = new.studio_id and client_id = new.user_id;
      delete from user_tags where studio_id = new.studio_id and user_id = new.user_id;
      return null;
    end $$`);
  await knex.raw(`
    create trigger account_erasures_client_record
    after insert on account_erasures
    for each row execute function clients_erase()`);

  // Records for the clients that exist already.
  await knex.raw(`
    insert into clients (id, studio_id, user_id, first_name, last_name, email, phone, archived_at,
                         created_at, updated_at)
    select m.id, m.studio_id, u.id, u.first_name, u.last_name, ${contactEmail('u.email')}, u.phone,
           m.archived_at, m.created_at, now()
    from memberships m join users u on u.id = m.user_id
    where m.is_client
    on conflict (studio_id, user_id) do nothing`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger if exists account_erasures_client_record on account_erasures');
  await knex.raw('drop trigger if exists users_client_records on users');
  await knex.raw('drop trigger if exists memberships_client_records_update on memberships');
  await knex.raw('drop trigger if exists memberships_client_records_insert on memberships');
  await knex.raw('drop function if exists clients_erase()');
  await knex.raw('drop function if exists clients_follow_user()');
  await knex.raw('drop function if exists clients_from_changed_memberships()');
  await knex.raw('drop function if exists clients_from_new_memberships()');
  await knex.raw('drop index if exists client_pricing_options_valid');
  for (const table of ['client_message_requests', 'client_notes', 'user_tags', 'tags', 'clients'])
    await knex.schema.dropTableIfExists(table);
}
