import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { readDemo } from './support/demo';
import { shootAll } from './support/screenshots';
import { backofficePage, frontofficePage } from './support/sign-in';

/**
 * Video courses end to end (issue 22). The demo's first lesson was made by ffmpeg at seed time and
 * transcoded to HLS by the job worker when the server started. The demo client (whose pass covers
 * video courses) opens the course, watches the lesson with hls.js (the video really plays), and the
 * watch report reaches staff: the course's lesson shows a client more in the back office. The
 * manager uploads a short video with tus (progress) and sees it processed to "Ready".
 * Screens EN/PL at 1280 and 390 px: screenshots/video-*.png.
 */
test('a client watches a course video; staff upload a video and see the watch metrics', async ({
  browser,
}) => {
  const demo = readDemo();
  const errors: string[] = [];
  const client = await frontofficePage(browser, demo, 'timetable', {
    errors,
    label: 'client',
    englishCookie: true,
  });

  await client.goto(`/${demo.studioUuid}/frontoffice/video-courses`);
  await expect(client.getByTestId('video-course').first()).toBeVisible();
  await shootAll(client, 'video-courses', () =>
    expect(client.getByTestId('video-course').first()).toBeVisible(),
  );
  await client.getByTestId('video-course').first().click();
  // The demo lesson is transcoded by the worker right after the start: at most a few seconds.
  await expect(async () => {
    await client.reload();
    await expect(client.getByTestId('video-lesson-watch').first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  await shootAll(client, 'video-course', () =>
    expect(client.getByTestId('video-lesson').first()).toBeVisible(),
  );

  // A course the pass does not include, sold on its own: "Buy" puts it in the cart.
  await client.goto(`/${demo.studioUuid}/frontoffice/video-courses/pilates-kregoslup`);
  const buy = client.getByTestId('video-course-buy');
  await expect(buy).toContainText('49');
  await shootAll(client, 'video-course-buy', () =>
    expect(client.getByTestId('video-course-buy')).toBeVisible(),
  );
  await buy.getByRole('button').click();
  await expect(client).toHaveURL(/\/cart/);
  await expect(client.getByText('Pilates for a strong back').first()).toBeVisible();
  await client.goto(`/${demo.studioUuid}/frontoffice/video-courses/poranna-joga`);
  await client.getByTestId('video-lesson-watch').first().click();
  const player = client.getByTestId('video-player');
  await expect(player).toBeVisible();
  // Plays: hls.js fetched the signed playlists and segments and the time runs.
  await player.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect
    .poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 })
    .toBeGreaterThan(1);
  await shootAll(client, 'video-watch', () => expect(player).toBeVisible());
  // Pausing reports the watch (client-video/{id}/metric).
  const metric = client.waitForResponse((r) => r.url().includes('/metric') && r.status() === 200);
  await player.evaluate((v: HTMLVideoElement) => v.pause());
  await metric;

  // Staff: the course's first lesson counts the demo client among its viewers (two watched at seed).
  const office = await backofficePage(browser, demo, { errors, label: 'office' });
  await office.goto(`/${demo.studioUuid}/backoffice#/videos`);
  await expect(office.getByTestId('video-card').first()).toBeVisible();
  await office.getByTestId('videos-tab-courses').click();
  const lessons = office.getByTestId('video-course-lessons').first();
  await expect(lessons.locator('tbody tr').first().locator('td').nth(1)).toHaveText('3');
  await shootAll(office, 'video-courses-staff', () => expect(lessons).toBeVisible());
  // The course's form: its price for buying it on its own, and deleting it.
  await office.getByTestId('video-course-card').first().getByRole('button').first().click();
  await expect(office.getByTestId('video-course-price')).toHaveValue('99');
  await office.getByTestId('video-course-delete').click();
  await shootAll(office, 'video-course-form', () =>
    expect(office.getByTestId('video-course-form')).toBeVisible(),
  );
  await office.getByTestId('video-course-form').getByRole('button', { name: 'Cancel' }).last().click();

  // Staff upload a short video with tus; it goes through processing to ready.
  const dir = mkdtempSync(path.join(tmpdir(), 'e2e-video-'));
  const file = path.join(dir, 'stretch.mp4');
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x240:rate=15',
    '-t',
    '2',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    file,
  ]);
  await office.getByTestId('videos-tab-videos').click();
  await office.getByTestId('video-add').click();
  const title = `Stretch ${Date.now().toString(36).slice(-4)}`;
  await office.getByTestId('video-upload-title').fill(title);
  await office.getByTestId('video-upload').locator('input[type="file"]').setInputFiles(file);
  await office.getByTestId('video-upload-start').click();
  await expect(office.getByTestId('video-upload-done')).toBeVisible({ timeout: 20_000 });
  rmSync(dir, { recursive: true, force: true });
  const card = office.getByTestId('video-card').filter({ hasText: title });
  await expect(card.getByTestId('video-status')).toHaveText('Ready', { timeout: 30_000 });
  await shootAll(office, 'video-list', () => expect(card.getByTestId('video-status')).toBeVisible());
  expect(errors).toEqual([]);
});
