import type { EntryStudio } from '../../shared/contracts/api/entry';
import { STUDIO_SEARCH_DELAY_MS, STUDIO_SEARCH_MIN_CHARS } from '../ui/timings';

/**
 * The studio search of /search (spec §2, §4, §5) as a plain state machine, free of React and the
 * DOM so its timing is unit-tested with fake timers:
 *
 *   input shorter than 3 characters ─────────────────────────────▶ none (any pending search dropped)
 *   input of 3+ characters ─600 ms without another keystroke─▶ loading ─▶ success (studios found)
 *                                                                      └─▶ noResults (none found, or the call failed)
 *
 * Decisions where the spec is silent:
 * - While the 600 ms run, the previous state stays on screen (the list does not blink on each key);
 *   loading starts when the call is sent.
 * - A newer search aborts the older call; an answer of an older search is never shown.
 * - The text is trimmed; the same query as the one shown (or loading) is not sent again.
 */
export type StudioSearchState =
  | { status: 'none' }
  | { status: 'loading'; query: string }
  | { status: 'success'; query: string; studios: EntryStudio[] }
  | { status: 'noResults'; query: string };

export interface SearchTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface StudioSearchOptions {
  search(query: string, signal: AbortSignal): Promise<EntryStudio[]>;
  /** A failed call (not an abort): the screen shows noResults, the caller may report it. */
  onError?(error: unknown, query: string): void;
  timers?: SearchTimers;
  delayMs?: number;
  minChars?: number;
}

const defaultTimers: SearchTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class StudioSearch {
  private current: StudioSearchState = { status: 'none' };
  private timer: unknown = null;
  private pendingQuery: string | null = null;
  private inFlight: AbortController | null = null;
  private sequence = 0;
  private readonly listeners = new Set<() => void>();
  private readonly timers: SearchTimers;
  private readonly delayMs: number;
  private readonly minChars: number;

  constructor(private readonly options: StudioSearchOptions) {
    this.timers = options.timers ?? defaultTimers;
    this.delayMs = options.delayMs ?? STUDIO_SEARCH_DELAY_MS;
    this.minChars = options.minChars ?? STUDIO_SEARCH_MIN_CHARS;
  }

  get state(): StudioSearchState {
    return this.current;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getState = (): StudioSearchState => this.current;

  /** The search field's text changed. */
  input(text: string): void {
    const query = text.trim();
    if (query.length < this.minChars) {
      this.cancelPending();
      this.abortInFlight();
      this.set({ status: 'none' });
      return;
    }
    if (query === this.pendingQuery) return;
    this.cancelPending();
    if (this.current.status !== 'none' && this.current.query === query) return;
    this.pendingQuery = query;
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      this.pendingQuery = null;
      void this.run(query);
    }, this.delayMs);
  }

  /** Drops the pending timer and the call in flight (the screen unmounts). Listeners stay. */
  dispose(): void {
    this.cancelPending();
    this.abortInFlight();
  }

  private async run(query: string): Promise<void> {
    this.abortInFlight();
    const sequence = ++this.sequence;
    const controller = new AbortController();
    this.inFlight = controller;
    this.set({ status: 'loading', query });
    let next: StudioSearchState;
    try {
      const studios = await this.options.search(query, controller.signal);
      next = studios.length > 0 ? { status: 'success', query, studios } : { status: 'noResults', query };
    } catch (error) {
      if (sequence !== this.sequence || controller.signal.aborted) return;
      this.options.onError?.(error, query);
      next = { status: 'noResults', query };
    }
    if (sequence !== this.sequence || controller.signal.aborted) return;
    this.inFlight = null;
    this.set(next);
  }

  private cancelPending(): void {
    if (this.timer !== null) {
      this.timers.clearTimeout(this.timer);
      this.timer = null;
    }
    this.pendingQuery = null;
  }

  private abortInFlight(): void {
    if (this.inFlight) {
      this.inFlight.abort();
      this.inFlight = null;
    }
    this.sequence += 1;
  }

  private set(next: StudioSearchState): void {
    this.current = next;
    for (const listener of this.listeners) listener();
  }
}
