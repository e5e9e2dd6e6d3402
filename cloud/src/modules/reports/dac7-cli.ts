import { v7 as uuidv7 } from 'uuid';
import { loadConfig } from '../../config';
import { createKnex } from '../../db/knex';
import { findStudio } from '../identity/index';
import { dac7Reports, dac7Xml, type Dac7Seller } from './dac7';

/**
 * `npm run dac7:export -- <year> > DPI.xml`: the platform operator's DAC7 (DPI) file for a year, over
 * every studio of DATABASE_URL with sales through the platform and complete identification. The
 * operator's own details come from DAC7_OPERATOR_NAME, DAC7_OPERATOR_TIN, DAC7_OPERATOR_ADDRESS,
 * DAC7_OPERATOR_COUNTRY (default PL) and DAC7_PLATFORM_NAME. Studios whose report still needs input
 * are listed on stderr, with what they miss.
 */
const year = Number(process.argv[2]);
if (!Number.isInteger(year) || year < 2023) {
  console.error('usage: npm run dac7:export -- <year, 2023 or later>');
  process.exit(2);
}
const config = loadConfig();
if (!config.DATABASE_URL) {
  console.error('DATABASE_URL is not set');
  process.exit(2);
}
const knex = createKnex(config.DATABASE_URL);
try {
  const now = new Date();
  const sellers: Dac7Seller[] = [];
  const ids = await knex('studios').orderBy('id').select('id');
  for (const { id } of ids) {
    const studio = (await findStudio(knex, id))!;
    const report = (await dac7Reports(knex, studio, now)).find((r) => r.year === year);
    if (!report || report.quarters.every((q) => q.activities === 0)) continue;
    if (report.status !== 'completed') {
      console.error(`${studio.name} (${studio.id}): needs ${report.missing.join(', ')}`);
      continue;
    }
    const settings = (await knex('studio_invoice_settings').where({ studioId: id }).first())!;
    sellers.push({
      studioId: id,
      report,
      addressLine: settings.addressLine,
      postalCode: settings.postalCode,
      city: settings.city,
    });
  }
  const env = process.env;
  process.stdout.write(
    dac7Xml(
      {
        name: env.DAC7_OPERATOR_NAME ?? '',
        tin: env.DAC7_OPERATOR_TIN ?? '',
        country: env.DAC7_OPERATOR_COUNTRY ?? 'PL',
        address: env.DAC7_OPERATOR_ADDRESS ?? '',
        platformName: env.DAC7_PLATFORM_NAME ?? 'Studio Platform',
      },
      year,
      sellers,
      `PL${year}-${uuidv7()}`,
      now,
    ),
  );
} finally {
  await knex.destroy();
}
