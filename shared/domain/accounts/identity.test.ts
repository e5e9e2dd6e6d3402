import { describe, expect, it } from 'vitest';
import { cardNumberKey, parseScannedIdentity, qrPayload } from './identity';

describe('cardNumberKey', () => {
  it.each([
    ['AB-12 34', 'ab1234'],
    ['  000123 ', '000123'],
    ['ab', null],
    ['', null],
    ['12%34', null],
    ['-123', null],
    ['x'.repeat(41), null],
  ])('%j → %j', (input, key) => expect(cardNumberKey(input)).toBe(key));
});

describe('parseScannedIdentity', () => {
  it('a QR payload is a token', () => {
    const token = 'abcdefghijklmnopqrstuv';
    expect(parseScannedIdentity(qrPayload(token))).toEqual({ kind: 'qr', token });
  });
  it('a malformed QR payload is nothing', () => {
    expect(parseScannedIdentity('sp1:short')).toBeNull();
  });
  it('anything else is a card number', () => {
    expect(parseScannedIdentity('CARD 0042')).toEqual({ kind: 'card', key: 'card0042' });
  });
});
