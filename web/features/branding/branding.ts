/**
 * The studio's colours as the CSS variables Mantine's components read for the primary palette
 * (`studio`, web/ui/theme.ts): filled, hover, light and outline shades derived with color-mix, so one
 * chosen colour restyles every button, link and badge of the front office, kiosk and widget.
 */
export function brandVariables(primary: string | null, accent: string | null): Record<string, string> {
  if (!primary) return accent ? { '--studio-accent': accent } : {};
  const vars: Record<string, string> = {
    '--mantine-color-studio-filled': primary,
    '--mantine-color-studio-filled-hover': `color-mix(in srgb, ${primary} 85%, black)`,
    '--mantine-color-studio-light': `color-mix(in srgb, ${primary} 12%, transparent)`,
    '--mantine-color-studio-light-hover': `color-mix(in srgb, ${primary} 18%, transparent)`,
    '--mantine-color-studio-light-color': primary,
    '--mantine-color-studio-outline': primary,
    '--mantine-color-studio-outline-hover': `color-mix(in srgb, ${primary} 8%, transparent)`,
    '--mantine-primary-color-filled': primary,
    '--mantine-primary-color-filled-hover': `color-mix(in srgb, ${primary} 85%, black)`,
    '--mantine-primary-color-light': `color-mix(in srgb, ${primary} 12%, transparent)`,
    '--mantine-primary-color-light-color': primary,
    '--mantine-color-anchor': primary,
    '--studio-primary': primary,
  };
  for (let shade = 0; shade <= 9; shade += 1) {
    const mix = shade < 6 ? `color-mix(in srgb, ${primary} ${20 + shade * 15}%, white)` : primary;
    vars[`--mantine-color-studio-${shade}`] =
      shade <= 6 ? mix : `color-mix(in srgb, ${primary} ${100 - (shade - 6) * 12}%, black)`;
  }
  vars['--studio-accent'] = accent ?? primary;
  return vars;
}
