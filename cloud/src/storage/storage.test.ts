import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config';
import { createStorage, type FileStorage } from './index';
import { startLocalS3, type LocalS3 } from './testing/s3-server';

let s3: LocalS3;
let dataDir: string;
beforeAll(async () => {
  s3 = await startLocalS3();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'studio-storage-'));
});
afterAll(async () => {
  await s3?.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
});

const drivers: Array<[string, () => FileStorage]> = [
  ['local disk', () => createStorage(loadConfig({ DATA_DIR: dataDir }))],
  ['S3-compatible (s3rver on loopback)', () => createStorage(loadConfig({ DATA_DIR: dataDir, ...s3.env }))],
];

describe.each(drivers)('file storage: %s', (_name, make) => {
  it('puts, streams, reads, moves a local file in, and deletes idempotently', async () => {
    const storage = make();
    const key = `client-documents/${crypto.randomUUID()}/${crypto.randomUUID()}`;
    expect(await storage.get(key)).toBeNull();
    expect(await storage.read(key)).toBeNull();

    await storage.put(key, Buffer.from('%PDF-1.7 hello'), 'application/pdf');
    expect(await text((await storage.get(key))!)).toBe('%PDF-1.7 hello');
    expect((await storage.read(key))!.toString()).toBe('%PDF-1.7 hello');

    const local = path.join(dataDir, `upload-${crypto.randomUUID()}`);
    await fs.writeFile(local, Buffer.alloc(300_000, 7));
    const moved = `avatars/${crypto.randomUUID()}.png`;
    await storage.putFile(moved, local, 'image/png');
    await expect(fs.stat(local)).rejects.toThrow();
    expect((await storage.read(moved))!.equals(Buffer.alloc(300_000, 7))).toBe(true);

    await storage.delete(key);
    await storage.delete(key);
    expect(await storage.get(key)).toBeNull();
  });

  it('moves a large file in as a multipart upload (S3: parts of 5 MB), byte for byte', async () => {
    const storage =
      _name === 'local disk'
        ? make()
        : createStorage(loadConfig({ DATA_DIR: dataDir, ...s3.env }), {
            multipartThreshold: 6 * 1024 * 1024,
            partSize: 5 * 1024 * 1024,
          });
    const local = path.join(dataDir, `video-${crypto.randomUUID()}`);
    const big = Buffer.alloc(12 * 1024 * 1024 + 123);
    for (let i = 0; i < big.length; i += 4096) big.writeUInt32LE(i, i);
    await fs.writeFile(local, big);
    const key = `videos/${crypto.randomUUID()}/original`;
    const calls = vi.spyOn(globalThis, 'fetch');
    await storage.putFile(key, local);
    const parts = calls.mock.calls.filter(([input]) =>
      String((input as Request).url ?? input).includes('partNumber='),
    );
    calls.mockRestore();
    // S3: three parts (5 + 5 + 2 MB); the disk just renames.
    expect(parts).toHaveLength(_name === 'local disk' ? 0 : 3);
    await expect(fs.stat(local)).rejects.toThrow();
    expect((await storage.read(key))!.equals(big)).toBe(true);
  });

  it('deletes everything under a prefix and nothing beside it', async () => {
    const storage = make();
    const root = `videos/${crypto.randomUUID()}`;
    for (const k of ['original', 'hls/master.m3u8', 'hls/240p/index.m3u8', 'hls/240p/seg_000.ts'])
      await storage.put(`${root}/${k}`, Buffer.from(k));
    await storage.put(`${root}-other/original`, Buffer.from('keep'));
    expect(await storage.deletePrefix(root)).toBe(4);
    expect(await storage.read(`${root}/hls/240p/seg_000.ts`)).toBeNull();
    expect(await storage.read(`${root}/original`)).toBeNull();
    expect((await storage.read(`${root}-other/original`))?.toString()).toBe('keep');
    expect(await storage.deletePrefix(root)).toBe(0);
  });

  it('refuses keys that could leave their place', async () => {
    const storage = make();
    for (const key of [
      '../secrets/field-encryption.key',
      'a/../../b',
      '/etc/passwd',
      'a//b',
      '.hidden/x',
      '',
    ])
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow(/not a storage key/);
  });
});
