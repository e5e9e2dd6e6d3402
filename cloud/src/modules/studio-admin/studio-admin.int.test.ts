import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { studioSessions } from '../../../../tests/support/sessions';
import { useTestApp } from '../../../../tests/support/test-app';

/**
 * Issue 25, studio administration: the studio's profile (PATCH studio), booking defaults and
 * colours (PATCH settings), logo and cover (studio-appearance), each route's 401/400/403/404,
 * another studio's staff, and the public appearance the front office and kiosk read.
 */
const app = useTestApp();
const { ownerStudio, staffWithRole } = studioSessions(() => app);
const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;

async function pngDataUrl(width: number, height: number): Promise<string> {
  const png = await sharp({ create: { width, height, channels: 3, background: '#1f8a70' } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

describe('studio administration', () => {
  it('reads and changes the profile, policies and colours; guards every route', async () => {
    const { studio, owner } = await ownerStudio();
    const other = await ownerStudio();
    const anonymous = await app.anonymous();
    const desk = await staffWithRole(studio, 'front_desk');

    const read = await owner.get(api(studio, 'studio'));
    expect(read.status, read.text).toBe(200);
    expect(read.body.profile).toMatchObject({ uuid: studio.id, name: studio.name });
    expect(read.body.policies).toEqual({
      bookingWindowDays: 30,
      cancellationCutoffMinutes: 720,
      bookingCutoffMinutes: 0,
    });

    // 401, 403 (no settings ability), 404 (another studio's staff: not a member here).
    expect((await anonymous.get(api(studio, 'studio'))).status).toBe(401);
    expect((await desk.get(api(studio, 'studio'))).status).toBe(403);
    expect((await desk.patch(api(studio, 'studio'), { name: 'X' })).status).toBe(403);
    expect((await other.owner.get(api(studio, 'studio'))).status).toBe(404);
    expect((await other.owner.patch(api(studio, 'settings'), { bookingWindowDays: 5 })).status).toBe(404);

    // 400 with field errors.
    const bad = await owner.patch(api(studio, 'studio'), {
      taxId: '1234567890',
      timeZone: 'Mars/Olympus',
      slug: 'a b',
      currency: 'XXX',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['currency', 'slug', 'taxId', 'timeZone']);

    const patched = await owner.patch(api(studio, 'studio'), {
      name: 'Studio Nowe',
      legalName: 'Studio Nowe sp. z o.o.',
      taxId: '526-025-02-74',
      email: 'Kontakt@Studio.example',
      phone: '+48 600 100 200',
      timeZone: 'Europe/Warsaw',
      currency: 'PLN',
      defaultLocale: 'pl',
      slug: `nowe-${studio.id.slice(0, 8)}`,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.profile).toMatchObject({
      name: 'Studio Nowe',
      legalName: 'Studio Nowe sp. z o.o.',
      email: 'kontakt@studio.example',
      defaultLocale: 'pl',
    });
    // Another studio's address is refused.
    const taken = await other.owner.patch(api(other.studio, 'studio'), { slug: patched.body.profile.slug });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ key: 'studio.slugTaken', code: 1401 });

    const settings = await owner.patch(api(studio, 'settings'), {
      bookingWindowDays: 14,
      cancellationCutoffMinutes: 240,
      primaryColor: '#AA3366',
    });
    expect(settings.status, settings.text).toBe(200);
    expect(settings.body.policies).toMatchObject({ bookingWindowDays: 14, cancellationCutoffMinutes: 240 });
    expect(settings.body.appearance.primaryColor).toBe('#aa3366');
    expect((await owner.patch(api(studio, 'settings'), { bookingWindowDays: 0 })).status).toBe(400);
    expect((await owner.patch(api(studio, 'settings'), { primaryColor: 'red' })).status).toBe(400);
    // The other studio is untouched.
    const untouched = await other.owner.get(api(other.studio, 'studio'));
    expect(untouched.body.policies.bookingWindowDays).toBe(30);
    expect(untouched.body.appearance.primaryColor).toBeNull();

    // The public appearance: anyone, 404 for an unknown or malformed studio.
    const look = await anonymous.get(api(studio, 'studio-appearance'));
    expect(look.status).toBe(200);
    expect(look.body).toMatchObject({ name: 'Studio Nowe', primaryColor: '#aa3366', logoUrl: null });
    expect((await anonymous.get('/api/v4/not-a-uuid/studio-appearance')).status).toBe(404);
    expect((await anonymous.get(`/api/v4/${crypto.randomUUID()}/studio-appearance`)).status).toBe(404);
  });

  it('uploads a logo (checked, resized, served), replaces and deletes it', async () => {
    const { studio, owner } = await ownerStudio();
    const other = await ownerStudio();
    const anonymous = await app.anonymous();
    const desk = await staffWithRole(studio, 'front_desk');
    const big = await pngDataUrl(1200, 800);

    expect((await anonymous.post(api(studio, 'studio-appearance/logo'), { dataUrl: big })).status).toBe(401);
    expect((await desk.post(api(studio, 'studio-appearance/logo'), { dataUrl: big })).status).toBe(403);
    expect((await other.owner.post(api(studio, 'studio-appearance/logo'), { dataUrl: big })).status).toBe(
      404,
    );
    expect((await owner.post(api(studio, 'studio-appearance/banner'), { dataUrl: big })).status).toBe(400);
    const notImage = await owner.post(api(studio, 'studio-appearance/logo'), {
      dataUrl: `data:image/png;base64,${Buffer.from('<svg onload=alert(1)>').toString('base64')}`,
    });
    expect(notImage.status).toBe(400);
    expect(notImage.body.error.fields.dataUrl).toBeDefined();

    const uploaded = await owner.post(api(studio, 'studio-appearance/logo'), { dataUrl: big });
    expect(uploaded.status, uploaded.text).toBe(200);
    const logoUrl: string = uploaded.body.appearance.logoUrl;
    expect(logoUrl).toMatch(new RegExp(`^/api/v4/${studio.id}/studio-appearance/logo/logo-.+\\.webp$`));
    const image = await fetch(app.url + logoUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 512, 341]);
    // The entry app's lookups read the logo too.
    const row = await app.knex('studios').where({ id: studio.id }).first('logoUrl');
    expect(row?.logoUrl).toContain(logoUrl);

    const cover = await owner.post(api(studio, 'studio-appearance/cover'), { dataUrl: big });
    expect(cover.body.appearance.coverUrl).toMatch(/cover-.+\.webp$/);

    // A new logo replaces the file; the old one is gone.
    const again = await owner.post(api(studio, 'studio-appearance/logo'), {
      dataUrl: await pngDataUrl(64, 64),
    });
    expect(again.body.appearance.logoUrl).not.toBe(logoUrl);
    expect((await anonymous.get(logoUrl, { skipContract: true })).status).toBe(404);

    expect((await desk.delete(api(studio, 'studio-appearance/logo'))).status).toBe(403);
    expect((await other.owner.delete(api(studio, 'studio-appearance/logo'))).status).toBe(404);
    const removed = await owner.delete(api(studio, 'studio-appearance/logo'));
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.appearance.logoUrl).toBeNull();
    expect((await anonymous.get(again.body.appearance.logoUrl, { skipContract: true })).status).toBe(404);
    // Another studio's file name under this studio: 404.
    expect(
      (
        await anonymous.get(
          `/api/v4/${other.studio.id}/studio-appearance/cover/${cover.body.appearance.coverUrl.split('/').pop()}`,
          { skipContract: true },
        )
      ).status,
    ).toBe(404);
  });

  it('uploads and deletes content pictures; a location picture is a real upload', async () => {
    const { studio, owner } = await ownerStudio();
    const other = await ownerStudio();
    const anonymous = await app.anonymous();
    const desk = await staffWithRole(studio, 'front_desk');
    const dataUrl = await pngDataUrl(2400, 1200);

    expect((await anonymous.post(api(studio, 'picture/upload'), { dataUrl })).status).toBe(401);
    expect((await desk.post(api(studio, 'picture/upload'), { dataUrl })).status).toBe(403);
    expect((await other.owner.post(api(studio, 'picture/upload'), { dataUrl })).status).toBe(404);
    expect(
      (await owner.post(api(studio, 'picture/upload'), { dataUrl: 'data:text/html;base64,PGI+' })).status,
    ).toBe(400);
    const uploaded = await owner.post(api(studio, 'picture/upload'), { dataUrl });
    expect(uploaded.status, uploaded.text).toBe(201);
    expect(uploaded.body).toMatchObject({ width: 1600, height: 800 });
    const served = await fetch(app.url + uploaded.body.url);
    expect(served.headers.get('content-type')).toBe('image/webp');

    // Another studio cannot delete it; a malformed id is 404.
    expect((await other.owner.delete(api(other.studio, `picture/${uploaded.body.id}`))).status).toBe(404);
    expect((await owner.delete(api(studio, 'picture/not-an-id'))).status).toBe(404);
    expect((await desk.delete(api(studio, `picture/${uploaded.body.id}`))).status).toBe(403);
    expect((await owner.delete(api(studio, `picture/${uploaded.body.id}`))).status).toBe(204);
    expect((await fetch(app.url + uploaded.body.url)).status).toBe(404);
    expect((await owner.delete(api(studio, `picture/${uploaded.body.id}`))).status).toBe(404);

    // A location's picture from an upload.
    const location = { id: crypto.randomUUID() };
    await app.knex('locations').insert({ id: location.id, studioId: studio.id, name: 'Sala' });
    {
      const set = await owner.post(api(studio, `location/${location.id}/picture`), { dataUrl });
      expect(set.status, set.text).toBe(200);
      expect(set.body.pictureUrl).toMatch(new RegExp(`^/api/v4/${studio.id}/picture/`));
      expect((await fetch(app.url + set.body.pictureUrl)).status).toBe(200);
      const both = await owner.post(api(studio, `location/${location.id}/picture`), {});
      expect(both.status).toBe(400);
      // A new picture replaces the old one, whose file goes.
      const replaced = await owner.post(api(studio, `location/${location.id}/picture`), { dataUrl });
      expect(replaced.body.pictureUrl).not.toBe(set.body.pictureUrl);
      expect((await fetch(app.url + set.body.pictureUrl)).status).toBe(404);
    }
  });

  it('an upload for an unknown location, or another studio, stores no file', async () => {
    const { studio, owner } = await ownerStudio();
    const other = await ownerStudio();
    const dataUrl = await pngDataUrl(64, 64);
    const ownLocation = crypto.randomUUID();
    await app.knex('locations').insert({ id: ownLocation, studioId: studio.id, name: 'Sala' });
    const files = (studioId: string) =>
      readdir(path.join(app.deps.config.dataDir, 'pictures', studioId)).catch(() => [] as string[]);

    const unknown = await owner.post(api(studio, `location/${crypto.randomUUID()}/picture`), { dataUrl });
    expect(unknown.status).toBe(404);
    // Another studio's owner naming this studio's location in their own studio.
    const foreign = await other.owner.post(api(other.studio, `location/${ownLocation}/picture`), { dataUrl });
    expect(foreign.status).toBe(404);
    expect(await files(studio.id)).toEqual([]);
    expect(await files(other.studio.id)).toEqual([]);
  });
});
