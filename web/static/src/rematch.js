// A rematch: a new game of the same type, options and clock with the same seats (the same names for
// people, the same bots, open seats open again). This browser gets every named seat's token,
// as whoever creates a game in the lobby does, and is shown a link per other person to send.

import * as api from './api.js';
import { chip, h } from './dom.js';
import { heldSeats, rememberSeat, seatLook, shareLink } from './seats.js';
import { rememberCreated, seatAsPlayer, tokenFor } from './players/play-as.js';

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
    return seatAsPlayer({ name: s.name ?? `Player ${s.seat + 1}` }, s.seat === doc.seat);
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
    h('p', {}, h('a', { href: `/games/${created.game_id}`, id: 'open-rematch', class: 'button' }, 'Open the rematch')),
    others.length
      ? [
          h('p', {}, 'Send each other player the link of their seat:'),
          h(
            'ul',
            { class: 'links' },
            others.map((s) =>
              h(
                'li',
                {},
                chip(seatLook(s.seat).colour, seatLook(s.seat).label),
                ` ${'name' in s ? s.name : ''} `,
                h('input', { type: 'text', readonly: true, class: 'share', value: shareLink(created.game_id, 'token' in s ? s.token : null), 'aria-label': `Link for seat ${s.seat + 1}` }),
              ),
            ),
          ),
        ]
      : null,
  );
}
