// Seats this browser holds, and how seats look.
//
// A seat token is a password: it is kept in localStorage and sent only as `Authorization:
// Bearer`. A shared link carries it in the URL fragment (`/games/{id}#token=…`), which a
// browser never sends to a server, so it reaches no server log; the page moves it into storage
// and removes it from the address bar at once.
//
// A browser may hold several seats of one game (whoever creates a game gets the token of every
// named seat). Which of them a tab plays is the tab's choice, kept in sessionStorage so that a
// reload keeps it and two tabs can play two seats.

const STORE = 'boardgames.seats.v1';

/** @typedef {{seat: number, name: string, token: string, mine: boolean}} HeldSeat */

/** @returns {Record<string, HeldSeat[]>} */
function readAll() {
  try {
    const parsed = JSON.parse(localStorage.getItem(STORE) ?? '{}');
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

/** @param {Record<string, HeldSeat[]>} all */
function writeAll(all) {
  localStorage.setItem(STORE, JSON.stringify(all));
}

/**
 * The seats this browser holds in a game.
 * @param {string} gameId
 * @returns {HeldSeat[]}
 */
export function heldSeats(gameId) {
  return readAll()[gameId] ?? [];
}

/**
 * Every game this browser holds a seat in.
 * @returns {string[]}
 */
export function heldGames() {
  return Object.keys(readAll());
}

/**
 * Remembers a seat's token (replacing an older one for the same seat).
 * @param {string} gameId
 * @param {HeldSeat} held
 */
export function rememberSeat(gameId, held) {
  const all = readAll();
  const seats = (all[gameId] ?? []).filter((s) => s.seat !== held.seat);
  seats.push(held);
  seats.sort((a, b) => a.seat - b.seat);
  all[gameId] = seats;
  writeAll(all);
}

/**
 * Forgets a seat whose token the server no longer accepts.
 * @param {string} gameId
 * @param {number} seat
 */
export function forgetSeat(gameId, seat) {
  const all = readAll();
  all[gameId] = (all[gameId] ?? []).filter((s) => s.seat !== seat);
  if (all[gameId].length === 0) delete all[gameId];
  writeAll(all);
}

/**
 * The seat this tab plays in a game: its own choice, else the seat marked as the player's,
 * else the first held; `null` to watch as a spectator.
 * @param {string} gameId
 * @returns {HeldSeat | null}
 */
export function chosenSeat(gameId) {
  const held = heldSeats(gameId);
  const choice = sessionStorage.getItem(`seat:${gameId}`);
  if (choice === 'spectator') return null;
  if (choice !== null) {
    const found = held.find((s) => String(s.seat) === choice);
    if (found) return found;
  }
  return held.find((s) => s.mine) ?? held[0] ?? null;
}

/**
 * Sets the seat this tab plays (`null`: spectate).
 * @param {string} gameId
 * @param {number | null} seat
 */
export function chooseSeat(gameId, seat) {
  sessionStorage.setItem(`seat:${gameId}`, seat === null ? 'spectator' : String(seat));
}

/**
 * The token of a shared link's fragment (`#token=…`), removed from the address bar.
 * @returns {string | null}
 */
export function takeTokenFromFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get('token');
  if (token !== null) {
    history.replaceState(null, '', location.pathname + location.search);
  }
  return token;
}

/**
 * The link that hands a seat to someone: the token travels in the fragment only.
 * @param {string} gameId
 * @param {string | null | undefined} token
 */
export function shareLink(gameId, token) {
  const base = `${location.origin}/games/${gameId}`;
  return token ? `${base}#token=${encodeURIComponent(token)}` : base;
}

// Okabe–Ito colours (distinguishable with the common colour-vision deficiencies), and a
// symbol and a number per seat so that nothing depends on colour alone.
const SEAT_COLOURS = ['#E69F00', '#56B4E9', '#009E73', '#F0E442', '#CC79A7', '#D55E00'];
const SEAT_SYMBOLS = ['●', '▲', '■', '◆', '★', '✚'];

/**
 * How a seat is drawn: its colour, a symbol, and a short label such as `▲2`.
 * @param {number} seat
 */
export function seatLook(seat) {
  const i = seat % SEAT_COLOURS.length;
  return {
    colour: SEAT_COLOURS[i],
    symbol: SEAT_SYMBOLS[i],
    label: `${SEAT_SYMBOLS[i]}${seat + 1}`,
  };
}
