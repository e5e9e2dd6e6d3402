import { BUTTON_LOCK_TIMEOUT_MS, ENTER_SUBMIT_DEBOUNCE_MS, FEEDBACK_DISPLAY_MS } from './timings';

/**
 * The submit button of spec §4/§9 as a plain state machine, free of React and the DOM so its timing
 * is unit-tested with fake timers and reused by any renderer:
 *
 *   idle ──press──▶ locked (spinner) ──succeed──▶ success ─2.5 s─▶ idle
 *                     │        └──────fail─────▶ error   ─2.5 s─▶ idle
 *                     └──45 s without an answer──▶ idle
 *
 * Decisions where the spec is silent:
 * - A press is refused while locked (no double submit) and while showing success (a redirect
 *   usually follows). It is accepted while showing error, so the user can retry at once.
 * - Presses coming from the Enter key are also refused within 2.5 s of the previous accepted press
 *   (the spec's Enter-to-submit debounce); mouse clicks are governed by the lock alone.
 * - Each accepted press starts a new attempt. An answer for an older attempt is ignored; an answer
 *   for the current attempt that arrives after the 45 s auto-unlock is still shown.
 */
export type SubmitButtonState = 'idle' | 'locked' | 'success' | 'error';
export type PressSource = 'click' | 'enter';

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

const defaultTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

export class SubmitButtonMachine {
  private current: SubmitButtonState = 'idle';
  private attempt = 0;
  private timer: unknown = null;
  private lastPressAt = Number.NEGATIVE_INFINITY;
  private readonly listeners = new Set<(state: SubmitButtonState) => void>();

  constructor(private readonly timers: Timers = defaultTimers) {}

  get state(): SubmitButtonState {
    return this.current;
  }

  /** True while the button must not accept a press (locked or showing success). */
  get isBlocked(): boolean {
    return this.current === 'locked' || this.current === 'success';
  }

  subscribe(listener: (state: SubmitButtonState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Asks to submit. Returns the attempt number to pass to succeed/fail, or null when the press is
   * refused (then the caller must not send anything).
   */
  press(source: PressSource = 'click'): number | null {
    if (this.isBlocked) return null;
    const now = this.timers.now();
    if (source === 'enter' && now - this.lastPressAt < ENTER_SUBMIT_DEBOUNCE_MS) return null;
    this.lastPressAt = now;
    this.attempt += 1;
    const attempt = this.attempt;
    this.transition('locked', BUTTON_LOCK_TIMEOUT_MS, () => {
      if (this.attempt === attempt && this.current === 'locked') this.transition('idle');
    });
    return attempt;
  }

  succeed(attempt: number): void {
    this.finish(attempt, 'success');
  }

  fail(attempt: number): void {
    this.finish(attempt, 'error');
  }

  /** Back to idle at once, dropping timers (e.g. when the form unmounts). */
  reset(): void {
    this.attempt += 1;
    this.transition('idle');
  }

  dispose(): void {
    this.clearTimer();
    this.listeners.clear();
  }

  private finish(attempt: number, outcome: 'success' | 'error'): void {
    if (attempt !== this.attempt) return;
    this.transition(outcome, FEEDBACK_DISPLAY_MS, () => {
      if (this.attempt === attempt && this.current === outcome) this.transition('idle');
    });
  }

  private transition(next: SubmitButtonState, afterMs?: number, then?: () => void): void {
    this.clearTimer();
    if (afterMs !== undefined && then) {
      this.timer = this.timers.setTimeout(() => {
        this.timer = null;
        then();
      }, afterMs);
    }
    if (next === this.current) return;
    this.current = next;
    for (const listener of this.listeners) listener(next);
  }

  private clearTimer(): void {
    if (this.timer !== null) {
      this.timers.clearTimeout(this.timer);
      this.timer = null;
    }
  }
}
