import { describe, expect, it } from 'vitest';
import { applyPlatformBodyClasses, detectNativePlatform } from './native-platform';

const body = () => {
  const classes = new Set<string>();
  return {
    classList: {
      add: (...names: string[]) => names.forEach((n) => classes.add(n)),
    } as unknown as DOMTokenList,
    classes,
  };
};

describe('native platform', () => {
  it('detects the Android JavaScript interface and the iOS message handlers', () => {
    expect(detectNativePlatform({ Android: { postMessage() {} } })).toBe('android');
    expect(detectNativePlatform({ webkit: { messageHandlers: {} } })).toBe('ios');
    expect(detectNativePlatform({ webkit: {} })).toBeNull(); // Safari without the app
    expect(detectNativePlatform({})).toBeNull();
    expect(detectNativePlatform(undefined)).toBeNull();
  });

  it('marks <body> only inside the apps', () => {
    const ios = body();
    expect(applyPlatformBodyClasses(ios, { webkit: { messageHandlers: {} } })).toBe('ios');
    expect([...ios.classes]).toEqual(['native-app', 'platform-ios']);
    const browser = body();
    expect(applyPlatformBodyClasses(browser, {})).toBeNull();
    expect(browser.classes.size).toBe(0);
  });
});
