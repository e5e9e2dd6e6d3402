import { useEffect, useRef } from 'react';

/**
 * A barcode scanner in keyboard-wedge mode "types" the code very fast and ends it with Enter. People
 * type slower: a key more than `maxGapMs` after the previous one starts a new buffer, and only a run
 * of at least `minLength` characters ended by Enter is a scan.
 */
export class WedgeBuffer {
  private chars = '';
  private last = -Infinity;

  constructor(
    private readonly maxGapMs = 50,
    private readonly minLength = 4,
  ) {}

  /** Feeds one key; answers the scanned code when this key (Enter) completes one. */
  push(key: string, at: number): string | null {
    const gap = at - this.last;
    this.last = at;
    if (key === 'Enter') {
      const code = gap <= this.maxGapMs ? this.chars : '';
      this.chars = '';
      return code.length >= this.minLength ? code : null;
    }
    if (key.length !== 1) return null;
    this.chars = gap <= this.maxGapMs ? this.chars + key : key;
    return null;
  }
}

/**
 * Calls `onScan` for codes scanned while the focus is not in a text field (a field gets the code as
 * typed text and handles Enter itself: the POS search adds an exact barcode match).
 */
export function useBarcodeScanner(onScan: (code: string) => void, enabled = true): void {
  const handler = useRef(onScan);
  useEffect(() => {
    handler.current = onScan;
  });
  useEffect(() => {
    if (!enabled) return;
    const buffer = new WedgeBuffer();
    const listener = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)))
        return;
      const code = buffer.push(event.key, event.timeStamp);
      if (code) {
        event.preventDefault();
        handler.current(code);
      }
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [enabled]);
}
