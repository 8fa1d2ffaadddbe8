// The player's own page (`/me`). Signed out: sign up with a name, or sign in with a key from
// another device. Signed in: "Your games" with whose turn it is in each, kept live by the
// player's stream; "Play", which seeks opponents and opens the game once it is matched; and
// the key (a link for another device, a new key, signing out).
//
// The list is read from `GET /v1/players/me/games`; the stream's notices change it at once (a
// `turn` marks the game as yours to play) and have it read again, so it never drifts from the
// server's. What the stream cannot say (a move of yours made in another tab ends your turn) is
// read again when this page becomes visible, and once a minute while it is seen.
// "Challenges" (`challenges.js`) lists the challenges sent and received, read again the same way.

import { ApiError, serverNow } from '../api.js';
import { CLOCK_CHOICES, clockIcon, clockText, clockWords, startTicking } from '../clocks.js';
import { byId, h, replace } from '../dom.js';
import { list, t, tn } from '../i18n/index.js';
import { turnChime, unlockSound } from '../motion.js';
import { takeTokenFromFragment } from '../seats.js';
import { settings } from '../settings.js';
import * as players from './api.js';
import { challengeNotice, challengesSection, refreshChallenges } from './challenges.js';
import { clearError, gameTypes, shortTitleOf, showError, titleOf } from './common.js';
import { changeToken, deviceLink, identity, rememberPlayerSeat, signIn, signOut } from './identity.js';
import { followPlayer } from './stream.js';

/** @typedef {import('./api.js').PlayerGameSummary} PlayerGameSummary */
/** @typedef {import('./api.js').PlayerNotice} PlayerNotice */
/** @typedef {import('./api.js').Seek} Seek */
/** @typedef {import('../api.js').GameType} GameType */
/** @typedef {import('./identity.js').Identity} Identity */

/** Where the seek this browser waits on is kept (a reload keeps waiting on it). */
const SEEK_KEY = 'boardgames.player.seek.v1';
/** The choices of the "Play" form last used. */
const FORM_KEY = 'boardgames.player.play.v1';
/** Finished games shown below the ones going on. */
const FINISHED_SHOWN = 10;
/** How often the list is read again without a notice (see the end of this module). */
const SAFETY_READ_MS = 60000;
/** The bot-fill delays offered (seconds; 0: wait for people only). */
const FILL_CHOICES = [
  { value: 0, label: t('me.fill.none') },
  { value: 30, label: t('me.fill.after', { span: t('clock.seconds', { n: 30 }) }) },
  { value: 120, label: t('me.fill.after', { span: t('clock.minutes', { n: 2 }) }) },
  { value: 600, label: t('me.fill.after', { span: t('clock.minutes', { n: 10 }) }) },
];

/** @type {GameType[]} */
let types = [];
/** @type {Map<string, PlayerGameSummary>} the player's games by id */
const games = new Map();
/** @type {{stop: () => void} | null} */
let following = null;

/** @param {string} type */
const title = (type) => shortTitleOf(types, type);

// ---- the page ----

/** Shows the page for whoever this browser plays as (or the sign-up). */
export async function showMe() {
  document.title = t('me.title');
  try {
    types = await gameTypes();
  } catch (e) {
    showError(e);
    return;
  }
  await takeDeviceLink();
  const who = identity();
  if (who) await showSignedIn(who);
  else showSignedOut();
  document.body.dataset.ready = 'true';
}

/** A link from another device (`/me#token=pl_…`): sign in with its key. */
async function takeDeviceLink() {
  const token = takeTokenFromFragment();
  if (!token) return;
  try {
    await useKey(token);
  } catch (e) {
    showError(e);
  }
}

/**
 * Signs in with a key, once the server knows it.
 * @param {string} token
 */
async function useKey(token) {
  const profile = await players.me(token);
  const before = identity();
  if (before && before.player_id !== profile.player_id) signOut();
  signIn({ player_id: profile.player_id, name: profile.name, token });
}

// ---- signed out ----

function showSignedOut() {
  following?.stop();
  following = null;
  delete document.body.dataset.player;
  const name = h('input', {
    id: 'signup-name',
    type: 'text',
    minlength: 2,
    maxlength: 24,
    required: true,
    autocomplete: 'nickname',
    'aria-describedby': 'signup-hint',
    value: localStorage.getItem('boardgames.name') ?? '',
  });
  const signup = h(
    'form',
    { id: 'signup-form' },
    h('div', { class: 'field' }, h('label', { for: 'signup-name' }, t('lobby.yourName')), name),
    h('p', { id: 'signup-hint', class: 'hint' }, t('me.signupHint')),
    h('button', { type: 'submit', id: 'signup', class: 'action' }, t('me.signup')),
  );
  signup.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearError();
    try {
      const created = await players.createPlayer(name.value.trim());
      signIn({ player_id: created.player_id, name: created.name, token: created.token });
      localStorage.setItem('boardgames.name', created.name);
      await showSignedIn(identity() ?? created, true);
    } catch (err) {
      // The server's words name its comparison ("Unicode case folding"); a person is told
      // what it means.
      const taken = err instanceof ApiError && err.code === 'name_taken';
      showError(taken ? t('me.nameTaken', { name: name.value.trim() }) : err);
      name.focus();
    }
  });
  const key = h('input', { id: 'signin-key', type: 'password', autocomplete: 'off', spellcheck: false, 'aria-describedby': 'signin-hint' });
  const signin = h(
    'form',
    { id: 'signin-form' },
    h('p', { id: 'signin-hint', class: 'hint' }, t('me.signinHint')),
    h('div', { class: 'field' }, h('label', { for: 'signin-key' }, t('me.key')), key),
    h('button', { type: 'submit', id: 'signin' }, t('me.signin')),
  );
  signin.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearError();
    try {
      await useKey(key.value.trim());
      const who = identity();
      if (who) await showSignedIn(who);
    } catch (err) {
      showError(err instanceof ApiError && err.status === 401 ? new Error(t('me.unknownKey')) : err);
    }
  });
  replace(
    byId('view-body'),
    h(
      'section',
      { id: 'join', class: 'card', 'aria-labelledby': 'join-title' },
      h('h2', { id: 'join-title' }, t('me.joinTitle')),
      h('p', {}, t('me.joinText')),
      signup,
    ),
    h('details', { id: 'have-key', class: 'card' }, h('summary', {}, t('me.haveKey')), signin),
    h('p', {}, t('me.noName'), h('a', { href: '/' }, t('me.noNameLink')), t('me.noNameEnd')),
  );
}

// ---- signed in ----

/**
 * @param {Identity} who
 * @param {boolean} [welcome] just signed up: say where the key is
 */
async function showSignedIn(who, welcome = false) {
  document.body.dataset.player = who.player_id;
  replace(
    byId('view-body'),
    h('div', { id: 'notices', class: 'visually-hidden', role: 'status', 'aria-live': 'polite' }),
    welcome
      ? h('p', { id: 'welcome', class: 'notice' }, t('me.welcome', { name: who.name }))
      : null,
    h(
      'section',
      { id: 'my-games', class: 'card', 'aria-labelledby': 'my-games-title' },
      h('h2', { id: 'my-games-title' }, `${t('nav.me')} `, h('span', { id: 'turn-count', class: 'badge to-act', hidden: true })),
      h('p', { id: 'stream-state', class: 'hint', role: 'status' }),
      h('ul', { id: 'player-games', class: 'player-games' }, h('li', {}, t('common.loading'))),
    ),
    challengesSection(types),
    playSection(),
    keySection(who),
  );
  startTicking();
  document.addEventListener('pointerdown', unlockSound, { once: true });
  document.addEventListener('keydown', unlockSound, { once: true });
  await Promise.all([refreshGames(), refreshChallenges()]);
  await resumeSeek();
  follow(who);
}

/** @param {Identity} who */
function follow(who) {
  following?.stop();
  let gap = false;
  following = followPlayer({
    token: who.token,
    onNotice,
    onState: (state) => {
      document.body.dataset.stream = state;
      const words = { connecting: t('me.stream.connecting'), live: t('me.stream.live'), reconnecting: t('me.stream.reconnecting') };
      replace(byId('stream-state'), words[state]);
      // Back after a gap: what happened meanwhile is resent, but read the list afresh too.
      if (state === 'live' && gap) {
        scheduleRefresh();
        refreshChallenges();
      }
      gap = state === 'reconnecting';
    },
    onRefused: () => {
      showError(new Error(t('me.keyRotated')));
      signOut();
      showSignedOut();
    },
  });
}

/**
 * One notice of the player's stream.
 * @param {PlayerNotice} notice
 */
function onNotice(notice) {
  switch (notice.kind) {
    case 'turn': {
      const game = games.get(notice.game_id);
      if (game && !game.my_turn) {
        // At once, without waiting for the list: it is the player's turn there now.
        game.my_turn = true;
        game.status = 'active';
        game.active_seats = [notice.seat];
        game.deadlines = notice.deadline ? [{ seat: notice.seat, deadline: notice.deadline }] : [];
        game.version = notice.version;
        renderGames();
        announce(opponents(game) ? t('me.notice.turnAgainst', { game: title(notice.type), names: opponents(game) }) : t('me.notice.turn', { game: title(notice.type) }));
        if (settings().sound) turnChime();
      }
      break;
    }
    case 'game_finished':
      announce(t('me.notice.over', { game: title(notice.type) }));
      break;
    case 'offer':
      announce(t('me.notice.offer', { game: title(notice.type) }));
      break;
    case 'seek_matched':
      if (waitingSeek()?.seek_id === notice.seek_id) openMatched(notice.game_id, notice.seat);
      break;
    case 'challenge':
    case 'challenge_ended': {
      const words = challengeNotice(notice);
      if (words) announce(words);
      break;
    }
    default:
      break;
  }
  // A challenge may have started (`game_started`), arrived or ended: its list is read too.
  if (notice.kind === 'challenge' || notice.kind === 'challenge_ended' || notice.kind === 'game_started') refreshChallenges();
  scheduleRefresh();
}

/** @param {string} words */
function announce(words) {
  const box = document.getElementById('notices');
  if (box) replace(box, words);
}

// ---- your games ----

/** @type {ReturnType<typeof setTimeout> | null} */
let refreshTimer = null;
let refreshing = false;
let refreshAgain = false;

/** Reads the list again soon: a burst of notices makes one read. */
function scheduleRefresh() {
  if (refreshTimer !== null) return;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    refreshGames();
  }, 150);
}

/** Reads the games going on and the latest ones, and the seek waited on. */
async function refreshGames() {
  const who = identity();
  if (!who) return;
  if (refreshing) {
    refreshAgain = true;
    return;
  }
  refreshing = true;
  try {
    const [active, open, latest] = await Promise.all([
      players.myGames(who.token, { status: 'active', limit: 100 }),
      players.myGames(who.token, { status: 'open', limit: 100 }),
      players.myGames(who.token, { limit: 20 }),
    ]);
    games.clear();
    for (const g of [...active.games, ...open.games, ...latest.games]) games.set(g.game_id, g);
    renderGames();
    await checkSeek();
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      showError(new Error(t('me.keyGone')));
      signOut();
      showSignedOut();
    } else if (!(e instanceof ApiError && e.status === 0)) {
      showError(e);
    }
  } finally {
    refreshing = false;
    if (refreshAgain) {
      refreshAgain = false;
      scheduleRefresh();
    }
  }
}

/**
 * The other seats' names: "Bob", "Bob and a bot", "Bob, Cy and Di".
 * @param {PlayerGameSummary} game
 */
function opponents(game) {
  const names = game.seats
    .filter((s) => s.seat !== game.seat)
    .map((s) => (s.bot ? t('me.aBot') : (s.name ?? t('me.anOpenSeat'))));
  return names.length <= 1 ? names.join('') : list(names);
}

/**
 * Where the game stands for the player, in words, and whether it waits for them.
 * @param {PlayerGameSummary} game
 * @returns {{words: string, turn: 'mine' | 'theirs' | 'none'}}
 */
function standing(game) {
  if (game.status === 'active') {
    if (game.my_turn) return { words: t('me.yourTurn'), turn: 'mine' };
    const waiting = game.active_seats.map((s) => game.seats.find((x) => x.seat === s)?.name ?? t('common.seatN', { n: s + 1 }));
    return { words: waiting.length ? t('me.waitingFor', { names: list(waiting) }) : t('lobby.status.active'), turn: 'theirs' };
  }
  /** @type {Record<string, string>} */
  const words = { open: t('me.status.open'), finished: t('lobby.status.finished'), aborted: t('me.status.aborted'), expired: t('lobby.status.expired') };
  return { words: words[game.status] ?? game.status, turn: 'none' };
}

/**
 * When the player's own clock runs out, counting down (`clocks.js` ticks it).
 * @param {PlayerGameSummary} game
 */
function ownDeadline(game) {
  const deadline = game.my_turn ? game.deadlines.find((d) => d.seat === game.seat)?.deadline : null;
  if (!deadline) return null;
  return h(
    'span',
    { class: 'clock running', 'data-deadline': deadline, title: t('clock.leftForMove') },
    clockIcon(),
    h('span', { class: 'visually-hidden' }, t('me.timeLeft')),
    h('span', { class: 'time' }, clockText(Date.parse(deadline) - serverNow())),
  );
}

/** @param {PlayerGameSummary} game */
function gameRow(game) {
  const { words, turn } = standing(game);
  const against = opponents(game);
  return h(
    'li',
    { 'data-game': game.game_id, 'data-turn': turn, 'data-version': game.version },
    h(
      'a',
      { href: `/games/${game.game_id}`, class: `game-link ${turn}` },
      h(
        'span',
        { class: 'game-what' },
        h('span', { class: 'game-title' }, title(game.type)),
        game.rated ? h('span', { class: 'badge' }, t('me.rated')) : null,
        against ? h('span', { class: 'against' }, ` ${t('me.against', { names: against })}`) : null,
        clockWords(game.clock) ? h('small', { class: 'clock-words' }, ` · ${clockWords(game.clock)}`) : null,
      ),
      h('span', { class: 'game-standing' }, h('span', { class: 'standing' }, words), ownDeadline(game)),
    ),
  );
}

function renderGames() {
  const list = document.getElementById('player-games');
  if (!list) return;
  const all = [...games.values()];
  const order = { mine: 0, theirs: 1, none: 2 };
  const deadline = (/** @type {PlayerGameSummary} */ g) => Date.parse(g.deadlines.find((d) => d.seat === g.seat)?.deadline ?? '') || Infinity;
  const going = all
    .filter((g) => g.status === 'active' || g.status === 'open')
    .sort((a, b) => order[standing(a).turn] - order[standing(b).turn] || deadline(a) - deadline(b) || Date.parse(b.updated_at) - Date.parse(a.updated_at));
  const over = all
    .filter((g) => g.status !== 'active' && g.status !== 'open')
    .sort((a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at))
    .slice(0, FINISHED_SHOWN);
  const toPlay = going.filter((g) => g.my_turn).length;
  const count = byId('turn-count');
  count.hidden = toPlay === 0;
  replace(count, t('me.toPlay', { n: toPlay }));
  document.title = `${toPlay ? `(${toPlay}) ` : ''}${t('me.title')}`;
  replace(
    list,
    going.length ? going.map(gameRow) : h('li', { class: 'empty' }, t('me.noGames')),
    over.length ? [h('li', { class: 'divider', 'aria-hidden': 'true' }), over.map(gameRow)] : null,
  );
}

// ---- play: seeks ----

/** @typedef {{seek_id: string, type: string, seats: number, words: string}} WaitingSeek */

/** @returns {WaitingSeek | null} */
function waitingSeek() {
  try {
    const stored = JSON.parse(localStorage.getItem(SEEK_KEY) ?? 'null');
    return stored && typeof stored.seek_id === 'string' ? stored : null;
  } catch {
    return null;
  }
}

/** @param {WaitingSeek | null} seek */
function setWaitingSeek(seek) {
  if (seek) localStorage.setItem(SEEK_KEY, JSON.stringify(seek));
  else localStorage.removeItem(SEEK_KEY);
  renderSeek();
}

/**
 * A seek was matched: the player's seat in the new game is played with the player's key.
 * @param {string} gameId
 * @param {number} seat
 */
function openMatched(gameId, seat) {
  rememberPlayerSeat(gameId, seat);
  localStorage.removeItem(SEEK_KEY);
  replace(byId('seek-status'), h('p', {}, t('me.found')));
  location.href = `/games/${gameId}`;
}

/** After a reload: the seek waited on, as the server has it now. */
async function resumeSeek() {
  renderSeek();
  await checkSeek();
}

/** Asks the server about the seek waited on: matched meanwhile, or expired. */
async function checkSeek() {
  const waiting = waitingSeek();
  if (!waiting) return;
  try {
    const now = await players.getSeek(waiting.seek_id);
    if (now.status === 'matched' && now.game_id !== null && now.seat !== null) openMatched(now.game_id, now.seat);
    else if (now.status !== 'waiting') {
      setWaitingSeek(null);
      if (now.status === 'expired') replace(byId('seek-status'), h('p', { id: 'seek-ended' }, t('me.seekEnded', { what: waiting.words })));
    }
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) setWaitingSeek(null);
  }
}

/** @returns {HTMLSelectElement} */
const select = (/** @type {string} */ id) => /** @type {HTMLSelectElement} */ (byId(id));

/** The "Play" form: which game, how many players, the clock, rated, bots. */
function playSection() {
  /** @type {{type?: string, seats?: number, clock?: string, rated?: boolean, fill?: number}} */
  let last = {};
  try {
    last = JSON.parse(localStorage.getItem(FORM_KEY) ?? '{}') ?? {};
  } catch {
    last = {};
  }
  const type = h('select', { id: 'seek-type' }, types.map((g) => h('option', { value: g.type, selected: g.type === last.type }, titleOf(types, g.type))));
  const seats = h('select', { id: 'seek-seats' });
  const fillSeats = () => {
    const chosen = types.find((t) => t.type === type.value) ?? types[0];
    if (!chosen) return;
    const before = Number(seats.value) || last.seats || chosen.min_seats;
    replace(
      seats,
      Array.from({ length: chosen.max_seats - chosen.min_seats + 1 }, (_, i) => {
        const n = chosen.min_seats + i;
        return h('option', { value: n, selected: n === Math.min(Math.max(before, chosen.min_seats), chosen.max_seats) }, tn('me.nPlayers', n));
      }),
    );
  };
  type.addEventListener('change', fillSeats);
  fillSeats();
  const clock = h('select', { id: 'seek-clock' }, CLOCK_CHOICES.map((c) => h('option', { value: c.id, selected: c.id === last.clock }, c.label)));
  const rated = h('input', { type: 'checkbox', id: 'seek-rated', checked: last.rated === true });
  const fill = h('select', { id: 'seek-fill', 'aria-describedby': 'seek-fill-hint' }, FILL_CHOICES.map((c) => h('option', { value: c.value, selected: c.value === last.fill }, c.label)));
  const ratedChanged = () => {
    // A rated game is people only.
    fill.disabled = rated.checked;
    if (rated.checked) fill.value = '0';
  };
  rated.addEventListener('change', ratedChanged);
  ratedChanged();
  const form = h(
    'form',
    { id: 'seek-form' },
    h('div', { class: 'field' }, h('label', { for: 'seek-type' }, t('lobby.game')), type),
    h('div', { class: 'field' }, h('label', { for: 'seek-seats' }, t('me.players')), seats),
    h('div', { class: 'field' }, h('label', { for: 'seek-clock' }, t('lobby.clock')), clock),
    h('div', { class: 'field check' }, rated, h('label', { for: 'seek-rated' }, t('me.ratedLabel'))),
    h('div', { class: 'field' }, h('label', { for: 'seek-fill' }, t('me.ifNobody')), fill, h('small', { id: 'seek-fill-hint', class: 'hint' }, t('me.fillHint'))),
    h('button', { type: 'submit', id: 'play', class: 'action play' }, t('me.play')),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    startSeek();
  });
  return h(
    'section',
    { id: 'play-area', class: 'card', 'aria-labelledby': 'play-title' },
    h('h2', { id: 'play-title' }, t('me.play')),
    h('p', { class: 'hint' }, t('me.playHint')),
    form,
    h('div', { id: 'seek-status', 'aria-live': 'polite' }),
  );
}

async function startSeek() {
  const who = identity();
  if (!who) return;
  clearError();
  const type = select('seek-type').value;
  const seats = Number(select('seek-seats').value);
  const clock = CLOCK_CHOICES.find((c) => c.id === select('seek-clock').value) ?? CLOCK_CHOICES[0];
  const rated = /** @type {HTMLInputElement} */ (byId('seek-rated')).checked;
  const fill = rated ? 0 : Number(select('seek-fill').value);
  localStorage.setItem(FORM_KEY, JSON.stringify({ type, seats, clock: clock.id, rated, fill }));
  /** @type {Record<string, unknown>} */
  const request = { type, seats, clock: clock.request, rated };
  if (fill > 0) request.fill_with_bots_after = fill;
  /** @type {HTMLButtonElement} */ (byId('play')).disabled = true;
  try {
    const seek = await players.seek(who.token, /** @type {players.SeekRequest} */ (/** @type {unknown} */ (request)));
    if (seek.status === 'matched' && seek.game_id !== null && seek.seat !== null) {
      openMatched(seek.game_id, seek.seat);
      return;
    }
    const words = [title(type), tn('me.nPlayers', seats), clockWords(seek.clock) ?? t('me.noClock'), rated ? t('me.rated') : null].filter(Boolean).join(', ');
    setWaitingSeek({ seek_id: seek.seek_id, type, seats, words });
  } catch (e) {
    showError(e);
    renderSeek();
  }
}

async function stopSeek() {
  const who = identity();
  const waiting = waitingSeek();
  if (!who || !waiting) return;
  clearError();
  try {
    await players.cancelSeek(who.token, waiting.seek_id);
    setWaitingSeek(null);
  } catch (e) {
    // Matched (or expired) just now: the server says which.
    if (e instanceof ApiError && e.status === 409) await checkSeek();
    else showError(e);
  }
}

function renderSeek() {
  const box = document.getElementById('seek-status');
  if (!box) return;
  const waiting = waitingSeek();
  const play = /** @type {HTMLButtonElement} */ (byId('play'));
  play.disabled = waiting !== null;
  if (!waiting) {
    replace(box);
    return;
  }
  replace(
    box,
    h('p', { id: 'seeking', class: 'seeking' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('me.seeking', { what: waiting.words })),
    h('button', { type: 'button', id: 'cancel-seek', onclick: () => stopSeek() }, t('me.stopSeek')),
  );
}

// ---- the key ----

/** @param {Identity} who */
function keySection(who) {
  const link = h('input', { type: 'text', readonly: true, class: 'share', id: 'device-link', value: deviceLink(who.token), 'aria-label': t('me.deviceLink') });
  const rotate = h('button', { type: 'button', id: 'new-key' }, t('me.newKey'));
  rotate.addEventListener('click', async () => {
    const now = identity();
    if (!now) return;
    clearError();
    try {
      const rotated = await players.rotateToken(now.token);
      changeToken(rotated.token);
      link.value = deviceLink(rotated.token);
      replace(byId('key-news'), t('me.rotated'));
      // The old key's stream ends with it; follow with the new one.
      follow({ ...now, token: rotated.token });
    } catch (e) {
      showError(e);
    }
  });
  const out = h('button', { type: 'button', id: 'sign-out' }, t('me.signOut'));
  out.addEventListener('click', () => {
    signOut();
    setWaitingSeek(null);
    showSignedOut();
  });
  return h(
    'section',
    { id: 'key', class: 'card', 'aria-labelledby': 'key-title' },
    h('h2', { id: 'key-title' }, t('me.playAs', { name: who.name })),
    h('p', {}, h('a', { href: `/players/${who.player_id}`, id: 'my-profile' }, t('me.profileLink')), ' · ', h('a', { href: '/leaderboards' }, t('nav.leaderboards'))),
    h(
      'details',
      { id: 'device' },
      h('summary', {}, t('me.device')),
      h('p', {}, t('me.deviceHint')),
      link,
      h('button', { type: 'button', onclick: () => navigator.clipboard?.writeText(link.value) }, t('lobby.copy')),
    ),
    h(
      'details',
      { id: 'rotate' },
      h('summary', {}, t('me.newKeyTitle')),
      h('p', {}, t('me.newKeyHint')),
      rotate,
      h('p', { id: 'key-news', role: 'status' }),
    ),
    h(
      'details',
      { id: 'leave' },
      h('summary', {}, t('me.signOut')),
      h('p', {}, t('me.signOutHint', { name: who.name })),
      out,
    ),
  );
}

// Back to this tab after playing in another: your moves there may have ended your turn.
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && identity() && following) {
    scheduleRefresh();
    refreshChallenges();
  }
});

// A safety net for a stream that seems open but says nothing (a proxy that buffers it): the
// list is read again once a minute while the page is seen.
setInterval(() => {
  if (document.visibilityState === 'visible' && identity() && following) {
    scheduleRefresh();
    refreshChallenges();
  }
}, SAFETY_READ_MS);
