import { useEffect } from 'react';

/**
 * Calls `onIdle` after `seconds` without a touch, click or key while `active`: a kiosk left on a
 * client's screen goes back to the start by itself (and shows nobody's bookings to the next person).
 */
export function useIdleReset(active: boolean, seconds: number, onIdle: () => void): void {
  useEffect(() => {
    if (!active) return;
    let timer = window.setTimeout(onIdle, seconds * 1000);
    const again = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(onIdle, seconds * 1000);
    };
    const events = ['pointerdown', 'keydown', 'touchstart'] as const;
    for (const e of events) window.addEventListener(e, again, { passive: true });
    return () => {
      window.clearTimeout(timer);
      for (const e of events) window.removeEventListener(e, again);
    };
  }, [active, seconds, onIdle]);
}
