import { describe, expect, it } from 'vitest';
import { CANCELLED, ON_CLASS, TAKES_PLACE, UPCOMING } from '../bookings/visit-status';
import { setValues, sqlSet } from './sql-set';

describe('sqlSet', () => {
  it('renders the named visit sets as the SQL lists the queries used to spell by hand', () => {
    expect(sqlSet(TAKES_PLACE)).toBe('(0, 1, 2, 9)');
    expect(sqlSet(ON_CLASS)).toBe('(0, 1, 2, 8, 9)');
    expect(sqlSet(UPCOMING)).toBe('(0, 8, 9)');
    expect(sqlSet(CANCELLED)).toBe('(3, 4, 5, 6, 7)');
  });

  it('sorts and de-duplicates, so the SQL text is stable whatever order the set was built in', () => {
    expect(sqlSet([9, 2, 0, 2, 1])).toBe('(0, 1, 2, 9)');
    expect(setValues(new Set([9, 0, 10]))).toEqual([0, 9, 10]);
  });

  it('quotes strings with SQL escaping', () => {
    expect(sqlSet(['due', 'scheduled'])).toBe("('due', 'scheduled')");
    expect(sqlSet(["o'clock"])).toBe("('o''clock')");
  });

  it('refuses an empty set and values that are not integers or strings', () => {
    expect(() => sqlSet([])).toThrow(/empty/);
    expect(() => sqlSet([1.5])).toThrow(/not an integer/);
    expect(() => sqlSet([NaN])).toThrow(/not an integer/);
    expect(() => setValues([null as unknown as number])).toThrow(/not an integer/);
  });
});
