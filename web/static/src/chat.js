// Table talk (docs/people.md): the chat of the reader's channel at a game, the seated players'
// (with a seat's token, or a seated player's key) or the watching players' (a signed-in player
// without a seat; anyone may read it). Messages come from the game's stream (`event: chat`,
// handed over by `updates.js`), and the page of earlier ones is read on load and whenever the
// stream (re)opens, since the stream does not resend chat; while the stream is not there (a
// game that is over, the long poll) the page is read every few seconds. Messages are text,
// never markup: every name and text goes into a text node (`dom.js`).
//
// A signed-in player mutes a sender from the sender's message (`POST /v1/players/me/mutes`):
// the sender's messages leave the page, and the server leaves them out from then on.

import * as api from './api.js';
import { byId, chip, h, replace } from './dom.js';
import { t, tn } from './i18n/index.js';
import * as players from './players/api.js';
import { identity } from './players/identity.js';
import { showProblem } from './problems.js';
import { seatLook } from './seats.js';

/** @typedef {api.ChatMessage} ChatMessage */

/** The messages kept on the page (the latest). */
const KEEP = 200;
/** How often the chat is read while no stream brings it. */
const POLL_MS = 4000;

/**
 * @typedef {object} ChatOptions
 * @property {string} gameId
 * @property {() => string | null} token the token the page acts with: a seat's (or the
 *   seated player's key), or `null` when it watches
 * @property {() => boolean} streaming whether the game's stream brings chat now
 */

/**
 * Sets up the chat box in `#chat-area`.
 * @param {ChatOptions} options
 */
export function setUpChat({ gameId, token, streaming }) {
  /** @type {Map<number, ChatMessage>} */
  const messages = new Map();
  /** @type {api.ChatPage['channel'] | null} */
  let channel = null;
  let reading = false;
  let readAgain = false;
  /** The token the messages were read with: another one is another channel. */
  let readWith = /** @type {string | null | undefined} */ (undefined);

  /** The token chat is read and sent with: the page's, else a signed-in watcher's key. */
  const chatToken = () => token() ?? identity()?.token ?? null;

  const input = h('input', { type: 'text', id: 'chat-input', maxlength: 500, autocomplete: 'off', 'aria-describedby': 'chat-note' });
  const send = h('button', { type: 'submit', id: 'chat-send' }, t('chat.send'));
  const form = h('form', { id: 'chat-form', class: 'chat-form' }, h('label', { for: 'chat-input', class: 'visually-hidden' }, t('chat.yourMessage')), input, send);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    const key = chatToken();
    if (!text || !key) return;
    send.disabled = true;
    try {
      const sent = await api.postChat(gameId, key, text);
      input.value = '';
      note('');
      add([sent]);
    } catch (err) {
      if (err instanceof api.ApiError && err.code === 'chat_rate_limited') {
        const wait = err.retryAfter ?? 10;
        note(tn('chat.slowDown', wait), 'slow');
      } else if (err instanceof api.ApiError && err.code === 'invalid_chat_message') {
        note(t('chat.oneLine'), 'slow');
      } else {
        noteProblem(err);
      }
    } finally {
      send.disabled = false;
    }
  });

  const area = byId('chat-area');
  area.hidden = false;
  replace(
    area,
    h('h2', { id: 'chat-title' }, t('chat.title')),
    h('p', { id: 'chat-channel', class: 'hint' }),
    h('div', { id: 'chat-log', class: 'chat-log', role: 'log', tabindex: 0, 'aria-labelledby': 'chat-title' }, h('ol', { id: 'chat-messages' })),
    h('div', { id: 'chat-compose' }),
    h('p', { id: 'chat-note', class: 'chat-note', role: 'status' }),
  );

  /**
   * @param {string} words
   * @param {string} [kind]
   */
  function note(words, kind = '') {
    const box = byId('chat-note');
    box.className = `chat-note ${kind}`;
    replace(box, words);
    box.removeAttribute('title');
  }

  /** A refusal, in the page's language (the server's words in the note's `title`). @param {unknown} e */
  function noteProblem(e) {
    const box = byId('chat-note');
    box.className = 'chat-note slow';
    showProblem(box, e);
  }

  /** @param {ChatMessage[]} list */
  function add(list) {
    for (const m of list) messages.set(m.seq, m);
    const seqs = [...messages.keys()].sort((a, b) => a - b);
    for (const seq of seqs.slice(0, Math.max(0, seqs.length - KEEP))) messages.delete(seq);
    render();
  }

  function render() {
    const who = identity();
    const log = byId('chat-log');
    // Follow the conversation unless the reader scrolled up to read.
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    const list = [...messages.values()].sort((a, b) => a.seq - b.seq);
    replace(
      byId('chat-messages'),
      list.length
        ? list.map((m) =>
            h(
              'li',
              { 'data-seq': m.seq, 'data-player': m.player_id ?? '', class: m.player_id && m.player_id === who?.player_id ? 'own' : null },
              h(
                'p',
                { class: 'chat-line' },
                m.seat != null ? [chip(seatLook(m.seat).colour, seatLook(m.seat).label), ' '] : null,
                h('span', { class: 'chat-name' }, m.name),
                h('span', { class: 'visually-hidden' }, ` ${t('chat.says')}`),
                ': ',
                h('span', { class: 'chat-text' }, m.text),
              ),
              who && m.player_id && m.player_id !== who.player_id
                ? h('button', { type: 'button', class: 'chat-mute', 'aria-label': t('chat.muteLabel', { name: m.name }), onclick: () => muteSender(m) }, t('chat.mute'))
                : null,
            ),
          )
        : h('li', { class: 'empty' }, t('chat.none')),
    );
    if (atBottom) log.scrollTop = log.scrollHeight;
  }

  /** @param {ChatMessage} m */
  async function muteSender(m) {
    const who = identity();
    if (!who || !m.player_id) return;
    const playerId = m.player_id;
    try {
      await players.mute(who.token, playerId);
    } catch (e) {
      noteProblem(e);
      return;
    }
    for (const [seq, x] of messages) if (x.player_id === playerId) messages.delete(seq);
    render();
    const undo = h('button', { type: 'button', id: 'chat-unmute' }, t('chat.unmute', { name: m.name }));
    undo.addEventListener('click', async () => {
      try {
        await players.unmute(who.token, playerId);
        note('');
        messages.clear();
        await reload();
      } catch (e) {
        noteProblem(e);
      }
    });
    const box = byId('chat-note');
    box.className = 'chat-note';
    replace(box, `${t('chat.muted', { name: m.name })} `, undo);
  }

  /** Whom the reader talks to, and the field to write in when the reader may write. */
  function renderCompose() {
    const key = chatToken();
    replace(
      byId('chat-channel'),
      channel === 'players' ? t('chat.players') : t('chat.watchers'),
    );
    replace(
      byId('chat-compose'),
      key ? form : h('p', { class: 'hint' }, h('a', { href: '/me' }, t('chat.signIn')), ` ${t('chat.toWrite')}`),

    );
  }

  /** Reads the messages after the last one shown (all of them for another token). */
  async function reload() {
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    try {
      const key = chatToken();
      if (key !== readWith) {
        messages.clear();
        readWith = key;
      }
      let after = Math.max(0, ...messages.keys());
      for (let pages = 0; pages < 20; pages += 1) {
        const page = await api.getChat(gameId, key, after);
        if (page.channel !== channel) {
          channel = page.channel;
          renderCompose();
        }
        add(page.messages);
        if (page.next_after == null) break;
        after = page.next_after;
      }
    } catch {
      // Offline or refused: the page says so elsewhere; chat is tried again later.
    } finally {
      reading = false;
      if (readAgain) {
        readAgain = false;
        reload();
      }
    }
  }

  // Until the server says which: a seat talks to the players, anyone else to the watchers.
  channel = token() ? 'players' : 'spectators';
  renderCompose();
  setInterval(() => {
    if (document.visibilityState === 'visible' && !streaming()) reload();
  }, POLL_MS);
  reload();

  return {
    /** @param {ChatMessage} m a message from the stream */
    onMessage: (m) => {
      if (readWith === chatToken()) add([m]);
    },
    reload,
  };
}
