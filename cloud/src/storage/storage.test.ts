import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
