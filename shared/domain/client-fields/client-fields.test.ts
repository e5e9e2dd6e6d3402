import { describe, expect, it } from 'vitest';
import { ClientCustomFieldType as T } from '../../enums/clients';
import { checkFieldValue, definitionProblems, fieldText, type FieldDefinitionRules } from './client-fields';

const def = (type: number, extra: Partial<FieldDefinitionRules> = {}): FieldDefinitionRules => ({
  type: type as FieldDefinitionRules['type'],
  required: false,
  options: [],
  settings: {},
  ...extra,
});
const options = [
  { value: 'a', label: 'A' },
  { value: 'b', label: 'B' },
  { value: 'c', label: 'C' },
];
const ID = '0193a1b2-0000-7000-8000-000000000001';

describe('checkFieldValue', () => {
  it.each([
    ['text trimmed', def(T.text), '  hi ', { ok: true, value: 'hi' }],
    [
      'text too long',
      def(T.text, { settings: { maxLength: 3 } }),
      'abcd',
      { ok: false, message: 'at most 3 characters' },
    ],
    ['text not a string', def(T.text), 5, { ok: false, message: 'must be text' }],
    ['empty optional clears', def(T.text), '   ', { ok: true, value: null }],
    ['empty required', def(T.text, { required: true }), '', { ok: false, message: 'required' }],
    ['number', def(T.numeric), 12.5, { ok: true, value: 12.5 }],
    ['number from decimal comma', def(T.numeric), '12,5', { ok: true, value: 12.5 }],
    [
      'number below min',
      def(T.numeric, { settings: { min: 1 } }),
      0,
      { ok: false, message: 'must be at least 1' },
    ],
    [
      'number above max',
      def(T.numeric, { settings: { max: 9 } }),
      10,
      { ok: false, message: 'must be at most 9' },
    ],
    ['not a number', def(T.numeric), '12abc', { ok: false, message: 'must be a number' }],
    ['infinity', def(T.numeric), Infinity, { ok: false, message: 'must be a number' }],
    ['checkbox', def(T.checkbox), false, { ok: true, value: false }],
    [
      'required checkbox unticked',
      def(T.checkbox, { required: true }),
      false,
      { ok: false, message: 'must be ticked' },
    ],
    ['checkbox not boolean', def(T.checkbox), 'yes', { ok: false, message: 'must be true or false' }],
    ['select', def(T.customSelect, { options }), 'b', { ok: true, value: 'b' }],
    [
      'select unknown',
      def(T.customSelect, { options }),
      'z',
      { ok: false, message: 'not one of the options' },
    ],
    [
      'multi in option order, deduplicated',
      def(T.customMultiSelect, { options }),
      ['c', 'a', 'c'],
      { ok: true, value: ['a', 'c'] },
    ],
    [
      'multi unknown',
      def(T.customMultiSelect, { options }),
      ['a', 'z'],
      { ok: false, message: 'not one of the options' },
    ],
    ['multi empty clears', def(T.customMultiSelect, { options }), [], { ok: true, value: null }],
    ['location id', def(T.locationSelect), ID.toUpperCase(), { ok: true, value: ID }],
    ['member not an id', def(T.memberSelect), 'bob', { ok: false, message: 'must be an id' }],
  ] as const)('%s', (_name, definition, raw, expected) => {
    expect(checkFieldValue(definition, raw)).toEqual(expected);
  });
});

describe('definitionProblems', () => {
  it('names every problem', () => {
    expect(definitionProblems(def(T.customSelect))).toEqual({ options: ['give at least one option'] });
    expect(definitionProblems(def(T.text, { options }))).toEqual({
      options: ['only select fields have options'],
    });
    expect(
      definitionProblems(def(T.customMultiSelect, { options: [...options, { value: 'a', label: 'again' }] })),
    ).toEqual({ 'options.3.value': ['options must have different values'] });
    expect(definitionProblems(def(T.numeric, { settings: { min: 5, max: 1 } }))).toEqual({
      'settings.min': ['must not be above max'],
    });
    expect(definitionProblems(def(T.checkbox, { settings: { min: 1, maxLength: 3 } }))).toEqual({
      settings: ['only number fields have bounds'],
      'settings.maxLength': ['only text fields have a length limit'],
    });
    expect(definitionProblems(def(T.numeric, { settings: { min: 1, max: 5 } }))).toEqual({});
  });
});

describe('fieldText', () => {
  it('picks the locale, then the fallback, then any; plain text as is', () => {
    expect(fieldText('Goal', 'pl')).toBe('Goal');
    expect(fieldText({ en: { value: 'Goal' }, pl: { value: 'Cel' } }, 'pl')).toBe('Cel');
    expect(fieldText({ en: { value: 'Goal' } }, 'pl-PL')).toBe('Goal');
    expect(fieldText({ pl: { value: 'Cel' } }, 'en')).toBe('Cel');
  });
});
