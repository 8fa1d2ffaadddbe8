// A rematch: a new game of the same type, options and clock with the same seats (the same names for
// people, the same bots, open seats open again). This browser gets every named seat's token,
// as whoever creates a game in the lobby does, and is shown a link per other person to send.

import * as api from './api.js';
import { chip, h, replace } from './dom.js';
import { list, t } from './i18n/index.js';
import { showProblem } from './problems.js';
import { heldSeats, rememberSeat, seatLook, shareLink } from './seats.js';
import * as players from './players/api.js';
import { identity, rememberPlayerSeat } from './players/identity.js';
import { rememberCreated, seatAsPlayer, tokenFor } from './players/play-as.js';
import { followPlayer } from './players/stream.js';

/**
 * Creates the rematch of `doc`; returns what to show: the links, and the way to the new game.
 * @param {api.GameDocument} doc
 * @param {unknown} config the finished game's configuration, if known
 * @param {string} gameId
 * @returns {Promise<Node>}
 */
export async function rematch(doc, config, gameId) {
  /** @type {api.Schemas['SeatRequest'][]} */
  const seats = doc.seats.map((s) => {
    if (s.kind === 'bot' && s.bot) return { bot: s.bot.level };
    if (s.open || s.kind === 'open') return { open: true };
    // The seat this page plays is the signed-in player's again.
    return seatAsPlayer({ name: s.name ?? t('lobby.playerN', { n: s.seat + 1 }) }, s.seat === doc.seat);
  });
  const mine = new Set(heldSeats(gameId).filter((s) => s.mine).map((s) => s.seat));
  const created = await api.createGame({
    type: /** @type {api.Schemas['CreateGameRequest']['type']} */ (doc.type),
    config: /** @type {any} */ (config ?? {}),
    seats,
    // The same time control (the document shows it with its defaults filled in).
    clock: /** @type {any} */ (doc.clock ?? { kind: 'none' }),
  }, tokenFor(seats));
  rememberCreated(created);
  for (const seat of created.seats) {
    if ('token' in seat && seat.token) {
      rememberSeat(created.game_id, { seat: seat.seat, name: seat.name, token: seat.token, mine: mine.has(seat.seat) || seat.seat === doc.seat });
    }
  }
  const others = created.seats.filter((s) => 'token' in s && s.seat !== doc.seat && !mine.has(s.seat));
  return h(
    'div',
    { class: 'rematch' },
    h('p', {}, h('a', { href: `/games/${created.game_id}`, id: 'open-rematch', class: 'button' }, t('rematch.open'))),
    others.length
      ? [
          h('p', {}, t('rematch.sendLinks')),
          h(
            'ul',
            { class: 'links' },
            others.map((s) =>
              h(
                'li',
                {},
                chip(seatLook(s.seat).colour, seatLook(s.seat).label),
                ` ${'name' in s ? s.name : ''} `,
                h('input', { type: 'text', readonly: true, class: 'share', value: shareLink(created.game_id, 'token' in s ? s.token : null), 'aria-label': t('lobby.linkFor', { n: s.seat + 1 }) }),
              ),
            ),
          ),
        ]
      : null,
  );
}

// ---- a rematch between players (docs/people.md) ----
//
// When every person at the table is a player (a name with a key) and the reader is one of
// them, the rematch is the server's: `POST /v1/games/{id}/rematch` asks the others (seats moved
// one on), `GET /v1/games/{id}/rematch` tells whether someone asked already (then the page
// offers to accept it), and the player's stream says when it is asked, declined or started;
// once everyone accepted, the page goes to the new game.

/** @type {HTMLDivElement | null} */
let box = null;
/** @type {players.Challenge | null} */
let asked = null;
let loaded = false;
/** Whether this page saw the rematch pending: only then does its start open the new game (an
 * old game's page, read long after, links to it instead). */
let sawPending = false;
/** @type {{stop: () => void} | null} */
let listening = null;

/**
 * Whether the rematch of `doc` is the server's: the game is over, the reader is a player of
 * it, and every other seat a player or a bot.
 * @param {api.GameDocument} doc
 */
export function playersRematch(doc) {
  const who = identity();
  if (!who || (doc.status !== 'finished' && doc.status !== 'aborted')) return false;
  return doc.seats.some((s) => s.player_id === who.player_id) && doc.seats.every((s) => s.kind === 'bot' || !!s.player_id);
}

/**
 * The end screen's rematch: a button to ask, the question to accept, or where it stands. The
 * same element every render; it changes as the rematch does.
 * @param {string} gameId
 * @returns {HTMLDivElement}
 */
export function rematchBox(gameId) {
  if (!box) {
    box = h('div', { id: 'rematch-box', class: 'rematch', 'aria-live': 'polite' });
    listen(gameId);
    readRematch(gameId);
  }
  return box;
}

/**
 * Asks for the rematch; when someone asked already, accepts theirs.
 * @param {string} gameId
 */
export async function askRematch(gameId) {
  const who = identity();
  if (!who) return;
  sawPending = true;
  try {
    asked = await players.askRematch(who.token, gameId, api.freshEntropy());
  } catch (e) {
    if (!(e instanceof api.ApiError && e.code === 'rematch_exists')) {
      note(e);
      return;
    }
    asked = await players.getRematch(gameId);
    const mine = asked?.seats.find((s) => s.player_id === who.player_id);
    if (asked && asked.status === 'pending' && mine && !mine.accepted) {
      await acceptRematch(gameId);
      return;
    }
  }
  show(gameId);
}

/** @param {string} gameId */
async function acceptRematch(gameId) {
  const who = identity();
  if (!who || !asked) return;
  sawPending = true;
  try {
    asked = await players.acceptChallenge(who.token, asked.challenge_id, api.freshEntropy());
  } catch (e) {
    // Declined or withdrawn meanwhile: the rematch as it is now says so.
    if (!(e instanceof api.ApiError && e.status === 409)) note(e);
    asked = await players.getRematch(gameId).catch(() => asked);
  }
  show(gameId);
}

/** @param {string} gameId */
async function declineRematch(gameId) {
  const who = identity();
  if (!who || !asked) return;
  try {
    asked = await players.declineChallenge(who.token, asked.challenge_id, 'generic');
  } catch (e) {
    if (!(e instanceof api.ApiError && e.status === 409)) note(e);
    asked = await players.getRematch(gameId).catch(() => asked);
  }
  show(gameId);
}

/** @param {string} gameId */
async function readRematch(gameId) {
  try {
    asked = await players.getRematch(gameId);
    loaded = true;
  } catch {
    // Offline: the next notice (or the stream's return) reads it again.
  }
  show(gameId);
}

/**
 * The player's stream: a rematch asked, declined or started is read at once.
 * @param {string} gameId
 */
function listen(gameId) {
  const who = identity();
  if (!who || listening) return;
  let first = true;
  listening = followPlayer({
    token: who.token,
    onNotice: (n) => {
      if ((n.kind === 'challenge' && n.rematch_of === gameId) || n.kind === 'challenge_ended' || n.kind === 'game_started') readRematch(gameId);
    },
    onState: (state) => {
      // Back after a gap: what changed meanwhile.
      if (state === 'live' && !first) readRematch(gameId);
      if (state === 'live') first = false;
    },
    onRefused: () => listening?.stop(),
  });
}

/** @param {unknown} e */
function note(e) {
  if (!box) return;
  const p = box.querySelector('.rematch-error') ?? box.appendChild(h('p', { class: 'error rematch-error', role: 'alert' }));
  showProblem(/** @type {HTMLElement} */ (p), e);
}

/**
 * Shows where the rematch stands; goes to its game once it started.
 * @param {string} gameId
 */
function show(gameId) {
  const who = identity();
  if (!box || !who) return;
  if (!asked) {
    replace(box, loaded ? h('button', { type: 'button', id: 'rematch', class: 'action', onclick: () => askRematch(gameId) }, t('game.rematch')) : null);
    return;
  }
  const others = (/** @type {(s: players.Challenge['seats'][number]) => boolean} */ keep) =>
    list(asked?.seats.filter((s) => s.player_id && s.player_id !== who.player_id && keep(s)).map((s) => s.name ?? '') ?? []);
  const mine = asked.seats.find((s) => s.player_id === who.player_id);
  const by = asked.seats.find((s) => s.player_id === asked?.challenger_id)?.name ?? t('rematch.aPlayer');
  if (asked.status === 'pending') sawPending = true;
  if (asked.status === 'accepted' && asked.game_id) {
    if (mine) rememberPlayerSeat(asked.game_id, mine.seat);
    if (!sawPending) {
      replace(box, h('p', {}, h('a', { href: `/games/${asked.game_id}`, id: 'open-rematch', class: 'button' }, t('rematch.open'))));
      return;
    }
    replace(box, h('p', { id: 'rematch-starting' }, t('rematch.starting')));
    location.href = `/games/${asked.game_id}`;
    return;
  }
  if (asked.status === 'pending' && mine && !mine.accepted) {
    replace(
      box,
      h('p', { id: 'rematch-question' }, t('rematch.question', { name: by })),
      h('button', { type: 'button', id: 'accept-rematch', class: 'action', onclick: () => acceptRematch(gameId) }, t('rematch.accept')),
      ' ',
      h('button', { type: 'button', id: 'decline-rematch', onclick: () => declineRematch(gameId) }, t('rematch.decline')),
    );
    return;
  }
  if (asked.status === 'pending') {
    replace(box, h('p', { id: 'rematch-waiting' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), ` ${t('rematch.waiting', { names: others((s) => !s.accepted) || t('rematch.theOthers') })}`));
    return;
  }
  /** @type {Record<string, string>} */
  const ended = {
    declined: t('rematch.declined', { name: asked.seats.find((s) => s.player_id === asked?.declined_by)?.name ?? t('rematch.aPlayer') }),
    cancelled: t('rematch.cancelled'),
    expired: t('rematch.expired'),

  };
  replace(box, h('p', { id: 'rematch-ended' }, ended[asked.status] ?? asked.status));
}
