import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientCustomFieldType as T } from '../../../../shared/enums/clients';
import { addMembership, createStudioScenario, createUser } from '../../../../tests/support/factories';
import { startTestApp, type TestApp } from '../../../../tests/support/test-app';
import { credentialsOf, encryptCredentials } from '../sales/providers/credentials';
import { ciphertextKeyId, fieldKeyId, fieldKeyring } from '../../crypto/field-crypto';
import { openWebhookSecret, sealWebhookSecret } from '../../webhooks/secrets';
import { reencryptStoredSecrets } from './reencrypt';

/**
 * Key rotation (issue 27): FIELD_ENCRYPTION_KEY encrypts, FIELD_ENCRYPTION_KEYS still decrypt, and
 * the re-encryption moves stored values (client fields and payment provider keys) to the new key,
 * after which the old key can go.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;

describe('field encryption key rotation', () => {
  it('reads values under the old key after rotation, re-encrypts them, then needs only the new key', async () => {
    const oldKey = randomBytes(32).toString('base64');
    const newKey = randomBytes(32).toString('base64');
    const config = app.deps.config;
    config.FIELD_ENCRYPTION_KEY = oldKey;
    config.FIELD_ENCRYPTION_KEYS = undefined;

    const { studio, manager } = await createStudioScenario(app.knex);
    const owner = await app.signedIn(manager.email, manager.password);
    const field = await owner.post(api(studio, 'client-field'), {
      name: 'PESEL',
      type: T.text,
      encrypted: true,
      position: 1,
    });
    expect(field.status, field.text).toBe(201);
    const client = await createUser(app.knex, { firstName: 'Rota', lastName: 'Tion' });
    await addMembership(app.knex, studio, client, { isClient: true });
    expect(
      (
        await owner.patch(api(studio, `client/${client.id}/client-field`), {
          values: { [field.body.id]: '90010112345' },
        })
      ).status,
    ).toBe(200);
    await app.knex('studio_payment_providers').insert({
      id: uuidv7(),
      studioId: studio.id,
      provider: 'stripe',
      settings: { credentials: encryptCredentials(studio.id, 'stripe', { secretKey: 'sk_test_rotate' }) },
    });
    const endpointId = uuidv7();
    await app.knex('webhook_endpoints').insert({
      id: endpointId,
      studioId: studio.id,
      url: 'https://hooks.example.com/in',
      events: ['client.created'],
      secret: sealWebhookSecret(studio.id, endpointId, 'whsec_rotateRotateRotateRotateRotate00'),
    });
    const storedWebhook = async () =>
      (await app.knex('webhook_endpoints').where({ id: endpointId }).first('secret'))!.secret;
    const stored = () =>
      app
        .knex('client_field_values')
        .where({ fieldId: field.body.id, clientId: client.id })
        .first('ciphertext');
    const oldId = fieldKeyId(Buffer.from(oldKey, 'base64'));
    expect(ciphertextKeyId((await stored())!.ciphertext!)).toBe(oldId);

    const decrypt = (headers: Record<string, string> = {}) =>
      owner.post(
        api(studio, `client/${client.id}/client-field/decrypt`),
        { fieldId: field.body.id },
        { headers },
      );

    // Rotated: the new key encrypts, the old one still decrypts.
    config.FIELD_ENCRYPTION_KEY = newKey;
    config.FIELD_ENCRYPTION_KEYS = [oldKey];
    expect((await decrypt()).body.value).toBe('90010112345');
    expect(await credentialsOf(app.knex, studio.id, 'stripe')).toEqual({ secretKey: 'sk_test_rotate' });

    // Dropping the old key before re-encrypting loses the values: the reason for the re-encryption.
    config.FIELD_ENCRYPTION_KEYS = undefined;
    expect(
      (await decrypt({ 'x-expect-server-error': 'the key of the stored value was dropped' })).status,
    ).toBe(500);
    expect(await credentialsOf(app.knex, studio.id, 'stripe')).toBeNull();

    config.FIELD_ENCRYPTION_KEYS = [oldKey];
    const result = await reencryptStoredSecrets(app.knex, fieldKeyring(config));
    expect(result.fieldValues).toBeGreaterThanOrEqual(1);
    expect(result.providerCredentials).toBeGreaterThanOrEqual(1);
    expect(result.webhookSecrets).toBeGreaterThanOrEqual(1);
    expect(ciphertextKeyId(await storedWebhook())).toBe(fieldKeyId(Buffer.from(newKey, 'base64')));
    expect(ciphertextKeyId((await stored())!.ciphertext!)).toBe(fieldKeyId(Buffer.from(newKey, 'base64')));
    // Re-running finds nothing of ours left to move.
    const again = await reencryptStoredSecrets(app.knex, fieldKeyring(config));
    expect(ciphertextKeyId((await stored())!.ciphertext!)).toBe(fieldKeyId(Buffer.from(newKey, 'base64')));
    expect(again.fieldValues).toBeLessThan(result.fieldValues);

    config.FIELD_ENCRYPTION_KEYS = undefined;
    expect((await decrypt()).body.value).toBe('90010112345');
    expect(openWebhookSecret(studio.id, endpointId, await storedWebhook())).toBe(
      'whsec_rotateRotateRotateRotateRotate00',
    );
    expect(await credentialsOf(app.knex, studio.id, 'stripe')).toEqual({ secretKey: 'sk_test_rotate' });
  });
});
