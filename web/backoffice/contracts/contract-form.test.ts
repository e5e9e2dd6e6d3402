import { describe, expect, it } from 'vitest';
import type { ContractView } from '../../../shared/contracts/api/contracts';
import { ContractInputSchema } from '../../../shared/contracts/api/contracts';
import { contractPayload, emptyContractForm, formFromContract } from './contract-form';

const filled = {
  ...emptyContractForm(),
  nameEn: ' Open membership ',
  namePl: 'Karnet open',
  price: '199,90',
  signUpFee: '49',
  durationPeriods: '12',
};

describe('contract form → payload', () => {
  it('maps a fixed-term monthly contract with a sign-up fee to a payload the API schema accepts', () => {
    const result = contractPayload(filled, { isNew: true });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.payload).toMatchObject({
      name: { en: { value: 'Open membership' }, pl: { value: 'Karnet open' } },
      price: 19990,
      signUpFee: 4900,
      periodUnit: 'month',
      periodLength: 1,
      durationPeriods: 12,
      activationType: 0,
      proRata: false,
      noticePeriods: 1,
    });
    // A new contract without a chosen tax leaves it to the studio's default.
    expect('taxId' in result.payload).toBe(false);
    expect(ContractInputSchema.safeParse(result.payload).success).toBe(true);
  });

  it.each([
    [
      'open-ended ignores the typed duration',
      { openEnded: true, durationPeriods: 'x' },
      { durationPeriods: null },
    ],
    ['empty sign-up fee is none', { signUpFee: '' }, { signUpFee: 0 }],
    ['pro rata only with first-of-month billing', { proRata: true, activationType: '0' }, { proRata: false }],
    ['pro rata kept with first-of-month billing', { proRata: true, activationType: '1' }, { proRata: true }],
    ['weeks', { periodUnit: 'week' as const, periodLength: '2' }, { periodUnit: 'week', periodLength: 2 }],
  ])('%s', (_name, over, expected) => {
    const result = contractPayload({ ...filled, ...over }, { isNew: true });
    expect(result.ok && result.payload).toMatchObject(expected);
  });

  it('reports every problem at once, by payload field', () => {
    const result = contractPayload(
      {
        ...emptyContractForm(),
        price: 'abc',
        signUpFee: '-5',
        periodLength: '0',
        durationPeriods: '',
        noticePeriods: '1.5',
        serviceTypes: [],
      },
      { isNew: true },
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.fields).sort()).toEqual(
      [
        'durationPeriods',
        'name',
        'noticePeriods',
        'periodLength',
        'price',
        'serviceTypes',
        'signUpFee',
      ].sort(),
    );
  });

  it('round-trips a saved contract (edit sends the chosen tax, keeps time windows)', () => {
    const saved: ContractView = {
      id: 'c1',
      name: { pl: { value: 'Poranny' } },
      description: {},
      price: 12050,
      currency: 'PLN',
      periodUnit: 'week',
      periodLength: 4,
      durationPeriods: null,
      activationType: 1,
      proRata: true,
      serviceTypes: ['classroomPricingOption'],
      restrictions: {
        classServiceIds: [],
        locationIds: ['l1'],
        tagIds: [],
        timeWindows: [{ weekdays: [1, 2], fromMinutes: 360, toMinutes: 600 }],
      },
      noticePeriods: 0,
      signUpFee: 0,
      taxId: null,
      taxRateBp: null,
      sellAtDesk: true,
      sellOnline: false,
      position: 3,
      archived: false,
      activeClientContracts: 0,
    };
    const values = formFromContract(saved, 'pl');
    expect(values).toMatchObject({ price: '120,50', openEnded: true, signUpFee: '', activationType: '1' });
    const result = contractPayload(values, { isNew: false });
    expect(result.ok && result.payload).toMatchObject({
      price: 12050,
      durationPeriods: null,
      proRata: true,
      taxId: null,
      restrictions: { locationIds: ['l1'], timeWindows: saved.restrictions.timeWindows },
      sellOnline: false,
      position: 3,
    });
  });

  it('edits days and hours: Mon–Fri 6:00–12:00 as minutes, and reports every bad window field', () => {
    const values = {
      ...emptyContractForm(),
      nameEn: 'Mornings',
      price: '199',
      timeWindows: [{ weekdays: [5, 1, 2, 3, 4], from: '06:00', to: '12:00' }],
    };
    const ok = contractPayload(values, { isNew: true });
    expect(ok.ok && ok.payload.restrictions?.timeWindows).toEqual([
      { weekdays: [1, 2, 3, 4, 5], fromMinutes: 360, toMinutes: 720 },
    ]);
    const bad = contractPayload(
      {
        ...values,
        timeWindows: [
          { weekdays: [], from: '12:00', to: '06:00' },
          { weekdays: [6], from: '', to: '24:00' },
        ],
      },
      { isNew: true },
    );
    expect(bad).toEqual({
      ok: false,
      fields: {
        'restrictions.timeWindows.0.weekdays': ['errors.weekdays'],
        'restrictions.timeWindows.0.toMinutes': ['errors.timeOrder'],
        'restrictions.timeWindows.1.fromMinutes': ['errors.time'],
      },
    });
  });
});
