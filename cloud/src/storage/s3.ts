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
  /** Files larger than this go up as a multipart upload (default 64 MB). */
  multipartThreshold?: number;
  /** The size of each part of a multipart upload (default 16 MB; S3 wants at least 5 MB but the last). */
  partSize?: number;
}

const MB = 1024 * 1024;
const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Any S3-compatible object store (AWS S3, MinIO, Ceph, R2, ...) through signed HTTP requests
 * (aws4fetch: SigV4 over fetch, no SDK). Objects are private; the cloud streams them to whoever may
 * see them, as with the local disk.
 */
export class S3Storage implements FileStorage {
  private readonly client: AwsClient;
  private readonly base: string;
  private readonly multipartThreshold: number;
  private readonly partSize: number;

  constructor(options: S3Options) {
    this.multipartThreshold = options.multipartThreshold ?? 64 * MB;
    this.partSize = Math.max(5 * MB, options.partSize ?? 16 * MB);
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
    const { size } = await fsp.stat(localPath);
    // Documents and avatars: one signed PUT of the whole file. Videos (up to 10 GB): a multipart
    // upload read from the disk one part at a time, so memory stays at one part whatever the size.
    if (size <= this.multipartThreshold) await this.put(key, await fsp.readFile(localPath), contentType);
    else await this.putMultipart(key, localPath, size, contentType ?? 'application/octet-stream');
    await fsp.rm(localPath, { force: true });
  }

  /** CreateMultipartUpload, UploadPart per `partSize` bytes in order, CompleteMultipartUpload; aborted on failure. */
  private async putMultipart(key: string, localPath: string, size: number, contentType: string) {
    const url = this.url(key);
    const created = await this.client.fetch(`${url}?uploads`, {
      method: 'POST',
      headers: { 'content-type': contentType },
    });
    const createdText = await created.text();
    const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(createdText)?.[1];
    if (!created.ok || !uploadId)
      throw new Error(`S3 multipart ${key}: ${created.status} ${createdText.slice(0, 300)}`);
    const at = `uploadId=${encodeURIComponent(uploadId)}`;
    const handle = await fsp.open(localPath, 'r');
    const parts: string[] = [];
    try {
      for (let offset = 0, n = 1; offset < size; offset += this.partSize, n++) {
        const length = Math.min(this.partSize, size - offset);
        const chunk = Buffer.alloc(length);
        await handle.read(chunk, 0, length, offset);
        const res = await this.client.fetch(`${url}?partNumber=${n}&${at}`, {
          method: 'PUT',
          body: new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength),
        });
        const etag = res.headers.get('etag');
        await res.body?.cancel();
        if (!res.ok || !etag) throw new Error(`S3 part ${n} of ${key}: ${res.status}`);
        parts.push(`<Part><PartNumber>${n}</PartNumber><ETag>${xmlEscape(etag)}</ETag></Part>`);
      }
      const done = await this.client.fetch(`${url}?${at}`, {
        method: 'POST',
        headers: { 'content-type': 'application/xml' },
        body: `<CompleteMultipartUpload>${parts.join('')}</CompleteMultipartUpload>`,
      });
      const text = await done.text();
      // S3 may answer 200 with an error document when completing fails late.
      if (!done.ok || text.includes('<Error>'))
        throw new Error(`S3 complete ${key}: ${done.status} ${text.slice(0, 300)}`);
    } catch (err) {
      await this.client
        .fetch(`${url}?${at}`, { method: 'DELETE' })
        .then((r) => r.body?.cancel())
        .catch(() => undefined);
      throw err;
    } finally {
      await handle.close();
    }
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

  async deletePrefix(prefix: string): Promise<number> {
    assertStorageKey(prefix);
    let deleted = 0;
    let token: string | undefined;
    do {
      const query = new URLSearchParams({ 'list-type': '2', prefix: `${prefix}/`, 'max-keys': '1000' });
      if (token) query.set('continuation-token', token);
      const res = await this.client.fetch(`${this.base}?${query}`, { method: 'GET' });
      const xml = await res.text();
      if (!res.ok) throw new Error(`S3 list ${prefix}: ${res.status} ${xml.slice(0, 300)}`);
      const keys = [...xml.matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => unescapeXml(m[1]!));
      for (const key of keys) {
        await this.delete(key);
        deleted += 1;
      }
      token = /<IsTruncated>true<\/IsTruncated>/.test(xml)
        ? unescapeXml(/<NextContinuationToken>([^<]+)<\/NextContinuationToken>/.exec(xml)?.[1] ?? '')
        : undefined;
    } while (token);
    return deleted;
  }

  async delete(key: string): Promise<void> {
    const res = await this.request(key, { method: 'DELETE' }, true);
    await res?.body?.cancel();
  }
}
