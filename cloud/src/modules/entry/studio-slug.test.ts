import { describe, expect, it } from 'vitest';
import { firstFreeSlug, studioSlugBase } from './studio-slug';

describe('studioSlugBase', () => {
  it.each([
    ['Harmonia Studio Ruchu', 'harmonia-studio-ruchu'],
    ['Zażółć gęślą jaźń', 'zazolc-gesla-jazn'],
    ['ŁÓDŹ Fitness & Yoga!!', 'lodz-fitness-yoga'],
    ['  --Pole   Dance--  ', 'pole-dance'],
    ['Café Straße', 'cafe-strasse'],
    ['Студия', 'studio'],
    ['!!!', 'studio'],
    ['100% Crossfit_Club', '100-crossfit-club'],
  ])('%s → %s', (name, slug) => {
    expect(studioSlugBase(name)).toBe(slug);
  });

  it('is at most 60 characters and never ends with a hyphen', () => {
    const slug = studioSlugBase('a'.repeat(59) + ' b c d');
    expect(slug.length).toBeLessThanOrEqual(60);
    expect(slug).toBe('a'.repeat(59));
  });
});

describe('firstFreeSlug', () => {
  it('keeps a free base and numbers a taken one from 2', () => {
    expect(firstFreeSlug('yoga', new Set())).toBe('yoga');
    expect(firstFreeSlug('yoga', new Set(['yoga', 'yoga-flow']))).toBe('yoga-2');
    expect(firstFreeSlug('yoga', new Set(['yoga', 'yoga-2', 'yoga-3']))).toBe('yoga-4');
  });
});
