import type { SignupStudio, StudioCreateResult } from '../../shared/contracts/api/entry';

/**
 * The sign-up states of spec §2/§4: signup → studioAlreadyExists when the email check finds
 * studios; back to signup through Create account (then without the marketing bullets and without a
 * further check); signup → success when the studio is created.
 */
export type SignupState =
  | { step: 'signup'; showBullets: boolean; checkExisting: boolean }
  | { step: 'studioAlreadyExists'; studios: SignupStudio[] }
  | { step: 'success'; emailAddress: string; result: StudioCreateResult };

export type SignupEvent =
  | { type: 'existingFound'; studios: SignupStudio[] }
  | { type: 'createAccount' }
  | { type: 'created'; emailAddress: string; result: StudioCreateResult };

export const INITIAL_SIGNUP_STATE: SignupState = { step: 'signup', showBullets: true, checkExisting: true };

export function signupTransition(state: SignupState, event: SignupEvent): SignupState {
  switch (event.type) {
    case 'existingFound':
      if (state.step !== 'signup' || !state.checkExisting || event.studios.length === 0) return state;
      return { step: 'studioAlreadyExists', studios: event.studios };
    case 'createAccount':
      return state.step === 'studioAlreadyExists'
        ? { step: 'signup', showBullets: false, checkExisting: false }
        : state;
    case 'created':
      return state.step === 'signup'
        ? { step: 'success', emailAddress: event.emailAddress, result: event.result }
        : state;
  }
}

/** The logo of a studio in the studioAlreadyExists list (spec §3: appearance, then settings). */
export function signupStudioLogo(studio: SignupStudio): string | null {
  return (
    studio.appearance.defaultLogo?.absoluteUrl ??
    studio.settings.defaultLogo?.absoluteUrl ??
    studio.logoUrl ??
    null
  );
}
