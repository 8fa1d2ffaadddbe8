// Who sits at each table of the lobby's list, and which tables are the reader's own.
// `GET /v1/games` names no players, so each listed game's public document
// (`GET /v1/games/{id}`, its seats with names, open seats and player ids) is read beside it;
// a game whose document cannot be read is listed with its seat count only.
//
// The reader's own tables (a seat held in this browser, or a seat of the signed-in player) come
// first on each page, in the list's order, so that one's own games are found at a glance.

import * as api from '../api.js';
import { chip, h } from '../dom.js';
import { t } from '../i18n/index.js';
import { identity } from '../players/identity.js';
import { heldSeats, seatLook } from '../seats.js';

/** @typedef {import('../api.js').GameSummary} GameSummary */
/** @typedef {import('../api.js').GameDocument} GameDocument */

/**
 * The public documents of `games`, by id (`null` for one that could not be read).
 * @param {GameSummary[]} games
 * @returns {Promise<Map<string, GameDocument | null>>}
 */
export async function readTables(games) {
  const docs = await Promise.allSettled(games.map((g) => api.getGame(g.game_id, null)));
  return new Map(games.map((g, i) => {
    const got = docs[i];
    return [g.game_id, got.status === 'fulfilled' ? got.value : null];
  }));
}

/**
 * Whether the reader sits at this table: a seat held here, or the signed-in player's seat.
 * @param {GameSummary} game
 * @param {GameDocument | null} doc
 */
export function isMine(game, doc) {
  if (heldSeats(game.game_id).length > 0) return true;
  const me = identity()?.player_id;
  return !!me && !!doc?.seats.some((s) => s.player_id === me);
}

/**
 * The reader's own tables first, each group in the list's order (newest first).
 * @param {GameSummary[]} games
 * @param {Map<string, GameDocument | null>} docs
 */
export function ownFirst(games, docs) {
  const mine = games.filter((g) => isMine(g, docs.get(g.game_id) ?? null));
  return [...mine, ...games.filter((g) => !mine.includes(g))];
}

/**
 * The players at a table: each seat's colour and name (a player's name links to their
 * profile), and a join button for each open seat of a game waiting for players.
 * @param {GameSummary} game
 * @param {GameDocument | null} doc
 * @param {(seat: number) => void} join
 */
export function seatsCell(game, doc, join) {
  if (!doc) return [`${game.seat_count}`];
  return h(
    'ul',
    { class: 'table-seats' },
    doc.seats.map((s) => {
      const look = seatLook(s.seat);
      if (s.open) {
        return h(
          'li',
          {},
          game.status === 'open'
            ? h('button', { type: 'button', class: 'join', 'data-game': game.game_id, 'data-seat': s.seat, onclick: () => join(s.seat) }, t('lobby.joinSeat', { n: s.seat + 1 }))
            : t('lobby.openSeat'),
        );
      }
      const name = s.name ?? t('common.seatN', { n: s.seat + 1 });
      return h(
        'li',
        { class: 'seat-chip', 'data-seat': s.seat },
        chip(look.colour, look.label),
        ' ',
        s.player_id ? h('a', { href: `/players/${encodeURIComponent(s.player_id)}`, class: 'seat-name' }, name) : h('span', { class: 'seat-name' }, name),
      );
    }),
  );
}
