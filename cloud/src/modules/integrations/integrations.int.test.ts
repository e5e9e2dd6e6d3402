import http from 'node:http';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import { HttpClient } from '../../../../tests/support/http-client';
import { expectHiddenFromOtherStudio } from '../../../../tests/support/tenancy';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { describeApiRoutes } from '../../app';
import { emitWebhookEvent } from '../../webhooks/emit';
import { configureWebhookNetwork } from './ssrf';
import { WEBHOOK_MAX_ATTEMPTS } from './webhook-delivery';

/**
 * Integrations (issue 24): API keys (issue, scope, rotate, revoke, last use, per-key rate limits),
 * the OpenAPI documents and their viewer, webhooks (Standard Webhooks signatures verified by a
 * loopback receiver, retries, replay, switching off after persistent failure, the SSRF guard).
 */
// Receivers check the signed timestamp against their own clock: the test's clock starts at real time.
const clock = new ManualClock(new Date());
const app = useTestApp({ clock });
const v4 = (s: { id: string }, p: string) => `/api/v4/${s.id}/${p}`;

function publicCall(key: string | null, method: string, path: string, body?: unknown) {
  return new HttpClient(app.url).request(method, `/api/v2/public/${path}`, body, {
    noDefaults: true,
    headers: key ? { 'x-api-key': key } : {},
  });
}

async function studio() {
  const s = await createStudioScenario(app.knex);
  const manager = await app.signedIn(s.manager.email, s.manager.password);
  return { ...s, http: manager };
}

/** A receiver on loopback: records each request; answers the statuses queued, then 200. */
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
const answers: number[] = [];
let receiver: http.Server;
let receiverUrl = '';
beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = answers.shift() ?? 200;
      res.end(res.statusCode < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`;
});
afterAll(async () => {
  configureWebhookNetwork({ allowLoopback: false });
  await new Promise((resolve) => receiver.close(resolve));
});

describe('API keys (studio-api)', () => {
  it('issues keys shown once and stored hashed, scopes them, rotates and revokes them', async () => {
    const s = await studio();
    const created = await s.http.request('PUT', v4(s.studio, 'studio-api'), {
      name: 'Website',
      scope: 'read',
    });
    expect(created.status, created.text).toBe(200);
    const readKey: string = created.body.secret;
    expect(readKey).toMatch(/^sk_live_[A-Za-z0-9_-]{32}$/);
    expect(created.body.key).toMatchObject({
      name: 'Website',
      scope: 'read',
      lastUsedAt: null,
      rateLimitPerMinute: 120,
    });
    expect(readKey.startsWith(created.body.key.prefix)).toBe(true);
    const row = await app.knex('studio_apis').where({ id: created.body.key.id }).first();
    expect(row!.keyHash).not.toContain(readKey);
    expect(JSON.stringify(row)).not.toContain(readKey);

    const list = await s.http.get(v4(s.studio, 'studio-api/all'));
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(readKey);
    expect(list.body.items).toHaveLength(1);

    // A read key reads, with the RateLimit headers; the last use is recorded.
    const read = await publicCall(readKey, 'GET', 'location/all');
    expect(read.status, read.text).toBe(200);
    expect(read.headers.get('ratelimit-limit')).toBe('120');
    expect(read.headers.get('ratelimit-remaining')).toBe('119');
    expect(Number(read.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect(read.headers.get('ratelimit-policy')).toBe('120;w=60');
    const used = await s.http.get(v4(s.studio, 'studio-api/all'));
    expect(used.body.items[0].lastUsedAt).toBe(clock.now().toISOString());
    // A read key may search the timetable by POST but not book.
    expect(
      (await publicCall(readKey, 'POST', 'schedule', { from: '2026-12-01', to: '2026-12-07' })).status,
    ).toBe(200);
    const write = await publicCall(readKey, 'POST', 'classroom/book', {
      scheduleEventId: s.studio.id,
      userId: s.client.id,
    });
    expect(write.status).toBe(403);
    expect(write.body.error.key).toBe('apiKey.readOnly');

    // Rotation: a new secret, the old one stops at once.
    const rotated = await s.http.request('PUT', v4(s.studio, 'studio-api'), {
      id: created.body.key.id,
      name: 'Website (new)',
      scope: 'read_write',
      rotate: true,
    });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.secret).not.toBe(readKey);
    expect(rotated.body.key.rotatedAt).not.toBeNull();
    expect((await publicCall(readKey, 'GET', 'location/all')).status).toBe(401);
    expect((await publicCall(rotated.body.secret, 'GET', 'location/all')).status).toBe(200);
    // Renaming without rotating answers no secret.
    const renamed = await s.http.request('PUT', v4(s.studio, 'studio-api'), {
      id: created.body.key.id,
      name: 'Site',
      scope: 'read_write',
    });
    expect(renamed.body.secret).toBeNull();

    // Revoke: 204, then 401 with it; a revoked key cannot be rotated back.
    const revoked = await s.http.delete(v4(s.studio, `studio-api/${created.body.key.id}`));
    expect(revoked.status).toBe(204);
    const after = await publicCall(rotated.body.secret, 'GET', 'location/all');
    expect(after.status).toBe(401);
    expect(after.body.error.key).toBe('apiKey.invalid');
    const again = await s.http.request('PUT', v4(s.studio, 'studio-api'), {
      id: created.body.key.id,
      name: 'x',
      scope: 'read',
      rotate: true,
    });
    expect(again.status).toBe(409);
    expect(again.body.error.key).toBe('apiKey.revoked');
    expect((await publicCall(null, 'GET', 'location/all')).status).toBe(401);
    expect((await publicCall('sk_live_wrongwrongwrongwrong', 'GET', 'location/all')).status).toBe(401);
  });

  it('limits each key per minute: 429 with Retry-After, another key unaffected', async () => {
    const s = await studio();
    const slow = await s.http.request('PUT', v4(s.studio, 'studio-api'), {
      name: 'Slow',
      scope: 'read',
      rateLimitPerMinute: 10,
    });
    const other = await s.http.request('PUT', v4(s.studio, 'studio-api'), { name: 'Other', scope: 'read' });
    for (let i = 0; i < 10; i++) expect((await publicCall(slow.body.secret, 'GET', 'ping')).status).toBe(200);
    const over = await publicCall(slow.body.secret, 'GET', 'ping');
    expect(over.status).toBe(429);
    expect(over.body.error.key).toBe('rateLimit.exceeded');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.headers.get('ratelimit-remaining')).toBe('0');
    expect((await publicCall(other.body.secret, 'GET', 'ping')).status).toBe(200);
  });

  it('400 by field, 401 signed out, 403 without the right, 404 for another studio', async () => {
    const s = await studio();
    const bad = await s.http.request('PUT', v4(s.studio, 'studio-api'), {
      name: ' ',
      scope: 'admin',
      rateLimitPerMinute: 5,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['name', 'rateLimitPerMinute', 'scope']);
    const anonymous = await app.anonymous();
    expect((await anonymous.get(v4(s.studio, 'studio-api/all'))).status).toBe(401);
    const deskUser = await createUser(app.knex, { firstName: 'Desk', lastName: 'Person' });
    await addMembership(app.knex, s.studio, deskUser, { isMember: true, role: 'front_desk' });
    const desk = await app.signedIn(deskUser.email, deskUser.password);
    expect((await desk.get(v4(s.studio, 'studio-api/all'))).status).toBe(403);
    expect((await desk.request('PUT', v4(s.studio, 'studio-api'), { name: 'x', scope: 'read' })).status).toBe(
      403,
    );
    const key = await s.http.request('PUT', v4(s.studio, 'studio-api'), { name: 'Mine', scope: 'read' });
    await expectHiddenFromOtherStudio(app, {
      method: 'DELETE',
      path: v4(s.studio, `studio-api/${key.body.key.id}`),
    });
    await expectHiddenFromOtherStudio(
      app,
      {
        method: 'PUT',
        path: v4(s.studio, 'studio-api'),
        body: { id: key.body.key.id, name: 'x', scope: 'read', rotate: true },
      },
      [key.body.secret],
    );
  });
});

describe('OpenAPI documents and the reference at /docs/api', () => {
  it('documents every public route, validates as OpenAPI 3.1, serves the viewer offline', async () => {
    const res = await fetch(`${app.url}/docs/api/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    await SwaggerParser.validate(structuredClone(doc) as never);
    const publicRoutes = describeApiRoutes().filter((r) => r.path.startsWith('/v2/public/'));
    for (const r of publicRoutes) {
      const path = r.fullPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      expect(doc.paths[path]?.[r.method], `${r.method} ${path}`).toBeDefined();
    }
    expect(Object.values(doc.paths).flatMap((p) => Object.keys(p))).toHaveLength(publicRoutes.length);
    expect(JSON.stringify(doc)).not.toContain('/v4/');

    const page = await fetch(`${app.url}/docs/api`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-url="/docs/api/openapi.json"');
    expect(html).not.toMatch(/https?:\/\//);
    const viewer = await fetch(`${app.url}/docs/api/reference.js`);
    expect(viewer.status).toBe(200);
    expect(viewer.headers.get('content-type')).toContain('javascript');
    expect((await viewer.arrayBuffer()).byteLength).toBeGreaterThan(100_000);

    expect((await fetch(`${app.url}/docs/api/private.json`)).status).toBe(401);
    const s = await studio();
    const priv = await s.http.request('GET', '/docs/api/private.json');
    expect(priv.status).toBe(200);
    await SwaggerParser.validate(structuredClone(priv.body) as never);
    expect(Object.keys(priv.body.paths).some((p: string) => p.includes('/studio-api'))).toBe(true);
  });
});

describe('webhooks (studio-webhook)', () => {
  it('signs deliveries (Standard Webhooks), retries with backoff, never twice, replays, rotates secrets', async () => {
    configureWebhookNetwork({ allowLoopback: true });
    const s = await studio();
    const put = await s.http.request('PUT', v4(s.studio, 'studio-webhook'), {
      url: receiverUrl,
      description: 'CRM',
      events: ['client.created', 'visit.booked'],
    });
    expect(put.status, put.text).toBe(200);
    const id: string = put.body.id;
    const token = await s.http.post(v4(s.studio, `studio-webhook/${id}/token`), {});
    expect(token.body.secret).toMatch(/^whsec_/);
    const verifier = new Webhook(token.body.secret);

    // An event in a transaction: one delivery per subscribed endpoint; unsubscribed types none.
    received.length = 0;
    answers.push(500, 503);
    await app.knex.transaction(async (trx) => {
      expect(
        await emitWebhookEvent(trx, s.studio.id, 'client.created', { id: s.client.id }, clock.now()),
      ).toBe(1);
      expect(await emitWebhookEvent(trx, s.studio.id, 'order.paid', { id: 'x' }, clock.now())).toBe(0);
    });
    expect(await app.drainJobs()).toBe(0); // 500: retried
    expect(await app.drainJobs()).toBe(0); // 503: retried
    expect(await app.drainJobs()).toBe(1); // 200: delivered
    expect(await app.drainJobs()).toBe(0);
    expect(received).toHaveLength(3);
    for (const r of received) {
      const verified = verifier.verify(r.body, r.headers as Record<string, string>) as {
        type: string;
        data: { id: string };
      };
      expect(verified).toMatchObject({ type: 'client.created', data: { id: s.client.id } });
    }
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    // A forged body fails verification.
    expect(() =>
      verifier.verify(
        received[0]!.body.replace('client', 'clienT'),
        received[0]!.headers as Record<string, string>,
      ),
    ).toThrow();

    const log = await s.http.get(v4(s.studio, `studio-webhook/${id}/deliveries`));
    expect(log.status).toBe(200);
    const [delivery] = log.body.items;
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, eventType: 'client.created' });
    expect(delivery.log.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([200, 503, 500]);
    expect(delivery.log[0].requestBody).toContain(s.client.id);
    expect(delivery.log[0].requestHeaders['webhook-signature']).not.toContain(token.body.secret);

    // Replay: the same event id again, as a new delivery.
    const replay = await s.http.post(v4(s.studio, `webhook-delivery/${delivery.id}/replay`), {});
    expect(replay.status, replay.text).toBe(200);
    expect(replay.body).toMatchObject({
      replayOf: delivery.id,
      status: 'pending',
      eventId: delivery.eventId,
    });
    expect(await app.drainJobs()).toBe(1);
    expect(received.at(-1)!.headers['webhook-id']).toBe(delivery.eventId);

    // Rotation: both secrets sign for 24 hours, so receivers switch over without losing events.
    const rotated = await s.http.post(v4(s.studio, `studio-webhook/${id}/token`), { rotate: true });
    expect(rotated.body.secret).not.toBe(token.body.secret);
    expect(rotated.body.previousSecretExpiresAt).toBe(
      new Date(clock.now().getTime() + 24 * 3600_000).toISOString(),
    );
    const ping = await s.http.post(v4(s.studio, `studio-webhook/${id}/test`), {});
    expect(ping.status).toBe(200);
    expect(await app.drainJobs()).toBe(1);
    const last = received.at(-1)!;
    expect(String(last.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(
      new Webhook(rotated.body.secret).verify(last.body, last.headers as Record<string, string>),
    ).toMatchObject({ type: 'ping' });
    expect(verifier.verify(last.body, last.headers as Record<string, string>)).toMatchObject({
      type: 'ping',
    });
  });

  it('fails a delivery for good after its attempts and switches a failing endpoint off with a mail', async () => {
    configureWebhookNetwork({ allowLoopback: true });
    const s = await studio();
    const put = await s.http.request('PUT', v4(s.studio, 'studio-webhook'), {
      url: receiverUrl,
      events: ['order.paid'],
    });
    await app.knex('webhook_endpoints').where({ id: put.body.id }).update({ consecutiveFailures: 4 });
    received.length = 0;
    answers.push(...Array.from({ length: WEBHOOK_MAX_ATTEMPTS }, () => 500));
    await app.knex.transaction((trx) =>
      emitWebhookEvent(trx, s.studio.id, 'order.paid', { id: 'o1' }, clock.now()),
    );
    for (let i = 0; i < WEBHOOK_MAX_ATTEMPTS - 1; i++) expect(await app.drainJobs()).toBe(0);
    expect(await app.drainJobs()).toBe(1); // the last attempt completes the job …
    expect(await app.drainJobs()).toBe(1); // … and the owner's mail, queued in its transaction, is sent
    expect(received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    const list = await s.http.get(v4(s.studio, 'studio-webhook/all'));
    expect(list.body.items[0]).toMatchObject({
      enabled: false,
      disabledReason: 'failing',
      lastDelivery: { status: 'failed' },
    });
    expect(app.mail.at(-1)).toMatchObject({ to: s.manager.email });
    expect(app.mail.at(-1)!.subject).toContain('webhook');
    // Disabled: new events queue nothing; a test ping is refused; switching on resets the count.
    await app.knex.transaction(async (trx) =>
      expect(await emitWebhookEvent(trx, s.studio.id, 'order.paid', { id: 'o2' })).toBe(0),
    );
    expect((await s.http.post(v4(s.studio, `studio-webhook/${put.body.id}/test`), {})).status).toBe(409);
    const on = await s.http.patch(v4(s.studio, `studio-webhook/${put.body.id}`), { enabled: true });
    expect(on.body).toMatchObject({ enabled: true, disabledReason: null, consecutiveFailures: 0 });
  });

  it('refuses private and loopback addresses (SSRF), 400 by field, 403, 404 for another studio', async () => {
    configureWebhookNetwork({ allowLoopback: false });
    const s = await studio();
    for (const url of [
      'http://127.0.0.1:9/x',
      'http://localhost/x',
      'http://10.1.2.3/x',
      'http://[::1]/x',
      'http://169.254.169.254/latest',
    ]) {
      const res = await s.http.request('PUT', v4(s.studio, 'studio-webhook'), { url, events: ['pass.sold'] });
      expect(res.status, url).toBe(400);
      expect(Object.keys(res.body.error.fields)).toEqual(['url']);
    }
    const bad = await s.http.request('PUT', v4(s.studio, 'studio-webhook'), { url: 'ftp://x', events: [] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['events', 'url']);
    // A name that resolves to loopback is refused when the request is made, and logged.
    const named = await s.http.request('PUT', v4(s.studio, 'studio-webhook'), {
      url: 'http://localhost.test-refused.invalid/x',
      events: ['pass.sold'],
    });
    expect(named.status).toBe(200);
    const ok = await s.http.request('PUT', v4(s.studio, 'studio-webhook'), {
      url: 'https://hooks.example.com/in',
      events: ['pass.sold'],
    });
    const wid = ok.body.id;
    const anonymous = await app.anonymous();
    expect((await anonymous.get(v4(s.studio, 'studio-webhook/all'))).status).toBe(401);
    const deskUser = await createUser(app.knex, { firstName: 'Desk', lastName: 'Two' });
    await addMembership(app.knex, s.studio, deskUser, { isMember: true, role: 'front_desk' });
    const desk = await app.signedIn(deskUser.email, deskUser.password);
    expect((await desk.patch(v4(s.studio, `studio-webhook/${wid}`), { enabled: false })).status).toBe(403);
    for (const req of [
      { method: 'PATCH' as const, path: v4(s.studio, `studio-webhook/${wid}`), body: { enabled: false } },
      { method: 'POST' as const, path: v4(s.studio, `studio-webhook/${wid}/token`), body: {} },
      { method: 'GET' as const, path: v4(s.studio, `studio-webhook/${wid}/deliveries`) },
      { method: 'POST' as const, path: v4(s.studio, `studio-webhook/${wid}/test`), body: {} },
      { method: 'DELETE' as const, path: v4(s.studio, `studio-webhook/${wid}`) },
    ])
      await expectHiddenFromOtherStudio(app, req);
    const gone = await s.http.delete(v4(s.studio, `studio-webhook/${wid}`));
    expect(gone.status).toBe(204);
    expect((await s.http.get(v4(s.studio, 'studio-webhook/all'))).body.items).toHaveLength(1);
  });
});
