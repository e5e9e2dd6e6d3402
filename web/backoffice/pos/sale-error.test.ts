import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import enFleet from '../../../locales/en/desk-fleet.json';
import enRetail from '../../../locales/en/retail.json';
import plFleet from '../../../locales/pl/desk-fleet.json';
import plRetail from '../../../locales/pl/retail.json';
import { ApiError } from '../../lib/api-client';
import { saleError } from './StationReceipts';

/** Issue 29: the cashier of a desk too old to sell reads what happened and that the update installs. */
async function translator(lng: 'en' | 'pl') {
  const i18n = createInstance();
  await i18n.init({
    lng,
    defaultNS: 'retail',
    resources: {
      en: { retail: enRetail, 'desk-fleet': enFleet },
      pl: { retail: plRetail, 'desk-fleet': plFleet },
    },
  });
  return i18n.t.bind(i18n) as (key: string, options?: Record<string, unknown>) => string;
}

const tooOld = new ApiError(426, {
  error: {
    code: 3001,
    key: 'desktop.tooOld',
    message: 'this desk runs 0.3.2; the studio’s cloud needs 0.4.0 or newer: it is updating',
    fields: { version: ['0.3.2'], oldestAccepted: ['0.4.0'] },
  },
});

describe('saleError: a desk too old to sell', () => {
  it('EN: the sale was not recorded, both versions, the update installing', async () => {
    const text = saleError(tooOld, await translator('en'));
    expect(text).toBe(
      "Sale not recorded: this desk (0.3.2) is too old for the studio's system, which needs 0.4.0 or newer. The update is being installed; the desk restarts by itself and then sells again.",
    );
  });

  it('PL', async () => {
    const text = saleError(tooOld, await translator('pl'));
    expect(text).toContain('Sprzedaż nie została zapisana');
    expect(text).toContain('0.3.2');
    expect(text).toContain('0.4.0');
    expect(text).toContain('aktualizacji');
  });
});
