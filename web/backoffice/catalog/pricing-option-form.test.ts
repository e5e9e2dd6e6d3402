import { describe, expect, it } from 'vitest';
import type { PricingOptionView } from '../../../shared/contracts/api/catalog';
import {
  emptyPricingOptionForm,
  formFromPricingOption,
  parsePercentToBp,
  passChangePayload,
  pricingOptionPayload,
  promotionPayload,
  taxPayload,
  validityFieldsOf,
  type PricingOptionFormValues,
} from './pricing-option-form';
import { parseMinutes } from './sellable-form';

const form = (over: Partial<PricingOptionFormValues> = {}): PricingOptionFormValues => ({
  ...emptyPricingOptionForm(),
  nameEn: ' 10 entries ',
  namePl: '',
  price: '320,50',
  ...over,
});

describe('pricingOptionPayload', () => {
  it('maps a new pass: price in minor units, only the filled languages, default tax left to the server', () => {
    const result = pricingOptionPayload(form(), { isNew: true });
    expect(result).toEqual({
      ok: true,
      payload: {
        name: { en: { value: '10 entries' } },
        description: {},
        categoryId: null,
        price: 32050,
        entries: 10,
        expirationType: 0,
        validityCount: 30,
        validityUnit: 'day',
        validUntil: null,
        serviceTypes: ['classroomPricingOption'],
        restrictions: { classServiceIds: [], locationIds: [], tagIds: [], timeWindows: [] },
        sellAtDesk: true,
        sellOnline: true,
        limitPerClient: null,
        shareable: false,
        shareLimit: null,
        position: 0,
      },
    });
  });

  it.each([
    // expiration type, typed count/unit/date → what is sent
    [
      0,
      { validityCount: '2', validityUnit: 'week' },
      { validityCount: 2, validityUnit: 'week', validUntil: null },
    ],
    [
      1,
      { validityCount: '1', validityUnit: 'month' },
      { validityCount: 1, validityUnit: 'month', validUntil: null },
    ],
    [
      2,
      { validityCount: '30', validUntil: '2027-01-01' },
      { validityCount: null, validityUnit: null, validUntil: null },
    ],
    [3, { validityCount: '' }, { validityCount: null, validityUnit: null, validUntil: null }],
    [3, { validityCount: '3' }, { validityCount: 3, validityUnit: null, validUntil: null }],
    [
      4,
      { validityCount: '30', validUntil: '2027-06-30' },
      { validityCount: null, validityUnit: null, validUntil: '2027-06-30' },
    ],
  ] as const)('expiration type %s sends only its validity fields', (type, typed, sent) => {
    const result = pricingOptionPayload(form({ expirationType: String(type), ...typed }), { isNew: true });
    expect(result.ok && result.payload).toMatchObject({ expirationType: type, ...sent });
  });

  it('says which validity fields each expiration type needs', () => {
    expect(validityFieldsOf(0)).toEqual({ count: 'required', unit: true, date: false });
    expect(validityFieldsOf(1)).toEqual({ count: 'required', unit: true, date: false });
    expect(validityFieldsOf(2)).toEqual({ count: null, unit: false, date: false });
    expect(validityFieldsOf(3)).toEqual({ count: 'months', unit: false, date: false });
    expect(validityFieldsOf(4)).toEqual({ count: null, unit: false, date: true });
  });

  it('unlimited entries, restrictions with time windows, channels, limits and sharing', () => {
    const result = pricingOptionPayload(
      form({
        unlimited: true,
        entries: 'whatever',
        categoryId: 'cat',
        taxId: 'tax',
        classServiceIds: ['yoga'],
        locationIds: ['centre'],
        tagIds: ['student'],
        timeWindows: [{ weekdays: [5, 1, 3], from: '6:00', to: '16:00' }],
        sellOnline: false,
        limitPerClient: '1',
        shareable: true,
        shareLimit: '2',
      }),
      { isNew: true },
    );
    expect(result.ok && result.payload).toMatchObject({
      entries: null,
      categoryId: 'cat',
      taxId: 'tax',
      restrictions: {
        classServiceIds: ['yoga'],
        locationIds: ['centre'],
        tagIds: ['student'],
        timeWindows: [{ weekdays: [1, 3, 5], fromMinutes: 360, toMinutes: 960 }],
      },
      sellAtDesk: true,
      sellOnline: false,
      limitPerClient: 1,
      shareable: true,
      shareLimit: 2,
    });
  });

  it('a share limit is dropped when the pass is not shareable; an edit sends a cleared tax as null', () => {
    const result = pricingOptionPayload(form({ shareable: false, shareLimit: '3', taxId: '' }), {
      isNew: false,
    });
    expect(result.ok && result.payload).toMatchObject({ shareLimit: null, taxId: null });
  });

  it('reports every problem by payload field, as translation keys', () => {
    const result = pricingOptionPayload(
      form({
        nameEn: ' ',
        price: '12,3,4',
        entries: '0',
        validityCount: 'x',
        timeWindows: [{ weekdays: [], from: '18:00', to: '08:00' }],
        limitPerClient: '0',
        serviceTypes: [],
      }),
      { isNew: true },
    );
    expect(result).toEqual({
      ok: false,
      fields: {
        name: ['errors.nameRequired'],
        price: ['errors.price'],
        entries: ['errors.entries'],
        validityCount: ['errors.wholePositive'],
        'restrictions.timeWindows.0.weekdays': ['errors.weekdays'],
        'restrictions.timeWindows.0.toMinutes': ['errors.timeOrder'],
        limitPerClient: ['errors.wholePositive'],
        serviceTypes: ['errors.serviceTypes'],
      },
    });
    const noDate = pricingOptionPayload(form({ expirationType: '4', validUntil: '' }), { isNew: true });
    expect(noDate).toEqual({ ok: false, fields: { validUntil: ['errors.required'] } });
  });

  it('an option fills the form and maps back to the same terms', () => {
    const view: PricingOptionView = {
      id: 'po',
      name: { en: { value: 'Open month' }, pl: { value: 'Open miesiąc' } },
      description: { pl: { value: 'Bez limitu' } },
      categoryId: 'cat',
      price: 19900,
      currentPrice: 14900,
      currency: 'PLN',
      taxId: 'tax',
      taxRateBp: 800,
      entries: null,
      expirationType: 3,
      validityCount: 2,
      validityUnit: null,
      validUntil: null,
      serviceTypes: ['classroomPricingOption', 'entryPricingOption'],
      restrictions: {
        classServiceIds: [],
        locationIds: ['loc'],
        timeWindows: [{ weekdays: [6, 0], fromMinutes: 450, toMinutes: 1440 }],
        tagIds: [],
      },
      sellAtDesk: false,
      sellOnline: true,
      limitPerClient: null,
      shareable: true,
      shareLimit: null,
      position: 4,
      archived: false,
      promotions: [],
    };
    const values = formFromPricingOption(view, 'pl');
    expect(values).toMatchObject({ price: '199', unlimited: true, entries: '', validityCount: '2' });
    expect(values.timeWindows).toEqual([{ weekdays: [6, 0], from: '07:30', to: '24:00' }]);
    const back = pricingOptionPayload(values, { isNew: false });
    expect(back.ok && back.payload).toMatchObject({
      name: view.name,
      description: view.description,
      price: 19900,
      entries: null,
      expirationType: 3,
      validityCount: 2,
      restrictions: {
        ...view.restrictions,
        timeWindows: [{ weekdays: [0, 6], fromMinutes: 450, toMinutes: 1440 }],
      },
      sellAtDesk: false,
      shareable: true,
      shareLimit: null,
      position: 4,
      taxId: 'tax',
    });
  });
});

describe('promotions, taxes, pass changes', () => {
  it('a promotion is a price for an inclusive period', () => {
    expect(promotionPayload({ price: '249', startsOn: '2026-12-01', endsOn: '2026-12-24' })).toEqual({
      ok: true,
      payload: { price: 24900, startsOn: '2026-12-01', endsOn: '2026-12-24' },
    });
    expect(promotionPayload({ price: 'free', startsOn: '2026-12-24', endsOn: '2026-12-01' })).toEqual({
      ok: false,
      fields: { price: ['errors.price'], endsOn: ['errors.endBeforeStart'] },
    });
  });

  it('tax rates are typed as percent and sent in basis points; exempt is null', () => {
    expect(parsePercentToBp('23')).toBe(2300);
    expect(parsePercentToBp('5,5')).toBe(550);
    expect(parsePercentToBp('0')).toBe(0);
    expect(parsePercentToBp('8 %')).toBe(800);
    expect(parsePercentToBp('101')).toBeNull();
    expect(parsePercentToBp('abc')).toBeNull();
    expect(
      taxPayload({ name: 'VAT 8%', rate: '8', exempt: false, fiscalSlot: 'B', isDefault: true }),
    ).toEqual({
      ok: true,
      payload: { name: 'VAT 8%', rateBp: 800, fiscalSlot: 'B', isDefault: true },
    });
    expect(
      taxPayload({ name: 'zw.', rate: 'x', exempt: true, fiscalSlot: 'E', isDefault: false }),
    ).toMatchObject({
      ok: true,
      payload: { rateBp: null },
    });
    expect(taxPayload({ name: '', rate: 'x', exempt: false, fiscalSlot: '', isDefault: false })).toEqual({
      ok: false,
      fields: { name: ['errors.required'], rateBp: ['errors.percent'], fiscalSlot: ['errors.required'] },
    });
  });

  it('a staff change sends only its kind, with the reason', () => {
    const base = {
      extendDays: '7',
      freezeFrom: '2026-12-01',
      freezeTo: '2026-12-14',
      entriesDelta: '-2',
      note: ' closed ',
    };
    expect(passChangePayload({ ...base, kind: 'extend' })).toEqual({
      ok: true,
      payload: { extendDays: 7, note: 'closed' },
    });
    expect(passChangePayload({ ...base, kind: 'freeze' })).toEqual({
      ok: true,
      payload: { freeze: { from: '2026-12-01', to: '2026-12-14' }, note: 'closed' },
    });
    expect(passChangePayload({ ...base, kind: 'entries' })).toEqual({
      ok: true,
      payload: { entriesDelta: -2, note: 'closed' },
    });
    expect(passChangePayload({ ...base, kind: 'entries', entriesDelta: '+3' })).toMatchObject({
      payload: { entriesDelta: 3 },
    });
    expect(passChangePayload({ ...base, kind: 'entries', entriesDelta: '0', note: '' })).toEqual({
      ok: false,
      fields: { entriesDelta: ['errors.delta'], note: ['errors.reasonRequired'] },
    });
    expect(passChangePayload({ ...base, kind: 'freeze', freezeTo: '2026-11-01' })).toEqual({
      ok: false,
      fields: { 'freeze.to': ['errors.endBeforeStart'] },
    });
  });

  it('reads times of day', () => {
    expect(parseMinutes('07:30')).toBe(450);
    expect(parseMinutes('24:00')).toBe(1440);
    expect(parseMinutes('24:30')).toBeNull();
    expect(parseMinutes('7.30')).toBeNull();
  });
});
