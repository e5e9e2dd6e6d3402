import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import yaml from 'js-yaml';
import semver from 'semver';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import {
  DeskChannelSchema,
  FEED_FILES,
  type DeskChannel,
  type DeskPlatform,
  type DeskRelease,
} from '../../../../shared/contracts/api/desk-fleet';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { FileStorage } from '../../storage';

/** A file name the feed serves: one storage key segment (electron-builder's artifact names with dashes). */
const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

/** electron-builder's UpdateInfo as it writes it into latest.yml / latest-mac.yml. */
export const UpdateInfoSchema = z.looseObject({
  version: z.string().refine((v) => semver.valid(v) !== null, 'not a semantic version'),
  files: z
    .array(
      z.looseObject({
        url: z.string().regex(FILE_NAME, 'a plain file name'),
        sha512: z.string().min(40),
        size: z.number().int().positive().optional(),
      }),
    )
    .min(1),
  path: z.string().optional(),
  sha512: z.string().optional(),
  releaseDate: z.string().optional(),
  releaseNotes: z.unknown().optional(),
});
export type UpdateInfo = z.infer<typeof UpdateInfoSchema>;

export const releaseFileKey = (channel: DeskChannel, platform: DeskPlatform, version: string, file: string) =>
  `desktop-updates/${channel}/${platform}/${version}/${file}`;

/** The platform a feed file name is for (`latest.yml` → win, `latest-mac.yml` → mac), else null. */
export function feedPlatform(file: string): DeskPlatform | null {
  const hit = (Object.entries(FEED_FILES) as Array<[DeskPlatform, string]>).find(([, name]) => name === file);
  return hit ? hit[0] : null;
}

type ReleaseRow = {
  id: string;
  channel: string;
  platform: string;
  version: string;
  info: unknown;
  stagingPercentage: number | null;
  publishedAt: Date;
};

/** The newest release of a channel for a platform (by version, then publication), or null. */
export async function latestRelease(db: Db, channel: DeskChannel, platform: DeskPlatform) {
  const rows: ReleaseRow[] = await db('desk_releases')
    .where({ channel, platform })
    .select('id', 'channel', 'platform', 'version', 'info', 'stagingPercentage', 'publishedAt');
  rows.sort((a, b) => semver.rcompare(a.version, b.version) || +b.publishedAt - +a.publishedAt);
  return rows[0] ?? null;
}

/**
 * The feed file electron-updater's generic provider reads: the release's UpdateInfo with
 * `stagingPercentage` when the rollout is partial. 404 `desktop.noRelease` while nothing is published.
 */
export async function feedYaml(db: Db, channel: DeskChannel, platform: DeskPlatform): Promise<string> {
  const release = await latestRelease(db, channel, platform);
  if (!release)
    throw new AppError('desktop.noRelease', {
      message: `no ${platform} release is published on the ${channel} channel`,
    });
  const info = UpdateInfoSchema.parse(release.info);
  const doc =
    release.stagingPercentage === null ? info : { ...info, stagingPercentage: release.stagingPercentage };
  return yaml.dump(doc, { lineWidth: -1 });
}

/** The storage key of an installer (or blockmap) of any release of the channel, or null. */
export async function releaseFileKeyFor(db: Db, channel: DeskChannel, file: string): Promise<string | null> {
  if (!FILE_NAME.test(file)) return null;
  const base = file.endsWith('.blockmap') ? file.slice(0, -'.blockmap'.length) : file;
  const rows: ReleaseRow[] = await db('desk_releases')
    .where({ channel })
    .whereRaw("info->'files' @> ?::jsonb", [JSON.stringify([{ url: base }])])
    .select('id', 'channel', 'platform', 'version', 'info', 'stagingPercentage', 'publishedAt');
  const row = rows[0];
  return row ? releaseFileKey(channel, row.platform as DeskPlatform, row.version, file) : null;
}

export function presentRelease(row: ReleaseRow): DeskRelease {
  return {
    id: row.id,
    channel: DeskChannelSchema.parse(row.channel),
    platform: row.platform === 'mac' ? 'mac' : 'win',
    version: row.version,
    stagingPercentage: row.stagingPercentage,
    publishedAt: row.publishedAt.toISOString(),
  };
}

export async function latestReleases(db: Db): Promise<DeskRelease[]> {
  const out: DeskRelease[] = [];
  for (const channel of ['stable', 'beta'] as const)
    for (const platform of ['win', 'mac'] as const) {
      const r = await latestRelease(db, channel, platform);
      if (r) out.push(presentRelease(r));
    }
  return out;
}

/** Releases no feed serves any more (not the newest of their channel and platform), newest first. */
export async function pastReleases(db: Db): Promise<DeskRelease[]> {
  const current = new Set((await latestReleases(db)).map((r) => r.id));
  const rows: ReleaseRow[] = await db('desk_releases').select(
    'id',
    'channel',
    'platform',
    'version',
    'info',
    'stagingPercentage',
    'publishedAt',
  );
  return rows
    .filter((r) => !current.has(r.id))
    .sort(
      (a, b) =>
        a.channel.localeCompare(b.channel) ||
        a.platform.localeCompare(b.platform) ||
        semver.rcompare(a.version, b.version),
    )
    .map(presentRelease);
}

/**
 * Deletes a past release and its files (installers and blockmaps) from storage. The release its
 * channel's feed serves is refused (409 desktop.releaseCurrent): halt it with --set-staging 0 or
 * publish a newer one first. The row goes first; deleting a file is idempotent, so a failure
 * half-way leaves only unreachable files, which a second call cannot reach either (logged).
 */
export async function deleteRelease(db: Db, storage: FileStorage, id: string): Promise<void> {
  const row: ReleaseRow | undefined = await db('desk_releases')
    .where({ id })
    .forUpdate()
    .first('id', 'channel', 'platform', 'version', 'info', 'stagingPercentage', 'publishedAt');
  if (!row) throw AppError.notFound('release');
  const channel = DeskChannelSchema.parse(row.channel);
  const platform: DeskPlatform = row.platform === 'mac' ? 'mac' : 'win';
  const newest = await latestRelease(db, channel, platform);
  if (newest?.id === row.id)
    throw new AppError('desktop.releaseCurrent', {
      message: `${row.version} is what the ${channel} feed serves to ${platform} stations`,
    });
  await db('desk_releases').where({ id }).delete();
  const info = UpdateInfoSchema.safeParse(row.info);
  for (const file of info.success ? info.data.files : []) {
    await storage.delete(releaseFileKey(channel, platform, row.version, file.url));
    await storage.delete(releaseFileKey(channel, platform, row.version, `${file.url}.blockmap`));
  }
}

const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');

/**
 * Publishes electron-builder's output (`release/`) to a channel: for each feed file present
 * (latest.yml, latest-mac.yml) every installer it names is checked against its sha512, stored
 * (with its .blockmap when there is one) and the release recorded. The installer on disk may carry
 * spaces where the feed's url has dashes (electron-builder's own naming). Publishing the same
 * version again replaces its files and rollout. Returns what was published.
 */
export async function publishRelease(
  db: Db,
  storage: FileStorage,
  options: {
    dir: string;
    channel: DeskChannel;
    stagingPercentage: number | null;
    publishedBy: string;
    now: Date;
  },
): Promise<DeskRelease[]> {
  const published: DeskRelease[] = [];
  for (const [platform, feedFile] of Object.entries(FEED_FILES) as Array<[DeskPlatform, string]>) {
    const feedPath = path.join(options.dir, feedFile);
    const text = await fs.readFile(feedPath, 'utf8').catch(() => null);
    if (text === null) continue;
    const info = UpdateInfoSchema.parse(yaml.load(text));
    const onDisk = await fs.readdir(options.dir);
    for (const file of info.files) {
      const name =
        onDisk.find((f) => f === file.url) ?? onDisk.find((f) => f.replace(/ /g, '-') === file.url);
      const local = path.join(options.dir, name ?? file.url);
      const bytes = name ? await fs.readFile(local) : null;
      if (!bytes) throw new Error(`${feedFile} names ${file.url}, which is not in ${options.dir}`);
      if (sha512(bytes) !== file.sha512) throw new Error(`${file.url}: sha512 differs from ${feedFile}`);
      await storage.put(releaseFileKey(options.channel, platform, info.version, file.url), bytes);
      const blockmap = await fs.readFile(`${local}.blockmap`).catch(() => null);
      if (blockmap)
        await storage.put(
          releaseFileKey(options.channel, platform, info.version, `${file.url}.blockmap`),
          blockmap,
        );
    }
    const row = {
      channel: options.channel,
      platform,
      version: info.version,
      info: JSON.stringify(info),
      stagingPercentage: options.stagingPercentage,
      publishedBy: options.publishedBy.slice(0, 120),
      publishedAt: options.now,
    };
    await db('desk_releases')
      .insert({ id: uuidv7(), ...row })
      .onConflict(['channel', 'platform', 'version'])
      .merge(['info', 'stagingPercentage', 'publishedBy', 'publishedAt']);
    const saved: { id: string } = await db('desk_releases')
      .where({ channel: options.channel, platform, version: info.version })
      .first('id');
    published.push({
      id: saved.id,
      channel: options.channel,
      platform,
      version: info.version,
      stagingPercentage: options.stagingPercentage,
      publishedAt: options.now.toISOString(),
    });
  }
  if (published.length === 0)
    throw new Error(`neither ${Object.values(FEED_FILES).join(' nor ')} is in ${options.dir}`);
  return published;
}

/** Changes the rollout of a published release (widen 10 → 50 → 100, or halt with 0). */
export async function setStaging(
  db: Db,
  channel: DeskChannel,
  version: string,
  stagingPercentage: number | null,
): Promise<number> {
  return db('desk_releases').where({ channel, version }).update({ stagingPercentage });
}
