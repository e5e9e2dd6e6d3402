import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AwsClient } from 'aws4fetch';
import { assertStorageKey, type FileStorage } from './file-storage';

export interface S3Options {
  bucket: string;
  /** An S3-compatible endpoint; unset: AWS S3 in `region`. */
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint host>/<key>`. */
  forcePathStyle: boolean;
}

/**
 * Any S3-compatible object store (AWS S3, MinIO, Ceph, R2, ...) through signed HTTP requests
 * (aws4fetch: SigV4 over fetch, no SDK). Objects are private; the cloud streams them to whoever may
 * see them, as with the local disk.
 */
export class S3Storage implements FileStorage {
  private readonly client: AwsClient;
  private readonly base: string;

  constructor(options: S3Options) {
    this.client = new AwsClient({
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      region: options.region,
      service: 's3',
    });
    const endpoint = new URL(options.endpoint ?? `https://s3.${options.region}.amazonaws.com`);
    if (options.forcePathStyle) {
      this.base = `${endpoint.origin}/${encodeURIComponent(options.bucket)}`;
    } else {
      this.base = `${endpoint.protocol}//${options.bucket}.${endpoint.host}`;
    }
  }

  private url(key: string): string {
    assertStorageKey(key);
    return `${this.base}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  private async request(key: string, init: RequestInit, okMissing = false): Promise<Response | null> {
    const res = await this.client.fetch(this.url(key), init);
    if (res.status === 404 && okMissing) {
      await res.body?.cancel();
      return null;
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      throw new Error(`S3 ${init.method ?? 'GET'} ${key}: ${res.status} ${text.slice(0, 300)}`);
    }
    return res;
  }

  async put(key: string, body: Buffer, contentType = 'application/octet-stream'): Promise<void> {
    const res = await this.request(key, {
      method: 'PUT',
      body: new Uint8Array(body),
      headers: { 'content-type': contentType },
    });
    await res?.body?.cancel();
  }

  async putFile(key: string, localPath: string, contentType?: string): Promise<void> {
    // Uploads are bounded (documents, avatars): one signed PUT of the whole file.
    await this.put(key, await fsp.readFile(localPath), contentType);
    await fsp.rm(localPath, { force: true });
  }

  async get(key: string): Promise<Readable | null> {
    const res = await this.request(key, { method: 'GET' }, true);
    if (!res?.body) return null;
    return Readable.fromWeb(res.body as unknown as WebReadableStream);
  }

  async read(key: string): Promise<Buffer | null> {
    const res = await this.request(key, { method: 'GET' }, true);
    return res ? Buffer.from(await res.arrayBuffer()) : null;
  }

  async delete(key: string): Promise<void> {
    const res = await this.request(key, { method: 'DELETE' }, true);
    await res?.body?.cancel();
  }
}
