// The page's language: English, German or French, chosen from what the browser prefers
// (`navigator.languages`, the same list the browser sends as `Accept-Language`) unless the
// reader picked one in the language menu (kept in this browser). Every word the client shows
// comes from one catalogue per language (`en.js`, `de.js`, `fr.js`, the same keys in each),
// through `t`; this module only chooses and looks up, the words are data.
//
// A change of language reloads the page: every view renders its words from `t` as it draws,
// so a reload is the one place where the language changes, and no half-translated page is
// ever shown.

import de from './de.js';
import en from './en.js';
import fr from './fr.js';

/** @typedef {keyof typeof en} Key */
/** @typedef {'en' | 'de' | 'fr'} Lang */
/** @typedef {Record<string, string | number>} Params */

/** The languages offered, each named in its own language (as a reader looks for it). */
export const LANGUAGES = /** @type {const} */ ([
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
  { code: 'fr', name: 'Français' },
]);

/** @type {Record<Lang, Record<Key, string>>} */
const CATALOGUES = { en, de, fr };

const STORAGE_KEY = 'boardgames.lang';

/**
 * The first of the browser's preferred languages that the client speaks, else English.
 * @param {readonly string[]} preferred e.g. `['de-AT', 'en-US']`
 * @returns {Lang}
 */
export function pickLanguage(preferred) {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'en' || base === 'de' || base === 'fr') return base;
  }
  return 'en';
}

/** @returns {Lang} */
function chosenLanguage() {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored === 'en' || stored === 'de' || stored === 'fr') return stored;
  } catch {
    // No storage (a private window may refuse it): the browser's preference decides.
  }
  return pickLanguage(navigator.languages?.length ? navigator.languages : [navigator.language ?? 'en']);
}

/** The language of this page, fixed for its lifetime (a change reloads). */
export const lang = chosenLanguage();

const words = CATALOGUES[lang];
const plurals = new Intl.PluralRules(lang);

/**
 * The text of `key` in the page's language, with `{name}` placeholders filled from `params`.
 * A key missing from a catalogue (which the catalogue test forbids) falls back to English.
 * @param {Key} key
 * @param {Params} [params]
 * @returns {string}
 */
export function t(key, params) {
  const text = words[key] ?? en[key] ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? format(params[name]) : whole));
}

/**
 * A counted text: `key.one` or `key.other` by the language's plural rules for `count`
 * (French says "1 maison" and "0 maison", English "0 houses"), with `{count}` filled in.
 * @param {string} key the stem; the catalogues have `stem.one` and `stem.other`
 * @param {number} count
 * @param {Params} [params]
 */
export function tn(key, count, params = {}) {
  const form = plurals.select(count) === 'one' ? 'one' : 'other';
  return t(/** @type {Key} */ (`${key}.${form}`), { count, ...params });
}

/**
 * The text of `key` when the catalogues have it, else `fallback` (the server's English words
 * for an option the catalogues do not know yet).
 * @param {string} key
 * @param {string} fallback
 * @param {Params} [params]
 */
export function tOr(key, fallback, params) {
  return key in words ? t(/** @type {Key} */ (key), params) : fallback;
}

/** Whether the catalogues have `key`. @param {string} key */
export function has(key) {
  return key in words;
}

const numbers = new Intl.NumberFormat(lang);

/**
 * A number as the language writes it: 1,500 · 1.500 · 1 500.
 * @param {number} n
 */
export function number(n) {
  return numbers.format(n);
}

/**
 * An amount of a game's money as its edition prints it, in the language's digits: Monopoly's
 * "M 1.500", Tycoon's "16 Mio.", Hotel-König's "6.000,–" (the catalogues' `money.*`).
 * @param {'monopoly' | 'tycoon' | 'acquire'} game
 * @param {number} amount
 */
export function money(game, amount) {
  return t(`money.${game}`, { amount });
}

/** @param {string | number} value */

function format(value) {
  return typeof value === 'number' ? number(value) : value;
}

/**
 * A list as the language joins it: "Ann, Bob and Cy" · "Ann, Bob und Cy" · "Ann, Bob et Cy".
 * @param {string[]} items
 * @param {'conjunction' | 'disjunction'} [type]
 */
export function list(items, type = 'conjunction') {
  return new Intl.ListFormat(lang, { style: 'long', type }).format(items);
}

/**
 * Changes the page's language: remembered in this browser, then the page is drawn again.
 * @param {Lang} code
 */
export function switchLanguage(code) {
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // Without storage the choice lasts only for this page.
  }
  location.reload();
}
