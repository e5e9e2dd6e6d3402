/**
 * The renderer's content security policy: Electron sends it as a header for served pages, the host
 * sends it with every file, and index.html carries it as a meta tag for file:// (a unit test keeps
 * the three the same). Mantine writes CSS variables into <style> elements, hence 'unsafe-inline' for
 * styles only; scripts come from the bundle alone.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
  "frame-src 'none'",
].join('; ');
