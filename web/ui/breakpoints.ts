/**
 * Screen widths of spec §9: extra small up to 766 px, small 768–990, medium 992–1198, large from
 * 1199. Mantine breakpoints are the *lower* bounds of each range, in em (16 px base), so:
 * xs starts at 0, sm at 768, md at 992, lg at 1199. The spec has no fifth width; Mantine requires
 * `xl`, so it is the same as `lg` — `visibleFrom="xl"` therefore behaves like `visibleFrom="lg"`.
 * (767 px falls in no range of the spec; with these lower bounds it counts as xs.)
 */
export const SCREEN_WIDTHS_PX = {
  xs: { min: 0, max: 766 },
  sm: { min: 768, max: 990 },
  md: { min: 992, max: 1198 },
  lg: { min: 1199, max: Number.POSITIVE_INFINITY },
} as const;

export type ScreenSize = keyof typeof SCREEN_WIDTHS_PX;

const em = (px: number) => `${px / 16}em`;

export const MANTINE_BREAKPOINTS = {
  xs: em(SCREEN_WIDTHS_PX.xs.min),
  sm: em(SCREEN_WIDTHS_PX.sm.min),
  md: em(SCREEN_WIDTHS_PX.md.min),
  lg: em(SCREEN_WIDTHS_PX.lg.min),
  xl: em(SCREEN_WIDTHS_PX.lg.min),
} as const;

/** The spec's size for a viewport width in px (767 is treated as xs, see above). */
export function screenSizeForWidth(widthPx: number): ScreenSize {
  if (widthPx >= SCREEN_WIDTHS_PX.lg.min) return 'lg';
  if (widthPx >= SCREEN_WIDTHS_PX.md.min) return 'md';
  if (widthPx >= SCREEN_WIDTHS_PX.sm.min) return 'sm';
  return 'xs';
}
