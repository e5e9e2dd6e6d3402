import { describe, expect, it } from 'vitest';
import { filterTiles, findByBarcode, paymentSplit, posGroups, type PosTileItem } from './catalog';

const drinks = { id: 'c1', name: 'Drinks' };
const item = (over: Partial<PosTileItem>): PosTileItem => ({
  type: 'product',
  id: over.name ?? 'x',
  name: 'x',
  price: 100,
  stock: null,
  barcode: null,
  needsClient: false,
  category: null,
  ...over,
});
const items = [
  item({ name: 'Water', category: drinks, barcode: '5901234' }),
  item({ name: 'Towel' }),
  item({ type: 'pricingOption', name: '4 entries', needsClient: true }),
  item({ type: 'contract', name: 'Monthly', needsClient: true }),
];
const labels = { all: 'All', other: 'Other', passes: 'Passes', contracts: 'Contracts' };

describe('the POS catalog', () => {
  it('groups: all, each category, other products, passes, contracts (only those present)', () => {
    expect(posGroups(items, labels).map((g) => g.label)).toEqual([
      'All',
      'Drinks',
      'Other',
      'Passes',
      'Contracts',
    ]);
    expect(posGroups([items[0]!], labels).map((g) => g.value)).toEqual(['all', 'c1']);
  });

  it('filters by group; a search looks in every group, by name or barcode start', () => {
    const names = (group: string, search = '') => filterTiles(items, search, group).map((i) => i.name);
    expect(names('c1')).toEqual(['Water']);
    expect(names('other')).toEqual(['Towel']);
    expect(names('passes')).toEqual(['4 entries']);
    expect(names('contracts')).toEqual(['Monthly']);
    expect(names('c1', 'tow')).toEqual(['Towel']);
    expect(names('all', '5901')).toEqual(['Water']);
  });

  it('finds an exact barcode only', () => {
    expect(findByBarcode(items, ' 5901234 ')?.name).toBe('Water');
    expect(findByBarcode(items, '5901')).toBeNull();
    expect(findByBarcode(items, '')).toBeNull();
  });

  it('the payment split sums one method, keeps the order, drops zero amounts', () => {
    expect(
      paymentSplit([
        { method: 2, amount: 5000 },
        { method: 12, amount: 0 },
        { method: 13, amount: 1000 },
        { method: 2, amount: 500 },
      ]),
    ).toEqual([
      { method: 2, amount: 5500 },
      { method: 13, amount: 1000 },
    ]);
  });
});
