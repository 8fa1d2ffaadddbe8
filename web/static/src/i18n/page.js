// The words a page's HTML carries, and the language menu in its header. The HTML files hold
// English (what a reader sees before the scripts run) and name each text's key:
// `data-i18n` for the text, `data-i18n-aria-label`, `data-i18n-title` and
// `data-i18n-placeholder` for those attributes. Each page's script imports this module first.

import { LANGUAGES, lang, switchLanguage, t } from './index.js';

/** @typedef {import('./index.js').Key} Key */

const ATTRIBUTES = ['aria-label', 'title', 'placeholder'];

/**
 * Puts the page's language into the static HTML under `root`.
 * @param {ParentNode} root
 */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) {
    el.textContent = t(/** @type {Key} */ (/** @type {HTMLElement} */ (el).dataset.i18n));
  }
  for (const name of ATTRIBUTES) {
    for (const el of root.querySelectorAll(`[data-i18n-${name}]`)) {
      el.setAttribute(name, t(/** @type {Key} */ (el.getAttribute(`data-i18n-${name}`))));
    }
  }
}

/**
 * The language menu: a labelled select of the languages, each named in its own language;
 * choosing one reloads the page in it.
 */
function languageMenu() {
  const select = document.createElement('select');
  select.id = 'language';
  select.setAttribute('aria-label', t('lang.menu'));
  select.title = t('lang.menu');
  for (const l of LANGUAGES) {
    const option = document.createElement('option');
    option.value = l.code;
    option.lang = l.code;
    option.textContent = l.name;
    option.selected = l.code === lang;
    select.append(option);
  }
  select.addEventListener('change', () => switchLanguage(/** @type {import('./index.js').Lang} */ (select.value)));
  const box = document.createElement('div');
  box.className = 'language';
  box.append(select);
  return box;
}

/** Sets up the page once: its language attribute, its static words, the menu. */
function setUpPage() {
  document.documentElement.lang = lang;
  translateStatic();
  const header = document.querySelector('header.top');
  if (header && !document.getElementById('language')) header.append(languageMenu());
}

setUpPage();
