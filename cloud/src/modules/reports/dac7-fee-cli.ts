import { v7 as uuidv7 } from 'uuid';
import { loadConfig } from '../../config';
import { createKnex } from '../../db/knex';
import { findStudio } from '../identity/index';

/**
 * `npm run dac7:fee -- <studio id> <instant, ISO 8601> <amount in minor units> [description]`: records
 * a fee the platform operator charged a studio (a commission, a service fee), which the studio's DAC7
 * report counts in the quarter (studio's calendar) of that instant. The operator's billing is not in
 * this repository; this is how its charges reach the report.
 */
const [studioId, at, minor, ...words] = process.argv.slice(2);
const chargedAt = new Date(at ?? '');
const amount = Number(minor);
if (!studioId || Number.isNaN(chargedAt.getTime()) || !Number.isInteger(amount) || amount < 0) {
  console.error(
    'usage: npm run dac7:fee -- <studio id> <instant, ISO 8601> <amount in minor units> [description]',
  );
  process.exit(2);
}
const config = loadConfig();
if (!config.DATABASE_URL) {
  console.error('DATABASE_URL is not set');
  process.exit(2);
}
const knex = createKnex(config.DATABASE_URL);
try {
  const studio = await findStudio(knex, studioId);
  if (!studio) {
    console.error(`no studio ${studioId}`);
    process.exitCode = 1;
  } else {
    await knex('platform_fees').insert({
      id: uuidv7(),
      studioId: studio.id,
      chargedAt,
      amount,
      currency: studio.currency,
      description: words.join(' '),
    });
    console.log(
      `recorded ${amount} (${studio.currency} minor units) for ${studio.name} at ${chargedAt.toISOString()}`,
    );
  }
} finally {
  await knex.destroy();
}
