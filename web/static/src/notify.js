// Telling a player it is their turn when they are looking elsewhere: the tab's title and icon
// while it is their turn (seen in a row of tabs), a browser notification when it becomes their
// turn while the tab is hidden (asked for once, with a button: browsers ignore a request for
// permission that no click made), and a warning when their running clock is low (in the dock,
// announced, and as a notification when the tab is hidden).

import { serverNow } from './api.js';
import { LOW_MS, clockText } from './clocks.js';
import { h, replace } from './dom.js';
import { t } from './i18n/index.js';

/** @typedef {import('./api.js').Schemas['SeatClock']} SeatClock */

/** Where this browser remembers that it asked for the permission (it asks once). */
const ASKED_KEY = 'boardgames.notify.asked';

/**
 * The turn as the page last showed it.
 * @type {{gameId: string, game: string, name: string, yourTurn: boolean | null, clock: SeatClock | null, low: boolean, warned: string | null}}
 */
const state = { gameId: '', game: '', name: '', yourTurn: null, clock: null, low: false, warned: null };

/** @type {Notification | null} */
let shown = null;
/** @type {string | null} the page's own icon, to go back to */
let plainIcon = null;

/**
 * What the page shows now: whose turn, for the title, the icon, a notification and the clock's
 * warning. Called with every render.
 * @param {{gameId: string, game: string, name: string, yourTurn: boolean, clock: SeatClock | null}} now
 *   `game` the game's title, `name` the viewer's seat name, `clock` the viewer's running clock
 */
export function showTurn(now) {
  const became = now.yourTurn && state.yourTurn === false;
  Object.assign(state, { gameId: now.gameId, game: now.game, name: now.name, yourTurn: now.yourTurn, clock: now.yourTurn ? now.clock : null });
  if (became && hidden()) notify(t('notify.title', { game: now.game }), t('notify.body', { name: now.name }), 'turn');
  if (!now.yourTurn) closeShown();
  refresh();
}

/** Whether the player cannot see the page (another tab, a minimised window). */
function hidden() {
  return document.visibilityState === 'hidden';
}

/** Redraws the title, the icon and the clock's warning from `state` (also once a second). */
function refresh() {
  const left = state.clock?.running && state.clock.deadline ? Date.parse(state.clock.deadline) - serverNow() : null;
  const low = left !== null && left < LOW_MS;
  const prefix = state.yourTurn ? `${low ? '⚠' : '●'} ${t('game.yourTurnTitle')} · ` : '';
  const title = `${prefix}${state.game || t('game.game')}`;
  if (document.title !== title) document.title = title;
  setIcon(!!state.yourTurn);
  const box = document.getElementById('low-time');
  if (box) {
    if (low && left !== null) {
      // Said once when it starts (the alert), then only the time changes.
      if (!state.low) replace(box, t('notify.lowTime', { time: clockText(left) }));
      else box.textContent = t('notify.lowTime', { time: clockText(left) });
    }
    box.hidden = !low;
  }
  document.body.dataset.lowTime = String(low);
  // One notification per running clock (its deadline), when the player is elsewhere.
  const deadline = state.clock?.deadline ?? null;
  if (low && hidden() && deadline && state.warned !== deadline && left !== null) {
    state.warned = deadline;
    notify(t('notify.lowTitle', { game: state.game }), t('notify.lowTime', { time: clockText(left) }), 'low');
  }
  state.low = low;
}

/**
 * The tab's icon: the page's own, or with a green dot while it is the player's turn.
 * @param {boolean} yourTurn
 */
function setIcon(yourTurn) {
  const link = /** @type {HTMLLinkElement | null} */ (document.querySelector('link[rel="icon"]'));
  if (!link) return;
  plainIcon ??= link.href;
  const want = yourTurn ? turnIcon() : plainIcon;
  if (link.href !== want) link.href = want;
  link.dataset.turn = String(yourTurn);
}

/**
 * The site's icon (a die) with a green dot in its corner: `favicon-turn.svg` beside the page's
 * own icon. A file, not a data URL, so that the page's markup carries no encoded SVG (whose
 * `%3D`s read like Acquire's tile 3D to anyone searching the page for hidden tiles).
 */
function turnIcon() {
  const link = /** @type {HTMLLinkElement | null} */ (document.querySelector('link[rel="icon"]'));
  const plain = plainIcon ?? link?.href ?? '/favicon.svg';
  return plain.replace(/favicon\.svg$/, 'favicon-turn.svg');
}

/**
 * Shows a browser notification, when the player allowed them. Clicking it brings the tab
 * forward; one per game and kind (a newer one replaces it).
 * @param {string} title
 * @param {string} body
 * @param {'turn' | 'low'} kind
 */
function notify(title, body, kind) {
  const N = globalThis.Notification;
  if (!N || N.permission !== 'granted') return;
  try {
    closeShown();
    shown = new N(title, { body, tag: `${state.gameId}:${kind}`, icon: turnIcon() });
    shown.onclick = () => {
      window.focus();
      shown?.close();
    };
  } catch {
    // Some browsers allow notifications only from a service worker: the title and icon remain.
  }
}

function closeShown() {
  shown?.close();
  shown = null;
}

/**
 * The offer to notify: a button that asks the browser's permission (a click must ask), and
 * one to say no. Shown to a player of a game under way, until asked once; `null` otherwise.
 * @param {() => void} changed called once the answer is known (the page drops the offer)
 * @returns {HTMLElement | null}
 */
export function notifyOffer(changed) {
  const N = globalThis.Notification;
  if (!N || N.permission !== 'default' || asked()) return null;
  const done = () => {
    try {
      localStorage.setItem(ASKED_KEY, 'true');
    } catch {
      // Without storage the offer comes back on the next page: harmless.
    }
    changed();
  };
  return h(
    'p',
    { class: 'notify-offer', id: 'notify-offer' },
    h('span', {}, t('notify.offer')),
    h(
      'button',
      {
        type: 'button',
        id: 'notify-allow',
        onclick: async () => {
          try {
            await N.requestPermission();
          } finally {
            done();
          }
        },
      },
      t('notify.allow'),
    ),
    h('button', { type: 'button', id: 'notify-no', class: 'cancel', onclick: done }, t('notify.no')),
  );
}

/** Whether this browser asked for the permission already. */
function asked() {
  try {
    return localStorage.getItem(ASKED_KEY) === 'true';
  } catch {
    return false;
  }
}

/** Starts the once-a-second check of the clock, and closes a notification once the tab is seen. */
export function startWatching() {
  setInterval(refresh, 1000);
  document.addEventListener('visibilitychange', () => {
    if (!hidden()) closeShown();
  });
}
