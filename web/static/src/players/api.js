// The players' endpoints of the public HTTP API (docs/players.md): creating a player, the
// player's own games and stream, public profiles, leaderboards and seeks. Built on the requests
// of `../api.js`, so that errors, offline detection and the `Authorization` header work the
// same everywhere. A player token only ever travels in `Authorization`, never in a URL (the
// server refuses one in a query string).

import { ApiError, fail, getJson, headers, postJson, sseMessages } from '../api.js';

/** @typedef {import('../api.js').Schemas} Schemas */
/** @typedef {Schemas['CreatedPlayer']} CreatedPlayer */
/** @typedef {Schemas['PlayerProfile']} PlayerProfile */
/** @typedef {Schemas['PlayerGameList']} PlayerGameList */
/** @typedef {Schemas['PlayerGameSummary']} PlayerGameSummary */
/** @typedef {Schemas['PlayerNotice']} PlayerNotice */
/** @typedef {Schemas['Leaderboard']} Leaderboard */
/** @typedef {Schemas['Seek']} Seek */
/** @typedef {Schemas['SeekRequest']} SeekRequest */
/** @typedef {Schemas['RotatedToken']} RotatedToken */
/** @typedef {import('../api.js').StreamMessage} StreamMessage */

/**
 * `POST /v1/players`: a new player; its token is in the answer, once.
 * @param {string} name
 * @returns {Promise<CreatedPlayer>}
 */
export function createPlayer(name) {
  return postJson('/v1/players', { name });
}

/**
 * `GET /v1/players/me`: the token's own profile (a 401 when the token no longer works).
 * @param {string} token
 * @returns {Promise<PlayerProfile>}
 */
export function me(token) {
  return getJson('/v1/players/me', token);
}

/**
 * `POST /v1/players/me/token`: a new token; the old one stops working at once.
 * @param {string} token
 * @returns {Promise<RotatedToken>}
 */
export function rotateToken(token) {
  return postJson('/v1/players/me/token', {}, token);
}

/**
 * `GET /v1/players/me/games`: the player's games, newest first; fetched past the cache, since
 * their deadlines are counted down against the server's time its answer gives.
 * @param {string} token
 * @param {{status?: Schemas['GameStatus'], limit?: number}} query
 * @returns {Promise<PlayerGameList>}
 */
export function myGames(token, query) {
  const params = new URLSearchParams();
  if (query.status) params.set('status', query.status);
  if (query.limit) params.set('limit', String(query.limit));
  return getJson(`/v1/players/me/games?${params}`, token, undefined, { fresh: true });
}

/**
 * `GET /v1/players/{id}`: a public profile.
 * @param {string} id
 * @returns {Promise<PlayerProfile>}
 */
export function profile(id) {
  return getJson(`/v1/players/${encodeURIComponent(id)}`);
}

/**
 * `GET /v1/leaderboards/{type}`: a page of a game type's leaderboard, best first.
 * @param {string} type
 * @param {{cursor?: string, limit?: number}} query
 * @returns {Promise<Leaderboard>}
 */
export function leaderboard(type, query) {
  const params = new URLSearchParams();
  if (query.cursor) params.set('cursor', query.cursor);
  if (query.limit) params.set('limit', String(query.limit));
  return getJson(`/v1/leaderboards/${encodeURIComponent(type)}?${params}`);
}

/**
 * `POST /v1/seeks`: waits for opponents (or is matched at once).
 * @param {string} token
 * @param {SeekRequest} request
 * @returns {Promise<Seek>}
 */
export function seek(token, request) {
  return postJson('/v1/seeks', request, token);
}

/**
 * `GET /v1/seeks/{id}`.
 * @param {string} id
 * @returns {Promise<Seek>}
 */
export function getSeek(id) {
  return getJson(`/v1/seeks/${encodeURIComponent(id)}`);
}

/**
 * `DELETE /v1/seeks/{id}`: stops waiting (a 409 when it was matched or ended meanwhile).
 * @param {string} token
 * @param {string} id
 * @returns {Promise<Seek>}
 */
export async function cancelSeek(token, id) {
  let res;
  try {
    res = await fetch(`/v1/seeks/${encodeURIComponent(id)}`, { method: 'DELETE', headers: headers(token) });
  } catch {
    throw new ApiError(0, 'offline', 'The server cannot be reached.');
  }
  if (!res.ok) return fail(res);
  return res.json();
}

/**
 * Opens the player's stream (`GET /v1/players/me/stream`, Server-Sent Events read with
 * `fetch`: `EventSource` cannot send `Authorization`) and yields its messages. With `lastId`
 * it resumes after that notice (`Last-Event-ID`); without, it starts with a `turn` for every
 * game that waits for the player now.
 * @param {string} token
 * @param {string | null} lastId
 * @param {AbortSignal} signal
 * @returns {Promise<AsyncGenerator<StreamMessage>>}
 */
export async function openPlayerStream(token, lastId, signal) {
  /** @type {Record<string, string>} */
  const extra = { Accept: 'text/event-stream' };
  if (lastId !== null) extra['Last-Event-ID'] = lastId;
  let res;
  try {
    res = await fetch('/v1/players/me/stream', { headers: headers(token, extra), signal, cache: 'no-store' });
  } catch (e) {
    if (signal.aborted) throw e;
    throw new ApiError(0, 'offline', 'The server cannot be reached.');
  }
  if (!res.ok) return fail(res);
  if (!res.body) throw new ApiError(0, 'no_stream', 'This browser cannot read a response as a stream.');
  return sseMessages(res.body);
}
