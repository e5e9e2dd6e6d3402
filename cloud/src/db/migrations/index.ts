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
];
