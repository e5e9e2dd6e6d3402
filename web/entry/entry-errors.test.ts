import { describe, expect, it } from 'vitest';
import { KIOSK_INVALID_MESSAGE, TERMS_REQUIRED_MESSAGE } from '../../shared/contracts/api/entry';
import { ApiError, ContractError, NetworkError } from '../lib/api-client';
import type { Translate } from '../lib/form-errors';
import { EntryFieldError, entryFormErrors, isReportable } from './entry-errors';

const t: Translate = (key, options) =>
  options && 'code' in options ? `${key}|${String(options.code)}` : key;

const apiError = (status: number, code: number | null, fields?: Record<string, string[]>) =>
  new ApiError(
    status,
    code === null
      ? null
      : { error: { code, key: 'x' as never, message: 'm', ...(fields ? { fields } : {}) } },
  );

describe('entryFormErrors (spec §5, §8)', () => {
  it('400: the first message per field, translated when known, under its input', () => {
    const errors = entryFormErrors(
      apiError(400, 1000, {
        emailAddress: ['invalid email address', 'second'],
        firstName: ['required'],
        termsOfUseAndPrivacyPolicyAgreement: [TERMS_REQUIRED_MESSAGE],
        lastName: ['something new'],
      }),
      t,
      ['emailAddress', 'firstName', 'lastName', 'termsOfUseAndPrivacyPolicyAgreement'],
    );
    expect(errors).toEqual({
      fields: {
        emailAddress: 'entry:validation.invalidEmail',
        firstName: 'entry:validation.required',
        termsOfUseAndPrivacyPolicyAgreement: 'entry:validation.termsRequired',
        lastName: 'something new',
      },
      form: [],
    });
  });

  it('400 for a field the form does not show: a form-level message', () => {
    expect(entryFormErrors(apiError(400, 1000, { locale: ['bad'] }), t, ['emailAddress'])).toEqual({
      fields: {},
      form: ['bad'],
    });
  });

  it('the kiosk message is translated', () => {
    expect(
      entryFormErrors(apiError(400, 1000, { kioskKey: [KIOSK_INVALID_MESSAGE] }), t, ['kioskKey']).fields,
    ).toEqual({ kioskKey: 'entry:validation.kioskInvalid' });
  });

  it.each([
    [apiError(500, 1999), '500-1999'],
    [apiError(429, 1300), '429-1300'],
    [apiError(403, 1102), '403-1102'],
    [apiError(404, null), '404-100'],
    [apiError(400, 1001), '400-1001'],
    [new NetworkError('offline'), '100-100'],
    [new ContractError('bad body'), '100-100'],
    [new TypeError('x is undefined'), '100-100'],
  ])('other failures: the general message with status-errorcode (%#)', (error, code) => {
    expect(entryFormErrors(error, t, ['username'])).toEqual({
      fields: {},
      form: [`entry:errors.general|${code}`],
    });
  });

  it("the screen's own field messages", () => {
    expect(entryFormErrors(new EntryFieldError({ username: 'none' }), t, ['username'])).toEqual({
      fields: { username: 'none' },
      form: [],
    });
  });
});

describe('isReportable (non-HTTP failures go to the log)', () => {
  it('reports network, contract and script errors, not HTTP answers, own messages or aborts', () => {
    expect(isReportable(new NetworkError('offline'))).toBe(true);
    expect(isReportable(new ContractError('bad'))).toBe(true);
    expect(isReportable(new TypeError('bug'))).toBe(true);
    expect(isReportable(apiError(500, 1999))).toBe(false);
    expect(isReportable(new EntryFieldError({ username: 'x' }))).toBe(false);
    expect(isReportable(new DOMException('aborted', 'AbortError'))).toBe(false);
  });
});
