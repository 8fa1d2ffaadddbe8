// Dates, times, places and ratings as the page's language writes them. Formatted with the
// page's language (`lang`), never the browser's locale: a reader who chose French in the menu
// reads "12 mars 2025" on an English-speaking system, and a German reader "12.03.2025, 14:05".

import { lang, t } from './index.js';

const day = new Intl.DateTimeFormat(lang, { year: 'numeric', month: 'short', day: 'numeric' });
const moment = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
const tenths = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const ordinals = new Intl.PluralRules(lang, { type: 'ordinal' });

/**
 * A day: "Mar 12, 2025" · "12. März 2025" · "12 mars 2025".
 * @param {string | number | Date} when an ISO time, a time value or a date
 */
export function dateText(when) {
  return day.format(new Date(when));
}

/**
 * A day and a time of day: "Mar 12, 2025, 2:05 PM" · "12.03.2025, 14:05" · "12 mars 2025, 14:05".
 * @param {string | number | Date} when
 */
export function dateTimeText(when) {
  return moment.format(new Date(when));
}

/**
 * A number to one decimal, with a minus sign (not a hyphen) and never "−0.0": "25.3" · "25,3".
 * @param {number} x
 */
export function oneDecimal(x) {
  const text = tenths.format(Math.round(Math.abs(x) * 10) / 10);
  return x < 0 && Math.round(Math.abs(x) * 10) !== 0 ? `−${text}` : text;
}

/**
 * A place: "1st", "2nd" · "1.", "2." · "1er", "2e" (the language's ordinal rules pick the
 * catalogue's `people.ordinal.*` form).
 * @param {number} n
 */
export function ordinal(n) {
  const form = ordinals.select(n);
  const key = form === 'one' || form === 'two' || form === 'few' ? form : 'other';
  return t(/** @type {import('./index.js').Key} */ (`people.ordinal.${key}`), { n: String(n) });
}
