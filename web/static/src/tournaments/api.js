// The tournaments' endpoints of the public HTTP API (docs/people.md, "Tournaments"): the list,
// one tournament with its standings, its rounds, creating, joining, leaving and starting one.
// Built on the requests of `../api.js`, so that errors, offline detection and the
// `Authorization` header work as everywhere else; the player token travels only in that
// header.

import { ApiError, fail, getJson, headers, postJson } from '../api.js';
import { t } from '../i18n/index.js';

/** @typedef {import('../api.js').Schemas} Schemas */
/** @typedef {Schemas['Tournament']} Tournament */
/** @typedef {Schemas['TournamentRequest']} TournamentRequest */
/** @typedef {Schemas['TournamentRound']} TournamentRound */
/** @typedef {Schemas['TournamentTable']} TournamentTable */
/** @typedef {Schemas['Standing']} Standing */

/**
 * `GET /v1/tournaments`: newest first, without standings. Read past the cache: a list that is
 * refreshed while players join must not come from it.
 * @returns {Promise<Tournament[]>}
 */
export async function listTournaments() {
  /** @type {Schemas['TournamentList']} */
  const list = await getJson('/v1/tournaments', null, undefined, { fresh: true });
  return list.tournaments;
}

/**
 * `GET /v1/tournaments/{id}`: the tournament with its standings.
 * @param {string} id
 * @returns {Promise<Tournament>}
 */
export function getTournament(id) {
  return getJson(`/v1/tournaments/${encodeURIComponent(id)}`, null, undefined, { fresh: true });
}

/**
 * `GET /v1/tournaments/{id}/rounds`: every round so far, its tables and their games.
 * @param {string} id
 * @returns {Promise<TournamentRound[]>}
 */
export async function getRounds(id) {
  /** @type {Schemas['TournamentRounds']} */
  const rounds = await getJson(`/v1/tournaments/${encodeURIComponent(id)}/rounds`, null, undefined, { fresh: true });
  return rounds.rounds;
}

/**
 * `POST /v1/tournaments`: a new tournament, organised by the token's player.
 * @param {string} token
 * @param {TournamentRequest} request
 * @returns {Promise<Tournament>}
 */
export function createTournament(token, request) {
  return postJson('/v1/tournaments', request, token);
}

/**
 * `POST /v1/tournaments/{id}/players`: the token's player joins (before the start).
 * @param {string} token
 * @param {string} id
 * @returns {Promise<Tournament>}
 */
export function joinTournament(token, id) {
  return postJson(`/v1/tournaments/${encodeURIComponent(id)}/players`, {}, token);
}

/**
 * `POST /v1/tournaments/{id}/start`: the organiser starts it now.
 * @param {string} token
 * @param {string} id
 * @returns {Promise<Tournament>}
 */
export function startTournament(token, id) {
  return postJson(`/v1/tournaments/${encodeURIComponent(id)}/start`, {}, token);
}

/**
 * `DELETE /v1/tournaments/{id}/players/me`: leaves before the start, withdraws after it.
 * @param {string} token
 * @param {string} id
 * @returns {Promise<Tournament>}
 */
export async function leaveTournament(token, id) {
  let res;
  try {
    res = await fetch(`/v1/tournaments/${encodeURIComponent(id)}/players/me`, { method: 'DELETE', headers: headers(token) });
  } catch {
    throw new ApiError(0, 'offline', t('imp.offline'));
  }
  if (!res.ok) return fail(res);
  return res.json();
}
