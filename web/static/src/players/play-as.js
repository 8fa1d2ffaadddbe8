// Taking seats as the signed-in player outside the players' pages: the lobby's "I play this
// seat" and its join buttons, the game page's open seats and a rematch take the seat for the
// player (`{"me": true}`, a join without a name, with the player's key), so that the game is
// among "Your games", counts on the profile and may be rated. Nobody signed in: the seat is
// taken with a seat token, as before.

import { joinSeat } from '../api.js';
import { h } from '../dom.js';
import { t } from '../i18n/index.js';
import { identity, rememberPlayerSeat } from './identity.js';

/** @typedef {import('../api.js').Schemas} Schemas */

/**
 * The seat request for the seat this browser's person plays: the player's when signed in.
 * @param {Schemas['SeatRequest']} request
 * @param {boolean} mine
 * @returns {Schemas['SeatRequest']}
 */
export function seatAsPlayer(request, mine) {
  return mine && identity() && 'name' in request ? { me: true } : request;
}

/**
 * The key a create request needs: the player's when one of its seats is `{"me": true}`.
 * @param {Schemas['SeatRequest'][]} seats
 */
export function tokenFor(seats) {
  return seats.some((s) => s.me) ? (identity()?.token ?? null) : null;
}

/**
 * After a game was created: the seats taken for the player are played with the player's key.
 * @param {Schemas['CreatedGame']} created
 */
export function rememberCreated(created) {
  const who = identity();
  for (const seat of created.seats) {
    if (who && 'player_id' in seat && seat.player_id === who.player_id) rememberPlayerSeat(created.game_id, seat.seat);
  }
}

/**
 * Joins an open seat as the signed-in player; `false` (nothing done) when nobody is.
 * @param {string} gameId
 * @param {number} seat
 * @returns {Promise<boolean>}
 */
export async function joinAsPlayer(gameId, seat) {
  const who = identity();
  if (!who) return false;
  const joined = await joinSeat(gameId, { seat }, who.token);
  rememberPlayerSeat(gameId, joined.seat);
  return true;
}

/** Where an open seat is offered: who takes it, when a player is signed in; else `null`. */
export function joiningAs() {
  const who = identity();
  return who ? h('p', { id: 'join-as' }, t('people.joinAs', { name: who.name })) : null;
}
