import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ciphertextKeyId, decryptFieldValue, encryptFieldValue, fieldKeyId, keyringOf } from './field-crypto';

const scope = { studioId: 's1', fieldId: 'f1', clientId: 'c1' };
const oldKey = Buffer.alloc(32, 1);
const newKey = Buffer.alloc(32, 2);

describe('field encryption key rotation', () => {
  it('names the key in every value; a new key encrypts, the old one still decrypts', () => {
    const before = encryptFieldValue(keyringOf(oldKey), scope, { pesel: '90010112345' });
    expect(ciphertextKeyId(before)).toBe(fieldKeyId(oldKey));

    const rotated = keyringOf(newKey, [oldKey]);
    expect(decryptFieldValue(rotated, scope, before)).toEqual({ pesel: '90010112345' });
    const after = encryptFieldValue(rotated, scope, 'x');
    expect(ciphertextKeyId(after)).toBe(fieldKeyId(newKey));

    // Without the old key in the ring, its values say which key is missing.
    expect(() => decryptFieldValue(keyringOf(newKey), scope, before)).toThrow(
      new RegExp(`unknown key ${fieldKeyId(oldKey)}`),
    );
    // Bound to its scope and untouched, as before rotation.
    expect(() => decryptFieldValue(rotated, { ...scope, clientId: 'c2' }, before)).toThrow();
  });

  it('still reads v1 values (before key ids) with any key of the ring', () => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', oldKey, iv);
    cipher.setAAD(Buffer.from('s1/f1/c1'));
    const data = Buffer.concat([cipher.update(JSON.stringify('legacy'), 'utf8'), cipher.final()]);
    const v1 = ['v1', iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
    expect(ciphertextKeyId(v1)).toBeNull();
    expect(decryptFieldValue(keyringOf(newKey, [oldKey]), scope, v1)).toBe('legacy');
    expect(() => decryptFieldValue(keyringOf(newKey), scope, v1)).toThrow();
  });
});
