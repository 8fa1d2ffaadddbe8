// Challenges (docs/people.md): inviting a chosen player to a game, from their profile or the
// leaderboard (`challengeForm`, `openChallengeDialog`), and, on the player's own page, the
// challenges sent and received with accept, decline (with a reason) and cancel
// (`challengesSection`). The list is read from `GET /v1/challenges` and read again on every
// `challenge`, `challenge_ended` and `game_started` notice of the player's stream; a challenge
// this page knew as pending that turns up accepted opens its game.

import { ApiError, freshEntropy } from '../api.js';
import { CLOCK_CHOICES, clockWords } from '../clocks.js';
import { byId, h, replace } from '../dom.js';
import { list, t, tn } from '../i18n/index.js';
import * as players from './api.js';
import { clearError, shortTitleOf, showError, titleOf } from './common.js';
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
  { level: 'random', label: t('lobby.kind.random') },
  { level: 'greedy', label: t('lobby.kind.greedy') },
  { level: 'mcts', label: t('lobby.kind.mcts') },
];

/** Why a challenge is declined, in the decliner's words. @type {{reason: DeclineReason, label: string}[]} */
export const DECLINE_REASONS = [
  { reason: 'generic', label: t('chal.reason.generic') },
  { reason: 'later', label: t('chal.reason.later') },
  { reason: 'too_fast', label: t('chal.reason.tooFast') },
  { reason: 'too_slow', label: t('chal.reason.tooSlow') },
  { reason: 'not_rated', label: t('chal.reason.notRated') },
  { reason: 'rated', label: t('chal.reason.rated') },
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
  const type = h('select', { id: 'challenge-type' }, types.map((g) => h('option', { value: g.type, selected: g.type === last.type }, titleOf(types, g.type))));
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
        return h('option', { value: n, selected: n === Math.min(Math.max(before, low), high) }, tn('me.nPlayers', n));
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
          h('label', { for: `challenge-bot-${i}` }, t('common.SeatN', { n: i + 3 })),
          h('select', { id: `challenge-bot-${i}`, class: 'challenge-bot' }, BOTS.map((b) => h('option', { value: b.level, selected: b.level === (levels[i] ?? last.bots?.[i] ?? 'greedy') }, b.label))),
        ),
      ),
    );
  };
  type.addEventListener('change', fillSeats);
  seats.addEventListener('change', fillBots);
  rated.addEventListener('change', fillSeats);
  fillSeats();
  const send = h('button', { type: 'submit', id: 'challenge-send', class: 'action' }, t('chal.send', { name: opponent.name }));
  const form = h(
    'form',
    { id: 'challenge-form', class: 'challenge-form' },
    h('div', { class: 'field' }, h('label', { for: 'challenge-type' }, t('lobby.game')), type),
    h('div', { class: 'field' }, h('label', { for: 'challenge-seats' }, t('me.players')), seats, h('small', { id: 'challenge-seats-hint', class: 'hint' }, t('chal.seatsHint', { name: opponent.name }))),
    bots,
    h('div', { class: 'field' }, h('label', { for: 'challenge-clock' }, t('lobby.clock')), clock),
    h('div', { class: 'field check' }, rated, h('label', { for: 'challenge-rated' }, t('chal.rated'))),
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
      replace(byId('challenge-news'), t('chal.sent', { name: opponent.name }));
      onSent(sent);
    } catch (err) {
      showError(err instanceof ApiError && err.code === 'challenge_yourself' ? new Error(t('chal.yourself')) : err);
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
    h('h2', { id: 'challenge-dialog-title' }, t('chal.send', { name: opponent.name })),
    challengeForm(opponent, types, () => {
      dialog.close();
      location.href = '/me#challenges';
    }),
    h('button', { type: 'button', class: 'cancel', id: 'challenge-close', onclick: () => dialog.close() }, t('chal.cancel')),
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
    h('h2', { id: 'challenges-title' }, `${t('chal.title')} `, h('span', { id: 'challenge-count', class: 'badge to-act', hidden: true })),
    h('ul', { id: 'challenge-list', class: 'challenge-list' }, h('li', {}, t('common.loading'))),
    h('p', { class: 'hint' }, t('chal.hint')),
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
    h('summary', {}, t('chal.whom')),
    h('div', { class: 'field check' }, everyone, h('label', { for: 'challenges-from-everyone' }, t('chal.everyone'))),
    h('p', { class: 'hint' }, t('chal.whomHint')),
    h('h3', {}, t('chal.blocked')),
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
            h('button', { type: 'button', class: 'unblock', 'aria-label': t('chal.unblockName', { name: p.name }), onclick: () => unblock(p) }, t('chal.unblock')),
          ),
        )
      : h('li', { class: 'empty' }, t('chal.nobody')),
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
    const what = notice.rated ? t('chal.ratedGame', { game: shortTitleOf(gameTypes, notice.type) }) : shortTitleOf(gameTypes, notice.type);
    return notice.rematch_of ? t('chal.notice.rematch', { name: notice.challenger_name, what }) : t('chal.notice.challenge', { name: notice.challenger_name, what });
  }
  if (notice.kind === 'challenge_ended') {
    const c = known.find((x) => x.challenge_id === notice.challenge_id);
    const by = c?.seats.find((s) => s.player_id === notice.by)?.name ?? t('chal.aPlayer');
    const why = reasonWords(notice.reason);
    const yours = !!c && c.challenger_id === identity()?.player_id;
    if (notice.status !== 'declined') return t('chal.notice.withdrawn', { name: by });
    const declined = t(yours ? 'chal.notice.declinedYours' : 'chal.notice.declined', { name: by });
    return why ? t('chal.notice.because', { what: declined, why }) : `${declined}.`;
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
  if (list) replace(list, h('li', { id: 'challenge-starting' }, t('chal.starting')));
  location.href = `/games/${c.game_id}`;
}

/**
 * The table of a challenge in words: "Ann, Bob and a bot".
 * @param {Challenge} c
 */
function table(c) {
  const names = c.seats.map((s) => (s.bot ? t('chal.aBot', { level: s.bot }) : (s.name ?? t('chal.aPlayerLower'))));
  return names.length <= 1 ? names.join('') : list(names);
}

/** @param {Challenge} c */
function terms(c) {
  return [shortTitleOf(gameTypes, c.type), c.rated ? t('me.rated') : null, clockWords(c.clock) ?? t('me.noClock')].filter(Boolean).join(', ');
}

/**
 * @param {Challenge} c
 * @param {string} me
 */
function challengeRow(c, me) {
  const sent = c.challenger_id === me;
  const challenger = c.seats.find((s) => s.player_id === c.challenger_id)?.name ?? t('chal.someone');
  const others = c.seats.filter((s) => s.player_id && s.player_id !== me && !s.accepted).map((s) => s.name ?? t('chal.aPlayerLower'));
  const mine = c.seats.find((s) => s.player_id === me);
  const what = c.rematch_of ? t('chal.aRematch') : terms(c);
  /** @type {import('../dom.js').Child[]} */
  let words;
  /** @type {import('../dom.js').Child} */
  let controls = null;
  if (c.status === 'pending' && mine && !mine.accepted) {
    words = [h('strong', {}, challenger), ' ', c.rematch_of ? t('chal.row.asksRematch', { terms: terms(c) }) : t('chal.row.challengesYou', { what }), ` · ${table(c)}`];
    const reason = h('select', { id: `decline-reason-${c.challenge_id}`, class: 'decline-reason' }, DECLINE_REASONS.map((r) => h('option', { value: r.reason }, r.label)));
    controls = h(
      'div',
      { class: 'challenge-controls' },
      h('button', { type: 'button', class: 'action accept-challenge', onclick: () => answer(c, 'accept') }, t('chal.accept')),
      h(
        'details',
        { class: 'decline' },
        h('summary', {}, t('chal.declineMore')),
        h('label', { for: `decline-reason-${c.challenge_id}` }, t('chal.why')),
        reason,
        h('button', { type: 'button', class: 'decline-challenge', onclick: () => answer(c, 'decline', /** @type {DeclineReason} */ (reason.value)) }, t('chal.decline')),
        h('button', { type: 'button', class: 'block-challenger', onclick: () => declineAndBlock(c, /** @type {DeclineReason} */ (reason.value)) }, t('chal.declineBlock', { name: challenger })),
      ),
    );
  } else if (c.status === 'pending') {
    words = [sent ? t('chal.row.youChallenged', { names: others.length ? list(others) : t('chal.them'), what }) : t('chal.row.theirs', { name: challenger, what }), ` · ${t('chal.row.waitingFor', { names: others.length ? list(others) : t('chal.theOthers') })}`];
    controls = sent ? h('button', { type: 'button', class: 'cancel-challenge', onclick: () => answer(c, 'cancel') }, t('chal.withdraw')) : null;
  } else {
    const by = c.seats.find((s) => s.player_id === c.declined_by)?.name;
    const why = reasonWords(c.decline_reason);
    /** @type {Record<string, string>} */
    const status = {
      accepted: t('chal.status.accepted'),
      declined: why ? t('chal.notice.because', { what: t('chal.status.declinedBy', { name: by ?? t('chal.aPlayerLower') }), why }) : t('chal.status.declinedBy', { name: by ?? t('chal.aPlayerLower') }),
      cancelled: t('chal.status.withdrawn'),
      expired: t('chal.status.expired'),
    };
    words = [sent ? t('chal.row.youChallenged', { names: table(c), what }) : t('chal.row.theirs', { name: challenger, what }), ` · ${status[c.status] ?? c.status}`];
    if (c.status === 'accepted' && c.game_id) controls = h('a', { href: `/games/${c.game_id}`, class: 'button' }, t('lobby.openGame'));
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
  replace(count, t('chal.toAnswer', { n: toAnswer }));
  replace(
    list,
    pending.length ? pending.map((c) => challengeRow(c, who.player_id)) : h('li', { class: 'empty' }, t('chal.none')),
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
