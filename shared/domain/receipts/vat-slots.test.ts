import { describe, expect, it } from 'vitest';
import { DEFAULT_VAT_SLOTS, mapRatesToSlots } from './vat-slots';

describe('mapRatesToSlots', () => {
  it('maps by value on the usual table, higher rate first, exempt last', () => {
    expect(mapRatesToSlots(DEFAULT_VAT_SLOTS, ['exempt', 800, 2300, 0, 500, 2300])).toEqual([
      { rate: 2300, slot: 'A' },
      { rate: 800, slot: 'B' },
      { rate: 500, slot: 'C' },
      { rate: 0, slot: 'D' },
      { rate: 'exempt', slot: 'E' },
    ]);
  });

  it('follows the table, not the letters, and never picks an inactive slot', () => {
    const table = ['inactive', 800, 2300, 'exempt', 'inactive', 'inactive', 0] as const;
    expect(mapRatesToSlots(table, [2300, 0, 500, 'exempt'])).toEqual([
      { rate: 2300, slot: 'C' },
      { rate: 500, slot: null },
      { rate: 0, slot: 'G' },
      { rate: 'exempt', slot: 'D' },
    ]);
  });

  it('takes the first of two slots holding one rate, and refuses a table without seven slots', () => {
    expect(mapRatesToSlots([800, 800, 0, 0, 0, 0, 0], [800])).toEqual([{ rate: 800, slot: 'A' }]);
    expect(() => mapRatesToSlots([2300], [2300])).toThrow(RangeError);
  });
});
