import { describe, expect, it } from 'vitest';
import en from '../../locales/en/enums.json';
import pl from '../../locales/pl/enums.json';
import {
  AppointmentEnrollmentType,
  ClientVisitStatus,
  ENUM_NAMES,
  ENUMS,
  enrollmentTypeOf,
  enumLabelKey,
  enumValues,
  isEnumValue,
  isOnlinePaymentMethod,
  OrderStatus,
  PaymentMethod,
  PricingOptionServiceType,
  pricingOptionServiceTypeOf,
  ServiceType,
  serviceTypeOfPricingOptionServiceType,
  type EnumLabelKey,
  type EnumName,
} from './index';

type EnumLabels = Record<string, Record<string, unknown> | undefined>;
const LOCALE_FILES: [string, EnumLabels][] = [
  ['en', en],
  ['pl', pl],
];

const everyEnumValue = ENUM_NAMES.flatMap((name) =>
  enumValues(name).map((value) => [name, value] as [EnumName, string | number]),
);

describe('enum labels', () => {
  it('the registry holds all 31 enumerations of spec §3', () => {
    expect(ENUM_NAMES).toHaveLength(31);
  });

  describe.each(LOCALE_FILES)('%s', (_locale, labels) => {
    it.each(everyEnumValue)('labels %s %s', (name, value) => {
      const label = labels[name]?.[String(value)];
      expect(typeof label).toBe('string');
      expect((label as string).trim()).not.toBe('');
    });

    it('labels nothing that is not an enum value', () => {
      const keys = Object.entries(labels).flatMap(([name, values]) =>
        Object.keys(values ?? {}).map((value) => `${name}.${value}`),
      );
      const expected = everyEnumValue.map(([name, value]) => `${name}.${value}`);
      expect(keys.sort()).toEqual(expected.sort());
    });
  });

  it('has real Polish labels with diacritics', () => {
    expect(pl.clientVisitStatus).toMatchObject({
      '0': 'Zarezerwowany',
      '1': 'Obecny',
      '3': 'Wczesne odwołanie',
    });
  });
});

describe('enumLabelKey', () => {
  it.each([
    ['orderStatus', OrderStatus.paid, 'orderStatus.1'],
    ['clientVisitStatus', ClientVisitStatus.waitingList, 'clientVisitStatus.8'],
    ['paymentMethod', PaymentMethod.wallet, 'paymentMethod.13'],
    ['videoStatus', 'available', 'videoStatus.available'],
  ] as const)('%s %s → %s', (name, value, key) => {
    expect(enumLabelKey(name, value as never)).toBe(key);
  });
});

describe('enumLabelKey types', () => {
  it('narrows the key and refuses values outside the enum at compile time', () => {
    const key = enumLabelKey('orderStatus', OrderStatus.chargeback);
    // @ts-expect-error an order status key is never a video status key
    const notVideo: EnumLabelKey<'videoStatus'> = key;
    // @ts-expect-error 15 is not an order status
    const wrong = enumLabelKey('orderStatus', 15);
    // @ts-expect-error a numeric enum takes numbers only
    const alsoWrong = enumLabelKey('orderStatus', '1');
    expect([notVideo, wrong, alsoWrong]).toEqual(['orderStatus.14', 'orderStatus.15', 'orderStatus.1']);
  });
});

describe('isEnumValue', () => {
  it.each([
    ['orderStatus', 14, true],
    ['orderStatus', 15, false],
    ['orderStatus', '1', false],
    ['paymentMethod', 7, false],
    ['paymentMethod', 11, true],
    ['videoStatus', 'available', true],
    ['videoStatus', 'deleted', false],
  ] as const)('%s %s → %s', (name, value, expected) => {
    expect(isEnumValue(name, value)).toBe(expected);
  });
});

describe('numeric values match spec §3', () => {
  it.each([
    [ENUMS.clientVisitStatus, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]],
    [ENUMS.orderStatus, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]],
    [ENUMS.studioType, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]],
    [ENUMS.paymentMethod, [0, 1, 2, 3, 4, 5, 6, 11, 12, 13]],
    [ENUMS.clientCustomFieldType, [0, 1, 2, 3, 4, 5, 6]],
    [ENUMS.campaignStatus, [0, 1, 2, 3, 4]],
    [ENUMS.pricingOptionExpirationType, [0, 1, 2, 3, 4]],
  ])('%o', (enumeration, values) => {
    expect(Object.values(enumeration)).toEqual(values);
  });

  it.each([
    [OrderStatus.authorizationAllowed, 9],
    [OrderStatus.chargeback, 14],
    [ClientVisitStatus.selfLateCancel, 6],
    [ClientVisitStatus.classCancelled, 7],
    [PaymentMethod.paymentCard, 6],
    [PaymentMethod.terminal, 12],
  ])('%i = %i', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('isOnlinePaymentMethod', () => {
  it.each(Object.entries(PaymentMethod))('%s', (name, method) => {
    expect(isOnlinePaymentMethod(method)).toBe(name === 'online' || name === 'paymentCard');
  });
});

describe('service type mappings', () => {
  it.each([
    [ServiceType.classroom, AppointmentEnrollmentType.clientVisit],
    [ServiceType.course, AppointmentEnrollmentType.clientVisit],
    [ServiceType.appointment, AppointmentEnrollmentType.clientAppointment],
    [ServiceType.entry, AppointmentEnrollmentType.clientEntry],
    [ServiceType.video, AppointmentEnrollmentType.clientVideo],
  ])('%s enrolls as %s', (serviceType, enrollmentType) => {
    expect(enrollmentTypeOf(serviceType)).toBe(enrollmentType);
  });

  it.each(Object.values(ServiceType))('%s maps to its pricing-option variant and back', (serviceType) => {
    const variant = pricingOptionServiceTypeOf(serviceType);
    expect(variant).toBe(`${serviceType}PricingOption`);
    expect(serviceTypeOfPricingOptionServiceType(variant)).toBe(serviceType);
  });

  it('gives every service type its own variant', () => {
    expect(new Set(Object.values(PricingOptionServiceType)).size).toBe(Object.keys(ServiceType).length);
  });

  it('refuses an unknown variant from the wire', () => {
    expect(() => serviceTypeOfPricingOptionServiceType('classroom' as never)).toThrow(RangeError);
  });
});
