import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { SubmitButtonMachine, type PressSource, type SubmitButtonState } from './submit-button-machine';

export interface SubmitButtonControl {
  state: SubmitButtonState;
  /**
   * Runs `action` as one press of the button: refused (returns `{ accepted: false }`) while the
   * button is locked; otherwise locks, awaits, and shows success or error for 2.5 s.
   */
  run<T>(
    action: () => Promise<T>,
    source?: PressSource,
  ): Promise<
    | { accepted: false }
    | { accepted: true; ok: true; value: T }
    | { accepted: true; ok: false; error: unknown }
  >;
  reset(): void;
}

/** React binding of SubmitButtonMachine (one machine per mounted form). */
export function useSubmitButton(): SubmitButtonControl {
  const [machine] = useState(() => new SubmitButtonMachine());
  useEffect(() => () => machine.dispose(), [machine]);
  const subscribe = useCallback((onChange: () => void) => machine.subscribe(onChange), [machine]);
  const getState = useCallback(() => machine.state, [machine]);
  const state = useSyncExternalStore(subscribe, getState, getState);

  const run: SubmitButtonControl['run'] = useCallback(
    async (action, source = 'click') => {
      const attempt = machine.press(source);
      if (attempt === null) return { accepted: false };
      try {
        const value = await action();
        machine.succeed(attempt);
        return { accepted: true, ok: true, value };
      } catch (error) {
        machine.fail(attempt);
        return { accepted: true, ok: false, error };
      }
    },
    [machine],
  );

  return { state, run, reset: useCallback(() => machine.reset(), [machine]) };
}
