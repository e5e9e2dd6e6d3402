import { TZDate } from '@date-fns/tz';
import { describe, expect, it } from 'vitest';
import { localDateOf } from './local-dates';

/** The calendar day asked of the time zone directly, every time. */
const direct = (at: number, timeZone: string) => {
  const local = new TZDate(at, timeZone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`;
};

describe('localDateOf (days it has answered are remembered as the instants they span)', () => {
  it('agrees with the time zone around midnights and DST changes, asked in any order', () => {
    const zones = ['Europe/Warsaw', 'America/St_Johns', 'Australia/Lord_Howe', 'Pacific/Chatham', 'UTC'];
    // Around Warsaw's and St John's spring and autumn changes of 2026, and a plain week.
    const anchors = [
      Date.UTC(2026, 2, 29, 0, 0),
      Date.UTC(2026, 9, 25, 0, 0),
      Date.UTC(2026, 2, 8, 5, 30),
      Date.UTC(2026, 10, 1, 4, 30),
      Date.UTC(2026, 3, 5, 15, 0),
      Date.UTC(2026, 5, 1, 12, 0),
    ];
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 4000; i++) {
      const zone = zones[i % zones.length]!;
      const at =
        anchors[Math.floor(random() * anchors.length)]! + Math.round((random() - 0.5) * 3 * 86_400_000);
      expect(localDateOf(new Date(at), zone), `${new Date(at).toISOString()} in ${zone}`).toBe(
        direct(at, zone),
      );
    }
  });

  it('the last instant of a day and the first of the next', () => {
    // Warsaw, 29 March 2026: the day is 23 hours long (02:00 → 03:00).
    const nextMidnight = Date.UTC(2026, 2, 29, 22, 0);
    expect(localDateOf(new Date(Date.UTC(2026, 2, 29, 12, 0)), 'Europe/Warsaw')).toBe('2026-03-29');
    expect(localDateOf(new Date(nextMidnight - 1), 'Europe/Warsaw')).toBe('2026-03-29');
    expect(localDateOf(new Date(nextMidnight), 'Europe/Warsaw')).toBe('2026-03-30');
  });
});
