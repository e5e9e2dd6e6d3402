import { describe, expect, it } from 'vitest';
import {
  applyEventAction,
  canEditEvent,
  type ActionRefusal,
  type ScheduleEventAction,
  type ScheduleEventState,
} from './event-actions';

const NOW = new Date('2026-06-02T12:00:00Z');
const FUTURE = { endsAt: new Date('2026-06-03T12:00:00Z') };
const ENDED = { endsAt: new Date('2026-06-02T11:00:00Z') };
const S = (
  status: ScheduleEventState['status'],
  hidden = false,
  bookableOnline = true,
): ScheduleEventState => ({
  status,
  hidden,
  bookableOnline,
});

type Row = [
  string,
  ScheduleEventState,
  ScheduleEventAction,
  'future' | 'ended',
  ScheduleEventState | ActionRefusal,
];
const TABLE: Row[] = [
  ['hide a scheduled event', S('scheduled'), 'hide', 'future', S('scheduled', true)],
  ['show a hidden event', S('scheduled', true), 'show', 'future', S('scheduled')],
  ['hide again: no change', S('scheduled', true), 'hide', 'future', S('scheduled', true)],
  ['hide an ended event', S('scheduled'), 'hide', 'ended', S('scheduled', true)],
  ['hide a cancelled event', S('cancelled', false, false), 'hide', 'future', S('cancelled', true, false)],
  ['hide a removed event', S('removed'), 'hide', 'future', 'removed'],
  ['show a removed event', S('removed', true), 'show', 'future', 'removed'],
  ['cancel makes it unbookable', S('scheduled'), 'cancel', 'future', S('cancelled', false, false)],
  ['cancel again: no change', S('cancelled', false, false), 'cancel', 'future', S('cancelled', false, false)],
  ['cancel an ended event', S('scheduled'), 'cancel', 'ended', 'ended'],
  ['cancel a removed event', S('removed'), 'cancel', 'future', 'removed'],
  [
    'restore a cancelled event (stays unbookable)',
    S('cancelled', false, false),
    'restore',
    'future',
    S('scheduled', false, false),
  ],
  ['restore a removed event', S('removed', true, false), 'restore', 'future', S('scheduled', true, false)],
  ['restore a scheduled event: no change', S('scheduled'), 'restore', 'future', S('scheduled')],
  ['restore an ended cancelled event', S('cancelled'), 'restore', 'ended', 'ended'],
  ['remove a scheduled event', S('scheduled'), 'remove', 'future', S('removed', false, false)],
  ['remove a cancelled event', S('cancelled', false, false), 'remove', 'future', S('removed', false, false)],
  ['remove an ended event', S('scheduled'), 'remove', 'ended', 'ended'],
  ['remove a removed event', S('removed'), 'remove', 'future', 'removed'],
  ['make bookable online', S('scheduled', false, false), 'bookableOnline', 'future', S('scheduled')],
  ['make a cancelled event bookable', S('cancelled', false, false), 'bookableOnline', 'future', 'cancelled'],
  ['make an ended event bookable', S('scheduled', false, false), 'bookableOnline', 'ended', 'ended'],
  ['make a removed event bookable', S('removed', false, false), 'bookableOnline', 'future', 'removed'],
  ['make unbookable online', S('scheduled'), 'unbookableOnline', 'future', S('scheduled', false, false)],
  [
    'make an ended event unbookable',
    S('scheduled'),
    'unbookableOnline',
    'ended',
    S('scheduled', false, false),
  ],
  ['make a removed event unbookable', S('removed'), 'unbookableOnline', 'future', 'removed'],
];

describe('schedule event actions', () => {
  it.each(TABLE)('%s', (_name, state, action, when, expected) => {
    const outcome = applyEventAction(state, action, when === 'future' ? FUTURE : ENDED, NOW);
    if (typeof expected === 'string') expect(outcome).toEqual({ ok: false, reason: expected });
    else expect(outcome).toEqual({ ok: true, state: expected });
  });

  it('an event that ends exactly now has ended', () => {
    expect(applyEventAction(S('scheduled'), 'cancel', { endsAt: NOW }, NOW)).toEqual({
      ok: false,
      reason: 'ended',
    });
  });

  it.each([
    ['scheduled', true],
    ['cancelled', true],
    ['removed', false],
  ] as const)('editing a %s event: %s', (status, expected) => {
    expect(canEditEvent(S(status))).toBe(expected);
  });
});
