import { describe, expect, it } from 'vitest';
import { isPlausiblePhone, looksLikePhoneQuery, phoneDigits, phoneMatchKey } from './phone';

describe('phoneMatchKey: the same number however it was written', () => {
  it.each([
    ['+48 600 100 200', '600100200'],
    ['600-100-200', '600100200'],
    ['0048600100200', '600100200'],
    ['(+48) 600.100.200', '600100200'],
    ['+44 7700 900123', '700900123'],
    ['07700 900123', '700900123'],
    ['+49 151 12345678', '112345678'],
    ['0151 12345678', '112345678'],
    ['+1 212 555 0100', '125550100'],
    ['212-555-0100', '125550100'],
    ['12 34 56', '123456'],
    ['12345', null],
    ['', null],
    [null, null],
    [undefined, null],
    ['no digits', null],
  ])('%s → %s', (raw, key) => {
    expect(phoneMatchKey(raw)).toBe(key);
  });
});

describe('phoneDigits', () => {
  it.each([
    ['+48 600 100 200', '48600100200'],
    ['(0) 22 123', '022123'],
    ['', null],
    [null, null],
  ])('%s → %s', (raw, digits) => {
    expect(phoneDigits(raw)).toBe(digits);
  });
});

describe('isPlausiblePhone', () => {
  it.each([
    ['+48 600 100 200', true],
    ['600100200', true],
    ['(22) 123-45-67', true],
    ['123456', true],
    ['12345', false],
    ['1234567890123456', false],
    ['600 100 200 ext 5', false],
    ['+48 600 100 200; drop', false],
    ['', false],
  ])('%s → %s', (raw, ok) => {
    expect(isPlausiblePhone(raw)).toBe(ok);
  });
});

describe('looksLikePhoneQuery', () => {
  it.each([
    ['600', true],
    ['+48 60', true],
    ['60', false],
    ['anna', false],
    ['anna 600', false],
    ['600-100', true],
  ])('%s → %s', (q, phone) => {
    expect(looksLikePhoneQuery(q)).toBe(phone);
  });
});
