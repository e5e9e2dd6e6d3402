import { describe, expect, it } from 'vitest';
import { installVerdict, isNight } from './update-policy';

/** When a downloaded update installs (issue 29): never mid-shift by day, never with changes waiting. */
describe('installVerdict', () => {
  const day = new Date('2026-11-28T12:00:00Z'); // 13:00 in Warsaw
  const night = new Date('2026-11-28T23:30:00Z'); // 00:30 in Warsaw
  const tz = 'Europe/Warsaw';
  const idle = { shiftOpen: false, pending: 0, tooOld: false };

  it('installs when the shift is closed and nothing waits to sync', () => {
    expect(installVerdict(idle, day, tz)).toEqual({ install: true, why: 'shiftClosed' });
  });
  it('waits for the shift by day, installs at night', () => {
    expect(installVerdict({ ...idle, shiftOpen: true }, day, tz)).toEqual({
      install: false,
      why: 'shiftOpen',
    });
    expect(installVerdict({ ...idle, shiftOpen: true }, night, tz)).toEqual({ install: true, why: 'night' });
  });
  it('never while the outbox holds changes, nor during a sale', () => {
    expect(installVerdict({ ...idle, pending: 1 }, night, tz)).toEqual({
      install: false,
      why: 'pendingChanges',
    });
    expect(installVerdict({ ...idle, saleInProgress: true }, night, tz).install).toBe(false);
  });
  it('a desk the cloud refuses installs despite its outbox (which survives the install)', () => {
    expect(installVerdict({ shiftOpen: true, pending: 4, tooOld: true }, day, tz)).toEqual({
      install: true,
      why: 'tooOld',
    });
  });
  it('night is the studio’s: 23:00–05:00 in its zone', () => {
    expect(isNight(new Date('2026-11-28T21:59:00Z'), tz)).toBe(false);
    expect(isNight(new Date('2026-11-28T22:00:00Z'), tz)).toBe(true);
    expect(isNight(new Date('2026-11-29T03:59:00Z'), tz)).toBe(true);
    expect(isNight(new Date('2026-11-29T04:00:00Z'), tz)).toBe(false);
  });
});
