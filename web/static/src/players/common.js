// What the players' pages share: the game catalogue's titles, the page's error box, and how
// ratings, places and dates are worded (in the page's language: `../i18n/dates.js`).

import * as api from '../api.js';
import { byId, replace } from '../dom.js';
import { oneDecimal } from '../i18n/dates.js';
import { tOr } from '../i18n/index.js';
import { showProblem } from '../problems.js';

export { dateText, oneDecimal, ordinal } from '../i18n/dates.js';

/** @typedef {import('../api.js').GameType} GameType */

/** @type {Promise<GameType[]> | null} */
let catalogue = null;

/**
 * The hosted game types (asked once per page).
 * @returns {Promise<GameType[]>}
 */
export function gameTypes() {
  catalogue ??= api.gameTypes();
  return catalogue;
}

/**
 * A game type's title in the page's language ("Tycoon (Kramer & Rösner)"), else the server's,
 * or its name while the catalogue is not known.
 * @param {GameType[]} types
 * @param {string} type
 */
export function titleOf(types, type) {
  return tOr(`games.${type}`, types.find((t) => t.type === type)?.title ?? type);
}

/**
 * A game type's short title, for lists and tabs: "Tycoon" for "Tycoon (Kramer & Rösner)".
 * @param {GameType[]} types
 * @param {string} type
 */
export function shortTitleOf(types, type) {
  return titleOf(types, type).replace(/\s*\(.*\)$/, '');
}

/** @param {unknown} e */
export function showError(e) {
  const box = byId('page-error');
  showProblem(box, e);
  box.hidden = false;
}

export function clearError() {
  byId('page-error').hidden = true;
}

/**
 * The rating a leaderboard ranks by: the skill less three times its uncertainty, so that a
 * newcomer's few lucky games do not put them on top.
 * @param {number} rating
 * @param {number} uncertainty
 */
export function conservative(rating, uncertainty) {
  return rating - 3 * uncertainty;
}

/**
 * A change with its sign: "+2.6", "−1.8", "±0.0" (the decimal mark of the page's language).
 * @param {number} delta
 */
export function signed(delta) {
  const text = oneDecimal(Math.abs(delta));
  if (Math.round(Math.abs(delta) * 10) === 0) return `±${text}`;
  return delta > 0 ? `+${text}` : `−${text}`;
}
