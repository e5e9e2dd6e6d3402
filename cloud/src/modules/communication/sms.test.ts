import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmsRejected, smsLength, smsapiProvider } from './sms';
import { startFakeSmsapi, type FakeSmsapi } from './testing/fake-smsapi';

describe('smsLength', () => {
  it('counts GSM-7 septets, the extension table as two, and parts of 153', () => {
    expect(smsLength('')).toEqual({ characters: 0, encoding: 'GSM-7', segments: 0 });
    expect(smsLength('a'.repeat(160))).toEqual({ characters: 160, encoding: 'GSM-7', segments: 1 });
    expect(smsLength('a'.repeat(161))).toEqual({ characters: 161, encoding: 'GSM-7', segments: 2 });
    expect(smsLength('€'.repeat(80))).toEqual({ characters: 160, encoding: 'GSM-7', segments: 1 });
    expect(smsLength('a'.repeat(306))).toMatchObject({ segments: 2 });
    expect(smsLength('a'.repeat(307))).toMatchObject({ segments: 3 });
  });

  it('one Polish letter makes the message UCS-2: 70 characters, parts of 67', () => {
    expect(smsLength('Zajęcia jutro o 18:00')).toEqual({ characters: 21, encoding: 'UCS-2', segments: 1 });
    expect(smsLength('ł'.repeat(70))).toMatchObject({ encoding: 'UCS-2', segments: 1 });
    expect(smsLength('ł'.repeat(71))).toMatchObject({ encoding: 'UCS-2', segments: 2 });
    expect(smsLength('ł'.repeat(135))).toMatchObject({ segments: 3 });
  });
});

describe('SMSAPI.pl driver', () => {
  let fake: FakeSmsapi;
  beforeAll(async () => {
    fake = await startFakeSmsapi();
  });
  afterAll(() => fake.close());

  it('posts the message with the token, and a repeated id is not sent twice', async () => {
    const sms = smsapiProvider({ token: fake.token, baseUrl: fake.url, from: 'Harmonia' });
    const first = await sms.send({ to: '+48 600 100 200', text: 'Dziś zajęcia', id: 'c1-r1' });
    expect(first.providerId).toBe('msg-1');
    expect(fake.sent).toEqual([
      {
        to: '48600100200',
        message: 'Dziś zajęcia',
        from: 'Harmonia',
        idx: 'c1-r1',
        auth: `Bearer ${fake.token}`,
      },
    ]);
    await sms.send({ to: '+48 600 100 200', text: 'Dziś zajęcia', id: 'c1-r1' });
    expect(fake.sent).toHaveLength(1);
  });

  it('a refused number is a permanent failure; a wrong token is not', async () => {
    fake.invalid.add('48000');
    const sms = smsapiProvider({ token: fake.token, baseUrl: fake.url });
    await expect(sms.send({ to: '48000', text: 'x', id: 'c1-r2' })).rejects.toBeInstanceOf(SmsRejected);
    const wrong = smsapiProvider({ token: 'nope', baseUrl: fake.url });
    await expect(wrong.send({ to: '48600', text: 'x', id: 'c1-r3' })).rejects.toThrow(/SMSAPI 101/);
  });
});
