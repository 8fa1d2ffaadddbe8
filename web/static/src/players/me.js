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
import { turnChime, unlockSound } from '../motion.js';
import { takeTokenFromFragment } from '../seats.js';
import { settings } from '../settings.js';
import * as players from './api.js';
import { challengeNotice, challengesSection, refreshChallenges } from './challenges.js';
import { clearError, gameTypes, shortTitleOf, showError } from './common.js';
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
  { value: 0, label: 'Wait for people' },
  { value: 30, label: 'Fill with bots after 30 s' },
  { value: 120, label: 'Fill with bots after 2 min' },
  { value: 600, label: 'Fill with bots after 10 min' },
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
  document.title = 'Board games: your games';
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
    h('div', { class: 'field' }, h('label', { for: 'signup-name' }, 'Your name'), name),
    h('p', { id: 'signup-hint', class: 'hint' }, '2 to 24 letters or digits; spaces, dots, dashes and underscores between them. Others see it beside your games and on the leaderboards.'),
    h('button', { type: 'submit', id: 'signup', class: 'action' }, 'Sign up'),
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
      showError(taken ? `The name “${name.value.trim()}” is taken: another player has it, perhaps written with other capital letters (“anna” and “Anna” count as one name). Please choose another.` : err);
      name.focus();
    }
  });
  const key = h('input', { id: 'signin-key', type: 'password', autocomplete: 'off', spellcheck: false, 'aria-describedby': 'signin-hint' });
  const signin = h(
    'form',
    { id: 'signin-form' },
    h('p', { id: 'signin-hint', class: 'hint' }, 'Your key starts with “pl_”. On the device you play on, “Play on another device” below your games gives a link that signs in at once.'),
    h('div', { class: 'field' }, h('label', { for: 'signin-key' }, 'Your key'), key),
    h('button', { type: 'submit', id: 'signin' }, 'Sign in'),
  );
  signin.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearError();
    try {
      await useKey(key.value.trim());
      const who = identity();
      if (who) await showSignedIn(who);
    } catch (err) {
      showError(err instanceof ApiError && err.status === 401 ? new Error('The server knows no player with this key (a key stops working when a new one is made).') : err);
    }
  });
  replace(
    byId('view-body'),
    h(
      'section',
      { id: 'join', class: 'card', 'aria-labelledby': 'join-title' },
      h('h2', { id: 'join-title' }, 'Play with a name'),
      h('p', {}, 'With a name you find opponents with one button, see in one list where it is your turn, and get a rating and a place on the leaderboards. No password: this browser keeps a key that plays as you.'),
      signup,
    ),
    h('details', { id: 'have-key', class: 'card' }, h('summary', {}, 'I already play on another device'), signin),
    h('p', {}, 'Or play without a name: ', h('a', { href: '/' }, 'create or join a game in the lobby'), '.'),
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
      ? h('p', { id: 'welcome', class: 'notice' }, `Welcome, ${who.name}! This browser keeps your key. To play on another device too, open “Play on another device” below.`)
      : null,
    h(
      'section',
      { id: 'my-games', class: 'card', 'aria-labelledby': 'my-games-title' },
      h('h2', { id: 'my-games-title' }, 'Your games ', h('span', { id: 'turn-count', class: 'badge to-act', hidden: true })),
      h('p', { id: 'stream-state', class: 'hint', role: 'status' }),
      h('ul', { id: 'player-games', class: 'player-games' }, h('li', {}, 'Loading…')),
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
      const words = { connecting: 'Connecting…', live: 'Live: this list changes as your games do.', reconnecting: 'Reconnecting: the list may be behind…' };
      replace(byId('stream-state'), words[state]);
      // Back after a gap: what happened meanwhile is resent, but read the list afresh too.
      if (state === 'live' && gap) {
        scheduleRefresh();
        refreshChallenges();
      }
      gap = state === 'reconnecting';
    },
    onRefused: () => {
      showError(new Error('Your key no longer works here: a new key was made on another device. Sign in with it again (its link is under “Play on another device” there).'));
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
        announce(`Your turn in ${title(notice.type)}${opponents(game) ? ` against ${opponents(game)}` : ''}.`);
        if (settings().sound) turnChime();
      }
      break;
    }
    case 'game_finished':
      announce(`Your game of ${title(notice.type)} is over.`);
      break;
    case 'offer':
      announce(`A trade offer for you in ${title(notice.type)}.`);
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
      showError(new Error('Your key no longer works here: sign in again.'));
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
    .map((s) => (s.bot ? 'a bot' : (s.name ?? 'an open seat')));
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * Where the game stands for the player, in words, and whether it waits for them.
 * @param {PlayerGameSummary} game
 * @returns {{words: string, turn: 'mine' | 'theirs' | 'none'}}
 */
function standing(game) {
  if (game.status === 'active') {
    if (game.my_turn) return { words: 'Your turn', turn: 'mine' };
    const waiting = game.active_seats.map((s) => game.seats.find((x) => x.seat === s)?.name ?? `seat ${s + 1}`);
    return { words: waiting.length ? `Waiting for ${waiting.join(' and ')}` : 'Being played', turn: 'theirs' };
  }
  /** @type {Record<string, string>} */
  const words = { open: 'Waiting for players to join', finished: 'Finished', aborted: 'Called off', expired: 'Expired' };
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
    { class: 'clock running', 'data-deadline': deadline, title: 'Time left for this move' },
    clockIcon(),
    h('span', { class: 'visually-hidden' }, 'Time left '),
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
        game.rated ? h('span', { class: 'badge' }, 'rated') : null,
        against ? h('span', { class: 'against' }, ` against ${against}`) : null,
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
  replace(count, `${toPlay} to play`);
  document.title = `${toPlay ? `(${toPlay}) ` : ''}Board games: your games`;
  replace(
    list,
    going.length ? going.map(gameRow) : h('li', { class: 'empty' }, 'No game going on: press “Play” to find opponents.'),
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
  replace(byId('seek-status'), h('p', {}, 'Opponents found! Opening the game…'));
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
      if (now.status === 'expired') replace(byId('seek-status'), h('p', { id: 'seek-ended' }, `Nobody else came for ${waiting.words}: the search ended. Press “Play” to look again.`));
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
  const type = h('select', { id: 'seek-type' }, types.map((t) => h('option', { value: t.type, selected: t.type === last.type }, t.title)));
  const seats = h('select', { id: 'seek-seats' });
  const fillSeats = () => {
    const chosen = types.find((t) => t.type === type.value) ?? types[0];
    if (!chosen) return;
    const before = Number(seats.value) || last.seats || chosen.min_seats;
    replace(
      seats,
      Array.from({ length: chosen.max_seats - chosen.min_seats + 1 }, (_, i) => {
        const n = chosen.min_seats + i;
        return h('option', { value: n, selected: n === Math.min(Math.max(before, chosen.min_seats), chosen.max_seats) }, `${n} players`);
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
    h('div', { class: 'field' }, h('label', { for: 'seek-type' }, 'Game'), type),
    h('div', { class: 'field' }, h('label', { for: 'seek-seats' }, 'Players'), seats),
    h('div', { class: 'field' }, h('label', { for: 'seek-clock' }, 'Clock'), clock),
    h('div', { class: 'field check' }, rated, h('label', { for: 'seek-rated' }, 'Rated: the result changes your rating (people only, no bots)')),
    h('div', { class: 'field' }, h('label', { for: 'seek-fill' }, 'If nobody comes'), fill, h('small', { id: 'seek-fill-hint', class: 'hint' }, 'Bots take the seats nobody took; not in rated games.')),
    h('button', { type: 'submit', id: 'play', class: 'action play' }, 'Play'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    startSeek();
  });
  return h(
    'section',
    { id: 'play-area', class: 'card', 'aria-labelledby': 'play-title' },
    h('h2', { id: 'play-title' }, 'Play'),
    h('p', { class: 'hint' }, 'Find opponents who want the same game: it starts as soon as there are enough of you.'),
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
    const words = [title(type), `${seats} players`, clockWords(seek.clock) ?? 'no clock', rated ? 'rated' : null].filter(Boolean).join(', ');
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
    h('p', { id: 'seeking', class: 'seeking' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), `Looking for opponents: ${waiting.words}… The game opens here as soon as they are found.`),
    h('button', { type: 'button', id: 'cancel-seek', onclick: () => stopSeek() }, 'Stop looking'),
  );
}

// ---- the key ----

/** @param {Identity} who */
function keySection(who) {
  const link = h('input', { type: 'text', readonly: true, class: 'share', id: 'device-link', value: deviceLink(who.token), 'aria-label': 'Link that signs in as you on another device' });
  const rotate = h('button', { type: 'button', id: 'new-key' }, 'Make a new key');
  rotate.addEventListener('click', async () => {
    const now = identity();
    if (!now) return;
    clearError();
    try {
      const rotated = await players.rotateToken(now.token);
      changeToken(rotated.token);
      link.value = deviceLink(rotated.token);
      replace(byId('key-news'), 'Done: the old key and its links no longer work anywhere. This browser uses the new one.');
      // The old key's stream ends with it; follow with the new one.
      follow({ ...now, token: rotated.token });
    } catch (e) {
      showError(e);
    }
  });
  const out = h('button', { type: 'button', id: 'sign-out' }, 'Sign out');
  out.addEventListener('click', () => {
    signOut();
    setWaitingSeek(null);
    showSignedOut();
  });
  return h(
    'section',
    { id: 'key', class: 'card', 'aria-labelledby': 'key-title' },
    h('h2', { id: 'key-title' }, `You play as ${who.name}`),
    h('p', {}, h('a', { href: `/players/${who.player_id}`, id: 'my-profile' }, 'Your profile: ratings and results'), ' · ', h('a', { href: '/leaderboards' }, 'Leaderboards')),
    h(
      'details',
      { id: 'device' },
      h('summary', {}, 'Play on another device'),
      h('p', {}, 'Open this link there. It plays as you: keep it private.'),
      link,
      h('button', { type: 'button', onclick: () => navigator.clipboard?.writeText(link.value) }, 'Copy'),
    ),
    h(
      'details',
      { id: 'rotate' },
      h('summary', {}, 'A new key'),
      h('p', {}, 'If your key or its link got out: a new key stops the old one at once, on every device. Sign in again on your other devices with the new link.'),
      rotate,
      h('p', { id: 'key-news', role: 'status' }),
    ),
    h(
      'details',
      { id: 'leave' },
      h('summary', {}, 'Sign out'),
      h('p', {}, `This browser forgets your key. Without the key (or the link above) nobody can play as ${who.name} again: keep it first.`),
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
