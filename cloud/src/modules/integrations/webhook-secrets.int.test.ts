import { Webhook } from 'standardwebhooks';
import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { createStudioScenario } from '../../../../tests/support/factories';
import { useTestApp } from '../../../../tests/support/test-app';
import { emitWebhookEvent } from '../../webhooks/emit';
import { openWebhookSecret, sealStoredWebhookSecrets } from '../../webhooks/secrets';
import { useWebhookReceiver } from './testing/webhook-receiver';

/**
 * Webhook signing secrets are encrypted at rest (field-encryption key): the table never holds one in
 * the clear, rows from before the encryption are sealed at start, and deliveries still verify with
 * the secret the back office shows.
 */
const app = useTestApp();
const v4 = (s: { id: string }, p: string) => `/api/v4/${s.id}/${p}`;

const hooks = useWebhookReceiver();
const received = hooks.received;

describe('webhook secrets at rest', () => {
  it('stores secrets encrypted; deliveries signed with them verify, before and after rotation', async () => {
    const s = await createStudioScenario(app.knex);
    const manager = await app.signedIn(s.manager.email, s.manager.password);
    const put = await manager.request('PUT', v4(s.studio, 'studio-webhook'), {
      url: hooks.url,
      events: ['client.updated'],
    });
    expect(put.status, put.text).toBe(200);
    const id: string = put.body.id;
    const first = (await manager.post(v4(s.studio, `studio-webhook/${id}/token`), {})).body.secret as string;
    expect(first).toMatch(/^whsec_/);
    const rotated = (await manager.post(v4(s.studio, `studio-webhook/${id}/token`), { rotate: true })).body
      .secret as string;

    const row = await app.knex('webhook_endpoints').where({ id }).first();
    const stored = JSON.stringify(row);
    for (const secret of [first, rotated]) {
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain(secret.slice('whsec_'.length));
    }
    expect(row!.secret).toMatch(/^v2\./);
    expect(row!.previousSecret).toMatch(/^v2\./);
    // Bound to its endpoint: the value copied onto another endpoint does not open.
    expect(openWebhookSecret(s.studio.id, id, row!.secret)).toBe(rotated);
    expect(() => openWebhookSecret(s.studio.id, uuidv7(), row!.secret)).toThrow();

    received.length = 0;
    await app.knex.transaction((trx) =>
      emitWebhookEvent(trx, s.studio.id, 'client.updated', { id: s.client.id }, new Date()),
    );
    expect(await app.drainJobs()).toBe(1);
    expect(received).toHaveLength(1);
    const headers = received[0]!.headers as Record<string, string>;
    // Both the new secret and, during the 24-hour overlap, the old one verify the delivery.
    for (const secret of [rotated, first])
      expect(new Webhook(secret).verify(received[0]!.body, headers)).toMatchObject({
        type: 'client.updated',
      });

    // A secret in the clear is refused by the table itself.
    await expect(
      app
        .knex('webhook_endpoints')
        .where({ id })
        .update({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
    ).rejects.toThrow(/webhook_endpoints_secret_sealed/);
  });

  it('seals the secrets stored in the clear before the encryption (the server does it at start)', async () => {
    const s = await createStudioScenario(app.knex);
    const plain = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const previous = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
    const id = uuidv7();
    // A row as migration 0170 left it: in a transaction rolled back at the end, without the check
    // migration 0210 added (only writes after it are checked).
    await app.knex
      .transaction(async (trx) => {
        await trx.raw('alter table webhook_endpoints drop constraint webhook_endpoints_secret_sealed');
        await trx('webhook_endpoints').insert({
          id,
          studioId: s.studio.id,
          url: 'https://hooks.example.com/in',
          events: ['client.created'],
          secret: plain,
          previousSecret: previous,
        });
        const result = await sealStoredWebhookSecrets(trx as never);
        expect(result.sealed).toBeGreaterThanOrEqual(1);
        const row = await trx('webhook_endpoints').where({ id }).first();
        expect(JSON.stringify(row)).not.toContain('whsec_');
        expect(openWebhookSecret(s.studio.id, id, row!.secret)).toBe(plain);
        expect(openWebhookSecret(s.studio.id, id, row!.previousSecret!)).toBe(previous);
        // Run again: nothing left to do.
        expect((await sealStoredWebhookSecrets(trx as never)).sealed).toBe(0);
        throw new Error('rollback');
      })
      .catch((err: Error) => {
        if (err.message !== 'rollback') throw err;
      });
  });
});
