import { describe, expect, it } from 'vitest';
import { clampNumber, type NumberBounds } from './number-input';
import { fieldErrorsOf, firstErrorPerField, formLevelErrors } from './server-errors';
import { taxPercentageToMultiplier } from './tax-input';
import { trimText } from './text-input';

describe('trimText', () => {
  it.each([
    ['  Anna  ', 'Anna'],
    ['\tAnna Nowak\n', 'Anna Nowak'],
    ['Anna  Nowak', 'Anna  Nowak'],
    ['   ', ''],
    ['', ''],
    [null, ''],
    [undefined, ''],
  ])('%j → %j', (value, expected) => {
    expect(trimText(value)).toBe(expected);
  });
});

describe('clampNumber', () => {
  it.each<[string, number, NumberBounds, number]>([
    ['inside', 5, { min: 1, max: 10 }, 5],
    ['at min', 1, { min: 1, max: 10 }, 1],
    ['at max', 10, { min: 1, max: 10 }, 10],
    ['below min → min', 0, { min: 1, max: 10 }, 1],
    ['above max → min, not max', 11, { min: 1, max: 10 }, 1],
    ['far above max → min', 1e9, { min: 1, max: 10 }, 1],
    ['negative below min → min', -5, { min: 0, max: 100 }, 0],
    ['NaN → min', Number.NaN, { min: 1, max: 10 }, 1],
    ['Infinity → min', Number.POSITIVE_INFINITY, { min: 1, max: 10 }, 1],
    ['-Infinity → min', Number.NEGATIVE_INFINITY, { min: 1, max: 10 }, 1],
    ['only min, below', -1, { min: 0 }, 0],
    ['only min, above', 1e9, { min: 0 }, 1e9],
    ['only max, above → max', 11, { max: 10 }, 10],
    ['only max, below', -11, { max: 10 }, -11],
    ['only max, NaN → max', Number.NaN, { max: 10 }, 10],
    ['no bounds', 42.5, {}, 42.5],
    ['no bounds, NaN → 0', Number.NaN, {}, 0],
  ])('%s: %s %o → %s', (_case, value, bounds, expected) => {
    expect(clampNumber(value, bounds)).toBe(expected);
  });
});

describe('taxPercentageToMultiplier', () => {
  it.each([
    [23, 1.23],
    [8, 1.08],
    [5, 1.05],
    [7.5, 1.075],
    [100, 2],
    [0.01, 1.0001],
    [0, 1],
    [-0, 1],
    [-5, 1],
    [-100, 1],
    [Number.NaN, 1],
    [Number.POSITIVE_INFINITY, 1],
  ])('%s%% → %s', (percentage, expected) => {
    expect(taxPercentageToMultiplier(percentage)).toBe(expected);
  });
});

describe('firstErrorPerField', () => {
  it.each<[string, Record<string, string[]> | undefined, Record<string, string>]>([
    [
      'first message per field',
      { name: ['required', 'too short'], email: ['invalid email address'] },
      { name: 'required', email: 'invalid email address' },
    ],
    [
      'form-level errors under ""',
      { '': ['studio is closed', 'try later'], name: ['required'] },
      { '': 'studio is closed', name: 'required' },
    ],
    ['nested paths kept', { 'address.city': ['required'] }, { 'address.city': 'required' }],
    ['fields without messages left out', { name: [], email: [''] }, {}],
    ['blank first message skipped', { name: ['', 'required'] }, { name: 'required' }],
    ['no fields', {}, {}],
    ['undefined', undefined, {}],
  ])('%s', (_case, fields, expected) => {
    expect(firstErrorPerField(fields)).toEqual(expected);
  });
});

describe('formLevelErrors', () => {
  it.each<[Record<string, string[]> | undefined, string[]]>([
    [{ '': ['studio is closed', 'try later'], name: ['required'] }, ['studio is closed', 'try later']],
    [{ name: ['required'] }, []],
    [{ '': ['', 'x'] }, ['x']],
    [undefined, []],
  ])('%o → %o', (fields, expected) => {
    expect(formLevelErrors(fields)).toEqual(expected);
  });
});

describe('fieldErrorsOf', () => {
  const envelope = (fields?: Record<string, string[]>) => ({
    error: { code: 1000, key: 'request.invalid', message: 'invalid input', ...(fields ? { fields } : {}) },
  });

  it.each<[string, unknown, Record<string, string[]>]>([
    ['envelope with fields', envelope({ name: ['required'] }), { name: ['required'] }],
    ['envelope without fields', envelope(), {}],
    ['not an envelope', { name: ['required'] }, {}],
    ['null', null, {}],
    ['text', 'Bad Request', {}],
  ])('%s', (_case, body, expected) => {
    expect(fieldErrorsOf(body)).toEqual(expected);
  });
});
