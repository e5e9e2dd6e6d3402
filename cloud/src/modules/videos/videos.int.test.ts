import { v7 as uuidv7 } from 'uuid';
import { beforeAll, describe, expect, it } from 'vitest';
import { createStudioScenario } from '../../../../tests/support/factories';
import type { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { bookingStudio, sessionClient } from '../bookings/bookings-fixtures';
import { topUpDirect } from '../sales/sales-support';
import { fileStorage } from '../../storage/index';
import { sweepAbandonedUploads } from './videos.service';
import { makeTestVideo, tusCreate, tusOffset, tusPatch, tusPatchInterrupted } from './testing/video-fixtures';

/**
 * Video courses (issue 22): a real few-second video made by ffmpeg, uploaded with tus across a
 * dropped connection, transcoded by the job into HLS renditions and a thumbnail, watched through
 * signed expiring links (another client's link 403, another studio's 404, an expired one 403), the
 * watch metric and what staff see of it; a broken file fails with its reason and can be retried;
 * every route's 401/400/403/404.
 */
const NOW = new Date('2026-11-23T16:30:00Z');
const clock = new ManualClock(NOW);
const app = useTestApp({ clock }, 30_000);
const v4 = (studioId: string, p: string) => `/api/v4/${studioId}/${p}`;
const lt = (en: string, pl = en) => ({ en: { value: en }, pl: { value: pl } });

let bars: Buffer;
beforeAll(() => {
  bars = makeTestVideo();
});

async function videoStudio() {
  clock.set(NOW);
  const s = await bookingStudio(app, new Date('2026-11-30T17:00:00Z'));
  const owner = await app.signedIn(s.manager.email, s.manager.password);
  const optionId = uuidv7();
  await app.knex('pricing_options').insert({
    id: optionId,
    studioId: s.studio.id,
    name: JSON.stringify(lt('Online courses', 'Kursy online')),
    price: 4900,
    entries: null,
    serviceTypes: JSON.stringify(['videoPricingOption']),
  });
  const viewer = async (withPass = true) => {
    const { user } = await s.addClient(false, 'Viewer');
    if (withPass)
      await app.knex('client_pricing_options').insert({
        id: uuidv7(),
        studioId: s.studio.id,
        clientId: user.id,
        pricingOptionId: optionId,
        soldAt: new Date('2026-11-01T10:00:00Z'),
        entries: null,
        expirationType: 2,
      });
    return { user, http: await sessionClient(app, user.id) };
  };
  /** A video with its file uploaded in one go (tus), not yet transcoded. */
  const uploaded = async (file: Buffer, title = 'Sun salutation') => {
    const made = await owner.post(v4(s.studio.id, 'video'), {
      title,
      fileName: 'bars.mp4',
      sizeBytes: file.length,
    });
    expect(made.status, made.text).toBe(201);
    const created = await tusCreate(app.url, owner, made.body.uploadUrl, made.body.id, file.length);
    expect(created.status, created.text).toBe(201);
    const done = await tusPatch(app.url, owner, created.location!, 0, file);
    expect(done.status, done.text).toBe(204);
    return made.body.id as string;
  };
  return { ...s, owner, viewer, uploaded };
}

async function course(owner: HttpClient, studioId: string, videoId: string, slug = 'morning-yoga') {
  const res = await owner.post(v4(studioId, 'video-service'), {
    name: lt('Morning yoga', 'Poranna joga'),
    slug,
    events: [{ videoId, name: lt('Lesson 1', 'Lekcja 1') }],
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; events: Array<{ id: string }> };
}

describe('videos', () => {
  it('uploads with tus across a dropped connection, transcodes to HLS and plays through signed links', async () => {
    const s = await videoStudio();
    const made = await s.owner.post(v4(s.studio.id, 'video'), {
      title: 'Sun salutation',
      fileName: 'bars.mp4',
      sizeBytes: bars.length,
    });
    expect(made.body).toMatchObject({ status: 'init', uploadUrl: `/api/v4/${s.studio.id}/video/upload` });
    const created = await tusCreate(app.url, s.owner, made.body.uploadUrl, made.body.id, bars.length);
    expect(created.status, created.text).toBe(201);
    expect(created.location).toBe(`/api/v4/${s.studio.id}/video/upload/${made.body.id}`);
    expect((await s.owner.get(v4(s.studio.id, `video/${made.body.id}`))).body.status).toBe('uploading');

    // The connection drops after 60 % of the file: the server kept what arrived; the rest resumes there.
    await tusPatchInterrupted(app.url, s.owner, created.location!, 0, bars, Math.floor(bars.length * 0.6));
    const offset = await tusOffset(app.url, s.owner, created.location!);
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(bars.length);
    const rest = await tusPatch(app.url, s.owner, created.location!, offset, bars.subarray(offset));
    expect(rest.status, rest.text).toBe(204);
    expect(rest.offset).toBe(bars.length);
    expect((await s.owner.get(v4(s.studio.id, `video/${made.body.id}`))).body.status).toBe('transcoding');

    expect(await app.drainJobs()).toBeGreaterThanOrEqual(1);
    const video = await s.owner.get(v4(s.studio.id, `video/${made.body.id}`));
    expect(video.body).toMatchObject({
      status: 'available',
      failureReason: null,
      uploadUrl: null,
      renditions: [
        { name: '240p', width: 320, height: 240 },
        { name: '144p', width: 192, height: 144 },
      ],
    });
    expect(video.body.durationSeconds).toBeGreaterThan(1.5);
    const thumb = await s.owner.get(video.body.thumbnailUrl);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');

    const c = await course(s.owner, s.studio.id, made.body.id);
    const lesson = c.events[0]!.id;
    const { user, http } = await s.viewer();
    const courses = await http.get(v4(s.studio.id, 'video-courses'));
    expect(courses.body.items).toEqual([
      expect.objectContaining({ slug: 'morning-yoga', access: { granted: true, via: 'pass', reason: null } }),
    ]);
    const watch = await http.get(v4(s.studio.id, `video-course/${lesson}/watch`));
    expect(watch.status, watch.text).toBe(200);
    expect(watch.body.expiresAt).toBe(new Date(NOW.getTime() + 4 * 3600_000).toISOString());
    const master = await http.get(watch.body.playlistUrl);
    expect(master.status).toBe(200);
    expect(master.text).toContain('#EXT-X-STREAM-INF:BANDWIDTH=');
    expect(master.text).toContain('240p/index.m3u8');
    const base = watch.body.playlistUrl.replace(/master\.m3u8$/, '');
    const playlist = await http.get(`${base}240p/index.m3u8`);
    expect(playlist.text).toContain('#EXT-X-ENDLIST');
    const segment = playlist.text.split('\n').find((l: string) => l.endsWith('.ts'))!;
    const bytes = await fetch(app.url + base + '240p/' + segment, { headers: http.headers() });
    expect(bytes.status).toBe(200);
    expect(new Uint8Array(await bytes.arrayBuffer())[0]).toBe(0x47); // MPEG-TS sync byte

    // Another client of the studio with the same link: 403; a tampered link: 403; another studio: 404.
    const other = await s.viewer();
    expect((await other.http.get(watch.body.playlistUrl)).status).toBe(403);
    const tampered = watch.body.playlistUrl.replace(
      /\.([A-Za-z0-9_-])/,
      (_: string, ch: string) => `.${ch === 'A' ? 'B' : 'A'}`,
    );
    expect((await http.get(tampered)).status).toBe(403);
    const foreign = await createStudioScenario(app.knex);
    const foreignClient = await app.signedIn(foreign.client.email, foreign.client.password);
    expect((await foreignClient.get(watch.body.playlistUrl)).status).toBe(404);

    // Watch metrics, then staff see them.
    const metric = await http.post(v4(s.studio.id, `client-video/${watch.body.clientVideoId}/metric`), {
      positionSeconds: 1.9,
      watchedSeconds: 1.9,
    });
    expect(metric.status, metric.text).toBe(200);
    expect(metric.body.progress).toBeGreaterThan(0.9);
    expect(metric.body.completedAt).toBe(NOW.toISOString());
    expect(
      (
        await other.http.post(v4(s.studio.id, `client-video/${watch.body.clientVideoId}/metric`), {
          positionSeconds: 1,
          watchedSeconds: 1,
        })
      ).status,
    ).toBe(404);
    const events = await s.owner.get(v4(s.studio.id, `video-event/collection?videoServiceId=${c.id}`));
    expect(events.body.items[0].stats).toEqual({
      clients: 1,
      averageProgress: metric.body.progress,
      completed: 1,
    });
    const theirs = await s.owner.get(v4(s.studio.id, `client/${user.id}/client-video/collection`));
    expect(theirs.body.items).toEqual([
      expect.objectContaining({
        id: watch.body.clientVideoId,
        access: 'pass',
        progress: metric.body.progress,
      }),
    ]);

    // The link expires after 4 hours.
    clock.set(new Date(NOW.getTime() + 4 * 3600_000 + 1000));
    const expired = await http.get(`${base}240p/index.m3u8`);
    expect(expired.status).toBe(403);
    expect(expired.body.error).toMatchObject({ code: 2872, key: 'video.linkExpired' });
  });

  it('fails a file that is no video with the reason, and retries it', async () => {
    const s = await videoStudio();
    const id = await s.uploaded(Buffer.from('this is not a video at all'.repeat(40)), 'Broken');
    await app.drainJobs();
    const failed = await s.owner.get(v4(s.studio.id, `video/${id}`));
    expect(failed.body).toMatchObject({
      status: 'failed',
      failureReason: 'the file is not a video ffmpeg can read',
    });
    const retried = await s.owner.post(v4(s.studio.id, `video/${id}/retry`));
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body).toMatchObject({ status: 'transcoding', failureReason: null });
    expect((await s.owner.post(v4(s.studio.id, `video/${id}/retry`))).body.error.key).toBe(
      'video.notRetryable',
    );
    await app.drainJobs();
    expect((await s.owner.get(v4(s.studio.id, `video/${id}`))).body.status).toBe('failed');

    // A lesson whose video is not available cannot be watched; a client without a pass has no access.
    const c = await course(s.owner, s.studio.id, id, 'broken');
    const { http } = await s.viewer();
    const notReady = await http.get(v4(s.studio.id, `video-course/${c.events[0]!.id}/watch`));
    expect(notReady.body.error).toMatchObject({ code: 2870, key: 'video.notAvailable' });
    const noPass = await s.viewer(false);
    const course1 = await noPass.http.get(v4(s.studio.id, 'video-course/broken'));
    expect(course1.body.access).toEqual({ granted: false, via: null, reason: 'noPasses' });
    const book = await noPass.http.post(v4(s.studio.id, 'booking/video/book'), {
      videoEventId: c.events[0]!.id,
    });
    expect(book.status).toBe(403);
    expect(book.body.error.key).toBe('video.noAccess');
  });

  it('sells a course one-off through the cart: paid from the wallet, the course opens for good', async () => {
    const s = await videoStudio();
    const made = await s.owner.post(v4(s.studio.id, 'video'), {
      title: 'L1',
      fileName: 'l1.mp4',
      sizeBytes: 10,
    });
    await app.knex('videos').where({ id: made.body.id }).update({ status: 'available', durationSeconds: 8 });
    const c = await course(s.owner, s.studio.id, made.body.id, 'pilates-at-home');
    const lesson = c.events[0]!.id;
    const { user, http } = await s.viewer(false);
    const before = await http.get(v4(s.studio.id, 'video-course/pilates-at-home'));
    expect(before.body).toMatchObject({ price: null, access: { granted: false, via: null } });
    // Not for sale yet: in the cart it is unavailable.
    const notForSale = await http.post(v4(s.studio.id, 'shopping-cart/prepare'), {
      items: [{ type: 'videoService', id: c.id }],
    });
    expect(notForSale.body.items[0]).toMatchObject({ problem: 'cart.problem.unavailable' });
    expect(
      (await s.owner.patch(v4(s.studio.id, `video-service/${c.id}`), { price: -1 })).body.error.fields,
    ).toHaveProperty('price');
    const priced = await s.owner.patch(v4(s.studio.id, `video-service/${c.id}`), {
      price: 7900,
      vatRate: '800',
    });
    expect(priced.body).toMatchObject({ price: 7900, vatRate: '800' });
    expect((await http.get(v4(s.studio.id, 'video-course/pilates-at-home'))).body.price).toBe(7900);
    expect((await http.get(v4(s.studio.id, `video-course/${lesson}/watch`))).status).toBe(403);

    await topUpDirect(app, s.studio, user.id, 10_000);
    const cart = await http.post(v4(s.studio.id, 'shopping-cart/prepare'), {
      items: [{ type: 'videoService', id: c.id }],
    });
    expect(cart.body).toMatchObject({
      items: [{ type: 'videoService', id: c.id, name: 'Poranna joga', unitPrice: 7900, problem: null }],
      total: 7900,
    });
    expect(cart.body.paymentMethods).toContain('wallet');
    const paid = await http.post(
      v4(s.studio.id, 'shopping-cart/checkout'),
      { paymentMethod: 'wallet' },
      { headers: { 'idempotency-key': `video-${uuidv7()}` } },
    );
    expect(paid.status, paid.text).toBe(201);
    const line = await app.knex('client_order_lines').where({ orderId: paid.body.orderId }).first();
    expect(line).toMatchObject({ kind: 'video', refId: c.id, unitPrice: 7900, vatRate: '800' });
    expect(await app.knex('client_video_purchases').where({ clientId: user.id })).toEqual([
      expect.objectContaining({ videoServiceId: c.id, orderId: paid.body.orderId, price: 7900 }),
    ]);
    const after = await http.get(v4(s.studio.id, 'video-course/pilates-at-home'));
    expect(after.body.access).toEqual({ granted: true, via: 'purchase', reason: null });
    const watch = await http.get(v4(s.studio.id, `video-course/${lesson}/watch`));
    expect(watch.status, watch.text).toBe(200);
    const mine = await s.owner.get(v4(s.studio.id, `client/${user.id}/client-video/collection`));
    expect(mine.body.items).toEqual([expect.objectContaining({ videoEventId: lesson, access: 'purchase' })]);
    // Bought already: a second purchase is refused at checkout.
    const again = await http.post(v4(s.studio.id, 'shopping-cart/prepare'), {
      items: [{ type: 'videoService', id: c.id }],
    });
    expect(again.body.items[0].problem).toBe('cart.problem.unavailable');
    // Another client has not bought it.
    const other = await s.viewer(false);
    expect((await other.http.get(v4(s.studio.id, `video-course/${lesson}/watch`))).status).toBe(403);
  });

  it('deletes videos and courses with their files after the commit; sweeps an upload abandoned for a day', async () => {
    const s = await videoStudio();
    const storage = fileStorage(app.deps.config);
    const id = await s.uploaded(bars);
    expect(await app.drainJobs()).toBeGreaterThanOrEqual(1);
    const keys = {
      original: `videos/${s.studio.id}/${id}/original`,
      master: `videos/${s.studio.id}/${id}/hls/master.m3u8`,
    };
    expect(await storage.read(keys.master)).not.toBeNull();
    const c = await course(s.owner, s.studio.id, id, 'to-delete');
    // Used by a course: refused until the course goes.
    const inUse = await s.owner.delete(v4(s.studio.id, `video/${id}`));
    expect(inUse.status).toBe(409);
    expect(inUse.body.error.key).toBe('video.inUse');
    // A course clients bought is not deleted (their access would go).
    await app.knex('video_services').where({ id: c.id }).update({ price: 100 });
    const { user } = await s.viewer(false);
    await app.knex('client_video_purchases').insert({
      id: uuidv7(),
      studioId: s.studio.id,
      clientId: user.id,
      videoServiceId: c.id,
      price: 100,
    });
    const bought = await s.owner.delete(v4(s.studio.id, `video-service/${c.id}?withVideos=true`));
    expect(bought.status).toBe(409);
    expect(bought.body.error).toMatchObject({ key: 'video.coursePurchased', code: 3032 });
    await app.knex('client_video_purchases').where({ videoServiceId: c.id }).delete();

    const gone = await s.owner.delete(v4(s.studio.id, `video-service/${c.id}?withVideos=true`));
    expect(gone.status, gone.text).toBe(204);
    expect(await app.knex('video_services').where({ id: c.id })).toEqual([]);
    expect(await app.knex('videos').where({ id })).toEqual([]);
    // The files go after the commit, through the job pipeline.
    expect(await storage.read(keys.original)).not.toBeNull();
    expect(await app.drainJobs()).toBe(1);
    expect(await storage.read(keys.original)).toBeNull();
    expect(await storage.read(keys.master)).toBeNull();
    expect((await s.owner.get(v4(s.studio.id, `video/${id}`))).status).toBe(404);

    // An upload cut off and left: after a day without a PATCH the sweep deletes the partial file and
    // the video waits for its file again (its tus upload is gone: the client starts it anew).
    const made = await s.owner.post(v4(s.studio.id, 'video'), {
      title: 'Left',
      fileName: 'x.mp4',
      sizeBytes: bars.length,
    });
    const created = await tusCreate(app.url, s.owner, made.body.uploadUrl, made.body.id, bars.length);
    await tusPatch(app.url, s.owner, created.location!, 0, bars.subarray(0, 1000));
    expect(await storage.read(`video-uploads/${made.body.id}`)).not.toBeNull();
    // The sweep covers every studio: this video's state is what the test reads.
    await sweepAbandonedUploads(app.knex, new Date(NOW.getTime() + 3_600_000));
    expect((await s.owner.get(v4(s.studio.id, `video/${made.body.id}`))).body.status).toBe('uploading');
    expect(
      await sweepAbandonedUploads(app.knex, new Date(NOW.getTime() + 25 * 3_600_000)),
    ).toBeGreaterThanOrEqual(1);
    expect((await s.owner.get(v4(s.studio.id, `video/${made.body.id}`))).body.status).toBe('init');
    expect(await app.drainJobs()).toBe(1);
    expect(await storage.read(`video-uploads/${made.body.id}`)).toBeNull();
    expect(await storage.read(`video-uploads/${made.body.id}.json`)).toBeNull();
    expect(await tusOffset(app.url, s.owner, created.location!)).toBe(0);
    // The upload starts again from the beginning and completes.
    const again = await tusCreate(app.url, s.owner, made.body.uploadUrl, made.body.id, bars.length);
    expect(again.status, again.text).toBe(201);
    expect((await tusPatch(app.url, s.owner, again.location!, 0, bars)).status).toBe(204);
    // A video being transcoded is not deleted under the job's feet.
    const busy = await s.owner.delete(v4(s.studio.id, `video/${made.body.id}`));
    expect(busy.body.error).toMatchObject({ key: 'video.transcoding', code: 3031 });
  });

  it('refuses the signed out (401), the wrong role (403), bad input (400), other studios (404)', async () => {
    const s = await videoStudio();
    const anon = await app.anonymous();
    const desk = await sessionClient(app, (await s.addStaff('front_desk')).id);
    const { http: client } = await s.viewer();
    const video = (
      await s.owner.post(v4(s.studio.id, 'video'), { title: 'T', fileName: 'a.mp4', sizeBytes: 10 })
    ).body;
    const c = await course(s.owner, s.studio.id, video.id);
    const cv = uuidv7();
    const sig = `${Math.floor(NOW.getTime() / 1000) + 100}.${'A'.repeat(43)}`;
    const staffRoutes: Array<[string, string, unknown?]> = [
      ['GET', 'video/collection'],
      ['POST', 'video', { title: 'X', fileName: 'x.mp4', sizeBytes: 5 }],
      ['GET', `video/${video.id}`],
      ['POST', `video/${video.id}/retry`],
      ['GET', 'video-service/init'],
      ['GET', 'video-service/collection'],
      ['GET', `video-service/${c.id}`],
      ['POST', 'video-service', { name: lt('A'), slug: 'a' }],
      ['PATCH', `video-service/${c.id}`, { published: false }],
      ['GET', `video-event/collection?videoServiceId=${c.id}`],
      ['DELETE', `video/${video.id}`],
      ['DELETE', `video-service/${c.id}`],
    ];
    const clientRoutes: Array<[string, string, unknown?]> = [
      ['GET', 'video-courses'],
      ['GET', 'video-course/morning-yoga'],
      ['POST', 'booking/video/book', { videoEventId: c.events[0]!.id }],
      ['GET', `video-course/${c.events[0]!.id}/watch`],
      ['POST', `client-video/${cv}/metric`, { positionSeconds: 1, watchedSeconds: 1 }],
      ['GET', `video-stream/${cv}/${sig}/master.m3u8`],
      ['GET', `video-stream/${cv}/${sig}/240p/index.m3u8`],
      ['GET', `video-stream/${cv}/${sig}/240p/seg_000.ts`],
    ];
    for (const [method, path, body] of [
      ...staffRoutes,
      ...clientRoutes,
      ['GET', `video/${video.id}/thumbnail.jpg`] as [string, string],
    ])
      expect((await anon.request(method, v4(s.studio.id, path), body)).status, `${method} ${path}`).toBe(401);
    for (const [method, path, body] of staffRoutes)
      expect((await client.request(method, v4(s.studio.id, path), body)).status, `${method} ${path}`).toBe(
        403,
      );
    for (const [method, path, body] of clientRoutes)
      expect((await s.owner.request(method, v4(s.studio.id, path), body)).status, `${method} ${path}`).toBe(
        403,
      );
    expect(
      (await desk.post(v4(s.studio.id, 'video'), { title: 'X', fileName: 'x.mp4', sizeBytes: 5 })).status,
    ).toBe(403);
    expect((await desk.get(v4(s.studio.id, 'video/collection'))).status).toBe(403);
    const tusByDesk = await tusCreate(app.url, desk, `/api/v4/${s.studio.id}/video/upload`, video.id, 10);
    expect(tusByDesk.status).toBe(403);
    expect((await tusCreate(app.url, anon, `/api/v4/${s.studio.id}/video/upload`, video.id, 10)).status).toBe(
      401,
    );
    expect(
      (await tusCreate(app.url, s.owner, `/api/v4/${s.studio.id}/video/upload`, video.id, 11)).status,
    ).toBe(400);

    const bad = await s.owner.post(v4(s.studio.id, 'video-service'), {
      name: lt(''),
      slug: 'Not A Slug',
      events: [{ videoId: 'x' }],
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual([
      'events.0.name',
      'events.0.videoId',
      'name',
      'slug',
    ]);
    expect(
      (await s.owner.post(v4(s.studio.id, 'video'), { title: '', fileName: 'x', sizeBytes: 0 })).status,
    ).toBe(400);
    expect(
      (await client.post(v4(s.studio.id, `client-video/${cv}/metric`), { positionSeconds: -1 })).status,
    ).toBe(400);
    expect((await client.get(v4(s.studio.id, `video-stream/${cv}/nonsense/master.m3u8`))).status).toBe(400);
    const taken = await s.owner.post(v4(s.studio.id, 'video-service'), {
      name: lt('Again'),
      slug: 'morning-yoga',
    });
    expect(taken.body.error).toMatchObject({ code: 2876, key: 'video.slugTaken' });
    expect((await s.owner.delete(v4(s.studio.id, `video-service/${c.id}?withVideos=maybe`))).status).toBe(
      400,
    );
    expect((await s.owner.delete(v4(s.studio.id, 'video/not-a-uuid'))).status).toBe(404);
    const unknownVideo = await s.owner.post(v4(s.studio.id, 'video-service'), {
      name: lt('U'),
      slug: 'u',
      events: [{ videoId: uuidv7(), name: lt('L') }],
    });
    expect(unknownVideo.body.error.fields).toEqual({ 'events.0.videoId': ['unknown video'] });

    await expectHiddenFromOtherStudio(app, { method: 'GET', path: v4(s.studio.id, `video/${video.id}`) });
    await expectHiddenFromOtherStudio(app, {
      method: 'PATCH',
      path: v4(s.studio.id, `video-service/${c.id}`),
      body: { published: false },
    });
    await expectHiddenFromOtherStudio(app, {
      method: 'GET',
      path: v4(s.studio.id, `video-event/collection?videoServiceId=${c.id}`),
    });
    // This studio's path with another studio's ids: unknown here.
    const other = await videoStudio();
    const otherVideo = (
      await other.owner.post(v4(other.studio.id, 'video'), { title: 'T', fileName: 'a.mp4', sizeBytes: 10 })
    ).body;
    expect((await s.owner.get(v4(s.studio.id, `video/${otherVideo.id}`))).status).toBe(404);
    expect((await s.owner.post(v4(s.studio.id, `video/${otherVideo.id}/retry`))).status).toBe(404);
    expect((await s.owner.delete(v4(s.studio.id, `video/${otherVideo.id}`))).status).toBe(404);
    expect(await app.knex('videos').where({ id: otherVideo.id })).toHaveLength(1);
    await expectHiddenFromOtherStudio(app, {
      method: 'DELETE',
      path: v4(s.studio.id, `video-service/${c.id}`),
    });
    expect(await app.knex('video_services').where({ id: c.id })).toHaveLength(1);
    expect(
      (await tusCreate(app.url, s.owner, `/api/v4/${s.studio.id}/video/upload`, otherVideo.id, 10)).status,
    ).toBe(404);
    expect(
      (await client.post(v4(s.studio.id, 'booking/video/book'), { videoEventId: uuidv7() })).status,
    ).toBe(404);
    expect(
      (await client.get(v4(s.studio.id, `client/${other.client.id}/client-video/collection`))).status,
    ).toBe(403);
    expect(
      (await s.owner.get(v4(s.studio.id, `client/${other.client.id}/client-video/collection`))).status,
    ).toBe(404);
    expect(
      (await s.owner.get(v4(s.studio.id, `client/${s.client.id}/client-video/collection`))).body.items,
    ).toEqual([]);
  });
});
