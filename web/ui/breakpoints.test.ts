import { describe, expect, it } from 'vitest';
import { MANTINE_BREAKPOINTS, screenSizeForWidth } from './breakpoints';
import { theme } from './theme';

describe('screen widths (spec §9)', () => {
  it.each([
    [320, 'xs'],
    [766, 'xs'],
    [768, 'sm'],
    [990, 'sm'],
    [992, 'md'],
    [1198, 'md'],
    [1199, 'lg'],
    [1920, 'lg'],
  ] as const)('%i px is %s', (width, size) => {
    expect(screenSizeForWidth(width)).toBe(size);
  });

  it('are the Mantine theme breakpoints', () => {
    expect(theme.breakpoints).toEqual(MANTINE_BREAKPOINTS);
    expect(MANTINE_BREAKPOINTS).toMatchObject({ sm: '48em', md: '62em', lg: '74.9375em' });
  });
});
