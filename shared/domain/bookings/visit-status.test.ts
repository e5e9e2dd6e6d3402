import { describe, expect, it } from 'vitest';
import { nextStatus, takesPlace, isOnClass, isCancelled, type Actor, type VisitAction } from './visit-status';

const ALL = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
type S = (typeof ALL)[number];

/**
 * Every action from every status: the allowed moves (by staff, by self, paid / unpaid); every other
 * pair is refused. Rows: [action, from, actor, paid, to].
 */
const ALLOWED: Array<[VisitAction, S, Actor, boolean, S]> = [
  ['present', 0, 'staff', true, 1],
  ['present', 9, 'staff', false, 1],
  ['present', 2, 'staff', true, 1],
  ['present', 1, 'staff', true, 1],
  ['absent', 0, 'staff', true, 2],
  ['absent', 9, 'staff', false, 2],
  ['absent', 1, 'staff', true, 2],
  ['absent', 2, 'staff', true, 2],
  ['reset', 1, 'staff', true, 0],
  ['reset', 2, 'staff', true, 0],
  ['reset', 1, 'staff', false, 9],
  ['reset', 2, 'staff', false, 9],
  ['pay', 9, 'staff', true, 0],
  ['classCancel', 0, 'staff', true, 7],
  ['classCancel', 1, 'staff', true, 7],
  ['classCancel', 2, 'staff', true, 7],
  ['classCancel', 8, 'staff', true, 7],
  ['classCancel', 9, 'staff', false, 7],
  ['earlyCancel', 0, 'staff', true, 3],
  ['earlyCancel', 9, 'staff', false, 3],
  ['earlyCancel', 0, 'self', true, 4],
  ['earlyCancel', 9, 'self', false, 4],
  ['earlyCancel', 0, 'api', true, 4],
  ['lateCancel', 0, 'staff', true, 5],
  ['lateCancel', 9, 'staff', false, 5],
  ['lateCancel', 0, 'self', true, 6],
  ['lateCancel', 9, 'self', false, 6],
  ['lateCancel', 0, 'api', true, 6],
  ['leaveWaitingList', 8, 'staff', true, 3],
  ['leaveWaitingList', 8, 'self', true, 4],
  ['promote', 8, 'staff', true, 0],
  ['promote', 8, 'staff', false, 9],
];

const ACTIONS: VisitAction[] = [
  'present',
  'absent',
  'reset',
  'pay',
  'classCancel',
  'earlyCancel',
  'lateCancel',
  'leaveWaitingList',
  'promote',
];

describe('visit status transitions', () => {
  it.each(ALLOWED)('%s from %i by %s (paid %s) → %i', (action, from, actor, paid, to) => {
    expect(nextStatus(from, action, actor, paid)).toEqual({ ok: true, status: to });
  });

  // Every (action, from) pair not listed as allowed for some actor is refused for all actors.
  const allowedPairs = new Set(ALLOWED.map(([a, f]) => `${a}:${f}`));
  const refused = ACTIONS.flatMap((action) =>
    ALL.filter((from) => !allowedPairs.has(`${action}:${from}`)).map((from) => [action, from] as const),
  );
  it.each(refused)('%s from %i is refused', (action, from) => {
    for (const actor of ['staff', 'self', 'api'] as const)
      for (const paid of [true, false])
        expect(nextStatus(from, action, actor, paid)).toEqual({ ok: false, reason: 'notAllowed' });
  });

  it.each([
    [0, true, true, false],
    [1, true, true, false],
    [2, true, true, false],
    [9, true, true, false],
    [8, false, true, false],
    [3, false, false, true],
    [4, false, false, true],
    [5, false, false, true],
    [6, false, false, true],
    [7, false, false, true],
  ] as const)('status %i: takes a place %s, on the class %s, cancelled %s', (s, place, on, cancelled) => {
    expect(takesPlace(s)).toBe(place);
    expect(isOnClass(s)).toBe(on);
    expect(isCancelled(s)).toBe(cancelled);
  });
});
