import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { loadConfig } from '../../config';
import { createStorage } from '../../storage/index';
import { startLocalS3, type LocalS3 } from '../../storage/testing/s3-server';
import { bookingStudio } from '../bookings/bookings-fixtures';
import { tusCreate, tusOffset, tusPatch, tusPatchInterrupted } from './testing/video-fixtures';

/**
 * Several cloud instances, one upload (issue 22): a video upload started on instance A, cut off
 * mid-PATCH, resumes on instance B — no sticky sessions. With the S3 driver the partial upload lives
 * in the object store (each instance has its own DATA_DIR); with the local disk, in a DATA_DIR the
 * instances share. The upload's lock is a lease in the database. The finished file is the original,
 * byte for byte, in the shared storage, and the pieces are gone.
 */
let s3: LocalS3;
const dirs: string[] = [];
const tmp = async () => {
  const d = await fs.mkdtemp(path.join(os.tmpdir(), 'studio-instance-'));
  dirs.push(d);
  return d;
};
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3?.stop();
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

describe.each([
  ['S3 (each instance its own DATA_DIR)', 's3'],
  ['local disk (a shared DATA_DIR)', 'disk'],
] as const)('video upload across instances: %s', (_name, driver) => {
  let a: TestApp;
  let b: TestApp;
  let env: { A: Record<string, string>; B: Record<string, string> };
  beforeAll(async () => {
    const shared = await tmp();
    env =
      driver === 's3'
        ? { A: { ...s3.env, DATA_DIR: await tmp() }, B: { ...s3.env, DATA_DIR: await tmp() } }
        : { A: { DATA_DIR: shared }, B: { DATA_DIR: shared } };
    a = await startTestApp({ env: env.A });
    b = await startTestApp({ env: env.B, shareDatabaseWith: a });
  }, 30_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('starts on instance A, is cut off, resumes and finishes on instance B', async () => {
    const s = await bookingStudio(a, new Date(Date.now() + 86_400_000));
    const owner = await a.signedIn(s.manager.email, s.manager.password);
    const file = randomBytes(3 * 1024 * 1024 + 17);
    const made = await owner.post(`/api/v4/${s.studio.id}/video`, {
      title: 'Two instances',
      fileName: 'long.mp4',
      sizeBytes: file.length,
    });
    expect(made.status, made.text).toBe(201);
    const created = await tusCreate(a.url, owner, made.body.uploadUrl, made.body.id, file.length);
    expect(created.status, created.text).toBe(201);
    await tusPatchInterrupted(a.url, owner, created.location!, 0, file, 2 * 1024 * 1024);

    // Instance B knows how far A got (the partial upload is not on A's own disk or memory).
    const offset = await tusOffset(b.url, owner, created.location!);
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(file.length);
    const rest = await tusPatch(b.url, owner, created.location!, offset, file.subarray(offset));
    expect(rest.status, rest.text).toBe(204);
    expect(rest.offset).toBe(file.length);
    expect((await a.knex('videos').where({ id: made.body.id }).first())!.status).toBe('transcoding');

    const storage = createStorage(loadConfig(env.B));
    const original = await storage.read(`videos/${s.studio.id}/${made.body.id}/original`);
    expect(original?.equals(file)).toBe(true);
    if (driver === 's3') expect(await storage.read(`video-uploads/${made.body.id}/info.json`)).toBeNull();
    expect(await a.knex('video_upload_locks').where({ id: made.body.id })).toEqual([]);
  });
});
