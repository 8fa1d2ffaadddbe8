// Live updates of one game, behind one small interface so that the transport can change: the
// push stream (`GET /v1/games/{id}/stream`, Server-Sent Events read with `fetch` so that a
// seat's token goes in `Authorization`) by default, long polling (`GET /v1/games/{id}?wait=25`
// with `If-None-Match` and `after_version`) with `?updates=poll` and as the stream's fallback.

import * as api from './api.js';

/** @typedef {import('./api.js').GameDocument} GameDocument */

/**
 * @typedef {object} UpdateOptions
 * @property {string} gameId
 * @property {string | null} token
 * @property {() => number} version the version the page has now
 * @property {(doc: GameDocument) => void} onDocument a newer document arrived
 * @property {(error: api.ApiError | null) => void} onConnection a failure, or `null` once
 *   the connection works again
 */

/** @typedef {(options: UpdateOptions) => {stop: () => void}} Transport */

/**
 * Whether a game in `status` is over: it never changes again.
 * @param {string} status
 */
const isOver = (status) => status !== 'open' && status !== 'active';

/** Seconds a long poll waits on the server before it answers 304. */
const WAIT_SECONDS = 25;

/** @type {Transport} */
function longPoll({ gameId, token, version, onDocument, onConnection }) {
  const abort = new AbortController();
  /** @type {string | null} */
  let etag = null;
  let failures = 0;
  (async () => {
    while (!abort.signal.aborted) {
      try {
        const got = await api.waitForGame(gameId, token, version(), etag, WAIT_SECONDS, abort.signal);
        if (failures > 0) onConnection(null);
        failures = 0;
        if (got) {
          etag = got.etag;
          if (got.doc.version > version()) onDocument(got.doc);
          // A game that is over (finished, aborted, expired) never changes again.
          if (isOver(got.doc.status)) return;
        }
      } catch (e) {
        if (abort.signal.aborted) return;
        failures += 1;
        onConnection(e instanceof api.ApiError ? e : new api.ApiError(0, 'offline', String(e)));
        // Back off: 1 s, 2 s, 4 s … at most 15 s.
        await new Promise((resolve) => setTimeout(resolve, Math.min(15000, 1000 * 2 ** (failures - 1))));
      }
    }
  })();
  return { stop: () => abort.abort() };
}

/** Stream attempts that fail in a row, without a message between, before long polling takes over. */
const STREAM_ATTEMPTS = 3;

/**
 * The push stream. A `version` message newer than the page's brings the game document (the
 * stream carries events, not views); the page loads the events itself. A dropped stream is
 * reopened from the last id received (`Last-Event-ID`) after 1, 2, 4 … 15 s; a stream that
 * cannot be opened or read several times in a row (no server support, a proxy that buffers,
 * an old browser) hands over to the long poll.
 * @type {Transport}
 */
function pushStream(options) {
  const { gameId, token, version, onDocument, onConnection } = options;
  const abort = new AbortController();
  /** @type {{stop: () => void} | null} */
  let fallback = null;
  let failures = 0;
  let lastId = version();
  (async () => {
    while (!abort.signal.aborted) {
      try {
        const messages = await api.openStream(gameId, token, Math.max(lastId, version()), abort.signal);
        // 204: the game is finished and the page has everything.
        if (messages === null) return;
        if (failures > 0) onConnection(null);
        for await (const msg of messages) {
          failures = 0;
          if (msg.id !== null && Number(msg.id) > lastId) lastId = Number(msg.id);
          if (msg.event !== 'version') continue;
          /** @type {api.StreamVersion} */
          const v = JSON.parse(msg.data);
          if (v.version > version()) onDocument(await api.getGame(gameId, token));
          if (isOver(v.status)) return;
        }
        // The server closed the stream (a restart, a timeout): reopen it from `lastId`.
        failures += 1;
      } catch (e) {
        if (abort.signal.aborted) return;
        failures += 1;
        onConnection(e instanceof api.ApiError ? e : new api.ApiError(0, 'offline', String(e)));
        // A refusal (bad token, no such game) will not change; other failures may.
        const refused = e instanceof api.ApiError && e.status >= 400 && e.status < 500;
        if (refused || failures >= STREAM_ATTEMPTS) {
          document.body.dataset.updates = 'poll';
          onConnection(null);
          fallback = longPoll(options);
          return;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(15000, 1000 * 2 ** Math.max(0, failures - 1))));
    }
  })();
  return {
    stop: () => {
      abort.abort();
      fallback?.stop();
    },
  };
}

/** @type {Record<string, Transport>} */
const TRANSPORTS = { stream: pushStream, poll: longPoll };

/**
 * Starts live updates with the transport named in `?updates=` (default: the push stream).
 * `body[data-updates]` names the transport in use.
 * @param {UpdateOptions} options
 */
export function followGame(options) {
  const asked = new URLSearchParams(location.search).get('updates') ?? 'stream';
  const name = asked in TRANSPORTS ? asked : 'stream';
  document.body.dataset.updates = name;
  return TRANSPORTS[name](options);
}
