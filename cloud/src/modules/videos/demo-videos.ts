import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import type { FileStorage } from '../../storage/index';
import { videoKeys } from './video-transcode';
import { queueTranscode } from './videos.service';

const run = promisify(execFile);
const lt = (en: string, pl: string) => JSON.stringify({ en: { value: en }, pl: { value: pl } });

/**
 * A short lesson made by ffmpeg (colour bars with a tone, 8 s, 640×360): about a second's work.
 * Null when ffmpeg is missing or fails.
 */
async function demoVideoFile(): Promise<{ file: string; size: number; dir: string } | null> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'demo-video-'));
  const file = path.join(dir, 'demo.mp4');
  try {
    await run(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=640x360:rate=25',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=330:sample_rate=44100',
        '-t',
        '8',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        file,
      ],
      { timeout: 30_000 },
    );
    return { file, size: (await fs.stat(file)).size, dir };
  } catch {
    await fs.rm(dir, { recursive: true, force: true });
    return null;
  }
}

/**
 * Demo video course (issue 22): "Morning yoga at home" with two lessons and a pass that covers it,
 * held by the demo client. With ffmpeg and the file storage at hand, the first lesson's video is
 * made at seed time and goes through the real pipeline (stored, then transcoded to HLS by the
 * `video.transcode` job once the server's worker runs); without them it is shown honestly as failed
 * with the reason. The second lesson is a video still waiting for its upload (status init).
 */
export async function seedDemoVideos(
  trx: Knex.Transaction,
  studioId: string,
  ownerId: string,
  clientIds: readonly string[],
  now: Date,
  storage: FileStorage | undefined,
): Promise<void> {
  const made = storage ? await demoVideoFile() : null;
  const lesson1 = uuidv7();
  const lesson2 = uuidv7();
  await trx('videos').insert([
    {
      id: lesson1,
      studioId,
      title: 'Powitanie słońca – lekcja 1',
      status: made ? 'uploading' : 'failed',
      failureReason: made
        ? null
        : storage
          ? 'ffmpeg is not installed on the server (the demo video could not be made)'
          : 'the demo was seeded without file storage',
      sizeBytes: made?.size ?? 1,
      fileName: 'powitanie-slonca.mp4',
      createdByUserId: ownerId,
    },
    {
      id: lesson2,
      studioId,
      title: 'Oddech i rozciąganie – lekcja 2',
      status: 'init',
      sizeBytes: 48_000_000,
      fileName: 'oddech.mp4',
      createdByUserId: ownerId,
    },
  ]);
  if (made && storage) {
    await storage.putFile(videoKeys(studioId, lesson1).original, made.file, 'video/mp4');
    await fs.rm(made.dir, { recursive: true, force: true });
    await queueTranscode(trx, studioId, lesson1, now);
  }
  const course = uuidv7();
  await trx('video_services').insert({
    id: course,
    studioId,
    name: lt('Morning yoga at home', 'Poranna joga w domu'),
    description: lt(
      'Short lessons to start the day, at your own pace.',
      'Krótkie lekcje na dobry początek dnia, we własnym tempie.',
    ),
    slug: 'poranna-joga',
    published: true,
    // Sold on its own too (one-off purchase through the cart), beside the video-course pass.
    price: 9900,
    vatRate: '800',
  });
  const event1 = uuidv7();
  await trx('video_events').insert([
    {
      id: event1,
      studioId,
      videoServiceId: course,
      videoId: lesson1,
      name: lt('Sun salutation', 'Powitanie słońca'),
      position: 0,
    },
    {
      id: uuidv7(),
      studioId,
      videoServiceId: course,
      videoId: lesson2,
      name: lt('Breath and stretch', 'Oddech i rozciąganie'),
      position: 1,
    },
  ]);
  // A second course the pass does not include, sold on its own: the demo client sees "Buy".
  const pilates = uuidv7();
  await trx('video_services').insert({
    id: pilates,
    studioId,
    name: lt('Pilates for a strong back', 'Pilates na zdrowy kręgosłup'),
    description: lt(
      'Four short sessions for the back, bought once, yours to keep.',
      'Cztery krótkie sesje dla kręgosłupa — kupujesz raz, zostają Twoje.',
    ),
    slug: 'pilates-kregoslup',
    published: true,
    price: 4900,
    vatRate: '800',
  });
  await trx('video_events').insert({
    id: uuidv7(),
    studioId,
    videoServiceId: pilates,
    videoId: lesson2,
    name: lt('Breath and stretch', 'Oddech i rozciąganie'),
    position: 0,
  });
  const option = uuidv7();
  await trx('pricing_options').insert({
    id: option,
    studioId,
    // The pass includes the yoga course only (a video pass names its courses like a class pass).
    restrictions: JSON.stringify({ classServiceIds: [course] }),
    name: lt('Online video courses – 3 months', 'Kursy wideo online – 3 miesiące'),
    price: 9900,
    taxRateBp: 2300,
    entries: null,
    validityDays: 90,
    validityCount: 90,
    validityUnit: 'day',
    expirationType: 0,
    serviceTypes: JSON.stringify(['videoPricingOption']),
  });
  const soldAt = new Date(now.getTime() - 5 * 86_400_000);
  const viewers = [clientIds[0]!, clientIds[2]!, clientIds[3]!];
  const passIds = viewers.map(() => uuidv7());
  await trx('client_pricing_options').insert(
    viewers.map((clientId, i) => ({
      id: passIds[i]!,
      studioId,
      clientId,
      pricingOptionId: option,
      status: 1,
      entries: null,
      soldAt,
      activatedAt: soldAt,
      expiresAt: new Date(soldAt.getTime() + 90 * 86_400_000),
      pricePaid: 9900,
      expirationType: 0,
      validityCount: 90,
      validityUnit: 'day',
    })),
  );
  // Two other clients have watched part of the first lesson (the staff's metrics).
  await trx('client_videos').insert(
    [1, 2].map((i) => ({
      id: uuidv7(),
      studioId,
      clientId: viewers[i]!,
      videoEventId: event1,
      access: 'pass',
      clientPricingOptionId: passIds[i]!,
      streamSecret: randomBytes(32).toString('base64url'),
      positionSeconds: i === 1 ? 0 : 3,
      watchedSeconds: i === 1 ? 8 : 3,
      progress: i === 1 ? 1 : 0.4,
      completedAt: i === 1 ? new Date(now.getTime() - 2 * 86_400_000) : null,
      lastWatchedAt: new Date(now.getTime() - i * 86_400_000),
    })),
  );
}
