import type { Knex } from 'knex';
import * as identity from './20261122_0001_identity';
import * as studioCatalog from './20261122_0002_studio_catalog';
import * as entry from './20261122_0003_entry';
import * as accountErasure from './20261122_0004_account_erasure';
import * as staffRoles from './20261122_0006_staff_roles';
import * as clients from './20261122_0007_clients';
import * as fiscalPrinters from './20261122_0008_fiscal_printers';
import * as clientRecords from './20261122_0009_client_records';
import * as clientAccounts from './20261122_0010_client_accounts';
import * as taxes from './20261122_0011_taxes';
import * as pricingOptions from './20261122_0012_pricing_options';
import * as productsVouchers from './20261122_0013_products_vouchers';
import * as schedule from './20261122_0014_schedule';
import * as bookings from './20261123_0015_bookings';
import * as places from './20261123_0016_places';
import * as contracts from './20261123_0017_contracts';
import * as sales from './20261123_0018_sales';
import * as invoices from './20261123_0019_invoices';
import * as ksefSending from './20261127_0100_ksef_sending';
import * as sync from './20261123_0020_sync';
import * as donations from './20261123_0024_donations';
import * as retail from './20261123_0025_retail';
import * as contractEntitlements from './20261123_0026_contract_entitlements';
import * as paymentCards from './20261123_0027_payment_cards';
import * as donationReceipts from './20261123_0028_donation_receipts';
import * as bookingMails from './20261123_0029_booking_mails';
import * as syncSales from './20261123_0030_sync_sales';
import * as syncReview from './20261123_0031_sync_review';
import * as kiosk from './20261123_0032_kiosk';
import * as stations from './20261123_0033_stations';
import * as kioskSync from './20261124_0034_kiosk_sync';
import * as scheduledCharges from './20261124_0035_scheduled_charges';
import * as bookingWaitingListMails from './20261124_0036_booking_waiting_list_mails';
import * as orderLineVisits from './20261124_0037_order_line_visits';
import * as ticketPrinters from './20261124_0039_ticket_printers';
import * as sideEffectJobs from './20261126_0041_side_effect_jobs';
import * as paymentSaveCard from './20261126_0042_payment_save_card';
import * as sharedPassesSync from './20261126_0040_shared_passes_sync';
import * as invoiceForReceipt from './20261126_0057_invoice_for_receipt';
import * as emailVerification from './20261126_0048_email_verification';
import * as receiptBuyerNip from './20261126_0054_receipt_buyer_nip';
import * as accountingSettings from './20261127_0110_accounting_settings';
import * as rateLimits from './20261126_0062_rate_limits';
import * as studioIndexes from './20261127_0120_studio_indexes';
import * as entryServices from './20261128_0150_entry_services';
import * as videos from './20261128_0151_videos';
import * as checkInWindow from './20261128_0190_check_in_window';
import * as reports from './20261128_0130_reports';
import * as studioDataExports from './20261128_0131_studio_data_exports';
import * as deskFleet from './20261128_0200_desk_fleet';
import * as webhookSecretsEncrypted from './20261129_0210_webhook_secrets_encrypted';
import * as clientActivityMonths from './20261129_0260_client_activity_months';
import * as dashboardIndexes from './20261129_0261_dashboard_indexes';
import * as reportDocumentIndexes from './20261129_0262_report_document_indexes';
import * as memberLocations from './20261129_0263_member_locations';
import * as webPush from './20261129_0240_web_push';
import * as videoPurchases from './20261129_0220_video_purchases';
import * as entriesSync from './20261129_0221_entries_sync';
import * as entrySales from './20261129_0222_entry_sales';
import * as videoUploadLocks from './20261129_0223_video_upload_locks';
import * as appointmentFees from './20261129_0250_appointment_fees';
import * as appointmentContracts from './20261129_0251_appointment_contracts';
import * as googleCalendar from './20261129_0252_google_calendar';
import * as studioBankAccountsDocuments from './20261129_0270_studio_bank_accounts_documents';
import * as clientFeedback from './20261129_0271_client_feedback';
import * as orderLineNameTexts from './20261128_0180_order_line_name_texts';
import * as appointments from './20261128_0140_appointments';
import * as communication from './20261128_0160_communication';
import * as providerCallKeys from './20261127_0095_provider_call_keys';
import * as integrations from './20261128_0170_integrations';
import * as appointmentsSync from './20261129_0290_appointments_sync';
import * as studioSubscriptions from './20261130_0360_studio_subscriptions';
import * as lockThenRun from './20261130_0390_lock_then_run';
import * as invoicePaymentSplit from './20261130_0310_invoice_payment_split';
import * as dac7SellersPlatformFees from './20261130_0370_dac7_sellers_platform_fees';
import * as translations from './20261130_0350_translations';
import * as subscriptionFollowups from './20261130_0361_subscription_followups';
import * as bundleRequests from './20261130_0340_bundle_requests';
import * as voucherRedemptionRelease from './20261130_0311_voucher_redemption_release';

type Migration = { up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void> };

/**
 * Migrations are listed here, not discovered on disk, so they run the same under tsx, vitest and a
 * bundled build. Append only; never edit one that has shipped.
 */
export const MIGRATIONS: ReadonlyArray<readonly [string, Migration]> = [
  ['20261122_0001_identity', identity],
  ['20261122_0002_studio_catalog', studioCatalog],
  ['20261122_0003_entry', entry],
  ['20261122_0004_account_erasure', accountErasure],
  ['20261122_0006_staff_roles', staffRoles],
  ['20261122_0007_clients', clients],
  ['20261122_0008_fiscal_printers', fiscalPrinters],
  ['20261122_0009_client_records', clientRecords],
  ['20261122_0010_client_accounts', clientAccounts],
  ['20261122_0011_taxes', taxes],
  ['20261122_0012_pricing_options', pricingOptions],
  ['20261122_0013_products_vouchers', productsVouchers],
  ['20261122_0014_schedule', schedule],
  ['20261123_0015_bookings', bookings],
  ['20261123_0016_places', places],
  ['20261123_0017_contracts', contracts],
  ['20261123_0018_sales', sales],
  ['20261123_0019_invoices', invoices],
  ['20261123_0020_sync', sync],
  ['20261123_0024_donations', donations],
  ['20261123_0025_retail', retail],
  ['20261123_0026_contract_entitlements', contractEntitlements],
  ['20261123_0027_payment_cards', paymentCards],
  ['20261123_0028_donation_receipts', donationReceipts],
  ['20261123_0029_booking_mails', bookingMails],
  ['20261123_0030_sync_sales', syncSales],
  ['20261123_0031_sync_review', syncReview],
  ['20261123_0032_kiosk', kiosk],
  ['20261123_0033_stations', stations],
  ['20261124_0034_kiosk_sync', kioskSync],
  ['20261124_0035_scheduled_charges', scheduledCharges],
  ['20261124_0036_booking_waiting_list_mails', bookingWaitingListMails],
  ['20261124_0037_order_line_visits', orderLineVisits],
  ['20261124_0039_ticket_printers', ticketPrinters],
  ['20261126_0040_shared_passes_sync', sharedPassesSync],
  ['20261126_0041_side_effect_jobs', sideEffectJobs],
  ['20261126_0042_payment_save_card', paymentSaveCard],
  ['20261126_0048_email_verification', emailVerification],
  ['20261126_0054_receipt_buyer_nip', receiptBuyerNip],
  ['20261126_0057_invoice_for_receipt', invoiceForReceipt],
  ['20261126_0062_rate_limits', rateLimits],
  ['20261127_0095_provider_call_keys', providerCallKeys],
  ['20261127_0100_ksef_sending', ksefSending],
  ['20261127_0110_accounting_settings', accountingSettings],
  ['20261127_0120_studio_indexes', studioIndexes],
  ['20261128_0130_reports', reports],
  ['20261128_0131_studio_data_exports', studioDataExports],
  ['20261128_0140_appointments', appointments],
  ['20261128_0150_entry_services', entryServices],
  ['20261128_0151_videos', videos],
  ['20261128_0160_communication', communication],
  ['20261128_0170_integrations', integrations],
  ['20261128_0180_order_line_name_texts', orderLineNameTexts],
  ['20261128_0190_check_in_window', checkInWindow],
  ['20261128_0200_desk_fleet', deskFleet],
  ['20261129_0210_webhook_secrets_encrypted', webhookSecretsEncrypted],
  ['20261129_0220_video_purchases', videoPurchases],
  ['20261129_0221_entries_sync', entriesSync],
  ['20261129_0222_entry_sales', entrySales],
  ['20261129_0223_video_upload_locks', videoUploadLocks],
  ['20261129_0240_web_push', webPush],
  ['20261129_0250_appointment_fees', appointmentFees],
  ['20261129_0251_appointment_contracts', appointmentContracts],
  ['20261129_0252_google_calendar', googleCalendar],
  ['20261129_0260_client_activity_months', clientActivityMonths],
  ['20261129_0261_dashboard_indexes', dashboardIndexes],
  ['20261129_0262_report_document_indexes', reportDocumentIndexes],
  ['20261129_0263_member_locations', memberLocations],
  ['20261129_0270_studio_bank_accounts_documents', studioBankAccountsDocuments],
  ['20261129_0271_client_feedback', clientFeedback],
  ['20261129_0290_appointments_sync', appointmentsSync],
  ['20261130_0310_invoice_payment_split', invoicePaymentSplit],
  ['20261130_0311_voucher_redemption_release', voucherRedemptionRelease],
  ['20261130_0340_bundle_requests', bundleRequests],
  ['20261130_0350_translations', translations],
  ['20261130_0360_studio_subscriptions', studioSubscriptions],
  ['20261130_0361_subscription_followups', subscriptionFollowups],
  ['20261130_0370_dac7_sellers_platform_fees', dac7SellersPlatformFees],
  ['20261130_0390_lock_then_run', lockThenRun],
];
