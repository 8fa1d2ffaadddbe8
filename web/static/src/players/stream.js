// Follows the player's stream (`GET /v1/players/me/stream`): every notice of every game of the
// player, as it is committed. A dropped stream is reopened after the last notice received
// (`Last-Event-ID`), so that none is lost or repeated; while it cannot be opened the caller
// hears `reconnecting`, and it is tried again after 1, 2, 4, 5, 5 … seconds (at once when the
// browser reports the network back). A token the server refuses (rotated on another device)
// ends the following.

import { ApiError } from '../api.js';
import { openPlayerStream } from './api.js';

/** @typedef {import('./api.js').PlayerNotice} PlayerNotice */
/** @typedef {'connecting' | 'live' | 'reconnecting'} StreamState */

/**
 * @typedef {object} FollowOptions
 * @property {string} token the player's token
 * @property {(notice: PlayerNotice) => void} onNotice
 * @property {(state: StreamState) => void} onState
 * @property {(error: ApiError) => void} onRefused the server refuses the token (401)
 */

/** The longest pause between tries. */
const MAX_BACKOFF_MS = 5000;

/**
 * Follows the stream until stopped.
 * @param {FollowOptions} options
 */
export function followPlayer({ token, onNotice, onState, onRefused }) {
  const abort = new AbortController();
  /** @type {(() => void) | null} */
  let wake = null;
  /** @param {number} ms */
  const pause = (ms) =>
    new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        window.removeEventListener('online', done);
        wake = null;
        resolve(undefined);
      }
      window.addEventListener('online', done);
      wake = done;
    });

  (async () => {
    /** @type {string | null} */
    let lastId = null;
    let failures = 0;
    onState('connecting');
    while (!abort.signal.aborted) {
      try {
        const messages = await openPlayerStream(token, lastId, abort.signal);
        onState('live');
        failures = 0;
        for await (const msg of messages) {
          if (msg.id !== null) lastId = msg.id;
          if (!msg.data) continue;
          /** @type {PlayerNotice} */
          const notice = JSON.parse(msg.data);
          onNotice(notice);
          // For the page's other parts (a tournament round's notice, `tournaments/notices.js`),
          // so that a page follows one stream.
          window.dispatchEvent(new CustomEvent('player-notice', { detail: notice }));
        }
      } catch (e) {
        if (abort.signal.aborted) return;
        if (e instanceof ApiError && e.status === 401) {
          onRefused(e);
          return;
        }
      }
      if (abort.signal.aborted) return;
      // Ended by the server (a restart, a rotated token) or failed: reopen after the last id.
      failures += 1;
      onState('reconnecting');
      await pause(Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (failures - 1)));
    }
  })();

  return {
    stop: () => {
      abort.abort();
      wake?.();
    },
  };
}
