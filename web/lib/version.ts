/**
 * Logs the version string (major.minor.patch.build) at app start, as every screen does (spec §2).
 * The server puts it in the page context; we only normalise the shape of the message.
 */
export function formatVersion(version: string): string {
  const parts = version.split(/[.+-]/).filter(Boolean);
  // Pad a plain semver (no build number) with build 0 so the log always has four parts.
  while (parts.length < 4) parts.push('0');
  return parts.slice(0, 4).join('.');
}

export function logVersion(
  app: string,
  version: string,
  log: (message: string) => void = console.info,
): string {
  const message = `[${app}] version ${formatVersion(version)}`;
  log(message);
  return message;
}
