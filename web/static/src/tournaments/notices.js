// Tells a signed-in player, on whichever page of the site it is loaded in (the players' pages,
// the lobby, the tournament pages), that a tournament round gave them a table: the player's
// stream's `tournament_round` notice becomes a notice at the top of the page with a link to
// the game (or says it is a bye), `tournament_finished` one with the rank. Notices are kept in
// local storage until dismissed or followed, so that one received on one page is still there
// on the next. Every notice is also dispatched on `window` as a `tournament-notice` event, so
// that a tournament page refreshes at once.
//
// The module only adds to the page (a box after its header, its stylesheet); it needs no
// other hook than its script tag and the `player-notice` event of `players/stream.js`.

import { byId, h, replace } from '../dom.js';
import { t, tn } from '../i18n/index.js';
import { identity } from '../players/identity.js';
import { followPlayer } from '../players/stream.js';
import { ordinal } from '../players/common.js';
import { getTournament } from './api.js';

/** @typedef {import('../players/api.js').PlayerNotice} PlayerNotice */

/**
 * A notice kept until dismissed.
 * @typedef {object} KeptNotice
 * @property {string} player_id whose it is (a browser may sign in as someone else later)
 * @property {string} tournament_id
 * @property {string} name the tournament's name
 * @property {'round' | 'finished'} kind
 * @property {number} round
 * @property {string | null} game_id `null`: a bye
 * @property {number | null} rank
 * @property {number | null} points
 */

const STORE = 'boardgames.tournament-notices.v1';
/** At most this many notices are kept (the newest). */
const KEEP = 5;

/** @returns {KeptNotice[]} */
function kept() {
  try {
    const list = JSON.parse(localStorage.getItem(STORE) ?? '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** @param {KeptNotice[]} list */
function keep(list) {
  localStorage.setItem(STORE, JSON.stringify(list.slice(-KEEP)));
}

/**
 * Forgets a tournament's notices (dismissed, or its game opened).
 * @param {string} tournamentId
 */
function forget(tournamentId) {
  keep(kept().filter((n) => n.tournament_id !== tournamentId));
  render();
}

/** Loads the notices' stylesheet, which sits beside the pages' own. */
function addStylesheet() {
  if (document.querySelector('link[data-tournament-notices]')) return;
  const href = new URL('../../tournaments.css', import.meta.url).href;
  if ([...document.styleSheets].some((s) => s.href === href)) return;
  document.head.append(h('link', { rel: 'stylesheet', href, 'data-tournament-notices': true }));
}

/** The box the notices go in: a live region right after the site's header. */
function box() {
  let el = document.getElementById('tournament-notices');
  if (!el) {
    el = h('section', { id: 'tournament-notices', class: 'tournament-notices', 'aria-label': t('tnote.label') }, h('div', { id: 'tournament-notice-list', role: 'status' }));
    const header = document.querySelector('body > header');
    if (header) header.after(el);
    else document.body.prepend(el);
  }
  return el;
}

/** @param {KeptNotice} n */
function words(n) {
  if (n.kind === 'finished') {
    return [
      h('strong', {}, t('tnote.over', { name: n.name })),
      ` ${t('tnote.place', { place: ordinal(n.rank ?? 0), points: tn('tour.points', n.points ?? 0) })} `,
      h('a', { href: `/tournaments/${encodeURIComponent(n.tournament_id)}`, onclick: () => forget(n.tournament_id) }, t('tnote.standings')),
    ];
  }
  if (n.game_id === null) {
    return [
      h('strong', {}, t('tnote.round', { round: n.round, name: n.name })),
      ` ${t('tnote.bye')} `,
      h('a', { href: `/tournaments/${encodeURIComponent(n.tournament_id)}` }, t('tnote.see')),
    ];
  }
  return [
    h('strong', {}, t('tnote.round', { round: n.round, name: n.name })),
    ` ${t('tnote.ready')} `,
    h('a', { class: 'notice-game', href: `/games/${encodeURIComponent(n.game_id)}`, onclick: () => forget(n.tournament_id) }, t('tour.openYours')),
  ];
}

function render() {
  const who = identity();
  // A tournament's own page says the same in its own words.
  const here = location.pathname.startsWith('/tournaments/') ? decodeURIComponent(location.pathname.split('/')[2] ?? '') : null;
  const mine = who ? kept().filter((n) => n.player_id === who.player_id && n.tournament_id !== here) : [];
  const el = box();
  el.hidden = mine.length === 0;
  replace(
    byId('tournament-notice-list'),
    mine.map((n) =>
      h(
        'p',
        { class: 'tournament-notice', 'data-tournament': n.tournament_id, 'data-game': n.game_id ?? '' },
        h('span', { class: 'notice-text' }, words(n)),
        h('button', { type: 'button', class: 'dismiss', onclick: () => forget(n.tournament_id) }, t('tnote.dismiss'), h('span', { class: 'visually-hidden' }, ` ${t('tnote.dismissWhat', { name: n.name })}`)),
      ),
    ),
  );
}

/**
 * A tournament notice from the stream: kept (one per tournament, the latest) and shown.
 * @param {string} playerId
 * @param {PlayerNotice} notice
 */
async function onNotice(playerId, notice) {
  if (notice.kind !== 'tournament_round' && notice.kind !== 'tournament_finished') return;
  window.dispatchEvent(new CustomEvent('tournament-notice', { detail: notice }));
  let name = t('tnote.aTournament');
  try {
    name = (await getTournament(notice.tournament_id)).name;
  } catch {
    // The notice is worth showing without the name.
  }
  /** @type {KeptNotice} */
  const n =
    notice.kind === 'tournament_round'
      ? { player_id: playerId, tournament_id: notice.tournament_id, name, kind: 'round', round: notice.round, game_id: notice.game_id, rank: null, points: null }
      : { player_id: playerId, tournament_id: notice.tournament_id, name, kind: 'finished', round: 0, game_id: null, rank: notice.rank, points: notice.points };
  keep([...kept().filter((k) => k.tournament_id !== n.tournament_id), n]);
  render();
}

/**
 * Shows the kept notices and hears new ones from the player's stream: the one `/me` follows
 * (`players/stream.js` dispatches every notice as `player-notice`), or, on the tournament
 * pages, one of its own. The other pages (a profile, the leaderboards, the lobby) show the
 * kept notices only: with a player stream of its own on each of them the players' browser test
 * stalled (its "Your games" stuck at "Loading…", a seat taken on a game page never shown), so
 * a page opens no player stream that it did not open before.
 */
function start() {
  window.addEventListener('player-notice', (e) => {
    const who = identity();
    const notice = /** @type {CustomEvent<PlayerNotice>} */ (e).detail;
    if (!who) return;
    addStylesheet();
    void onNotice(who.player_id, notice);
  });
  const who = identity();
  if (!who) return;
  addStylesheet();
  render();
  if (!location.pathname.startsWith('/tournaments')) return;
  followPlayer({
    token: who.token,
    // Every notice comes as a `player-notice` event too.
    onNotice: () => {},
    onState: (state) => {
      document.body.dataset.tournamentNotices = state;
    },
    // A key rotated on another device: the players' pages say so; nothing to tell here.
    onRefused: () => {},
  });
}

start();
