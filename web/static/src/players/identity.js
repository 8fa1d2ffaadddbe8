// Who plays in this browser: a player's id, name and token (docs/players.md), kept in
// localStorage and sent only as `Authorization: Bearer`, as seat tokens are (`../seats.js`).
// The link that takes the player to another device carries the token in the URL fragment
// (`/me#token=pl_…`), which a browser never sends to a server.
//
// A seat bound to the player has no seat token: the player's token acts for it. The game page
// plays such a seat like any held seat, so the player's seats are entered in the seat store
// with the player's token (`adoptPlayerSeat`, `rememberPlayerSeat`); a new token replaces
// those copies, signing out removes them.

import { getGame } from '../api.js';
import { forgetSeat, heldGames, heldSeats, rememberSeat } from '../seats.js';

const STORE = 'boardgames.player.v1';

/** @typedef {{player_id: string, name: string, token: string}} Identity */

/**
 * The player this browser plays as, if any.
 * @returns {Identity | null}
 */
export function identity() {
  try {
    const stored = JSON.parse(localStorage.getItem(STORE) ?? 'null');
    if (stored && typeof stored.token === 'string' && typeof stored.player_id === 'string') {
      return { player_id: stored.player_id, name: String(stored.name ?? ''), token: stored.token };
    }
  } catch {
    // Unreadable: as if nobody were signed in.
  }
  return null;
}

/**
 * Plays as this player from now on in this browser.
 * @param {Identity} who
 */
export function signIn(who) {
  localStorage.setItem(STORE, JSON.stringify({ player_id: who.player_id, name: who.name, token: who.token }));
}

/**
 * Every held seat that acts with `token`, as `[gameId, seat]`.
 * @param {string} token
 */
function seatsWithToken(token) {
  return heldGames().flatMap((game) => heldSeats(game).filter((s) => s.token === token).map((s) => /** @type {const} */ ([game, s])));
}

/** Forgets the player in this browser, and the seats its token played here. */
export function signOut() {
  const who = identity();
  if (who) for (const [game, s] of seatsWithToken(who.token)) forgetSeat(game, s.seat);
  localStorage.removeItem(STORE);
}

/**
 * The player's token changed (rotated): keep the new one, also for its seats.
 * @param {string} token
 */
export function changeToken(token) {
  const who = identity();
  if (!who) return;
  for (const [game, s] of seatsWithToken(who.token)) rememberSeat(game, { ...s, token });
  signIn({ ...who, token });
}

/**
 * Enters the player's seat of a game in the seat store, so that the game page plays it.
 * @param {string} gameId
 * @param {number} seat
 */
export function rememberPlayerSeat(gameId, seat) {
  const who = identity();
  if (who) rememberSeat(gameId, { seat, name: who.name, token: who.token, mine: true });
}

/**
 * Before the game page loads: when the signed-in player has a seat in the game that this
 * browser does not hold yet (a seek matched, a game opened from another device's list), it
 * is held from now on, with the player's token. One read of the public document, only when
 * needed.
 * @param {string} gameId
 */
export async function adoptPlayerSeat(gameId) {
  const who = identity();
  if (!who || heldSeats(gameId).some((s) => s.token === who.token)) return;
  try {
    const doc = await getGame(gameId, null);
    const mine = doc.seats.find((s) => s.player_id === who.player_id);
    if (mine) rememberPlayerSeat(gameId, mine.seat);
  } catch {
    // The game page says what is wrong with the game when it loads it.
  }
}

/**
 * The link that signs in as this player on another device: the token in the fragment only.
 * @param {string} token
 */
export function deviceLink(token) {
  return `${location.origin}/me#token=${encodeURIComponent(token)}`;
}
