import { describe, expect, it } from 'vitest';
import { createStudioScenario } from '../../../../tests/support/factories';
import { studioSessions } from '../../../../tests/support/sessions';
import { useTestApp } from '../../../../tests/support/test-app';

/**
 * Issue 25, agreements: staff publish versions of the terms, privacy notice and marketing consent;
 * a client answers each current version once and a new version is asked again; the record of who
 * answered what and when exports as CSV. Every route's 401/400/403/404 and another studio.
 */
const app = useTestApp();
const { staffWithRole } = studioSessions(() => app);
const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;
const TERMS = {
  kind: 'terms',
  required: true,
  title: { en: 'Terms of use', pl: 'Regulamin' },
  content: { en: 'Be kind.', pl: 'Bądź miły.' },
};

describe('studio agreements', () => {
  it('publishes versions, asks clients again on a change, exports the answers', async () => {
    const s = await createStudioScenario(app.knex);
    const owner = await app.signedIn(s.manager.email, s.manager.password);
    const client = await app.signedIn(s.client.email, s.client.password);
    const other = await createStudioScenario(app.knex);
    const otherOwner = await app.signedIn(other.manager.email, other.manager.password);
    const anonymous = await app.anonymous();
    const desk = await staffWithRole(s.studio, 'front_desk');

    expect((await anonymous.post(api(s.studio, 'studio-agreement'), TERMS)).status).toBe(401);
    expect((await desk.post(api(s.studio, 'studio-agreement'), TERMS)).status).toBe(403);
    expect((await otherOwner.post(api(s.studio, 'studio-agreement'), TERMS)).status).toBe(404);
    expect((await client.post(api(s.studio, 'studio-agreement'), TERMS)).status).toBe(403);
    const bad = await owner.post(api(s.studio, 'studio-agreement'), { ...TERMS, kind: 'cookies', title: {} });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['kind', 'title']);

    const v1 = await owner.post(api(s.studio, 'studio-agreement'), TERMS);
    expect(v1.status, v1.text).toBe(201);
    expect(v1.body).toMatchObject({ kind: 'terms', version: 1, current: true, accepted: 0 });
    const marketing = await owner.post(api(s.studio, 'studio-agreement'), {
      kind: 'marketing',
      required: false,
      title: { pl: 'Zgoda marketingowa' },
      content: { pl: 'Newsletter raz w miesiącu.' },
    });
    expect(marketing.status).toBe(201);

    // The client is asked both, in their language (falling back to the studio's).
    const pending = await client.get(api(s.studio, 'studio-agreement/pending'), {
      headers: { cookie: 'locale=en' },
    });
    expect(pending.status, pending.text).toBe(200);
    expect(pending.body.items.map((p: { title: string }) => p.title)).toEqual([
      'Zgoda marketingowa',
      'Terms of use',
    ]);
    expect((await anonymous.get(api(s.studio, 'studio-agreement/pending'))).status).toBe(401);
    expect((await owner.get(api(s.studio, 'studio-agreement/pending'))).status).toBe(403);

    // A required one refused: 400, nothing recorded; an unknown id too.
    const refused = await client.post(api(s.studio, 'studio-agreement/accept'), {
      answers: [{ id: v1.body.id, accepted: false }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fields['answers.0.accepted']).toBeDefined();
    const foreign = await client.post(api(s.studio, 'studio-agreement/accept'), {
      answers: [{ id: crypto.randomUUID(), accepted: true }],
    });
    expect(foreign.status).toBe(400);
    const answered = await client.post(api(s.studio, 'studio-agreement/accept'), {
      answers: [
        { id: v1.body.id, accepted: true },
        { id: marketing.body.id, accepted: false },
      ],
    });
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body.items).toEqual([]);

    // A new version of the terms: asked again, marked as a change; the old record stays.
    const v2 = await owner.post(api(s.studio, 'studio-agreement'), {
      ...TERMS,
      content: { en: 'Be kind and on time.', pl: 'Bądź miły i punktualny.' },
    });
    expect(v2.body.version).toBe(2);
    const again = await client.get(api(s.studio, 'studio-agreement/pending'));
    expect(again.body.items).toEqual([
      expect.objectContaining({ id: v2.body.id, version: 2, changed: true }),
    ]);
    await client.post(api(s.studio, 'studio-agreement/accept'), {
      answers: [{ id: v2.body.id, accepted: true }],
    });

    const all = await owner.get(api(s.studio, 'studio-agreement/all'));
    expect(all.status).toBe(200);
    expect(
      all.body.items.map((v: { kind: string; version: number; current: boolean; accepted: number }) => [
        v.kind,
        v.version,
        v.current,
        v.accepted,
      ]),
    ).toEqual([
      ['marketing', 1, true, 0],
      ['terms', 2, true, 1],
      ['terms', 1, false, 1],
    ]);
    expect((await desk.get(api(s.studio, 'studio-agreement/all'))).status).toBe(403);
    expect((await otherOwner.get(api(s.studio, 'studio-agreement/all'))).status).toBe(404);
    expect((await otherOwner.get(api(other.studio, 'studio-agreement/all'))).body.items).toEqual([]);

    const csv = await owner.get(api(s.studio, 'studio-agreement/acceptances.csv'));
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('first_name,last_name,email,agreement,version,accepted,decided_at');
    expect(lines.slice(1).map((l) => l.split(',').slice(2, 6).join(','))).toEqual([
      `${s.client.email},terms,1,yes`,
      `${s.client.email},marketing,1,no`,
      `${s.client.email},terms,2,yes`,
    ]);
    expect((await desk.get(api(s.studio, 'studio-agreement/acceptances.csv'))).status).toBe(403);
    expect((await anonymous.get(api(s.studio, 'studio-agreement/acceptances.csv'))).status).toBe(401);
  });
});
