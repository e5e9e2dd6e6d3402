import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EntryStudio } from '../../shared/contracts/api/entry';
import { STUDIO_SEARCH_DELAY_MS } from '../ui/timings';
import { StudioSearch } from './studio-search';

const harmonia: EntryStudio = { uuid: 'u-1', name: 'Harmonia', logoUrl: null, rootSearchAddress: 'Warszawa' };

/** A search whose answers the test releases one by one. */
function controlledSearch() {
  const calls: {
    query: string;
    signal: AbortSignal;
    resolve(s: EntryStudio[]): void;
    reject(e: unknown): void;
  }[] = [];
  const search = vi.fn(
    (query: string, signal: AbortSignal) =>
      new Promise<EntryStudio[]>((resolve, reject) => calls.push({ query, signal, resolve, reject })),
  );
  return { calls, search };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('StudioSearch (spec §2, §4, §5: 600 ms delay, from 3 characters)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts in none; fewer than 3 characters never search', async () => {
    const { search } = controlledSearch();
    const machine = new StudioSearch({ search });
    expect(machine.state).toEqual({ status: 'none' });
    machine.input('Ha');
    machine.input('  Ha  ');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(search).not.toHaveBeenCalled();
    expect(machine.state.status).toBe('none');
  });

  it('waits 600 ms after the last keystroke, then loading, then success', async () => {
    const { calls, search } = controlledSearch();
    const machine = new StudioSearch({ search });
    const seen: string[] = [];
    machine.subscribe(() => seen.push(machine.state.status));
    machine.input('Har');
    await vi.advanceTimersByTimeAsync(STUDIO_SEARCH_DELAY_MS - 1);
    machine.input('Harm'); // restarts the delay
    await vi.advanceTimersByTimeAsync(STUDIO_SEARCH_DELAY_MS - 1);
    expect(search).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(search).toHaveBeenCalledTimes(1);
    expect(calls[0]!.query).toBe('Harm');
    expect(machine.state).toEqual({ status: 'loading', query: 'Harm' });
    calls[0]!.resolve([harmonia]);
    await flush();
    expect(machine.state).toEqual({ status: 'success', query: 'Harm', studios: [harmonia] });
    expect(seen).toEqual(['loading', 'success']);
  });

  it('an empty answer is noResults; a failed call is noResults too, and reported', async () => {
    const { calls, search } = controlledSearch();
    const onError = vi.fn();
    const machine = new StudioSearch({ search, onError });
    machine.input('zzz');
    await vi.advanceTimersByTimeAsync(STUDIO_SEARCH_DELAY_MS);
    calls[0]!.resolve([]);
    await flush();
    expect(machine.state).toEqual({ status: 'noResults', query: 'zzz' });

    machine.input('yyy');
    await vi.advanceTimersByTimeAsync(STUDIO_SEARCH_DELAY_MS);
    const failure = new Error('500');
    calls[1]!.reject(failure);
    await flush();
    expect(machine.state).toEqual({ status: 'noResults', query: 'yyy' });
    expect(onError).toHaveBeenCalledWith(failure, 'yyy');
  });

  it('shorter input clears the state at once and drops the call in flight', async () => {
    const { calls, search } = controlledSearch();
    const machine = new StudioSearch({ search });
    machine.input('Harm');
    await vi.advanceTimersByTimeAsync(STUDIO_SEARCH_DELAY_MS);
    expect(machine.state.status).toBe('loading');
    machine.input('Ha');
    expect(machine.state).toEqual({ status: 'none' });
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[0]!.resolve([harmonia]);
    await flush();
    expect(machine.state).toEqual({ status: 'none' });
  });

  it('an older answer never replaces a newer search', async () => {
    const { calls, search } = controlledSearch();
    const machine = new StudioSearch({ search });
    machine.input('Har');
    await vi.advanceTimersByTimeAsync(STUDIO_SEARCH_DELAY_MS);
    machine.input('Yog');
    await vi.advanceTimersByTimeAsync(STUDIO_SEARCH_DELAY_MS);
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[1]!.resolve([]);
    calls[0]!.resolve([harmonia]);
    await flush();
    expect(machine.state).toEqual({ status: 'noResults', query: 'Yog' });
  });

  it('keeps the shown result during the delay and does not repeat the same query', async () => {
    const { calls, search } = controlledSearch();
    const machine = new StudioSearch({ search });
    machine.input('Harm');
    await vi.advanceTimersByTimeAsync(STUDIO_SEARCH_DELAY_MS);
    calls[0]!.resolve([harmonia]);
    await flush();
    machine.input('Harmo');
    expect(machine.state.status).toBe('success');
    machine.input('Harm '); // back to the shown query (trimmed): nothing to do
    await vi.advanceTimersByTimeAsync(STUDIO_SEARCH_DELAY_MS * 2);
    expect(search).toHaveBeenCalledTimes(1);
  });

  it('dispose drops the pending search', async () => {
    const { search } = controlledSearch();
    const machine = new StudioSearch({ search });
    machine.input('Harm');
    machine.dispose();
    await vi.advanceTimersByTimeAsync(STUDIO_SEARCH_DELAY_MS * 2);
    expect(search).not.toHaveBeenCalled();
  });
});
