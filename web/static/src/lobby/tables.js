// Who sits at each table of the lobby's list (`GET /v1/games` lists each game's seats: names,
// open seats, player ids), and which tables are the reader's own.
//
// The reader's own tables (a seat held in this browser, or a seat of the signed-in player) come
// first on each page, in the list's order, so that one's own games are found at a glance.

import { chip, h } from '../dom.js';
import { t } from '../i18n/index.js';
import { identity } from '../players/identity.js';
import { heldSeats, seatLook } from '../seats.js';

/** @typedef {import('../api.js').GameSummary} GameSummary */

/**
 * Whether the reader sits at this table: a seat held here, or the signed-in player's seat.
 * @param {GameSummary} game
 */
export function isMine(game) {
  if (heldSeats(game.game_id).length > 0) return true;
  const me = identity()?.player_id;
  return !!me && game.seats.some((s) => s.player_id === me);
}

/**
 * The reader's own tables first, each group in the list's order (newest first).
 * @param {GameSummary[]} games
 */
export function ownFirst(games) {
  const mine = games.filter((g) => isMine(g));
  return [...mine, ...games.filter((g) => !mine.includes(g))];
}

/**
 * The players at a table: each seat's colour and name (a player's name links to their
 * profile), and a join button for each open seat of a game waiting for players.
 * @param {GameSummary} game
 * @param {(seat: number) => void} join
 */
export function seatsCell(game, join) {
  return h(
    'ul',
    { class: 'table-seats' },
    game.seats.map((s) => {
      const look = seatLook(s.seat);
      if (s.name === null) {
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
