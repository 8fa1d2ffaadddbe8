// The players' endpoints of the public HTTP API (docs/players.md): creating a player, the
// player's own games and stream, public profiles, leaderboards and seeks. Built on the requests
// of `../api.js`, so that errors, offline detection and the `Authorization` header work the
// same everywhere. A player token only ever travels in `Authorization`, never in a URL (the
// server refuses one in a query string).

import { ApiError, deleteJson, fail, getJson, headers, postJson, sseMessages } from '../api.js';
import { t } from '../i18n/index.js';

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
/** @typedef {Schemas['Challenge']} Challenge */
/** @typedef {Schemas['ChallengeRequest']} ChallengeRequest */
/** @typedef {Schemas['DeclineReason']} DeclineReason */
/** @typedef {Schemas['PlayerRef']} PlayerRef */
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
    throw new ApiError(0, 'offline', t('imp.offline'));
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
    throw new ApiError(0, 'offline', t('imp.offline'));
  }
  if (!res.ok) return fail(res);
  if (!res.body) throw new ApiError(0, 'no_stream', t('people.noStream'));
  return sseMessages(res.body);
}

// ---- challenges and rematches (docs/people.md) ----

/**
 * `POST /v1/challenges`: invites the players named to a game (the caller takes seat 0).
 * @param {string} token
 * @param {ChallengeRequest} request
 * @returns {Promise<Challenge>}
 */
export function challenge(token, request) {
  return postJson('/v1/challenges', request, token);
}

/**
 * `GET /v1/challenges`: the caller's challenges, newest first; fetched past the cache.
 * @param {string} token
 * @param {{role?: 'sent' | 'received', status?: Schemas['ChallengeStatus']}} query
 * @returns {Promise<Schemas['ChallengeList']>}
 */
export function challenges(token, query) {
  const params = new URLSearchParams();
  if (query.role) params.set('role', query.role);
  if (query.status) params.set('status', query.status);
  return getJson(`/v1/challenges?${params}`, token, undefined, { fresh: true });
}

/**
 * `POST /v1/challenges/{id}/accept`, with the chance this browser adds.
 * @param {string} token
 * @param {string} id
 * @param {string} entropy
 * @returns {Promise<Challenge>}
 */
export function acceptChallenge(token, id, entropy) {
  return postJson(`/v1/challenges/${encodeURIComponent(id)}/accept`, { entropy }, token);
}

/**
 * `POST /v1/challenges/{id}/decline`, with a reason.
 * @param {string} token
 * @param {string} id
 * @param {DeclineReason} reason
 * @returns {Promise<Challenge>}
 */
export function declineChallenge(token, id, reason) {
  return postJson(`/v1/challenges/${encodeURIComponent(id)}/decline`, { reason }, token);
}

/**
 * `DELETE /v1/challenges/{id}`: the challenger withdraws it.
 * @param {string} token
 * @param {string} id
 * @returns {Promise<Challenge>}
 */
export function cancelChallenge(token, id) {
  return deleteJson(`/v1/challenges/${encodeURIComponent(id)}`, token);
}

/**
 * `POST /v1/games/{id}/rematch`: a rematch challenge to the same table, the caller accepted.
 * @param {string} token
 * @param {string} gameId
 * @param {string} entropy
 * @returns {Promise<Challenge>}
 */
export function askRematch(token, gameId, entropy) {
  return postJson(`/v1/games/${encodeURIComponent(gameId)}/rematch`, { entropy }, token);
}

/**
 * `GET /v1/games/{id}/rematch`: the game's rematch challenge, or `null` when none was asked.
 * @param {string} gameId
 * @returns {Promise<Challenge | null>}
 */
export async function getRematch(gameId) {
  try {
    return await getJson(`/v1/games/${encodeURIComponent(gameId)}/rematch`, null, undefined, { fresh: true });
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

// ---- blocks, settings and mutes ----

/**
 * `GET /v1/players/me/blocks`.
 * @param {string} token
 * @returns {Promise<Schemas['Blocks']>}
 */
export function blocks(token) {
  return getJson('/v1/players/me/blocks', token, undefined, { fresh: true });
}

/**
 * `POST /v1/players/me/blocks`: no more challenges from that player.
 * @param {string} token
 * @param {string} player id or name
 * @returns {Promise<Schemas['Blocks']>}
 */
export function block(token, player) {
  return postJson('/v1/players/me/blocks', { player }, token);
}

/**
 * `DELETE /v1/players/me/blocks/{player_id}`.
 * @param {string} token
 * @param {string} playerId
 */
export function unblock(token, playerId) {
  return deleteJson(`/v1/players/me/blocks/${encodeURIComponent(playerId)}`, token);
}

/**
 * `GET /v1/players/me/settings`.
 * @param {string} token
 * @returns {Promise<Schemas['PlayerSettings']>}
 */
export function playerSettings(token) {
  return getJson('/v1/players/me/settings', token, undefined, { fresh: true });
}

/**
 * `PUT /v1/players/me/settings`.
 * @param {string} token
 * @param {Schemas['PlayerSettings']} settings
 * @returns {Promise<Schemas['PlayerSettings']>}
 */
export async function putPlayerSettings(token, settings) {
  let res;
  try {
    res = await fetch('/v1/players/me/settings', { method: 'PUT', headers: headers(token, { 'Content-Type': 'application/json' }), body: JSON.stringify(settings) });
  } catch {
    throw new ApiError(0, 'offline', t('imp.offline'));
  }
  if (!res.ok) return fail(res);
  return res.json();
}

/**
 * `GET /v1/players/me/mutes`.
 * @param {string} token
 * @returns {Promise<Schemas['Mutes']>}
 */
export function mutes(token) {
  return getJson('/v1/players/me/mutes', token, undefined, { fresh: true });
}

/**
 * `POST /v1/players/me/mutes`: that player's chat is no longer shown to the caller.
 * @param {string} token
 * @param {string} player id or name
 * @returns {Promise<Schemas['Mutes']>}
 */
export function mute(token, player) {
  return postJson('/v1/players/me/mutes', { player }, token);
}

/**
 * `DELETE /v1/players/me/mutes/{player_id}`.
 * @param {string} token
 * @param {string} playerId
 */
export function unmute(token, playerId) {
  return deleteJson(`/v1/players/me/mutes/${encodeURIComponent(playerId)}`, token);
}
