import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../../locales/en/bookings-ui.json';
import pl from '../../../locales/pl/bookings-ui.json';
import { visitPaymentLabel } from './visit-payment';

const t = i18next.createInstance();
beforeAll(async () => {
  await t.init({
    lng: 'en',
    resources: { en: { 'bookings-ui': en }, pl: { 'bookings-ui': pl } },
    interpolation: { escapeValue: false },
  });
});

const name = { en: { value: 'Unlimited' }, pl: { value: 'Bez limitu' } };
const pass = { id: 'p', name: { en: { value: '10 classes' }, pl: { value: 'Karnet 10' } } };

describe('what paid a visit', () => {
  it.each([
    [
      'contract',
      { pass: null, payment: 'contract', contract: { id: 'c', name } },
      'en',
      'Contract: Unlimited',
      'Membership: Unlimited',
    ],
    [
      'contract (pl)',
      { pass: null, payment: 'contract', contract: { id: 'c', name } },
      'pl',
      'Umowa: Bez limitu',
      'Członkostwo: Bez limitu',
    ],
    ['pass', { pass, payment: 'pass', contract: null }, 'en', '10 classes', 'Pass: 10 classes'],
    ['pass (pl)', { pass, payment: 'pass', contract: null }, 'pl', 'Karnet 10', 'Karnet: Karnet 10'],
    ['free', { pass: null, payment: 'free', contract: null }, 'en', 'Free class', 'Free class'],
    [
      'desk',
      { pass: null, payment: 'desk', contract: null },
      'pl',
      'Płaci w recepcji',
      'Do zapłaty w recepcji',
    ],
    ['offline answer (no payment)', { pass: null }, 'en', 'No pass', null],
  ] as const)('%s', async (_label, visit, lang, staff, client) => {
    await t.changeLanguage(lang);
    expect(visitPaymentLabel(visit, t.t, lang, 'staff')).toBe(staff);
    expect(visitPaymentLabel(visit, t.t, lang, 'client')).toBe(client);
  });
});
