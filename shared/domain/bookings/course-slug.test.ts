import { describe, expect, it } from 'vitest';
import { courseSlug, courseSlugId } from './course-slug';

describe('course slugs', () => {
  const id = '0193f2a1-7c4e-7a10-9b2e-7f3a09c2d1e4';
  it.each([
    ['Joga dla początkujących', 'joga-dla-poczatkujacych-3a09c2d1e4'],
    ['Łódź: Taniec  współczesny!', 'lodz-taniec-wspolczesny-3a09c2d1e4'],
    ['???', '3a09c2d1e4'],
  ])('%s → %s', (name, slug) => {
    expect(courseSlug(name, id)).toBe(slug);
    expect(courseSlugId(slug)).toBe('3a09c2d1e4');
  });
  it('refuses a slug without the id digits', () => {
    expect(courseSlugId('joga-dla-poczatkujacych')).toBeNull();
    expect(courseSlugId('x-3A09C2D1E')).toBeNull();
  });
});
