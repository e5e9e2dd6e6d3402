import { describe, expect, it } from 'vitest';
import { canPayFromWallet, topUpChoices, walletBalance } from './wallet';

describe('wallet', () => {
  it('the balance is the sum of its entries', () => {
    expect(walletBalance([])).toBe(0);
    expect(walletBalance([{ amount: 30000 }, { amount: -25000 }, { amount: 2500 }])).toBe(7500);
  });
  it('a payment may take the balance to zero, never below', () => {
    expect(canPayFromWallet(5000, 5000)).toBe(true);
    expect(canPayFromWallet(5000, 5001)).toBe(false);
    expect(canPayFromWallet(5000, 0)).toBe(false);
    expect(canPayFromWallet(5000, -1)).toBe(false);
    expect(canPayFromWallet(5000, 10.5)).toBe(false);
  });
  it('offers the usual top-ups within the limits', () => {
    expect(topUpChoices(10_00, 5_000_00)).toEqual([50_00, 100_00, 200_00, 500_00]);
    expect(topUpChoices(100_00, 200_00)).toEqual([100_00, 200_00]);
  });
});
