import { describe, expect, it } from 'vitest';
import { feeFor, feeKindOf } from './fees';

describe('fees', () => {
  it.each([
    [0, null],
    [1, null],
    [2, 'noShow'],
    [3, null],
    [4, null],
    [5, 'lateCancel'],
    [6, 'lateCancel'],
    [7, null],
    [8, null],
    [9, null],
  ] as const)('status %i brings fee %s', (status, kind) => {
    expect(feeKindOf(status)).toBe(kind);
  });

  const settings = { lateCancelFee: 2500, noShowFee: 4000, forgiveFirstOffence: true };
  it.each([
    ['first late cancel forgiven', 'lateCancel', settings, 0, { amount: 2500, forgiven: true }],
    ['second late cancel charged', 'lateCancel', settings, 1, { amount: 2500, forgiven: false }],
    ['first no-show forgiven', 'noShow', settings, 0, { amount: 4000, forgiven: true }],
    ['no-show after a late cancel charged', 'noShow', settings, 1, { amount: 4000, forgiven: false }],
    [
      'no forgiveness: first charged',
      'noShow',
      { ...settings, forgiveFirstOffence: false },
      0,
      { amount: 4000, forgiven: false },
    ],
    ['no fee set: nothing recorded', 'lateCancel', { ...settings, lateCancelFee: 0 }, 0, null],
    ['no no-show fee: nothing recorded', 'noShow', { ...settings, noShowFee: 0 }, 3, null],
  ] as const)('%s', (_name, kind, s, earlier, expected) => {
    expect(feeFor(kind, s, earlier)).toEqual(expected);
  });
});
