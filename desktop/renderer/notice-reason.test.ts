import { describe, expect, it } from 'vitest';
import { createInstance } from 'i18next';
import en from '../../locales/en/desktop.json';
import pl from '../../locales/pl/desktop.json';
import enBookings from '../../locales/en/bookings-ui.json';
import plBookings from '../../locales/pl/bookings-ui.json';
import { noticeReason } from './notice-reason';

/** The refusal reason of a sync notice, with the real EN/PL translations. */
async function translator(lng: 'en' | 'pl') {
  const i18n = createInstance();
  await i18n.init({
    lng,
    resources: {
      en: { desktop: en, 'bookings-ui': enBookings },
      pl: { desktop: pl, 'bookings-ui': plBookings },
    },
    interpolation: { escapeValue: false },
  });
  return {
    t: (key: string, options?: Record<string, unknown>) => i18n.t(key, options),
    exists: (key: string) => i18n.exists(key),
  };
}

const notice = { status: 'rejected' as const, key: null, code: null, fields: {} };

describe('noticeReason', () => {
  it('a refused booking says why, in the desk language (the booking screens’ staff text)', async () => {
    const en = await translator('en');
    const pl = await translator('pl');
    const full = { ...notice, key: 'visit.classFull', code: 1810 };
    expect(noticeReason(full, en.t, en.exists)).toBe(enBookings.errors.classFull);
    expect(noticeReason(full, pl.t, pl.exists)).toBe(plBookings.errors.classFull);
  });

  it('keys of the sync commands have the desk’s own words; an unknown key falls back to its code', async () => {
    const { t, exists } = await translator('pl');
    expect(noticeReason({ ...notice, key: 'auth.forbidden', code: 1103 }, t, exists)).toBe(
      'Pracownik, który to zrobił, nie ma do tego uprawnień.',
    );
    expect(noticeReason({ ...notice, key: 'voucher.usedUp', code: 1755 }, t, exists)).toBe(
      'System studia to odrzucił (kod 1755).',
    );
  });

  it('a partly applied edit (flagged) names the fields that were not changed', async () => {
    const { t, exists } = await translator('en');
    expect(
      noticeReason(
        { status: 'flagged', key: null, code: null, fields: { 'fields.emailAddress': ['taken'] } },
        t,
        exists,
      ),
    ).toBe('Not changed: email.');
  });

  it('a refusal with a key says only why (its fields locate it, e.g. the class)', async () => {
    const { t, exists } = await translator('en');
    expect(
      noticeReason(
        { ...notice, key: 'visit.noPass', code: 1816, fields: { scheduleEventId: ['no pass'] } },
        t,
        exists,
      ),
    ).toBe('No pass of this client covers this class.');
  });

  it('nothing to add: applied, or flags only (shown as badges)', async () => {
    const { t, exists } = await translator('en');
    expect(noticeReason({ ...notice, status: 'applied', key: 'visit.classFull' }, t, exists)).toBeNull();
    expect(noticeReason({ ...notice, status: 'flagged' }, t, exists)).toBeNull();
  });
});
