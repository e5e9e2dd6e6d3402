import { describe, expect, it } from 'vitest';
import { unitLabel } from './unit-label';

describe('unitLabel', () => {
  it('names the units of a Polish invoice in the viewer language', () => {
    expect(unitLabel('usł.', 'en')).toBe('service');
    expect(unitLabel('szt.', 'en')).toBe('pcs');
    expect(unitLabel('szt./pcs', 'pl')).toBe('szt.');
    expect(unitLabel('usł.', 'pl')).toBe('usł.');
    expect(unitLabel('h', 'en')).toBe('h');
  });
});
