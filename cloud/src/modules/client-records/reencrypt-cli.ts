import path from 'node:path';
import { loadConfig } from '../../config';
import { startEmbeddedDatabase } from '../../db/embedded';
import { createKnex } from '../../db/knex';
import { fieldKeyring } from '../../crypto/field-crypto';
import { reencryptStoredSecrets } from './reencrypt';

/**
 * `npm run fields:reencrypt`: after FIELD_ENCRYPTION_KEY changed (the old key moved to
 * FIELD_ENCRYPTION_KEYS), moves every stored encrypted value to the new key. Safe beside running
 * instances and safe to re-run.
 */
const config = loadConfig();
const embedded = config.DATABASE_URL
  ? null
  : await startEmbeddedDatabase(path.join(config.dataDir, 'pgdata'));
const knex = createKnex(config.DATABASE_DIRECT_URL ?? config.DATABASE_URL ?? embedded!.url, {
  singleConnection: Boolean(embedded),
});
try {
  const keys = fieldKeyring(config);
  const result = await reencryptStoredSecrets(knex, keys);
  console.log(
    `re-encrypted under key ${keys.current.id}: ${result.fieldValues} field values, ` +
      `${result.providerCredentials} payment provider keys, ${result.ksefSecrets} KSeF secrets, ${result.webhookSecrets} webhook secrets; ` +
      `unreadable: ${result.unreadable}`,
  );
  if (result.unreadable) process.exitCode = 2;
} finally {
  await knex.destroy();
  await embedded?.stop();
}
