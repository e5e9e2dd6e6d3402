import { Avatar } from '@mantine/core';

/**
 * A studio's logo, or a placeholder with the name's initials (spec §2 "logo (or placeholder)").
 * With `placeholder={false}` nothing is shown when there is no logo ("logo if present").
 */
export function StudioLogo({
  name,
  logoUrl,
  placeholder = true,
  size = 44,
}: {
  name: string;
  logoUrl: string | null;
  placeholder?: boolean;
  size?: number;
}) {
  if (!logoUrl && !placeholder) return null;
  return (
    <Avatar
      src={logoUrl}
      alt={name}
      name={name}
      color="initials"
      size={size}
      radius="md"
      data-testid={logoUrl ? 'studio-logo' : 'studio-logo-placeholder'}
      style={{ flexShrink: 0 }}
    />
  );
}
