import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';

/**
 * Every index on a studio's table (one with a studio_id column) leads with studio_id, so a studio's
 * queries never walk another studio's entries (issue 27), unless a lookup needs it otherwise. Those
 * are listed here, each with its reason; a new index that does not lead with studio_id fails this
 * test until it leads with it or is added here with a reason. Primary keys are left out: ids are
 * globally unique uuids (v7); a distributed schema (cloud/README.md) makes them (studio_id, id).
 */
const PERSON = 'a person across studios (sign-in, their own record, erasure): no studio to lead with';
const SECRET = 'a secret or token is looked up before any studio is known';
const DEVICE = 'a device or payment provider names its own rows, whatever the studio';
const JOB = 'a periodic job or the changefeed reads across all studios';
const PARENT =
  'child rows of one parent row (itself in one studio), found or kept unique by the parent id; the parent’s delete finds them by it';

const ALLOWED: Record<string, string> = {
  account_erasures_user_id_index: PERSON,
  appointment_calendar_feeds_token_hash_unique: SECRET,
  client_appointment_fees_client_appointment_id_kind_unique: PARENT,
  google_calendar_connections_state_hash_unique: SECRET,
  desk_crash_reports_device_id_received_at_index: DEVICE,
  webhook_attempts_delivery_id_attempted_at_index: PARENT,
  webhook_deliveries_endpoint_id_created_at_index: PARENT,
  clients_by_user: PERSON,
  memberships_user_id_index: PERSON,
  email_verification_tokens_user_id_index: PERSON,
  password_reset_tokens_user_id_index: PERSON,
  email_verification_tokens_token_hash_unique: SECRET,
  password_reset_tokens_token_hash_unique: SECRET,
  kiosk_sessions_token_hash_unique: SECRET,
  invoice_ksef_ksef_number_unique:
    'a KSeF number is issued by the Ministry once nationwide: unique across studios (a stored duplicate is a bug)',
  studio_apis_key_hash_unique: SECRET,
  client_order_payments_provider_ref: DEVICE,
  studio_pos_device: DEVICE,
  sync_mutations_device_id_seq_unique: DEVICE,
  sync_sales_device_receipt: DEVICE,
  client_contract_instalments_due: JOB,
  sync_change_xid: JOB,
  client_contract_instalments_order_id: PARENT,
  client_contract_instalments_period: PARENT,
  client_contract_suspensions_open: PARENT,
  client_field_values_field_id_client_id_unique: PARENT,
  client_order_lines_order_id_position_unique: PARENT,
  client_order_payments_order_id_index: PARENT,
  client_order_refunds_order_id_index: PARENT,
  client_order_refunds_payment_id_index: PARENT,
  client_pricing_option_shares_client_pricing_option_id_user_id_u: PARENT,
  client_visit_fees_client_visit_id_index: PARENT,
  client_visit_fees_order: PARENT,
  client_visits_client_contract_id_index: PARENT,
  client_visits_client_pricing_option_id_index: PARENT,
  client_visits_one_per_client: PARENT,
  client_wallet_payments_once: PARENT,
  donations_order_id_unique: PARENT,
  fiscal_printer_diagnoses_one_pending: PARENT,
  invoice_lines_invoice_id_side_position_unique: PARENT,
  invoices_corrected_invoice_id_index: PARENT,
  kiosk_sessions_kiosk_id_index: PARENT,
  location_rooms_active_name_unique: PARENT,
  pos_shift_cash_movements_shift_id_created_at_index: PARENT,
  pos_shifts_one_open: PARENT,
  product_stock_movements_product_id_created_at_index: PARENT,
  products_tax_id_index: PARENT,
  retail_receipt_orders_receipt_id_index: PARENT,
  retail_sale_orders_sale_id_index: PARENT,
  schedule_events_meta_occurrence_unique: PARENT,
  schedule_meta_pricing_options_schedule_meta_id_pricing_option_i: PARENT,
  sync_sales_shift_id_index: PARENT,
  user_tags_tag_id_user_id_unique: PARENT,
  voucher_redemptions_voucher_id_client_id_index: PARENT,
  voucher_redemptions_voucher_id_use_number_unique: PARENT,
  voucher_targets_voucher_id_target_type_target_id_unique: PARENT,
};

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

describe('indexes of studio tables', () => {
  it('lead with studio_id, but for the listed lookups that need otherwise', async () => {
    const { rows } = (await app.knex.raw(`
      select i.relname as index, t.relname as table, pg_get_indexdef(ix.indexrelid) as definition
        from pg_index ix
        join pg_class i on i.oid = ix.indexrelid
        join pg_class t on t.oid = ix.indrelid
        join pg_namespace n on n.oid = t.relnamespace
        left join pg_attribute first on first.attrelid = t.oid and first.attnum = ix.indkey[0]
       where n.nspname = 'public' and not ix.indisprimary
         and coalesce(first.attname, '') <> 'studio_id'
         and exists (select 1 from pg_attribute s
                      where s.attrelid = t.oid and s.attname = 'studio_id' and not s.attisdropped)
       order by 1`)) as { rows: Array<{ index: string; table: string; definition: string }> };
    const unjustified = rows.filter((r) => !ALLOWED[r.index]).map((r) => r.definition);
    expect(unjustified).toEqual([]);
  });

  it('the client search index is by studio wherever trigram search is there', async () => {
    const { rows } = (await app.knex.raw(
      `select pg_get_indexdef(to_regclass('clients_search_trgm')) as definition`,
    )) as { rows: Array<{ definition: string | null }> };
    // PGlite has no pg_trgm loaded: no trigram index at all, prefix search on the btree indexes.
    if (rows[0]?.definition)
      expect(rows[0].definition).toMatch(/gin \(studio_id, search_text gin_trgm_ops\)/);
  });
});
