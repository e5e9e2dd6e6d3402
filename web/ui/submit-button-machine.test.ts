import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SubmitButtonMachine } from './submit-button-machine';
import { BUTTON_LOCK_TIMEOUT_MS, ENTER_SUBMIT_DEBOUNCE_MS, FEEDBACK_DISPLAY_MS } from './timings';

describe('SubmitButtonMachine (spec §4/§9 timings)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('uses the spec constants', () => {
    expect(BUTTON_LOCK_TIMEOUT_MS).toBe(45_000);
    expect(FEEDBACK_DISPLAY_MS).toBe(2_500);
    expect(ENTER_SUBMIT_DEBOUNCE_MS).toBe(2_500);
  });

  it('locks on press and refuses a second press while locked', () => {
    const machine = new SubmitButtonMachine();
    expect(machine.press()).toBe(1);
    expect(machine.state).toBe('locked');
    expect(machine.press()).toBeNull();
  });

  it('auto-unlocks after exactly 45 s without an answer', () => {
    const machine = new SubmitButtonMachine();
    machine.press();
    vi.advanceTimersByTime(BUTTON_LOCK_TIMEOUT_MS - 1);
    expect(machine.state).toBe('locked');
    vi.advanceTimersByTime(1);
    expect(machine.state).toBe('idle');
  });

  it('shows success for 2.5 s, then returns to normal', () => {
    const machine = new SubmitButtonMachine();
    const attempt = machine.press()!;
    vi.advanceTimersByTime(1_000);
    machine.succeed(attempt);
    expect(machine.state).toBe('success');
    expect(machine.press()).toBeNull(); // no double submit while success shows
    vi.advanceTimersByTime(FEEDBACK_DISPLAY_MS - 1);
    expect(machine.state).toBe('success');
    vi.advanceTimersByTime(1);
    expect(machine.state).toBe('idle');
    // The 45 s lock timer was cancelled: nothing happens at the old deadline.
    vi.advanceTimersByTime(BUTTON_LOCK_TIMEOUT_MS);
    expect(machine.state).toBe('idle');
  });

  it('shows error for 2.5 s and lets the user retry at once', () => {
    const machine = new SubmitButtonMachine();
    const first = machine.press()!;
    machine.fail(first);
    expect(machine.state).toBe('error');
    vi.advanceTimersByTime(FEEDBACK_DISPLAY_MS);
    expect(machine.state).toBe('idle');

    const second = machine.press()!;
    machine.fail(second);
    const third = machine.press(); // retry during the error display
    expect(third).toBe(3);
    expect(machine.state).toBe('locked');
    // The error display timer of attempt 2 must not unlock attempt 3.
    vi.advanceTimersByTime(FEEDBACK_DISPLAY_MS);
    expect(machine.state).toBe('locked');
  });

  it('ignores answers of older attempts, shows a late answer of the current one', () => {
    const machine = new SubmitButtonMachine();
    const first = machine.press()!;
    vi.advanceTimersByTime(BUTTON_LOCK_TIMEOUT_MS);
    expect(machine.state).toBe('idle');
    machine.succeed(first); // late but still current: shown
    expect(machine.state).toBe('success');
    vi.advanceTimersByTime(FEEDBACK_DISPLAY_MS);

    const second = machine.press()!;
    machine.fail(first); // stale
    expect(machine.state).toBe('locked');
    machine.succeed(second);
    expect(machine.state).toBe('success');
  });

  it('debounces Enter-to-submit for 2.5 s after the previous press', () => {
    const machine = new SubmitButtonMachine();
    const first = machine.press('enter')!;
    machine.fail(first);
    vi.advanceTimersByTime(ENTER_SUBMIT_DEBOUNCE_MS - 1);
    expect(machine.press('enter')).toBeNull();
    vi.advanceTimersByTime(1);
    expect(machine.press('enter')).not.toBeNull();
  });

  it('notifies listeners on each change and stops after dispose', () => {
    const machine = new SubmitButtonMachine();
    const seen: string[] = [];
    machine.subscribe((state) => seen.push(state));
    const attempt = machine.press()!;
    machine.succeed(attempt);
    vi.advanceTimersByTime(FEEDBACK_DISPLAY_MS);
    expect(seen).toEqual(['locked', 'success', 'idle']);
    machine.press();
    machine.dispose();
    vi.advanceTimersByTime(BUTTON_LOCK_TIMEOUT_MS);
    expect(seen).toEqual(['locked', 'success', 'idle', 'locked']);
  });

  it('reset returns to idle at once and drops the running attempt', () => {
    const machine = new SubmitButtonMachine();
    const attempt = machine.press()!;
    machine.reset();
    expect(machine.state).toBe('idle');
    machine.succeed(attempt);
    expect(machine.state).toBe('idle');
  });
});
