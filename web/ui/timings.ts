/**
 * Timing constants of spec §9, in one place so every screen (and the desktop renderer) behaves the
 * same. Tests import these rather than repeating the numbers.
 */

/** Delay before an automatic redirect (e.g. entry login when user and studio are already known). */
export const REDIRECT_DELAY_MS = 300;
/** A locked submit button unlocks itself after this long, whatever the request is doing. */
export const BUTTON_LOCK_TIMEOUT_MS = 45_000;
/** How long a button shows its success or error state before returning to normal. */
export const FEEDBACK_DISPLAY_MS = 2_500;
/** Enter-to-submit is ignored when it comes again within this window. */
export const ENTER_SUBMIT_DEBOUNCE_MS = 2_500;
/** Studio search waits this long after the last keystroke. */
export const STUDIO_SEARCH_DELAY_MS = 600;
/** Studio search starts only from this many characters. */
export const STUDIO_SEARCH_MIN_CHARS = 3;
/** Table search default input delay. */
export const TABLE_SEARCH_DELAY_MS = 600;
