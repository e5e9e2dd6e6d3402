/**
 * The mobile apps embed the web apps in a web view and expose a message bus (spec §2: "when a
 * native platform bus is present, body classes mark the platform"). The check:
 * - Android: the app injects a JavaScript interface object as `window.Android`
 *   (WebView.addJavascriptInterface), so a truthy `window.Android` means the Android app.
 * - iOS: WKWebView script message handlers appear as `window.webkit.messageHandlers`; a browser
 *   (even Safari) does not define `messageHandlers`, so its presence means the iOS app.
 * Nothing else (user agent, screen size) is used: a phone browser is not the native app.
 */
export type NativePlatform = 'android' | 'ios';

interface NativeWindow {
  Android?: unknown;
  webkit?: { messageHandlers?: unknown };
}

export function detectNativePlatform(
  win: unknown = typeof window === 'undefined' ? undefined : window,
): NativePlatform | null {
  if (!win || typeof win !== 'object') return null;
  const w = win as NativeWindow;
  if (w.Android) return 'android';
  if (w.webkit && typeof w.webkit === 'object' && w.webkit.messageHandlers) return 'ios';
  return null;
}

export const PLATFORM_BODY_CLASSES: Record<NativePlatform, string[]> = {
  android: ['native-app', 'platform-android'],
  ios: ['native-app', 'platform-ios'],
};

/** Adds the platform classes to <body>; returns the platform found (or null: nothing added). */
export function applyPlatformBodyClasses(
  body: Pick<HTMLElement, 'classList'> | null = typeof document === 'undefined' ? null : document.body,
  win?: unknown,
): NativePlatform | null {
  const platform = detectNativePlatform(win === undefined && typeof window !== 'undefined' ? window : win);
  if (platform && body) body.classList.add(...PLATFORM_BODY_CLASSES[platform]);
  return platform;
}
