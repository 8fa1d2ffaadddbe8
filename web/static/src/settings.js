// The player's own settings, kept in this browser: a sound on your turn (off by default) and
// the pace at which other players' moves are shown (a burst of a bot's moves is replayed one
// move at a time so that a person can follow it; "instant" shows the result at once).

const KEY = 'boardgames.settings.v1';

/** @typedef {'slow' | 'normal' | 'instant'} Pace */
/** @typedef {{sound: boolean, pace: Pace}} Settings */

/** Milliseconds each of another player's moves stays on screen, by pace. */
export const PACE_MS = { slow: 1400, normal: 700, instant: 0 };

/** @returns {Settings} */
export function settings() {
  /** @type {Settings} */
  const fallback = { sound: false, pace: 'normal' };
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    const pace = stored && stored.pace in PACE_MS ? stored.pace : fallback.pace;
    return { sound: stored?.sound === true, pace };
  } catch {
    return fallback;
  }
}

/** @param {Partial<Settings>} change */
export function changeSettings(change) {
  localStorage.setItem(KEY, JSON.stringify({ ...settings(), ...change }));
}
