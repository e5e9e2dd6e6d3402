/**
 * The station's SQLite schema as numbered SQL migrations, run in order at start (each in its own
 * transaction, recorded in `schema_migrations`). Append only; never edit a shipped one. A database
 * that has migrations this build does not know (written by a newer version) is refused: running old
 * code on it could lose the outbox.
 */
export interface LocalMigration {
  id: number;
  name: string;
  sql: string;
}

export const LOCAL_MIGRATIONS: readonly LocalMigration[] = [
  {
    id: 1,
    name: '0001_sync_core',
    sql: `
      -- Key/value state of the station: device id and token, cursor, epoch, clock offset...
      create table meta (key text primary key, value text not null) without rowid;

      -- The visible cache: server rows with the effects of pending mutations applied on top.
      create table rows (tbl text not null, id text not null, data text not null, primary key (tbl, id)) without rowid;
      -- The server's version of the keys pending effects touched (null data: the server had no row),
      -- so a pull can put them back before applying its patch and re-applying what is still pending.
      create table shadow (tbl text not null, id text not null, data text, primary key (tbl, id)) without rowid;
      -- Bootstrap pages land here first (resumable), then are swapped in at once.
      create table staging_rows (tbl text not null, id text not null, data text not null, primary key (tbl, id)) without rowid;

      -- One row per local command: written with its effect in one transaction, pushed in seq order.
      create table outbox (
        seq integer primary key,
        mutation_id text not null unique,
        name text not null,
        version integer not null,
        args text not null,
        effects text not null,
        occurred_at text not null,
        actor_id text,
        is_fact integer not null default 0,
        status text not null default 'pending' check (status in ('pending', 'acked')),
        outcome text,
        created_at text not null,
        acked_at text
      );
      create index outbox_status on outbox (status, seq);

      -- Search and lists the desk runs offline.
      create index rows_clients_name on rows (json_extract(data, '$.last_key'), json_extract(data, '$.first_key'))
        where tbl = 'clients';
      create index rows_clients_user on rows (json_extract(data, '$.user_id')) where tbl = 'clients';
      create index rows_events_start on rows (json_extract(data, '$.starts_at')) where tbl = 'schedule_events';
      create index rows_visits_client on rows (json_extract(data, '$.client_id')) where tbl = 'client_visits';
      create index rows_passes_client on rows (json_extract(data, '$.client_id')) where tbl = 'client_pricing_options';
    `,
  },
  {
    id: 2,
    name: '0002_local_sales_api_cache',
    sql: `
      -- Sales made at this station (recordSale), kept after the sync confirms them: the POS's shift
      -- totals and reprints read them here. Written in the same transaction as the outbox row.
      create table local_sales (
        sale_id text primary key,
        mutation_id text not null unique,
        shift_id text,
        client_id text,
        total integer not null,
        args text not null,
        sold_at text not null,
        actor_id text
      );
      create index local_sales_shift on local_sales (shift_id, sold_at);

      -- The last cloud answer of the settings-like reads the offline screens need (schedule/init,
      -- client-list/init...) and of what the signed-in person may do, per person: nothing in the
      -- synced rows holds them. Live data (clients, classes, visits, passes) is read from rows.
      create table api_cache (
        user_id text not null,
        key text not null,
        body text not null,
        saved_at text not null,
        primary key (user_id, key)
      ) without rowid;
    `,
  },
  {
    id: 3,
    name: '0003_pos_shifts',
    sql: `
      -- The till's shifts (desktop/main/station/shifts.ts): opened, moved and closed here, offline too;
      -- each step is replayed to the cloud's studio-pos shift routes under the same ids (synced_at).
      create table pos_shifts (
        id text primary key,
        pos_id text,
        station_slug text not null,
        opened_by text not null,
        opened_by_name text not null,
        opened_at text not null,
        float integer not null check (float >= 0),
        closed_by text,
        closed_at text,
        cash_sales integer,
        cash_refunds integer,
        expected integer,
        counted integer,
        note text not null default '',
        daily_report text,
        open_synced_at text,
        close_synced_at text
      );
      create unique index pos_shifts_one_open on pos_shifts (station_slug) where closed_at is null;

      create table pos_shift_cash (
        id text primary key,
        shift_id text not null references pos_shifts (id),
        kind text not null check (kind in ('in', 'out')),
        amount integer not null check (amount > 0),
        reason text not null default '',
        at text not null,
        by_user text not null,
        synced_at text
      );
      create index pos_shift_cash_shift on pos_shift_cash (shift_id, at);
    `,
  },
  {
    id: 4,
    name: '0004_pos_station_receipts',
    sql: `
      -- Which studio-pos station this desk sells as (desktop/main/station/pos.service.ts): one row.
      create table pos_station (
        id integer primary key check (id = 1),
        pos_id text not null,
        slug text not null,
        name text not null,
        chosen_at text not null
      );

      -- The fiscal receipt of each sale made here, written with the sale (before anything prints):
      -- what was sent, the printer's outcome, the pending state a needsAttention outcome keeps (to
      -- settle later, also after a restart), and when the cloud was told (reported_at).
      create table pos_receipts (
        sale_id text primary key,
        station_slug text not null,
        receipt text not null,
        status text not null check (status in ('printing', 'printed', 'notPrinted', 'needsAttention', 'noPrinter')),
        outcome text,
        pending text,
        message_key text,
        receipt_number integer,
        printed_at text,
        reported_at text,
        created_at text not null
      );
      create index pos_receipts_status on pos_receipts (status);
    `,
  },
  {
    id: 5,
    name: '0005_outbox_notices',
    sql: `
      -- Outcomes that came back different from the desk's offline guess (waitlisted, flagged,
      -- rejected, quarantined) stay listed for staff until acknowledged here
      -- (desktop/main/sync/notices.ts); noticed_by is the person at the desk then.
      alter table outbox add column noticed_at text;
      alter table outbox add column noticed_by text;
      create index outbox_notices on outbox (seq)
        where outcome is not null and noticed_at is null and json_extract(outcome, '$.status') <> 'applied';
    `,
  },
  {
    id: 6,
    name: '0006_pos_cloud_sales',
    sql: `
      -- Sales that charge what only the cloud holds (wallet, voucher, contracts: chargeSale@1,
      -- desktop/main/station/pos.service.ts): recorded here with their outbox row, printed only once
      -- the cloud applied them. 'waiting' until it answered; 'charged' (the receipt it answered is in
      -- pos_receipts); 'refused' (nothing printed; the local sale is voided).
      create table pos_cloud_sales (
        sale_id text primary key,
        mutation_id text not null unique,
        status text not null check (status in ('waiting', 'charged', 'refused')),
        outcome text,
        created_at text not null
      );
      -- A refused cloud sale stays for the record but no longer counts in the shift.
      alter table local_sales add column voided_at text;
    `,
  },
  {
    id: 7,
    name: '0007_pass_lookups',
    sql: `
      -- A pass's visits (any client's: a shared pass is spent by several) and the passes shared with
      -- a client (client_pricing_option_shares, synced from cloud migration 0040): the Passes tab and
      -- the offline kiosk look these up per check-in, without reading every visit of the studio.
      create index rows_visits_pass on rows (json_extract(data, '$.client_pricing_option_id'))
        where tbl = 'client_visits';
      create index rows_shares_user on rows (json_extract(data, '$.user_id'))
        where tbl = 'client_pricing_option_shares';
    `,
  },
  {
    id: 8,
    name: '0008_pos_receipts_invoiced',
    sql: `
      -- A receipt that never printed and whose sale was invoiced meanwhile is never printed
      -- ('invoiced': the sale would be registered twice). SQLite cannot change a CHECK: the table is
      -- rebuilt with the same columns and rows.
      create table pos_receipts_new (
        sale_id text primary key,
        station_slug text not null,
        receipt text not null,
        status text not null
          check (status in ('printing', 'printed', 'notPrinted', 'needsAttention', 'noPrinter', 'invoiced')),
        outcome text,
        pending text,
        message_key text,
        receipt_number integer,
        printed_at text,
        reported_at text,
        created_at text not null
      );
      insert into pos_receipts_new select sale_id, station_slug, receipt, status, outcome, pending, message_key,
        receipt_number, printed_at, reported_at, created_at from pos_receipts;
      drop table pos_receipts;
      alter table pos_receipts_new rename to pos_receipts;
      create index pos_receipts_status on pos_receipts (status);
    `,
  },
  {
    id: 9,
    name: '0009_pos_receipt_resolutions',
    sql: `
      -- A receipt the fiscal printer cannot identify (receiptNotIdentified) settled by the cashier by
      -- hand: printed, with the number read from the roll or the electronic copy, or not printed. Kept
      -- for the audit (who, when, what was read); pos_receipts takes the outcome.
      create table pos_receipt_resolutions (
        sale_id text primary key,
        resolution text not null check (resolution in ('printed', 'notPrinted')),
        receipt_number integer,
        resolved_by text not null,
        resolved_at text not null
      );
    `,
  },
];
