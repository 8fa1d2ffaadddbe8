// The public HTTP API, typed from the committed OpenAPI document (`web/types/api.d.ts`, made
// by openapi-typescript; `tsc` checks every use). This is the only module that speaks HTTP
// (`players/api.js` adds the players' endpoints with its exported requests).

/** @typedef {import('../../types/api').components['schemas']} Schemas */
/** @typedef {Schemas['GameDocument']} GameDocument */
/** @typedef {Schemas['StateDocument']} StateDocument */
/** @typedef {Schemas['GameType']} GameType */
/** @typedef {Schemas['GameSummary']} GameSummary */
/** @typedef {Schemas['GameList']} GameList */
/** @typedef {Schemas['CreateGameRequest']} CreateGameRequest */
/** @typedef {Schemas['CreatedGame']} CreatedGame */
/** @typedef {Schemas['JoinedSeat']} JoinedSeat */
/** @typedef {Schemas['EventPage']['events'][number]} EventDto */
/** @typedef {Schemas['EventPage']} EventPage */
/** @typedef {Schemas['ActionResponse']} ActionResponse */
/** @typedef {Schemas['MonopolyTemplate'] | Schemas['TyrosTemplate']} ActionTemplate */
/**
 * @typedef {Schemas['TemplateDomainInteger'] | Schemas['TemplateDomainSeatOneOf']
 *   | Schemas['TyrosEmpireOneOf'] | Schemas['TemplateDomainIntegerSubset']
 *   | Schemas['MonopolyCardSubset'] | Schemas['TyrosCardCounts']} TemplateDomain
 */
/** @typedef {Schemas['Problem']} Problem */
/** @typedef {GameDocument['legal_actions'][number]} Action */
/** @typedef {EventDto['event']} GameEvent */

/** A refusal or failure, with the server's words (`detail` of its problem+json body). */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} detail
   * @param {number | null} [currentVersion]
   */
  constructor(status, code, detail, currentVersion = null) {
    super(detail);
    this.status = status;
    this.code = code;
    this.currentVersion = currentVersion;
    /** @type {number | null} seconds to wait before trying again (`Retry-After`), if said */
    this.retryAfter = null;
  }
}

/**
 * @param {Response} res
 * @returns {Promise<never>}
 */
export async function fail(res) {
  /** @type {Partial<Problem>} */
  let problem = {};
  try {
    problem = await res.json();
  } catch {
    // Not a problem document (a proxy's page): the status line must do.
  }
  const error = new ApiError(
    res.status,
    problem.code ?? `http_${res.status}`,
    problem.detail ?? `${res.status} ${res.statusText || 'error'}`,
    problem.current_version ?? null,
  );
  // A rate limit says when to try again (seconds).
  const retry = Number(res.headers.get('retry-after'));
  if (Number.isFinite(retry) && retry > 0) error.retryAfter = retry;
  throw error;
}

/**
 * How far the server's clock is ahead of this device's, in milliseconds: seat clocks count
 * down to the server's deadlines, and a phone's clock can be off by minutes. Each answer that
 * surely came from the server just now (never one the browser served from its cache: its
 * `Date` is as old as the copy, an hour for the game types) bounds the offset: the server wrote
 * its `Date` (whole seconds, rounded down) between sending the request and receiving the
 * answer. The bounds of several answers are intersected, so the estimate tightens and stays
 * put; one that contradicts them (the device's clock was set) starts afresh.
 */
const offset = { low: -Infinity, high: Infinity };

/**
 * Notes the `Date` of an answer fetched past the browser's cache (`cache: 'no-store'`, or a
 * POST), requested at `sent` on this device's clock.
 * @param {Response} res
 * @param {number} sent
 */
function noteServerTime(res, sent) {
  const date = Date.parse(res.headers.get('date') ?? '');
  if (Number.isNaN(date)) return;
  const received = Date.now();
  const low = date - received;
  const high = date + 1000 - sent;
  // The device's clock was set while the request was under way: nothing to learn.
  if (low > high) return;
  if (low > offset.high || high < offset.low) {
    offset.low = low;
    offset.high = high;
  } else {
    offset.low = Math.max(offset.low, low);
    offset.high = Math.min(offset.high, high);
  }
}

/** The server's time now, as this device best knows it (milliseconds since the epoch). */
export function serverNow() {
  if (!Number.isFinite(offset.low)) return Date.now();
  return Date.now() + Math.round((offset.low + offset.high) / 2);
}

/**
 * @param {string | null | undefined} token
 * @param {Record<string, string>} [extra]
 */
export function headers(token, extra = {}) {
  /** @type {Record<string, string>} */
  const all = { Accept: 'application/json', ...extra };
  if (token) all.Authorization = `Bearer ${token}`;
  return all;
}

/**
 * GET a JSON resource. A `fresh` one bypasses the browser's cache, and its `Date` sets the
 * server's time (the game document: its clocks are counted against it).
 * @param {string} path
 * @param {string | null} [token]
 * @param {AbortSignal} [signal]
 * @param {{fresh?: boolean}} [options]
 * @returns {Promise<any>}
 */
export async function getJson(path, token, signal, { fresh = false } = {}) {
  let res;
  const sent = Date.now();
  try {
    res = await fetch(path, { headers: headers(token), signal, cache: fresh ? 'no-store' : 'default' });
  } catch {
    throw new ApiError(0, 'offline', 'The server cannot be reached.');
  }
  if (fresh) noteServerTime(res, sent);
  if (!res.ok) return fail(res);
  return res.json();
}

/**
 * POST a JSON body.
 * @param {string} path
 * @param {unknown} body
 * @param {string | null} [token]
 * @returns {Promise<any>}
 */
export async function postJson(path, body, token) {
  let res;
  const sent = Date.now();
  try {
    res = await fetch(path, {
      method: 'POST',
      headers: headers(token, { 'Content-Type': 'application/json' }),
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'offline', 'The server cannot be reached.');
  }
  // A POST's answer is never served from the cache.
  noteServerTime(res, sent);
  if (!res.ok) return fail(res);
  return res.json();
}

/** @returns {Promise<GameType[]>} */
export async function gameTypes() {
  /** @type {Schemas['GameTypeList']} */
  const list = await getJson('/v1/game-types');
  return list.game_types;
}

/**
 * The OpenAPI document: config schemas refer into its components.
 * @returns {Promise<{components: {schemas: Record<string, unknown>}}>}
 */
export function openapi() {
  return getJson('/openapi.json');
}

/**
 * @param {{type?: string, status?: string, rated?: string, clock?: string, cursor?: string, limit?: number}} query
 * @returns {Promise<GameList>}
 */
export function listGames(query) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== '') params.set(k, String(v));
  }
  return getJson(`/v1/games?${params}`);
}

/**
 * A fresh random entropy for a seat this page takes: 16 random bytes in hex. The game's chance
 * key mixes it with the server's committed seed, so the server alone does not choose the
 * chance (docs/fairness.md).
 * @returns {string}
 */
export function freshEntropy() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Creates a game; every person's seat (`name` or `me`) sends its own fresh entropy.
 * @param {CreateGameRequest} request
 * @param {string | null} [token] a player's, when a seat is `{"me": true}`
 * @returns {Promise<CreatedGame>}
 */
export function createGame(request, token = null) {
  const seats = request.seats.map((seat) =>
    (seat.name != null || seat.me) && seat.entropy == null ? { ...seat, entropy: freshEntropy() } : seat);
  return postJson('/v1/games', { ...request, seats }, token);
}

/**
 * Takes a seat; a person's or a player's join sends a fresh entropy.
 * @param {string} id
 * @param {Schemas['JoinRequest']} request
 * @param {string | null} [token] a player's, to take the seat for the player
 * @returns {Promise<JoinedSeat>}
 */
export function joinSeat(id, request, token = null) {
  const body = request.bot == null && request.entropy == null ? { ...request, entropy: freshEntropy() } : request;
  return postJson(`/v1/games/${encodeURIComponent(id)}/seats`, body, token);
}

/**
 * The game's record (docs/fairness.md): everything needed to replay and check it offline.
 * @param {string} id
 * @param {string | null} token
 * @returns {Promise<Schemas['GameRecord']>}
 */
export function getRecord(id, token) {
  return getJson(`/v1/games/${encodeURIComponent(id)}/record`, token);
}

/**
 * The game as the token's seat (or a spectator) sees it.
 * @param {string} id
 * @param {string | null} token
 * @param {AbortSignal} [signal]
 * @returns {Promise<GameDocument>}
 */
export function getGame(id, token, signal) {
  return getJson(`/v1/games/${encodeURIComponent(id)}`, token, signal, { fresh: true });
}

/**
 * Long poll: the document once its version passes `afterVersion`, or `null` when `wait`
 * seconds passed without a change (304).
 * @param {string} id
 * @param {string | null} token
 * @param {number} afterVersion
 * @param {string | null} etag
 * @param {number} wait
 * @param {AbortSignal} [signal]
 * @returns {Promise<{doc: GameDocument, etag: string | null} | null>}
 */
export async function waitForGame(id, token, afterVersion, etag, wait, signal) {
  /** @type {Record<string, string>} */
  const extra = etag ? { 'If-None-Match': etag } : {};
  const path = `/v1/games/${encodeURIComponent(id)}?wait=${wait}&after_version=${afterVersion}`;
  let res;
  const sent = Date.now();
  try {
    res = await fetch(path, { headers: headers(token, extra), signal, cache: 'no-store' });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new ApiError(0, 'offline', 'The server cannot be reached.');
  }
  // A 304 here answers this request's own `If-None-Match`: it too is the server's, just now.
  noteServerTime(res, sent);
  if (res.status === 304) return null;
  if (!res.ok) return fail(res);
  return { doc: await res.json(), etag: res.headers.get('ETag') };
}

/** @typedef {Schemas['StreamVersion']} StreamVersion */

/**
 * One message of a Server-Sent Events stream.
 * @typedef {{event: string, id: string | null, data: string}} StreamMessage
 */

/**
 * Opens the game's push stream (`GET /v1/games/{id}/stream`, Server-Sent Events) with the
 * seat's token in `Authorization` (which `EventSource` cannot send) and yields its messages;
 * `null` when the server answers 204 (a finished game with nothing left to send). Resumes
 * after `lastId` through `Last-Event-ID`. Ends when the server ends the stream.
 * @param {string} id
 * @param {string | null} token
 * @param {number} lastId
 * @param {AbortSignal} signal
 * @returns {Promise<AsyncGenerator<StreamMessage> | null>}
 */
export async function openStream(id, token, lastId, signal) {
  let res;
  const sent = Date.now();
  try {
    res = await fetch(`/v1/games/${encodeURIComponent(id)}/stream`, {
      headers: headers(token, { Accept: 'text/event-stream', 'Last-Event-ID': String(lastId) }),
      signal,
      cache: 'no-store',
    });
  } catch (e) {
    if (signal.aborted) throw e;
    throw new ApiError(0, 'offline', 'The server cannot be reached.');
  }
  noteServerTime(res, sent);
  if (res.status === 204) return null;
  if (!res.ok) return fail(res);
  if (!res.body) throw new ApiError(0, 'no_stream', 'This browser cannot read a response as a stream.');
  return sseMessages(res.body);
}

/**
 * Parses a `text/event-stream` body: `field: value` lines, a blank line ends a message,
 * lines starting with `:` are comments (the heartbeat).
 * @param {ReadableStream<Uint8Array>} body
 * @returns {AsyncGenerator<StreamMessage>}
 */
export async function* sseMessages(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  /** @type {StreamMessage} */
  let msg = { event: 'message', id: null, data: '' };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let nl;
      while ((nl = buffer.search(/\r\n|\n|\r/)) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1));
        if (line === '') {
          if (msg.data !== '' || msg.id !== null) yield msg;
          msg = { event: 'message', id: null, data: '' };
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') msg.event = value;
        else if (field === 'id') msg.id = value;
        else if (field === 'data') msg.data = msg.data ? `${msg.data}\n${value}` : value;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Submits one action for the token's seat.
 * @param {string} id
 * @param {string} token
 * @param {Action} action
 * @param {number} expectedVersion
 * @returns {Promise<ActionResponse>}
 */
export function postAction(id, token, action, expectedVersion) {
  return postJson(
    `/v1/games/${encodeURIComponent(id)}/actions`,
    { action, expected_version: expectedVersion },
    token,
  );
}

/**
 * Events after `after`, as the token's seat may see them, following every page.
 * @param {string} id
 * @param {string | null} token
 * @param {number} after
 * @returns {Promise<EventDto[]>}
 */
export async function eventsAfter(id, token, after) {
  /** @type {EventDto[]} */
  const all = [];
  /** @type {number | null | undefined} */
  let next = after;
  while (next !== null && next !== undefined) {
    /** @type {EventPage} */
    const page = await getJson(
      `/v1/games/${encodeURIComponent(id)}/events?after=${next}&limit=1000`,
      token,
    );
    all.push(...page.events);
    next = page.next_after;
  }
  return all;
}

/**
 * The view as of event `seq` (time travel).
 * @param {string} id
 * @param {string | null} token
 * @param {number} seq
 * @returns {Promise<StateDocument>}
 */
export function stateAt(id, token, seq) {
  return getJson(`/v1/games/${encodeURIComponent(id)}/states/${seq}`, token);
}

/**
 * Resigns `seat` with its own token (`POST /v1/games/{id}/seats/{seat}/resign`).
 * @param {string} id
 * @param {string} token
 * @param {number} seat
 * @returns {Promise<ActionResponse>}
 */
export function resign(id, token, seat) {
  return postJson(`/v1/games/${encodeURIComponent(id)}/seats/${seat}/resign`, {}, token);
}

/**
 * Takes back a seat the server's bot plays since its clock ran out.
 * @param {string} id
 * @param {string} token
 * @param {number} seat
 * @returns {Promise<ActionResponse>}
 */
export function reclaim(id, token, seat) {
  return postJson(`/v1/games/${encodeURIComponent(id)}/seats/${seat}/reclaim`, {}, token);
}

/**
 * Ends a game nobody has moved in yet (`POST /v1/games/{id}/abort`).
 * @param {string} id
 * @param {string} token
 * @returns {Promise<{game?: GameDocument}>}
 */
export function abortGame(id, token) {
  return postJson(`/v1/games/${encodeURIComponent(id)}/abort`, {}, token);
}

/**
 * DELETE a resource; the answer's JSON, or `null` when it has none (204).
 * @param {string} path
 * @param {string | null} [token]
 * @returns {Promise<any>}
 */
export async function deleteJson(path, token) {
  let res;
  try {
    res = await fetch(path, { method: 'DELETE', headers: headers(token) });
  } catch {
    throw new ApiError(0, 'offline', 'The server cannot be reached.');
  }
  if (!res.ok) return fail(res);
  if (res.status === 204) return null;
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}

// ---- table chat (docs/people.md) ----

/** @typedef {Schemas['ChatMessage']} ChatMessage */
/** @typedef {Schemas['ChatPage']} ChatPage */

/**
 * `GET /v1/games/{id}/chat`: a page of the caller's channel after `after`, oldest first (the
 * players' with a seat's token or a seated player's key, else the spectators').
 * @param {string} id
 * @param {string | null} token
 * @param {number} after
 * @returns {Promise<ChatPage>}
 */
export function getChat(id, token, after) {
  return getJson(`/v1/games/${encodeURIComponent(id)}/chat?after=${after}&limit=100`, token, undefined, { fresh: true });
}

/**
 * `POST /v1/games/{id}/chat`: one line of plain text to the caller's channel.
 * @param {string} id
 * @param {string} token
 * @param {string} text
 * @returns {Promise<ChatMessage>}
 */
export function postChat(id, token, text) {
  return postJson(`/v1/games/${encodeURIComponent(id)}/chat`, { text }, token);
}
