// Challenges (docs/people.md): inviting a chosen player to a game, from their profile or the
// leaderboard (`challengeForm`, `openChallengeDialog`), and, on the player's own page, the
// challenges sent and received with accept, decline (with a reason) and cancel
// (`challengesSection`). The list is read from `GET /v1/challenges` and read again on every
// `challenge`, `challenge_ended` and `game_started` notice of the player's stream; a challenge
// this page knew as pending that turns up accepted opens its game.

import { ApiError, freshEntropy } from '../api.js';
import { CLOCK_CHOICES, clockWords } from '../clocks.js';
import { byId, h, replace } from '../dom.js';
import * as players from './api.js';
import { clearError, shortTitleOf, showError } from './common.js';
import { identity, rememberPlayerSeat } from './identity.js';

/** @typedef {import('./api.js').Challenge} Challenge */
/** @typedef {import('./api.js').DeclineReason} DeclineReason */
/** @typedef {import('./api.js').PlayerNotice} PlayerNotice */
/** @typedef {import('../api.js').GameType} GameType */
/** @typedef {import('../api.js').Schemas['BotLevel']} BotLevel */

/** The choices of the challenge form last used. */
const FORM_KEY = 'boardgames.player.challenge.v1';
/** Ended challenges shown below the pending ones. */
const ENDED_SHOWN = 5;

/** @type {{level: BotLevel, label: string}[]} */
const BOTS = [
  { level: 'random', label: 'Bot: random' },
  { level: 'greedy', label: 'Bot: greedy' },
  { level: 'mcts', label: 'Bot: MCTS (strongest)' },
];

/** Why a challenge is declined, in the decliner's words. @type {{reason: DeclineReason, label: string}[]} */
export const DECLINE_REASONS = [
  { reason: 'generic', label: 'No, thank you' },
  { reason: 'later', label: 'Not now, maybe later' },
  { reason: 'too_fast', label: 'The clock is too fast for me' },
  { reason: 'too_slow', label: 'The clock is too slow for me' },
  { reason: 'not_rated', label: 'I’d rather play a rated game' },
  { reason: 'rated', label: 'I’d rather play an unrated game' },
];

/** @param {DeclineReason | null} reason */
const reasonWords = (reason) => DECLINE_REASONS.find((r) => r.reason === reason)?.label ?? null;

// ---- sending ----

/**
 * The form that challenges `opponent`: the game, how many seats (the ones after the two
 * players are the server's bots, a level each), the clock, rated. `onSent` hears the
 * challenge once the server has it.
 * @param {{player_id: string, name: string}} opponent
 * @param {GameType[]} types
 * @param {(c: Challenge) => void} onSent
 * @returns {HTMLFormElement}
 */
export function challengeForm(opponent, types, onSent) {
  /** @type {{type?: string, seats?: number, clock?: string, rated?: boolean, bots?: string[]}} */
  let last = {};
  try {
    last = JSON.parse(localStorage.getItem(FORM_KEY) ?? '{}') ?? {};
  } catch {
    last = {};
  }
  const type = h('select', { id: 'challenge-type' }, types.map((t) => h('option', { value: t.type, selected: t.type === last.type }, t.title)));
  const seats = h('select', { id: 'challenge-seats', 'aria-describedby': 'challenge-seats-hint' });
  const bots = h('div', { id: 'challenge-bots' });
  const clock = h('select', { id: 'challenge-clock' }, CLOCK_CHOICES.map((c) => h('option', { value: c.id, selected: c.id === last.clock }, c.label)));
  const rated = h('input', { type: 'checkbox', id: 'challenge-rated', checked: last.rated === true });
  const chosen = () => types.find((t) => t.type === type.value) ?? types[0];
  const fillSeats = () => {
    const game = chosen();
    if (!game) return;
    const low = Math.max(2, game.min_seats);
    const before = Number(seats.value) || last.seats || low;
    // A rated game is people only: just the two of you.
    const high = rated.checked ? low : game.max_seats;
    replace(
      seats,
      Array.from({ length: Math.max(0, high - low + 1) }, (_, i) => {
        const n = low + i;
        return h('option', { value: n, selected: n === Math.min(Math.max(before, low), high) }, `${n} players`);
      }),
    );
    fillBots();
  };
  const fillBots = () => {
    const extra = Math.max(0, Number(seats.value) - 2);
    const levels = [...bots.querySelectorAll('select')].map((s) => s.value);
    replace(
      bots,
      Array.from({ length: extra }, (_, i) =>
        h(
          'div',
          { class: 'field' },
          h('label', { for: `challenge-bot-${i}` }, `Seat ${i + 3}`),
          h('select', { id: `challenge-bot-${i}`, class: 'challenge-bot' }, BOTS.map((b) => h('option', { value: b.level, selected: b.level === (levels[i] ?? last.bots?.[i] ?? 'greedy') }, b.label))),
        ),
      ),
    );
  };
  type.addEventListener('change', fillSeats);
  seats.addEventListener('change', fillBots);
  rated.addEventListener('change', fillSeats);
  fillSeats();
  const send = h('button', { type: 'submit', id: 'challenge-send', class: 'action' }, `Challenge ${opponent.name}`);
  const form = h(
    'form',
    { id: 'challenge-form', class: 'challenge-form' },
    h('div', { class: 'field' }, h('label', { for: 'challenge-type' }, 'Game'), type),
    h('div', { class: 'field' }, h('label', { for: 'challenge-seats' }, 'Players'), seats, h('small', { id: 'challenge-seats-hint', class: 'hint' }, `You, ${opponent.name}, and the server’s bots in the seats after yours.`)),
    bots,
    h('div', { class: 'field' }, h('label', { for: 'challenge-clock' }, 'Clock'), clock),
    h('div', { class: 'field check' }, rated, h('label', { for: 'challenge-rated' }, 'Rated: the result changes both ratings (no bots)')),
    send,
    h('p', { id: 'challenge-news', role: 'status' }),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const who = identity();
    if (!who) return;
    clearError();
    const game = chosen();
    if (!game) return;
    const n = Number(seats.value);
    const levels = /** @type {BotLevel[]} */ ([...bots.querySelectorAll('select')].map((s) => s.value));
    const time = CLOCK_CHOICES.find((c) => c.id === clock.value) ?? CLOCK_CHOICES[0];
    localStorage.setItem(FORM_KEY, JSON.stringify({ type: game.type, seats: n, clock: time.id, rated: rated.checked, bots: levels }));
    /** @type {Record<string, unknown>} */
    const request = { type: game.type, players: [opponent.player_id], clock: time.request, rated: rated.checked, entropy: freshEntropy() };
    if (levels.length) request.bots = levels;
    send.disabled = true;
    try {
      const sent = await players.challenge(who.token, /** @type {players.ChallengeRequest} */ (/** @type {unknown} */ (request)));
      replace(byId('challenge-news'), `Challenge sent to ${opponent.name}.`);
      onSent(sent);
    } catch (err) {
      showError(err instanceof ApiError && err.code === 'challenge_yourself' ? new Error('That is you: challenge another player.') : err);
    } finally {
      send.disabled = false;
    }
  });
  return form;
}

/**
 * The challenge form in a dialog (the leaderboard's rows); once sent, the player's own page,
 * where the challenge waits for its answer.
 * @param {{player_id: string, name: string}} opponent
 * @param {GameType[]} types
 */
export function openChallengeDialog(opponent, types) {
  const dialog = h(
    'dialog',
    { class: 'chooser challenge-dialog', 'aria-labelledby': 'challenge-dialog-title' },
    h('h2', { id: 'challenge-dialog-title' }, `Challenge ${opponent.name}`),
    challengeForm(opponent, types, () => {
      dialog.close();
      location.href = '/me#challenges';
    }),
    h('button', { type: 'button', class: 'cancel', id: 'challenge-close', onclick: () => dialog.close() }, 'Cancel'),
  );
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

// ---- the player's challenges ----

/** @type {Challenge[]} */
let known = [];
/** Challenges this page saw pending: one of them accepted opens its game. */
const waiting = new Set();
/** @type {GameType[]} */
let gameTypes = [];
let reading = false;
let readAgain = false;

/**
 * "Challenges" on the player's own page; `refreshChallenges` fills it.
 * @param {GameType[]} types
 */
export function challengesSection(types) {
  gameTypes = types;
  return h(
    'section',
    { id: 'challenges', class: 'card', 'aria-labelledby': 'challenges-title' },
    h('h2', { id: 'challenges-title' }, 'Challenges ', h('span', { id: 'challenge-count', class: 'badge to-act', hidden: true })),
    h('ul', { id: 'challenge-list', class: 'challenge-list' }, h('li', {}, 'Loading…')),
    h('p', { class: 'hint' }, 'Challenge a player from their profile or the leaderboard. A game starts here as soon as everyone accepted.'),
    whomSection(),
  );
}

// ---- whom the player takes challenges from ----

/** "Whom you take challenges from": everyone or nobody, and the players blocked. */
function whomSection() {
  const everyone = h('input', { type: 'checkbox', id: 'challenges-from-everyone', checked: true });
  everyone.addEventListener('change', async () => {
    const who = identity();
    if (!who) return;
    clearError();
    try {
      const now = await players.putPlayerSettings(who.token, { challenges_from: everyone.checked ? 'everyone' : 'nobody' });
      everyone.checked = now.challenges_from === 'everyone';
    } catch (e) {
      everyone.checked = !everyone.checked;
      showError(e);
    }
  });
  const details = h(
    'details',
    { id: 'challenge-settings' },
    h('summary', {}, 'Whom you take challenges from'),
    h('div', { class: 'field check' }, everyone, h('label', { for: 'challenges-from-everyone' }, 'Take challenges from everyone but the players below')),
    h('p', { class: 'hint' }, 'Whoever you do not take challenges from is told “takes no challenges from you”, not why.'),
    h('h3', {}, 'Blocked'),
    h('ul', { id: 'blocked-players', class: 'blocked' }),
  );
  details.addEventListener('toggle', () => {
    if (details.open) readWhom();
  });
  return details;
}

async function readWhom() {
  const who = identity();
  if (!who) return;
  try {
    const [now, blocked] = await Promise.all([players.playerSettings(who.token), players.blocks(who.token)]);
    /** @type {HTMLInputElement} */ (byId('challenges-from-everyone')).checked = now.challenges_from === 'everyone';
    renderBlocked(blocked.players);
  } catch (e) {
    showError(e);
  }
}

/** @param {players.PlayerRef[]} list */
function renderBlocked(list) {
  const box = document.getElementById('blocked-players');
  if (!box) return;
  replace(
    box,
    list.length
      ? list.map((p) =>
          h(
            'li',
            { 'data-player': p.player_id },
            h('a', { href: `/players/${p.player_id}` }, p.name),
            ' ',
            h('button', { type: 'button', class: 'unblock', 'aria-label': `Unblock ${p.name}`, onclick: () => unblock(p) }, 'Unblock'),
          ),
        )
      : h('li', { class: 'empty' }, 'Nobody.'),
  );
}

/** @param {players.PlayerRef} p */
async function unblock(p) {
  const who = identity();
  if (!who) return;
  clearError();
  try {
    await players.unblock(who.token, p.player_id);
    await readWhom();
  } catch (e) {
    showError(e);
  }
}

/**
 * Declines a challenge and blocks its challenger: no more challenges from them.
 * @param {Challenge} c
 * @param {DeclineReason} reason
 */
async function declineAndBlock(c, reason) {
  const who = identity();
  if (!who) return;
  clearError();
  try {
    await players.block(who.token, c.challenger_id);
  } catch (e) {
    showError(e);
    return;
  }
  await answer(c, 'decline', reason);
  if (/** @type {HTMLDetailsElement | null} */ (document.getElementById('challenge-settings'))?.open) await readWhom();
}

/** Reads the player's challenges again; opens the game of one that just started. */
export async function refreshChallenges() {
  const who = identity();
  if (!who || !document.getElementById('challenge-list')) return;
  if (reading) {
    readAgain = true;
    return;
  }
  reading = true;
  try {
    known = (await players.challenges(who.token, {})).challenges;
    for (const c of known) {
      if (c.status === 'pending') waiting.add(c.challenge_id);
      else if (waiting.has(c.challenge_id)) {
        waiting.delete(c.challenge_id);
        if (c.status === 'accepted' && c.game_id) {
          openGame(c);
          return;
        }
      }
    }
    renderChallenges();
  } catch (e) {
    if (!(e instanceof ApiError && (e.status === 0 || e.status === 401))) showError(e);
  } finally {
    reading = false;
    if (readAgain) {
      readAgain = false;
      refreshChallenges();
    }
  }
}

/**
 * What a notice of the player's stream means for the challenges: words for screen readers, or
 * `null`. The caller reads the list again after every notice.
 * @param {PlayerNotice} notice
 * @returns {string | null}
 */
export function challengeNotice(notice) {
  if (notice.kind === 'challenge') {
    const what = `${shortTitleOf(gameTypes, notice.type)}${notice.rated ? ', rated' : ''}`;
    return notice.rematch_of ? `${notice.challenger_name} asks for a rematch (${what}).` : `${notice.challenger_name} challenges you to ${what}.`;
  }
  if (notice.kind === 'challenge_ended') {
    const c = known.find((x) => x.challenge_id === notice.challenge_id);
    const by = c?.seats.find((s) => s.player_id === notice.by)?.name ?? 'A player';
    const why = reasonWords(notice.reason);
    const whose = c && c.challenger_id === identity()?.player_id ? 'your' : 'the';
    return notice.status === 'declined' ? `${by} declined ${whose} challenge${why ? `: “${why}”` : ''}.` : `${by} withdrew the challenge.`;
  }
  return null;
}

/**
 * The game of an accepted challenge: the player's seat is played with the player's key.
 * @param {Challenge} c
 */
function openGame(c) {
  const who = identity();
  const seat = c.seats.find((s) => s.player_id === who?.player_id);
  if (!c.game_id) return;
  if (seat) rememberPlayerSeat(c.game_id, seat.seat);
  const list = document.getElementById('challenge-list');
  if (list) replace(list, h('li', { id: 'challenge-starting' }, 'Everyone accepted! Opening the game…'));
  location.href = `/games/${c.game_id}`;
}

/**
 * The table of a challenge in words: "Ann, Bob and a bot".
 * @param {Challenge} c
 */
function table(c) {
  const names = c.seats.map((s) => (s.bot ? `a ${s.bot} bot` : (s.name ?? 'a player')));
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** @param {Challenge} c */
function terms(c) {
  return [shortTitleOf(gameTypes, c.type), c.rated ? 'rated' : null, clockWords(c.clock) ?? 'no clock'].filter(Boolean).join(', ');
}

/**
 * @param {Challenge} c
 * @param {string} me
 */
function challengeRow(c, me) {
  const sent = c.challenger_id === me;
  const challenger = c.seats.find((s) => s.player_id === c.challenger_id)?.name ?? 'Someone';
  const others = c.seats.filter((s) => s.player_id && s.player_id !== me && !s.accepted).map((s) => s.name);
  const mine = c.seats.find((s) => s.player_id === me);
  const what = c.rematch_of ? 'a rematch' : terms(c);
  /** @type {import('../dom.js').Child[]} */
  let words;
  /** @type {import('../dom.js').Child} */
  let controls = null;
  if (c.status === 'pending' && mine && !mine.accepted) {
    words = [h('strong', {}, challenger), c.rematch_of ? ` asks for a rematch (${terms(c)})` : ` challenges you: ${what}`, ` · ${table(c)}`];
    const reason = h('select', { id: `decline-reason-${c.challenge_id}`, class: 'decline-reason' }, DECLINE_REASONS.map((r) => h('option', { value: r.reason }, r.label)));
    controls = h(
      'div',
      { class: 'challenge-controls' },
      h('button', { type: 'button', class: 'action accept-challenge', onclick: () => answer(c, 'accept') }, 'Accept'),
      h(
        'details',
        { class: 'decline' },
        h('summary', {}, 'Decline…'),
        h('label', { for: `decline-reason-${c.challenge_id}` }, 'Why'),
        reason,
        h('button', { type: 'button', class: 'decline-challenge', onclick: () => answer(c, 'decline', /** @type {DeclineReason} */ (reason.value)) }, 'Decline'),
        h('button', { type: 'button', class: 'block-challenger', onclick: () => declineAndBlock(c, /** @type {DeclineReason} */ (reason.value)) }, `Decline and block ${challenger}`),
      ),
    );
  } else if (c.status === 'pending') {
    words = [sent ? `You challenged ${others.join(' and ') || 'them'}: ${what}` : `${challenger}’s challenge: ${what}`, ` · waiting for ${others.join(' and ') || 'the others'}`];
    controls = sent ? h('button', { type: 'button', class: 'cancel-challenge', onclick: () => answer(c, 'cancel') }, 'Withdraw') : null;
  } else {
    const by = c.seats.find((s) => s.player_id === c.declined_by)?.name;
    const why = reasonWords(c.decline_reason);
    /** @type {Record<string, string>} */
    const status = {
      accepted: 'accepted',
      declined: `declined by ${by ?? 'a player'}${why ? `: “${why}”` : ''}`,
      cancelled: 'withdrawn',
      expired: 'expired: not everyone accepted in time',
    };
    words = [sent ? `You challenged ${table(c)}: ${what}` : `${challenger}’s challenge: ${what}`, ` · ${status[c.status] ?? c.status}`];
    if (c.status === 'accepted' && c.game_id) controls = h('a', { href: `/games/${c.game_id}`, class: 'button' }, 'Open the game');
  }
  return h('li', { 'data-challenge': c.challenge_id, 'data-status': c.status, 'data-role': sent ? 'sent' : 'received' }, h('p', { class: 'challenge-words' }, words), controls);
}

function renderChallenges() {
  const who = identity();
  const list = document.getElementById('challenge-list');
  if (!who || !list) return;
  const pending = known.filter((c) => c.status === 'pending');
  const ended = known.filter((c) => c.status !== 'pending').slice(0, ENDED_SHOWN);
  const toAnswer = pending.filter((c) => c.seats.some((s) => s.player_id === who.player_id && !s.accepted)).length;
  const count = byId('challenge-count');
  count.hidden = toAnswer === 0;
  replace(count, `${toAnswer} to answer`);
  replace(
    list,
    pending.length ? pending.map((c) => challengeRow(c, who.player_id)) : h('li', { class: 'empty' }, 'No challenge waiting.'),
    ended.length ? [h('li', { class: 'divider', 'aria-hidden': 'true' }), ended.map((c) => challengeRow(c, who.player_id))] : null,
  );
}

/**
 * Accepts, declines or withdraws a challenge.
 * @param {Challenge} c
 * @param {'accept' | 'decline' | 'cancel'} what
 * @param {DeclineReason} [reason]
 */
async function answer(c, what, reason = 'generic') {
  const who = identity();
  if (!who) return;
  clearError();
  try {
    const now =
      what === 'accept'
        ? await players.acceptChallenge(who.token, c.challenge_id, freshEntropy())
        : what === 'decline'
          ? await players.declineChallenge(who.token, c.challenge_id, reason)
          : await players.cancelChallenge(who.token, c.challenge_id);
    if (now && now.status === 'accepted' && now.game_id) {
      openGame(now);
      return;
    }
    if (now?.status === 'pending') waiting.add(now.challenge_id);
  } catch (e) {
    // Ended meanwhile (declined by another, withdrawn, expired): the list says how.
    if (!(e instanceof ApiError && e.status === 409)) showError(e);
  }
  await refreshChallenges();
}
