import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DeskChannelSchema } from '../../../../shared/contracts/api/desk-fleet';
import { loadConfig } from '../../config';
import { startEmbeddedDatabase } from '../../db/embedded';
import { createKnex } from '../../db/knex';
import { createStorage } from '../../storage';
import { publishRelease, setStaging } from './releases.service';

/**
 * `npm run desktop:publish -- --dir release --channel beta --staging 10`: uploads electron-builder's
 * output (latest.yml / latest-mac.yml and the installers they name) to the update feed, through the
 * cloud's own configuration (DATABASE_URL, STORAGE_DRIVER / S3_*), as a running cloud would store it.
 * `--set-staging 50 --version 1.4.0 --channel beta` widens (or, with 0, halts) a published rollout.
 * Without --staging every station of the channel gets it.
 */
const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: 'release' },
    channel: { type: 'string', default: 'stable' },
    staging: { type: 'string' },
    'set-staging': { type: 'string' },
    version: { type: 'string' },
  },
});
const channel = DeskChannelSchema.parse(values.channel);
const percent = (v: string | undefined): number | null => {
  if (v === undefined || v === '100') return null;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 100) throw new Error(`not a percentage: ${v}`);
  return n;
};
const config = loadConfig();
const embedded = config.DATABASE_URL
  ? null
  : await startEmbeddedDatabase(path.join(config.dataDir, 'pgdata'));
const knex = createKnex(config.DATABASE_DIRECT_URL ?? config.DATABASE_URL ?? embedded!.url, {
  singleConnection: Boolean(embedded),
});
try {
  if (values['set-staging'] !== undefined) {
    if (!values.version) throw new Error('--set-staging needs --version');
    const n = await setStaging(knex, channel, values.version, percent(values['set-staging']));
    console.log(`${values.version} on ${channel}: rollout ${values['set-staging']}% (${n} feed files)`);
  } else {
    const published = await publishRelease(knex, createStorage(config), {
      dir: path.resolve(values.dir),
      channel,
      stagingPercentage: percent(values.staging),
      publishedBy: `${os.userInfo().username}@${os.hostname()}`,
      now: new Date(),
    });
    for (const r of published)
      console.log(
        `published ${r.version} (${r.platform}) on ${r.channel}, rollout ${r.stagingPercentage ?? 100}%`,
      );
  }
} finally {
  await knex.destroy();
  await embedded?.stop();
}
