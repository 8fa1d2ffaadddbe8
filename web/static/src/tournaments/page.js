// The tournament pages (`tournaments.html`): `/tournaments` lists them, newest first, and
// organises a new one (game, clock, Swiss or knockout, rounds, table size within the game's
// seat counts, bots or byes for incomplete tables, start time); `/tournaments/{id}` shows one:
// joining and leaving, the organiser's "Start now", the standings and every round's tables
// with links to their games (byes shown as such). Both are read again every few seconds while
// something can change, and at once when the player's stream tells of a round
// (`notices.js`, loaded beside this module, dispatches its notices as `tournament-notice`).

import '../i18n/page.js';
import { CLOCK_CHOICES, clockWords } from '../clocks.js';
import { byId, h, replace } from '../dom.js';
import { clearError, gameTypes, ordinal, shortTitleOf, showError } from '../players/common.js';
import { identity } from '../players/identity.js';
import { createTournament, getRounds, getTournament, joinTournament, leaveTournament, listTournaments, startTournament } from './api.js';

/** @typedef {import('./api.js').Tournament} Tournament */
/** @typedef {import('./api.js').TournamentRound} TournamentRound */
/** @typedef {import('./api.js').TournamentTable} TournamentTable */
/** @typedef {import('./api.js').TournamentRequest} TournamentRequest */
/** @typedef {import('../api.js').GameType} GameType */

/** How often a page that can still change is read again. */
const REFRESH_MS = 4000;

/** Tournaments need a clock: the lobby's choices less "No clock". */
const CLOCKS = CLOCK_CHOICES.filter((c) => c.id !== 'none');

const BOTS = [
  { id: 'greedy', label: 'Greedy' },
  { id: 'random', label: 'Random (weakest)' },
  { id: 'mcts', label: 'MCTS (strongest)' },
];

/** @param {string} iso */
function when(iso) {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** @param {Tournament} t */
function formatWords(t) {
  const format = t.format === 'swiss' ? `Swiss, ${t.rounds} round${t.rounds === 1 ? '' : 's'}` : 'Knockout';
  return `${format}, tables of ${t.table_size}`;
}

/** @param {Tournament} t */
function statusWords(t) {
  switch (t.status) {
    case 'waiting':
      return `Starts ${when(t.starts_at)}`;
    case 'running':
      return t.rounds ? `Round ${t.round} of ${t.rounds}` : `Round ${t.round}`;
    case 'finished':
      return 'Finished';
    default:
      return 'Cancelled (fewer than two players)';
  }
}

/** @param {number} n */
function points(n) {
  return `${n} point${n === 1 ? '' : 's'}`;
}

/**
 * Runs `load` now and every few seconds while `again()` holds (and the tab is seen), and at once
 * when the player's stream tells of a round or the tab comes back into view.
 * @param {() => Promise<void>} load
 * @param {() => boolean} again
 */
function keepFresh(load, again) {
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  let busy = false;
  // An error of a refresh is cleared by the next that works; an action's error stays.
  let failed = false;
  const run = async () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (busy) return;
    busy = true;
    try {
      await load();
      if (failed) clearError();
      failed = false;
    } catch (e) {
      showError(e);
      failed = true;
    } finally {
      busy = false;
      document.body.dataset.ready = 'true';
    }
    // A hidden tab is not read again; it is when it comes back into view.
    if (again() && document.visibilityState === 'visible') timer = setTimeout(() => void run(), REFRESH_MS);
  };
  window.addEventListener('tournament-notice', () => void run());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void run();
  });
  return run();
}

function signInHint() {
  return h('p', { class: 'notice' }, h('a', { href: '/me' }, 'Sign in with a name'), ' to organise or join a tournament.');
}

// ---- the list ----

/**
 * @param {Tournament[]} list
 * @param {GameType[]} types
 */
function tournamentList(list, types) {
  if (list.length === 0) return h('p', { class: 'empty' }, 'No tournaments yet.');
  return h(
    'ul',
    { class: 'player-games tournament-list', id: 'tournament-list' },
    list.map((t) =>
      h(
        'li',
        { 'data-tournament': t.tournament_id, 'data-status': t.status },
        h(
          'a',
          { class: `game-link${t.status === 'running' ? ' mine' : ''}`, href: `/tournaments/${encodeURIComponent(t.tournament_id)}` },
          h('span', {}, h('span', { class: 'game-title' }, t.name), h('br'), h('small', {}, `${shortTitleOf(types, t.type)} · ${formatWords(t)}`)),
          h('span', { class: 'standing' }, statusWords(t)),
        ),
      ),
    ),
  );
}

/** A `datetime-local` value for a time an hour from now, on a five-minute mark. */
function inAnHour() {
  const d = new Date(Date.now() + 3600_000);
  d.setMinutes(Math.ceil(d.getMinutes() / 5) * 5, 0, 0);
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

/**
 * The form that organises a tournament.
 * @param {GameType[]} types
 * @param {string} token
 */
function creationForm(types, token) {
  /** @param {string} id */
  const input = (id) => /** @type {HTMLInputElement} */ (byId(id));
  /** @param {string} id */
  const select = (id) => /** @type {HTMLSelectElement} */ (byId(id));

  const tableSizes = () => {
    const type = types.find((t) => t.type === select('t-type').value) ?? types[0];
    const sizes = select('t-table-size');
    const before = Number(sizes.value);
    replace(sizes, ...Array.from({ length: type.max_seats - type.min_seats + 1 }, (_, i) => type.min_seats + i).map((n) => h('option', { value: n }, `${n} seats`)));
    sizes.value = String(before >= type.min_seats && before <= type.max_seats ? before : Math.min(type.max_seats, Math.max(type.min_seats, 4)));
  };
  const sync = () => {
    const knockout = input('t-format-knockout').checked;
    input('t-rounds').disabled = knockout;
    byId('t-rounds-field').hidden = knockout;
    const rated = input('t-rated').checked;
    if (rated) input('t-fill-byes').checked = true;
    input('t-fill-bots').disabled = rated;
    select('t-bot').disabled = rated || !input('t-fill-bots').checked;
  };

  /** @param {SubmitEvent} e */
  const submit = async (e) => {
    e.preventDefault();
    clearError();
    const button = /** @type {HTMLButtonElement} */ (byId('t-create'));
    const startsAt = new Date(input('t-starts').value);
    if (Number.isNaN(startsAt.getTime())) {
      showError('Choose when the tournament starts.');
      return;
    }
    const swiss = input('t-format-swiss').checked;
    const bots = input('t-fill-bots').checked;
    const clock = CLOCKS.find((c) => c.id === select('t-clock').value) ?? CLOCKS[0];
    const request = /** @type {TournamentRequest} */ ({
      name: input('t-name').value.trim(),
      type: select('t-type').value,
      clock: clock.request,
      rated: input('t-rated').checked,
      format: swiss ? 'swiss' : 'knockout',
      rounds: swiss ? Number(input('t-rounds').value) : null,
      table_size: Number(select('t-table-size').value),
      fill_with_bots: bots,
      bot: bots ? select('t-bot').value : null,
      max_players: Number(input('t-max').value),
      starts_at: startsAt.toISOString(),
    });
    button.disabled = true;
    try {
      const created = await createTournament(token, request);
      location.assign(`/tournaments/${encodeURIComponent(created.tournament_id)}`);
    } catch (err) {
      showError(err);
      button.disabled = false;
    }
  };

  const form = h(
    'form',
    { id: 'tournament-form', onsubmit: submit },
    h('div', { class: 'field' }, h('label', { for: 't-name' }, 'Name'), h('input', { id: 't-name', type: 'text', required: true, maxlength: 80, placeholder: 'Tuesday Tycoon' })),
    h('div', { class: 'field' }, h('label', { for: 't-type' }, 'Game'), h('select', { id: 't-type', onchange: tableSizes }, types.map((t) => h('option', { value: t.type }, shortTitleOf(types, t.type))))),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 't-clock' }, 'Clock'),
      h('select', { id: 't-clock' }, CLOCKS.map((c) => h('option', { value: c.id }, c.label))),
      h('small', { class: 'hint' }, 'Every game runs under it: an absent player’s time runs out and the server’s bot plays on, so no round waits for ever.'),
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Format'),
      h('div', { class: 'field check' }, h('input', { id: 't-format-swiss', type: 'radio', name: 't-format', value: 'swiss', checked: true, onchange: sync }), h('label', { for: 't-format-swiss' }, 'Swiss: a fixed number of rounds, players of similar points meet')),
      h('div', { class: 'field check' }, h('input', { id: 't-format-knockout', type: 'radio', name: 't-format', value: 'knockout', onchange: sync }), h('label', { for: 't-format-knockout' }, 'Knockout: the better half of each table goes on')),
      h('div', { class: 'field', id: 't-rounds-field' }, h('label', { for: 't-rounds' }, 'Rounds'), h('input', { id: 't-rounds', type: 'number', min: 1, max: 20, value: 3, required: true })),
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 't-table-size' }, 'Table size'),
      h('select', { id: 't-table-size' }),
      h('small', { class: 'hint' }, 'The seats of a table, as many as the game allows.'),
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Tables that are not full'),
      h('div', { class: 'field check' }, h('input', { id: 't-fill-byes', type: 'radio', name: 't-fill', value: 'byes', checked: true, onchange: sync }), h('label', { for: 't-fill-byes' }, 'Byes: players left over sit the round out (it scores as a win)')),
      h('div', { class: 'field check' }, h('input', { id: 't-fill-bots', type: 'radio', name: 't-fill', value: 'bots', onchange: sync }), h('label', { for: 't-fill-bots' }, 'Bots fill every table: everyone plays every round')),
      h('div', { class: 'field' }, h('label', { for: 't-bot' }, 'Bot'), h('select', { id: 't-bot', disabled: true }, BOTS.map((b) => h('option', { value: b.id }, b.label)))),
    ),
    h('div', { class: 'field check' }, h('input', { id: 't-rated', type: 'checkbox', onchange: sync }), h('label', { for: 't-rated' }, 'Rated (no bots)')),
    h('div', { class: 'field' }, h('label', { for: 't-max' }, 'At most'), h('input', { id: 't-max', type: 'number', min: 2, max: 256, value: 64, required: true }), h('span', {}, 'players')),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 't-starts' }, 'Starts at'),
      h('input', { id: 't-starts', type: 'datetime-local', required: true, value: inAnHour() }),
      h('small', { class: 'hint' }, 'Your local time. As the organiser you may start it sooner.'),
    ),
    h('button', { type: 'submit', id: 't-create', class: 'play' }, 'Create tournament'),
  );
  // The table sizes follow the game chosen; the select must be in the document first.
  queueMicrotask(() => {
    tableSizes();
    sync();
  });
  return form;
}

async function showList() {
  document.title = 'Board games: tournaments';
  const types = await gameTypes();
  const who = identity();
  const body = byId('view-body');
  replace(
    body,
    h('section', { id: 'tournaments', class: 'card', 'aria-labelledby': 'tournaments-title' }, h('h2', { id: 'tournaments-title' }, 'Tournaments'), h('div', { id: 'tournament-list-box' }, h('p', {}, 'Loading…'))),
    h(
      'section',
      { id: 'organise', class: 'card', 'aria-labelledby': 'organise-title' },
      h('h2', { id: 'organise-title' }, 'Organise a tournament'),
      who ? creationForm(types, who.token) : signInHint(),
    ),
  );
  let last = '';
  await keepFresh(
    async () => {
      const list = await listTournaments();
      const key = JSON.stringify(list);
      if (key !== last) replace(byId('tournament-list-box'), tournamentList(list, types));
      last = key;
      document.body.dataset.ready = 'true';
    },
    () => true,
  );
}

// ---- one tournament ----

/**
 * The signed-in player's actions on the tournament.
 * @param {Tournament} t
 * @param {() => Promise<void>} reload
 */
function actions(t, reload) {
  const who = identity();
  if (!who) return t.status === 'waiting' ? signInHint() : null;
  const me = t.standings.find((s) => s.player_id === who.player_id);
  /**
   * @param {string} id
   * @param {string} label
   * @param {() => Promise<unknown>} act
   */
  const button = (id, label, act) =>
    h(
      'button',
      {
        type: 'button',
        id,
        onclick: async (/** @type {Event} */ e) => {
          const b = /** @type {HTMLButtonElement} */ (e.currentTarget);
          b.disabled = true;
          clearError();
          try {
            await act();
            await reload();
          } catch (err) {
            showError(err);
            b.disabled = false;
          }
        },
      },
      label,
    );
  const buttons = [];
  if (t.status === 'waiting') {
    if (me) buttons.push(button('t-leave', 'Leave', () => leaveTournament(who.token, t.tournament_id)));
    else buttons.push(button('t-join', 'Join', () => joinTournament(who.token, t.tournament_id)));
    if (t.organiser_id === who.player_id) buttons.push(button('t-start', 'Start now', () => startTournament(who.token, t.tournament_id)));
  } else if (t.status === 'running' && me && !me.withdrawn) {
    buttons.push(button('t-withdraw', 'Withdraw', () => leaveTournament(who.token, t.tournament_id)));
  }
  const state = me ? (me.withdrawn ? 'You withdrew.' : t.status === 'waiting' ? 'You are in.' : null) : t.status === 'waiting' ? 'You are not in yet.' : null;
  if (!buttons.length && !state) return null;
  return h('div', { class: 'tournament-actions' }, state && h('p', { id: 't-you' }, state), buttons);
}

/**
 * The signed-in player's table in the round being played, if any.
 * @param {Tournament} t
 * @param {TournamentRound[]} rounds
 */
function yourTable(t, rounds) {
  const who = identity();
  const round = rounds.find((r) => r.round === t.round);
  if (!who || !round || round.over || t.status !== 'running') return null;
  const table = round.tables.find((tb) => tb.seats.some((s) => s.player_id === who.player_id));
  if (!table) return null;
  if (table.game_id === null) return h('p', { class: 'notice', id: 'your-table' }, `Round ${round.round}: you have a bye (it scores as a win).`);
  return h('p', { class: 'notice', id: 'your-table' }, h('strong', {}, `Round ${round.round}: you play at table ${table.table}. `), h('a', { href: `/games/${encodeURIComponent(table.game_id)}` }, 'Open your game'));
}

/** @param {Tournament} t */
function standingsTable(t) {
  if (t.standings.length === 0) return h('p', { class: 'empty' }, 'Nobody has joined yet.');
  const knockout = t.format === 'knockout';
  const who = identity();
  return h(
    'div',
    { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Standings table' },
    h(
      'table',
      { id: 'standings', class: 'standings' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col', class: 'num' }, h('abbr', { title: 'Rank' }, '#')),
          h('th', { scope: 'col' }, 'Player'),
          h('th', { scope: 'col', class: 'num' }, h('abbr', { title: 'Points' }, 'Pts')),
          h('th', { scope: 'col', class: 'num' }, h('abbr', { title: 'Opponents’ points (first tie-break)' }, 'Opp')),
          h('th', { scope: 'col', class: 'num' }, h('abbr', { title: 'Sum of game scores (second tie-break)' }, 'Score')),
          h('th', { scope: 'col', class: 'num' }, h('abbr', { title: 'Rounds played, byes included' }, 'Rds')),
          h('th', { scope: 'col', class: 'num' }, 'Byes'),
          knockout && h('th', { scope: 'col' }, 'Out'),
        ),
      ),
      h(
        'tbody',
        {},
        t.standings.map((s) =>
          h(
            'tr',
            { 'data-player': s.player_id, class: s.player_id === who?.player_id ? 'you' : null },
            h('td', { class: 'num' }, t.status === 'waiting' ? '' : s.rank),
            h('td', {}, h('a', { href: `/players/${encodeURIComponent(s.player_id)}` }, s.name), s.withdrawn && h('small', {}, ' (withdrew)')),
            h('td', { class: 'num points' }, s.points),
            h('td', { class: 'num' }, s.opponents_points),
            h('td', { class: 'num' }, s.score),
            h('td', { class: 'num' }, s.games),
            h('td', { class: 'num' }, s.byes),
            knockout && h('td', {}, s.out_in_round === null ? (t.status === 'finished' ? '' : 'in') : `round ${s.out_in_round}`),
          ),
        ),
      ),
    ),
  );
}

/**
 * @param {TournamentTable} table
 * @param {(id: string | null) => string} nameOf
 */
function tableItem(table, nameOf) {
  const who = identity();
  const seatWords = (/** @type {TournamentTable['seats'][number]} */ s) => {
    const after = s.place === null ? '' : `: ${ordinal(s.place)}${s.points === null ? '' : `, ${points(s.points)}`}`;
    return `${nameOf(s.player_id)}${after}`;
  };
  if (table.game_id === null) {
    const s = table.seats[0];
    return h('li', { class: 'bye', 'data-table': table.table }, h('span', { class: 'table-name' }, 'Bye'), ' ', nameOf(s?.player_id ?? null), s?.points == null ? '' : ` (${points(s.points)})`);
  }
  const mine = !!who && table.seats.some((s) => s.player_id === who.player_id);
  return h(
    'li',
    { class: `table${mine ? ' yours' : ''}`, 'data-table': table.table, 'data-game': table.game_id },
    h('a', { class: 'game-link', href: `/games/${encodeURIComponent(table.game_id)}` }, h('span', { class: 'game-title' }, `Table ${table.table}`), h('span', {}, mine ? 'Your game' : 'Open the game')),
    h('ol', { class: 'seats' }, table.seats.map((s) => h('li', { 'data-seat': s.seat, class: s.player_id === null ? 'bot' : null }, seatWords(s)))),
  );
}

/**
 * @param {Tournament} t
 * @param {TournamentRound[]} rounds
 */
function roundsSection(t, rounds) {
  const names = new Map(t.standings.map((s) => [s.player_id, s.name]));
  /** @param {string | null} id */
  const nameOf = (id) => (id === null ? 'Bot' : (names.get(id) ?? 'A player'));
  if (rounds.length === 0) return h('p', { class: 'empty' }, t.status === 'waiting' ? 'Round 1 is paired at the start.' : 'No rounds were played.');
  return [...rounds]
    .reverse()
    .map((r) =>
      h(
        'section',
        { class: 'round', 'data-round': r.round, 'aria-labelledby': `round-${r.round}` },
        h('h3', { id: `round-${r.round}` }, `Round ${r.round}`, h('small', {}, r.over ? ' · over' : ' · being played')),
        h('ul', { class: 'tables' }, r.tables.map((tb) => tableItem(tb, nameOf))),
      ),
    );
}

/**
 * @param {Tournament} t
 * @param {TournamentRound[]} rounds
 * @param {GameType[]} types
 * @param {() => Promise<void>} reload
 */
function tournamentView(t, rounds, types, reload) {
  const clock = clockWords(t.clock);
  const facts = [
    shortTitleOf(types, t.type),
    formatWords(t),
    clock,
    t.rated ? 'rated' : 'unrated',
    t.fill_with_bots ? 'bots fill the tables' : 'byes for players left over',
    `at most ${t.max_players} players`,
  ].filter(Boolean);
  return [
    h(
      'section',
      { class: 'card', id: 'tournament', 'aria-labelledby': 'tournament-title', 'data-status': t.status, 'data-round': t.round },
      h('h2', { id: 'tournament-title' }, t.name),
      h('p', { id: 't-status', class: 'status-words' }, h('strong', {}, statusWords(t)), t.status === 'waiting' ? ' (or sooner, when the organiser starts it)' : ''),
      h('p', { class: 'hint' }, facts.join(' · ')),
      actions(t, reload),
      yourTable(t, rounds),
    ),
    h('section', { class: 'card', id: 'standings-card', 'aria-labelledby': 'standings-title' }, h('h2', { id: 'standings-title' }, t.status === 'waiting' ? `Players (${t.standings.length})` : 'Standings'), standingsTable(t)),
    h('section', { class: 'card', id: 'rounds', 'aria-labelledby': 'rounds-title' }, h('h2', { id: 'rounds-title' }, 'Rounds'), roundsSection(t, rounds)),
  ];
}

/** @param {string} id */
async function showTournament(id) {
  const types = await gameTypes();
  /** @type {Tournament | null} */
  let current = null;
  let last = '';
  const load = async () => {
    const [t, rounds] = await Promise.all([getTournament(id), getRounds(id)]);
    current = t;
    document.title = `Board games: ${t.name}`;
    // Drawn again only when something changed, so that the focus stays where it is.
    const key = JSON.stringify([t, rounds, identity()?.player_id]);
    if (key !== last) replace(byId('view-body'), tournamentView(t, rounds, types, load));
    last = key;
    document.body.dataset.ready = 'true';
  };
  await keepFresh(load, () => current === null || current.status === 'waiting' || current.status === 'running');
}

const [, , second] = location.pathname.split('/').map(decodeURIComponent);
(second ? showTournament(second) : showList()).catch((e) => {
  showError(e);
  document.body.dataset.ready = 'true';
});
