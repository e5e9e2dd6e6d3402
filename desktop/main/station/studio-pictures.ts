import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathMatcher } from '../../../shared/contracts/http/define';
import { StudioAdminApi } from '../../../shared/contracts/http/studio-admin';
import type { ApiRequestInput, ApiResponse } from '../../../shared/contracts/ipc';
import { REQUESTED_WITH_HEADER, REQUESTED_WITH_VALUE } from '../../../shared/contracts/page-context';
import { AppError } from '../../../shared/errors';

/** Folder under the station's data folder where the studio's look is kept for offline. */
export const STUDIO_PICTURES_DIR = 'studio-look';

const APPEARANCE = pathMatcher(StudioAdminApi.getAppearance.path);
const PICTURE = pathMatcher(StudioAdminApi.getAppearancePicture.path);
/** The cloud names each stored picture by a fresh file name per upload: a name is its content. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const TYPES = new Set(['logo', 'cover']);

export interface StudioPicturesOptions {
  /** The station's data folder (the pictures go into `<dataDir>/studio-look`). */
  dataDir: string;
  cloudUrl: string;
  /** Headers that prove the station to the cloud (its device token, a session); none for public reads. */
  headers?: () => Record<string, string>;
  /** Heard on every cloud call: the station's reachability probe. */
  report?: (reachable: boolean, error?: unknown) => void;
  /** The probe's view: while the cloud is known to be away the kept copy answers at once. */
  online?: () => boolean;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

interface Kept {
  contentType: string | null;
  /** base64 for pictures, utf8 for the appearance's JSON. */
  encoding: 'utf8' | 'base64';
  body: string;
}

/**
 * The studio's look at the desk (issue 26): its appearance (colours, logo and cover paths) and the
 * logo and cover pictures. The renderer's `<img>` cannot load the cloud's relative
 * `/api/v4/{studio}/studio-appearance/logo/{file}` (file:// in Electron, the host's origin in tests),
 * so the screens ask main for the bytes over the bridge (`apiRequest`/`kioskRequest`, as any API
 * call): main fetches them from the cloud and keeps each answer on disk, so the logo and colours are
 * still there when the cloud is away. A picture's file name changes with every upload, so a kept
 * picture is answered from disk without asking the cloud again; the appearance is asked each time
 * (it names the current file) and the kept copy answers only while the cloud is away.
 */
export class StudioPictures {
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: StudioPicturesOptions) {
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  private get dir(): string {
    return path.join(this.options.dataDir, STUDIO_PICTURES_DIR);
  }

  /** True for a GET of the studio's appearance or one of its pictures (of `studioUuid` only). */
  handles(request: ApiRequestInput, studioUuid: string): boolean {
    return this.match(request, studioUuid) !== null;
  }

  private match(
    request: ApiRequestInput,
    studioUuid: string,
  ): { kind: 'appearance' } | { kind: 'picture'; type: string; file: string } | null {
    if (request.method !== 'GET') return null;
    const pathOnly = `/${request.path.split('?')[0] ?? ''}`;
    const appearance = APPEARANCE(pathOnly);
    if (appearance?.uuid === studioUuid) return { kind: 'appearance' };
    const picture = PICTURE(pathOnly);
    if (
      picture?.uuid === studioUuid &&
      TYPES.has(picture.type ?? '') &&
      FILE_NAME.test(picture.file ?? '') &&
      !(picture.file ?? '').includes('..')
    )
      return { kind: 'picture', type: picture.type!, file: picture.file! };
    return null;
  }

  /** The answer to a request `handles` accepted: from the cloud (and kept), or the kept copy. */
  async answer(request: ApiRequestInput, studioUuid: string): Promise<ApiResponse> {
    const found = this.match(request, studioUuid);
    if (!found) throw AppError.notFound('studio picture');
    const pathOnly = request.path.split('?')[0]!;
    if (found.kind === 'picture') {
      const name = `${found.type}-${found.file}`;
      const kept = this.read(name);
      if (kept) return respond(200, kept);
      const fetched = await this.fetchCloud(pathOnly, 'base64');
      if (fetched === 'unreachable')
        throw new AppError('station.cloudUnreachable', { message: 'the cloud cannot be reached' });
      if (fetched.status === 200) this.write(name, fetched.kept);
      return respond(fetched.status, fetched.kept);
    }
    const name = 'appearance';
    const fetched = await this.fetchCloud(pathOnly, 'utf8');
    if (fetched !== 'unreachable') {
      if (fetched.status === 200) this.write(name, fetched.kept);
      return respond(fetched.status, fetched.kept);
    }
    const kept = this.read(name);
    if (kept) return respond(200, kept);
    throw new AppError('station.cloudUnreachable', { message: 'the cloud cannot be reached' });
  }

  private async fetchCloud(
    apiPath: string,
    encoding: Kept['encoding'],
  ): Promise<{ status: number; kept: Kept } | 'unreachable'> {
    if (this.options.online && !this.options.online()) return 'unreachable';
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.options.cloudUrl.replace(/\/+$/, '')}/api/${apiPath}`, {
        headers: {
          accept: encoding === 'utf8' ? 'application/json' : 'image/*',
          [REQUESTED_WITH_HEADER]: REQUESTED_WITH_VALUE,
          ...(this.options.headers?.() ?? {}),
        },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      this.options.report?.(true);
      return {
        status: response.status,
        kept: {
          contentType: response.headers.get('content-type'),
          encoding,
          body: bytes.toString(encoding),
        },
      };
    } catch (error) {
      this.options.report?.(false, error);
      return 'unreachable';
    }
  }

  private read(name: string): Kept | null {
    try {
      return JSON.parse(readFileSync(path.join(this.dir, `${name}.json`), 'utf8')) as Kept;
    } catch {
      return null;
    }
  }

  private write(name: string, kept: Kept): void {
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const file = path.join(this.dir, `${name}.json`);
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(kept), { mode: 0o600 });
      renameSync(temp, file);
    } catch {
      // A full or read-only disk: the screen still gets the picture, only not offline.
    }
  }
}

function respond(status: number, kept: Kept): ApiResponse {
  return {
    status,
    contentType: kept.contentType,
    contentDisposition: null,
    encoding: kept.encoding,
    body: kept.body,
  };
}
