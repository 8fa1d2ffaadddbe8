// Live updates of one game, behind one small interface so that the transport can change: long
// polling today (`GET /v1/games/{id}?wait=25` with `If-None-Match` and `after_version`); a push
// stream (`/v1/games/{id}/stream`) plugs in as another entry of `TRANSPORTS` with the same
// shape, chosen with `?updates=<name>` or by default once it exists.

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
          // A finished game never changes again.
          if (got.doc.status === 'finished') return;
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

/** @type {Record<string, Transport>} */
const TRANSPORTS = { poll: longPoll };

/**
 * Starts live updates with the transport named in `?updates=` (default: long poll).
 * @param {UpdateOptions} options
 */
export function followGame(options) {
  const asked = new URLSearchParams(location.search).get('updates') ?? 'poll';
  const transport = TRANSPORTS[asked] ?? longPoll;
  return transport(options);
}
