import { describe, expect, it } from 'vitest';
import type { ClientFieldView } from '../../../shared/contracts/api/client-records';
import { ClientFieldInputSchema } from '../../../shared/contracts/api/client-records';
import { formValuesOf, inputOf, optionValue } from './client-fields.api';

const view = (over: Partial<ClientFieldView>): ClientFieldView => ({
  id: 'f1',
  name: { en: { value: 'T-shirt size' }, pl: { value: 'Rozmiar koszulki' } },
  type: 3,
  typeLabelKey: 'enums:clientCustomFieldType.3',
  required: false,
  encrypted: false,
  options: [
    { value: 's', label: 'Small' },
    { value: 'm', label: 'Medium' },
  ],
  settings: {},
  position: 2,
  createdAt: '2026-11-23T10:00:00Z',
  updatedAt: '2026-11-23T10:00:00Z',
  ...over,
});

describe('client field form', () => {
  it('sends names in both languages, one option per line, and what the server schema accepts', () => {
    const values = {
      ...formValuesOf(null),
      name: 'Źródło',
      namePl: 'Skąd nas znasz',
      type: '6',
      options: 'Znajomi\n\n  Instagram \nUlotka na ulicy',
      required: 'true',
    };
    const input = inputOf(values, null);
    expect(input.name).toEqual({ en: { value: 'Źródło' }, pl: { value: 'Skąd nas znasz' } });
    expect(input.options.map((o) => [o.value, o.label])).toEqual([
      ['znajomi', 'Znajomi'],
      ['instagram', 'Instagram'],
      ['ulotka-na-ulicy', 'Ulotka na ulicy'],
    ]);
    expect(input.required).toBe(true);
    expect(ClientFieldInputSchema.safeParse(input).success).toBe(true);
  });

  it('keeps the stored value of an option whose label did not change, so clients keep their answers', () => {
    const field = view({});
    const values = { ...formValuesOf(field), options: 'Medium\nLarge\nSmall' };
    expect(inputOf(values, field).options).toEqual([
      { value: 'm', label: 'Medium' },
      { value: 'large', label: 'Large' },
      { value: 's', label: 'Small' },
    ]);
    expect(formValuesOf(field).namePl).toBe('Rozmiar koszulki');
    expect(formValuesOf(field).options).toBe('Small\nMedium');
  });

  it('sends options only for list types and limits only for text and numbers', () => {
    const text = inputOf(
      { ...formValuesOf(null), name: 'Notes', options: 'a\nb', 'settings.maxLength': '200' },
      null,
    );
    expect(text.options).toEqual([]);
    expect(text.settings).toEqual({ maxLength: 200 });
    const number = inputOf(
      { ...formValuesOf(null), name: 'Weight', type: '1', 'settings.min': '30', 'settings.max': '250,5' },
      null,
    );
    expect(number.settings).toEqual({ min: 30, max: 250.5 });
    const checkbox = inputOf(
      { ...formValuesOf(null), name: 'Consent', type: '2', 'settings.max': '9' },
      null,
    );
    expect(checkbox.settings).toEqual({});
  });

  it('makes option values from any label, distinct even when labels collide', () => {
    expect(optionValue('!!!', 0, [])).toBe('option-1');
    const input = inputOf({ ...formValuesOf(null), name: 'X', type: '3', options: 'A b\nA-b' }, null);
    expect(new Set(input.options.map((o) => o.value)).size).toBe(2);
  });
});
