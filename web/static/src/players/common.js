// What the players' pages share: the game catalogue's titles, the page's error box, and how
// ratings, places and dates are worded.

import * as api from '../api.js';
import { byId, replace } from '../dom.js';

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
 * A game type's title ("Tycoon"), or its name while the catalogue is not known.
 * @param {GameType[]} types
 * @param {string} type
 */
export function titleOf(types, type) {
  return types.find((t) => t.type === type)?.title ?? type;
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
  replace(box, e instanceof Error ? e.message : String(e));
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

/** @param {number} x */
export function oneDecimal(x) {
  const text = (Math.round(Math.abs(x) * 10) / 10).toFixed(1);
  // A minus sign, not a hyphen; and no "−0.0".
  return x < 0 && text !== '0.0' ? `−${text}` : text;
}

/**
 * A change with its sign: "+2.6", "−1.8", "±0.0".
 * @param {number} delta
 */
export function signed(delta) {
  const text = oneDecimal(Math.abs(delta));
  if (text === '0.0') return '±0.0';
  return delta > 0 ? `+${text}` : `−${text}`;
}

/**
 * "1st", "2nd", "3rd", "4th" …
 * @param {number} n
 */
export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/**
 * A date in the reader's words.
 * @param {string} iso
 */
export function dateText(iso) {
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}
