import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from './api-client';
import { errorCodeLabel, failureText, fitToForm, toFormErrors, type Translate } from './form-errors';

/** Returns the key (plus interpolation values) so the test sees which message was chosen. */
const t: Translate = (key, options) =>
  options && 'code' in options ? `${key}|${String(options.code)}` : key;

const apiError = (status: number, key: string, code: number, fields?: Record<string, string[]>) =>
  new ApiError(status, { error: { code, key: key as never, message: key, ...(fields ? { fields } : {}) } });

describe('toFormErrors', () => {
  it('400: first message per field, form-level "" messages, known messages translated', () => {
    const result = toFormErrors(
      apiError(400, 'request.invalid', 1000, {
        emailAddress: ['invalid email address', 'second message'],
        'address.city': ['required'],
        password: ['something custom'],
        '': ['form message'],
      }),
      t,
    );
    expect(result.fields).toEqual({
      emailAddress: 'common:validation.invalidEmail',
      'address.city': 'common:validation.required',
      password: 'something custom',
    });
    expect(result.form).toEqual(['form message']);
  });

  it('400 without fields: general message with its status-code', () => {
    expect(toFormErrors(apiError(400, 'request.malformedJson', 1001), t).form).toEqual([
      'common:errors.generalWithCode|400-1001',
    ]);
  });

  it.each([401, 403, 405])('%i: no permission', (status) => {
    const result = toFormErrors(apiError(status, 'auth.forbidden', 1103), t);
    expect(result).toEqual({ fields: {}, form: ['common:errors.noPermission'] });
  });

  it('404: nothing to show, the button shows the error', () => {
    expect(toFormErrors(apiError(404, 'resource.notFound', 1200), t)).toEqual({ fields: {}, form: [] });
  });

  it('500: "an error occurred while saving settings" by default, general with code on request', () => {
    const error = apiError(500, 'internal.unexpected', 1999);
    expect(toFormErrors(error, t).form).toEqual(['common:errors.savingSettings']);
    expect(toFormErrors(error, t, { unexpected: 'withCode' }).form).toEqual([
      'common:errors.generalWithCode|500-1999',
    ]);
  });

  it('a key-specific message wins over the status rule', () => {
    const result = toFormErrors(apiError(401, 'auth.invalidCredentials', 1101), t, {
      messagesByKey: { 'auth.invalidCredentials': 'common:errors.invalidCredentials' },
    });
    expect(result.form).toEqual(['common:errors.invalidCredentials']);
  });

  it('no answer (network, a silent cloud, the station\'s cloudUnreachable): "no connection", never code 100-100', () => {
    expect(toFormErrors(new TypeError('Failed to fetch'), t).form).toEqual(['desk:errors.noConnection']);
    expect(toFormErrors(new NetworkError('GET x failed'), t).form).toEqual(['desk:errors.noConnection']);
    expect(
      toFormErrors(apiError(503, 'station.cloudUnreachable', 2254), t, { unexpected: 'withCode' }).form,
    ).toEqual(['desk:errors.noConnection']);
    expect(failureText(new TypeError('Failed to fetch'), t, 'retail:errors.general')).toBe(
      'desk:errors.noConnection',
    );
    expect(failureText(apiError(409, 'resource.conflict', 1201), t, 'retail:errors.general')).toBe(
      'retail:errors.general|409-1201',
    );
  });

  it('other 4xx: general message with code', () => {
    expect(toFormErrors(apiError(409, 'resource.conflict', 1201), t).form).toEqual([
      'common:errors.generalWithCode|409-1201',
    ]);
  });
});

describe('errorCodeLabel', () => {
  it('formats status-errorcode', () => {
    expect(errorCodeLabel(apiError(403, 'auth.csrf', 1102))).toBe('403-1102');
    expect(errorCodeLabel(new ApiError(502, null))).toBe('502-100');
    expect(errorCodeLabel(new Error('x'))).toBe('100-100');
  });
});

describe('fitToForm', () => {
  it('moves errors of fields without an input to the form level', () => {
    expect(fitToForm({ fields: { password: 'short', token: 'expired' }, form: ['x'] }, ['password'])).toEqual(
      {
        fields: { password: 'short' },
        form: ['x', 'expired'],
      },
    );
  });
});
