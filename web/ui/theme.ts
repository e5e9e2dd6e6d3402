import { createTheme, Tooltip, type MantineColorsTuple } from '@mantine/core';
import { MANTINE_BREAKPOINTS } from './breakpoints';

/** A calm teal: reads as "wellness" without the usual gym red. */
const studio: MantineColorsTuple = [
  '#e6fcf8',
  '#d5f4ee',
  '#aee7dc',
  '#83dac9',
  '#5fcfb9',
  '#48c8af',
  '#38c4aa',
  '#27ad95',
  '#179a84',
  '#008570',
];

export const theme = createTheme({
  primaryColor: 'studio',
  primaryShade: { light: 8, dark: 6 },
  colors: { studio },
  breakpoints: MANTINE_BREAKPOINTS,
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji"',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
  components: {
    // Spec §9 tooltip defaults: at most 350 px wide (longer texts wrap), above everything (z-index 9999).
    Tooltip: Tooltip.extend({ defaultProps: { zIndex: 9999, multiline: true, maw: 350 } }),
  },
});
