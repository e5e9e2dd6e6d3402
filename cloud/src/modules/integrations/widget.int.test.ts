import { describe, expect, it } from 'vitest';
import { createStudioScenario } from '../../../../tests/support/factories';
import { useTestApp } from '../../../../tests/support/test-app';

/**
 * The widget's server side (issue 24): the loader script any site may include, the widget page that
 * any site may frame (and only it), and its timetable by GET (no CSRF token in a third-party frame).
 */
// The pages' HTML comes from the web build, which CI makes only later (for Playwright): a shell stands in.
const app = useTestApp({
  web: {
    html: async (name) =>
      `<!doctype html><html lang="en"><head><!--page-context--><title>${name}</title></head><body></body></html>`,
  },
});

describe('the embeddable widget', () => {
  it('serves widget.js, lets any site frame /{uuid}/widget/me only, answers the timetable by GET', async () => {
    const s = await createStudioScenario(app.knex);
    const script = await fetch(`${app.url}/widget.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(script.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const js = await script.text();
    expect(js).toContain("'/widget/me'");
    expect(js).toContain('studio-widget:height');
    // The script checks who sends the height: its own frame, from the cloud's origin.
    expect(js).toContain('event.origin !== origin || event.source !== frame.contentWindow');

    const widget = await fetch(`${app.url}/${s.studio.id}/widget/me`);
    expect(widget.status).toBe(200);
    expect(widget.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(widget.headers.get('x-frame-options')).toBeNull();
    const frontOffice = await fetch(`${app.url}/${s.studio.id}/frontoffice`);
    expect(frontOffice.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(frontOffice.headers.get('x-frame-options')).toBe('SAMEORIGIN');

    const path = `/api/v4/${s.studio.id}/widget/timetable`;
    // A GET with no cookie, no CSRF token, no session: what a framed page on another site can send.
    const ok = await fetch(`${app.url}${path}?from=2026-06-01&to=2026-06-07`);
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { timeZone: string; from: string; items: unknown[] };
    expect(body).toMatchObject({ timeZone: s.studio.timeZone, from: '2026-06-01', items: [] });
    const bad = await fetch(`${app.url}${path}?from=June&to=2026-06-07`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { fields: object } }).error.fields).toHaveProperty(['query.from']);
    const tooLong = await fetch(`${app.url}${path}?from=2026-01-01&to=2026-12-31`);
    expect(tooLong.status).toBe(400);
    const unknown = await fetch(
      `${app.url}/api/v4/00000000-0000-4000-8000-000000000000/widget/timetable?from=2026-06-01&to=2026-06-07`,
    );
    expect(unknown.status).toBe(404);
  });
});
