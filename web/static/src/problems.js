// A refusal in the reader's language. The server answers every refusal with a stable `code`
// and an English `detail` (RFC 9457 problem+json); the catalogues word each code a person can
// meet through this client as `problem.<code>`. English shows the server's own detail (it is
// English already, and often more specific: it names the rule, the seat or the amount); German
// and French show the catalogue's sentence with the server's detail in a smaller line under it
// (visible, so it reads on a phone too, where no pointer shows a `title`), so nothing is lost. A code the catalogues do not know shows the server's detail; an
// answer that is no problem document (a proxy's "503 Service Unavailable") is worded by its status.

import { ApiError } from './api.js';
import { h, replace } from './dom.js';
import { has, lang, t } from './i18n/index.js';

/** A code for an answer that was no problem document (a proxy's page), by its status. */
const BY_STATUS = /** @type {Record<number, string>} */ ({ 429: 'rate_limited', 500: 'internal', 502: 'unavailable', 503: 'unavailable', 504: 'unavailable' });

/**
 * The words to show for a failure, and the server's own words when they differ.
 * @param {unknown} e an `ApiError`, another `Error`, or anything thrown
 * @returns {{ text: string, detail: string | null }}
 */
export function problemWords(e) {
  if (!(e instanceof Error)) return { text: String(e), detail: null };
  if (!(e instanceof ApiError)) return { text: e.message, detail: null };
  const code = has(`problem.${e.code}`) ? e.code : e.code.startsWith('http_') ? BY_STATUS[e.status] : undefined;
  if (!code || !has(`problem.${code}`)) return { text: e.message, detail: null };
  // The server's English is the better English: the catalogue's only stands in for a status line.
  if (lang === 'en' && code === e.code) return { text: e.message, detail: null };
  const text = t(/** @type {import('./i18n/index.js').Key} */ (`problem.${code}`));
  return { text, detail: e.message === text ? null : e.message };
}

/**
 * Shows a failure in `box`: its words in the page's language and, where they differ, the
 * server's English detail in a line of its own. `wrap` words the text further (the game
 * page's "Refused: …").
 * @param {HTMLElement} box
 * @param {unknown} e
 * @param {(text: string) => string} [wrap]
 */
export function showProblem(box, e, wrap) {
  const { text, detail } = problemWords(e);
  replace(
    box,
    h('span', { class: 'problem-text' }, wrap ? wrap(text) : text),
    detail ? h('small', { class: 'problem-detail', lang: 'en' }, detail) : null,
  );
  if (e instanceof ApiError) box.dataset.code = e.code;
  else delete box.dataset.code;
}
