// Live updates of one game, behind one small interface so that the transport can change: the
// push stream (`GET /v1/games/{id}/stream`, Server-Sent Events read with `fetch` so that a
// seat's token goes in `Authorization`) by default, long polling (`GET /v1/games/{id}?wait=`
// with `If-None-Match` and `after_version`) with `?updates=poll` and as the stream's fallback.
//
// Two kinds of trouble are told apart. When the server cannot be reached at all (no network,
// the server down), the page is *offline*: it says so, its moves are paused, and it tries
// again after 1, 2, 4, 5, 5 … seconds (at once when the browser reports the network back),
// staying with the stream. When the server answers but the stream does not work (a proxy that
// buffers or cuts it), the page falls back to the long poll after a few failures, and tries the
// stream again every little while: once it opens, the page is back on the stream.

import * as api from './api.js';

/** @typedef {import('./api.js').GameDocument} GameDocument */

/**
 * @typedef {object} UpdateOptions
 * @property {string} gameId
 * @property {string | null} token
 * @property {() => number} version the version the page has now
 * @property {(doc: GameDocument) => void} onDocument a newer document arrived
 * @property {(offline: boolean) => void} onConnection the server became unreachable (`true`)
 *   or reachable again (`false`)
 * @property {string | null} [streamToken] the token the stream is opened with, when it is not
 *   `token`: a signed-in player without a seat follows the game as a spectator with its key (the
 *   game document refuses that key), to hear the spectators' chat
 * @property {(message: api.ChatMessage) => void} [onChat] a chat message of the reader's channel
 * @property {() => void} [onStreamOpen] the stream (re)opened: chat sent while it was closed is
 *   read from `GET /v1/games/{id}/chat`, since the stream does not resend it
 */

/**
 * Whether a game in `status` is over (finished, aborted, expired): it never changes again.
 * @param {string} status
 */
const isOver = (status) => status !== 'open' && status !== 'active';

/** Seconds a long poll waits on the server before it answers 304. */
const WAIT_SECONDS = 25;
/** While falling back from the stream: shorter polls, and the stream tried again this often. */
const FALLBACK_WAIT_SECONDS = 8;
const STREAM_RETRY_MS = 8000;
/** Stream failures in a row, with the server answering otherwise, before long polling. */
const STREAM_ATTEMPTS = 3;
/** How long a check that the server is there may take. */
const PROBE_MS = 8000;
/** The longest pause between tries while offline. */
const MAX_BACKOFF_MS = 5000;

/**
 * Follows the game until stopped.
 * @param {UpdateOptions} options
 * @param {'stream' | 'poll'} start
 */
function follow(options, start) {
  const { gameId, token, version, onDocument, onConnection, onChat, onStreamOpen } = options;
  const streamToken = options.streamToken === undefined ? token : options.streamToken;
  const abort = new AbortController();
  let offline = false;
  /** @type {(() => void) | null} */
  let wake = null;

  /** @param {boolean} now */
  const setOffline = (now) => {
    if (now === offline) return;
    offline = now;
    onConnection(now);
  };
  /** @param {GameDocument} doc */
  const take = (doc) => {
    if (doc.version > version()) onDocument(doc);
  };
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
  /** Whether the server answers at all; brings the document when it does. */
  const probe = async () => {
    try {
      take(await api.getGame(gameId, token, AbortSignal.any([abort.signal, AbortSignal.timeout(PROBE_MS)])));
      return true;
    } catch (e) {
      return e instanceof api.ApiError && e.status >= 400 && e.status < 500;
    }
  };

  (async () => {
    /** @type {'stream' | 'poll'} */
    let mode = start;
    const canReturn = start === 'stream';
    let streamFailures = 0;
    let offlineTries = 0;
    let pollSince = 0;
    /** @type {string | null} */
    let etag = null;
    let lastId = version();

    /** After a failure: offline (pause and retry) or a stream that does not work. */
    const failed = async (/** @type {boolean} */ streamFailed, /** @type {unknown} */ e) => {
      if (abort.signal.aborted) return;
      const refused = e instanceof api.ApiError && e.status >= 400 && e.status < 500;
      if (!refused && !(await probe())) {
        setOffline(true);
        offlineTries += 1;
        await pause(Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (offlineTries - 1)));
        return;
      }
      setOffline(false);
      offlineTries = 0;
      if (!streamFailed) {
        await pause(1000);
        return;
      }
      streamFailures += 1;
      if (mode === 'stream' && (refused || streamFailures >= STREAM_ATTEMPTS)) {
        mode = 'poll';
        pollSince = Date.now();
        document.body.dataset.updates = 'poll';
      } else if (mode === 'stream') {
        await pause(1000 * 2 ** (streamFailures - 1));
      }
    };

    while (!abort.signal.aborted) {
      const tryStream = mode === 'stream' || (canReturn && Date.now() - pollSince >= STREAM_RETRY_MS);
      if (tryStream) {
        let messages;
        try {
          messages = await api.openStream(gameId, streamToken, Math.max(lastId, version()), abort.signal);
        } catch (e) {
          if (mode === 'poll') pollSince = Date.now();
          await failed(true, e);
          continue;
        }
        // 204: the game is finished and the page has everything.
        if (messages === null) return;
        mode = 'stream';
        document.body.dataset.updates = 'stream';
        setOffline(false);
        offlineTries = 0;
        onStreamOpen?.();
        let received = 0;
        try {
          for await (const msg of messages) {
            received += 1;
            streamFailures = 0;
            if (msg.id !== null && Number(msg.id) > lastId) lastId = Number(msg.id);
            if (msg.event === 'chat') {
              onChat?.(JSON.parse(msg.data));
              continue;
            }
            if (msg.event !== 'version') continue;
            /** @type {api.StreamVersion} */
            const v = JSON.parse(msg.data);
            if (v.version > version()) take(await api.getGame(gameId, token));
            if (isOver(v.status)) return;
          }
        } catch (e) {
          await failed(true, e);
          continue;
        }
        // The server ended the stream (a restart, a timeout): reopen it from `lastId`; a
        // stream that ends before saying anything counts as not working.
        if (received === 0) await failed(true, null);
        continue;
      }
      try {
        const wait = canReturn ? FALLBACK_WAIT_SECONDS : WAIT_SECONDS;
        const got = await api.waitForGame(gameId, token, version(), etag, wait, abort.signal);
        setOffline(false);
        offlineTries = 0;
        if (got) {
          etag = got.etag;
          take(got.doc);
          // A game that is over never changes again.
          if (isOver(got.doc.status)) return;
        }
      } catch (e) {
        await failed(false, e);
      }
    }
  })();
  return {
    stop: () => {
      abort.abort();
      wake?.();
    },
  };
}

/**
 * Starts live updates with the transport named in `?updates=` (default: the push stream).
 * `body[data-updates]` names the transport in use.
 * @param {UpdateOptions} options
 */
export function followGame(options) {
  const asked = new URLSearchParams(location.search).get('updates');
  const start = asked === 'poll' ? 'poll' : 'stream';
  document.body.dataset.updates = start;
  return follow(options, start);
}
