import type Koa from 'koa';
import Router from '@koa/router';
import busboy from 'busboy';
import { type z } from 'zod';
import {
  DESK_VERSION_HEADER,
  DeskChannelSchema,
  StationLogsInputSchema,
  StationReportInputSchema,
  type StationReportResult,
} from '../../../../shared/contracts/api/desk-fleet';
import { AppError } from '../../../../shared/errors';
import type { AppContext, AppCustom, AppState } from '../../http/context';
import { fileStorage } from '../../storage';
import { authenticateDevice } from '../../sync/devices.service';
import {
  deskVersion,
  isAccepted,
  oldestAccepted,
  recordReport,
  storeCrash,
  storeLogs,
  studioChannel,
} from './fleet.service';
import { feedPlatform, feedYaml, releaseFileKeyFor } from './releases.service';

const CRASH_MAX_BYTES = 5 * 1024 * 1024;

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw parsed.error;
  return parsed.data;
}

/**
 * The refusal an old desk gets: it stops taking sales and updates (desktop/main/updates). Applies to
 * station calls only — those with a device token or a desk version — so the back office's own /sync
 * calls (a browser, no version) are never refused.
 */
function versionFloor(ctx: AppContext): void {
  const header = ctx.get(DESK_VERSION_HEADER);
  if (!header && !/^Bearer\s/i.test(ctx.get('authorization'))) return;
  const version = deskVersion(header || undefined);
  const oldest = oldestAccepted();
  if (!isAccepted(version, oldest))
    throw new AppError('desktop.tooOld', {
      message: `this desk runs ${version}; the cloud accepts ${oldest} and newer: update the desk`,
      fields: { version: [`update to ${oldest} or newer`] },
    });
}

/** Reads the crash reporter's multipart upload: its fields and the minidump (if any). */
async function readCrashUpload(
  ctx: AppContext,
): Promise<{ fields: Record<string, string>; dump: Buffer | null }> {
  if (!ctx.is('multipart')) throw AppError.invalid({ '': ['send multipart/form-data'] });
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let dump = false;
    let tooLarge = false;
    const parser = busboy({
      headers: ctx.req.headers,
      limits: { fileSize: CRASH_MAX_BYTES, files: 1, fields: 60, fieldSize: 4096 },
    });
    parser.on('field', (name, value) => {
      if (/^[A-Za-z0-9_.-]{1,64}$/.test(name)) fields[name] = value.slice(0, 1024);
    });
    parser.on('file', (_name, stream) => {
      dump = true;
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => (tooLarge = true));
    });
    parser.on('error', reject);
    parser.on('close', () => {
      if (tooLarge)
        return reject(
          new AppError('request.tooLarge', {
            message: 'crash report too large',
            fields: { upload_file_minidump: ['at most 5 MB'] },
          }),
        );
      resolve({ fields, dump: dump ? Buffer.concat(chunks) : null });
    });
    ctx.req.pipe(parser);
  });
}

/**
 * The stations' own calls, outside /api (device tokens, no studio in the path; like /sync):
 * - `GET /desktop/updates/{channel}/latest.yml | latest-mac.yml | <installer>`: electron-updater's
 *   generic feed (public, as installers are; nothing studio-specific in it);
 * - `POST /desktop/station/report`: the station's contact (version, outbox, printers, errors) →
 *   its studio's channel, the version floor, and whether staff asked for its logs;
 * - `POST /desktop/station/logs`: the logs staff asked for;
 * - `POST /desktop/crash-reports`: Electron's crashReporter upload (multipart; the device token in
 *   the `deviceToken` field, since the reporter cannot send headers).
 * Also the version floor on every station call under /sync.
 */
export function registerDesktopRoutes(app: Koa<AppState, AppCustom>): void {
  const router = new Router<AppState, AppCustom>({ prefix: '/desktop' });

  router.get('/updates/:channel/:file', async (ctx) => {
    const channel = DeskChannelSchema.safeParse(ctx.params.channel);
    if (!channel.success) throw AppError.notFound('channel');
    const { knex, config } = ctx.deps;
    const file = ctx.params.file!;
    const platform = feedPlatform(file);
    if (platform) {
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'text/yaml; charset=utf-8';
      ctx.body = await feedYaml(knex, channel.data, platform);
      return;
    }
    const key = await releaseFileKeyFor(knex, channel.data, file);
    const stream = key ? await fileStorage(config).get(key) : null;
    if (!stream) throw AppError.notFound('file');
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.type = 'application/octet-stream';
    ctx.body = stream;
  });

  router.post('/station/report', async (ctx) => {
    // Not refused when too old: the answer (accepted: false) is how an old desk learns it must update.
    const { knex, clock } = ctx.deps;
    const now = clock.now();
    const input = parse(StationReportInputSchema, (ctx.request as { body?: unknown }).body);
    const device = await authenticateDevice(knex, ctx.get('authorization'), now);
    const { uploadLogs } = await knex.transaction((trx) => recordReport(trx, device, input, now));
    const channel = await studioChannel(knex, device.studioId);
    const oldest = oldestAccepted();
    const body: StationReportResult = {
      channel,
      feedPath: `/desktop/updates/${channel}`,
      oldestAccepted: oldest,
      accepted: isAccepted(input.version, oldest),
      uploadLogs,
      serverTime: now.toISOString(),
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.post('/station/logs', async (ctx) => {
    versionFloor(ctx);
    const { knex, clock, config } = ctx.deps;
    const now = clock.now();
    const input = parse(StationLogsInputSchema, (ctx.request as { body?: unknown }).body);
    const device = await authenticateDevice(knex, ctx.get('authorization'), now);
    await knex.transaction((trx) => storeLogs(trx, fileStorage(config), device, input.text, now));
    ctx.status = 204;
  });

  router.post('/crash-reports', async (ctx) => {
    const { knex, clock, config } = ctx.deps;
    const now = clock.now();
    const upload = await readCrashUpload(ctx);
    const token = upload.fields.deviceToken ?? '';
    delete upload.fields.deviceToken;
    const auth = ctx.get('authorization') || (token ? `Bearer ${token}` : '');
    const device = await authenticateDevice(knex, auth, now);
    const id = await storeCrash(knex, fileStorage(config), device, upload, now);
    ctx.status = 201;
    ctx.type = 'text/plain';
    // Electron's crashReporter logs the answer as the report's id.
    ctx.body = id;
  });

  const routes = router.routes();
  const allowed = router.allowedMethods({ throw: true });
  app.use(async (ctx, next) => {
    if (ctx.path === '/sync' || ctx.path.startsWith('/sync/')) {
      versionFloor(ctx);
      return next();
    }
    if (ctx.path !== '/desktop' && !ctx.path.startsWith('/desktop/')) return next();
    await routes(ctx as never, async () => {});
    await allowed(ctx as never, async () => {});
    if (ctx.status === 404 && ctx.body === undefined && ctx.respond !== false)
      throw AppError.notFound('route');
  });
}
