import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { BookingSettings } from '../../../shared/contracts/api/bookings';
import { BookingSettingsPatchSchema } from '../../../shared/contracts/api/bookings';
import { checkInFormValues, checkInPatch, DEFAULT_WALK_IN_MINUTES } from './check-in-form';

const settings: BookingSettings = {
  currency: 'PLN',
  lateCancelFee: 0,
  noShowFee: 0,
  forgiveFirstOffence: false,
  promotionCutoffMinutes: 120,
  payAtDeskAllowed: true,
  checkInOpensMinutes: 60,
  walkInMinutes: null,
};

describe('Settings → Check-in form', () => {
  it('shows "until the class ends" for a studio without a walk-in window and sends null back', () => {
    const values = checkInFormValues(settings);
    expect(values).toEqual({
      checkInOpensMinutes: '60',
      walkInUntilEnd: true,
      walkInMinutes: String(DEFAULT_WALK_IN_MINUTES),
    });
    expect(checkInPatch(values)).toEqual({ checkInOpensMinutes: 60, walkInMinutes: null });
  });

  it('sends the minutes a manager typed, as a patch the API accepts', () => {
    const values = checkInFormValues({ ...settings, checkInOpensMinutes: 30, walkInMinutes: 10 });
    expect(values.walkInUntilEnd).toBe(false);
    const patch = checkInPatch({ ...values, checkInOpensMinutes: '45', walkInMinutes: '20' });
    expect(patch).toEqual({ checkInOpensMinutes: 45, walkInMinutes: 20 });
    expect(BookingSettingsPatchSchema.safeParse(patch).success).toBe(true);
  });

  it('is a Settings tab, labelled in English and Polish', () => {
    const layout = readFileSync(new URL('./SettingsLayout.tsx', import.meta.url), 'utf8');
    expect(layout).toContain("path: '/settings/check-in'");
    for (const locale of ['en', 'pl']) {
      const dict = JSON.parse(
        readFileSync(new URL(`../../../locales/${locale}/bookings-ui.json`, import.meta.url), 'utf8'),
      ) as { checkInSettings?: Record<string, string> };
      for (const key of ['nav', 'title', 'opens', 'opensHint', 'walkInUntilEnd', 'walkIn', 'walkInHint'])
        expect(typeof dict.checkInSettings?.[key], `${locale} ${key}`).toBe('string');
    }
  });
});
