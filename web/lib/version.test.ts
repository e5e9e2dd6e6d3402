import { describe, expect, it, vi } from 'vitest';
import { formatVersion, logVersion } from './version';

describe('version', () => {
  it('always has major.minor.patch.build', () => {
    expect(formatVersion('1.2.3.45')).toBe('1.2.3.45');
    expect(formatVersion('1.2.3+45')).toBe('1.2.3.45');
    expect(formatVersion('0.1.0')).toBe('0.1.0.0');
  });

  it('logs once at start', () => {
    const log = vi.fn();
    logVersion('kiosk', '2.0.1.9', log);
    expect(log).toHaveBeenCalledWith('[kiosk] version 2.0.1.9');
  });
});
