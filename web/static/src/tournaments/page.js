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
import { dateTimeText } from '../i18n/dates.js';
import { t as words, tn } from '../i18n/index.js';
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
  { id: 'greedy', label: words('lobby.kind.greedy') },
  { id: 'random', label: words('lobby.kind.random') },
  { id: 'mcts', label: words('lobby.kind.mcts') },
];

/** @param {string} iso */
function when(iso) {
  return dateTimeText(iso);
}

/** @param {Tournament} t */
function formatWords(t) {
  const format = t.format === 'swiss' ? tn('tour.swissRounds', t.rounds ?? 0) : words('tour.knockout');
  return words('tour.formatWords', { format, size: t.table_size });
}

/** @param {Tournament} t */
function statusWords(t) {
  switch (t.status) {
    case 'waiting':
      return words('tour.starts', { when: when(t.starts_at) });
    case 'running':
      return t.rounds ? words('tour.roundOf', { round: t.round, rounds: t.rounds }) : words('tour.round', { round: t.round });
    case 'finished':
      return words('lobby.status.finished');
    default:
      return words('tour.cancelled');
  }
}

/** @param {number} n */
function points(n) {
  return tn('tour.points', n);
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
  return h('p', { class: 'notice' }, h('a', { href: '/me' }, words('tour.signIn')), ` ${words('tour.signInTo')}`);
}

// ---- the list ----

/**
 * @param {Tournament[]} list
 * @param {GameType[]} types
 */
function tournamentList(list, types) {
  if (list.length === 0) return h('p', { class: 'empty' }, words('tour.none'));
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
    replace(sizes, ...Array.from({ length: type.max_seats - type.min_seats + 1 }, (_, i) => type.min_seats + i).map((n) => h('option', { value: n }, tn('lobby.nSeats', n))));
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
      showError(words('tour.chooseStart'));
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
    h('div', { class: 'field' }, h('label', { for: 't-name' }, words('tour.name')), h('input', { id: 't-name', type: 'text', required: true, maxlength: 80, placeholder: words('tour.namePlaceholder') })),
    h('div', { class: 'field' }, h('label', { for: 't-type' }, words('lobby.game')), h('select', { id: 't-type', onchange: tableSizes }, types.map((g) => h('option', { value: g.type }, shortTitleOf(types, g.type))))),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 't-clock' }, words('lobby.clock')),
      h('select', { id: 't-clock' }, CLOCKS.map((c) => h('option', { value: c.id }, c.label))),
      h('small', { class: 'hint' }, words('tour.clockHint')),
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, words('tour.format')),
      h('div', { class: 'field check' }, h('input', { id: 't-format-swiss', type: 'radio', name: 't-format', value: 'swiss', checked: true, onchange: sync }), h('label', { for: 't-format-swiss' }, words('tour.swiss'))),
      h('div', { class: 'field check' }, h('input', { id: 't-format-knockout', type: 'radio', name: 't-format', value: 'knockout', onchange: sync }), h('label', { for: 't-format-knockout' }, words('tour.knockoutHint'))),
      h('div', { class: 'field', id: 't-rounds-field' }, h('label', { for: 't-rounds' }, words('tour.rounds')), h('input', { id: 't-rounds', type: 'number', min: 1, max: 20, value: 3, required: true })),
    ),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 't-table-size' }, words('tour.tableSize')),
      h('select', { id: 't-table-size' }),
      h('small', { class: 'hint' }, words('tour.tableSizeHint')),
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, words('tour.notFull')),
      h('div', { class: 'field check' }, h('input', { id: 't-fill-byes', type: 'radio', name: 't-fill', value: 'byes', checked: true, onchange: sync }), h('label', { for: 't-fill-byes' }, words('tour.byes'))),
      h('div', { class: 'field check' }, h('input', { id: 't-fill-bots', type: 'radio', name: 't-fill', value: 'bots', onchange: sync }), h('label', { for: 't-fill-bots' }, words('tour.bots'))),
      h('div', { class: 'field' }, h('label', { for: 't-bot' }, words('tour.bot')), h('select', { id: 't-bot', disabled: true }, BOTS.map((b) => h('option', { value: b.id }, b.label)))),
    ),
    h('div', { class: 'field check' }, h('input', { id: 't-rated', type: 'checkbox', onchange: sync }), h('label', { for: 't-rated' }, words('tour.rated'))),
    h('div', { class: 'field' }, h('label', { for: 't-max' }, words('tour.atMost')), h('input', { id: 't-max', type: 'number', min: 2, max: 256, value: 64, required: true }), h('span', {}, words('tour.players'))),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 't-starts' }, words('tour.startsAt')),
      h('input', { id: 't-starts', type: 'datetime-local', required: true, value: inAnHour() }),
      h('small', { class: 'hint' }, words('tour.startsHint')),
    ),
    h('button', { type: 'submit', id: 't-create', class: 'play' }, words('tour.create')),
  );
  // The table sizes follow the game chosen; the select must be in the document first.
  queueMicrotask(() => {
    tableSizes();
    sync();
  });
  return form;
}

async function showList() {
  document.title = words('title.tournaments');
  const types = await gameTypes();
  const who = identity();
  const body = byId('view-body');
  replace(
    body,
    h('section', { id: 'tournaments', class: 'card', 'aria-labelledby': 'tournaments-title' }, h('h2', { id: 'tournaments-title' }, words('nav.tournaments')), h('div', { id: 'tournament-list-box' }, h('p', {}, words('common.loading')))),
    h(
      'section',
      { id: 'organise', class: 'card', 'aria-labelledby': 'organise-title' },
      h('h2', { id: 'organise-title' }, words('tour.organise')),
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
    if (me) buttons.push(button('t-leave', words('tour.leave'), () => leaveTournament(who.token, t.tournament_id)));
    else buttons.push(button('t-join', words('tour.join'), () => joinTournament(who.token, t.tournament_id)));
    if (t.organiser_id === who.player_id) buttons.push(button('t-start', words('tour.startNow'), () => startTournament(who.token, t.tournament_id)));
  } else if (t.status === 'running' && me && !me.withdrawn) {
    buttons.push(button('t-withdraw', words('chal.withdraw'), () => leaveTournament(who.token, t.tournament_id)));
  }
  const state = me ? (me.withdrawn ? words('tour.youWithdrew') : t.status === 'waiting' ? words('tour.youAreIn') : null) : t.status === 'waiting' ? words('tour.notInYet') : null;
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
  if (table.game_id === null) return h('p', { class: 'notice', id: 'your-table' }, words('tour.yourBye', { round: round.round }));
  return h('p', { class: 'notice', id: 'your-table' }, h('strong', {}, `${words('tour.yourTable', { round: round.round, table: table.table })} `), h('a', { href: `/games/${encodeURIComponent(table.game_id)}` }, words('tour.openYours')));
}

/** @param {Tournament} t */
function standingsTable(t) {
  if (t.standings.length === 0) return h('p', { class: 'empty' }, words('tour.nobody'));
  const knockout = t.format === 'knockout';
  const who = identity();
  return h(
    'div',
    { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': words('tour.standingsTable') },
    h(
      'table',
      { id: 'standings', class: 'standings' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col', class: 'num' }, h('abbr', { title: words('board.rank') }, '#')),
          h('th', { scope: 'col' }, words('board.player')),
          h('th', { scope: 'col', class: 'num' }, h('abbr', { title: words('tour.col.points') }, words('tour.col.pointsShort'))),
          h('th', { scope: 'col', class: 'num' }, h('abbr', { title: words('tour.col.opponents') }, words('tour.col.opponentsShort'))),
          h('th', { scope: 'col', class: 'num' }, h('abbr', { title: words('tour.col.score') }, words('tour.col.scoreShort'))),
          h('th', { scope: 'col', class: 'num' }, h('abbr', { title: words('tour.col.rounds') }, words('tour.col.roundsShort'))),
          h('th', { scope: 'col', class: 'num' }, words('tour.col.byes')),
          knockout && h('th', { scope: 'col' }, words('tour.col.out')),
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
            h('td', {}, h('a', { href: `/players/${encodeURIComponent(s.player_id)}` }, s.name), s.withdrawn && h('small', {}, ` ${words('tour.withdrew')}`)),
            h('td', { class: 'num points' }, s.points),
            h('td', { class: 'num' }, s.opponents_points),
            h('td', { class: 'num' }, s.score),
            h('td', { class: 'num' }, s.games),
            h('td', { class: 'num' }, s.byes),
            knockout && h('td', {}, s.out_in_round === null ? (t.status === 'finished' ? '' : words('tour.stillIn')) : words('tour.outIn', { round: s.out_in_round })),
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
    return h('li', { class: 'bye', 'data-table': table.table }, h('span', { class: 'table-name' }, words('tour.bye')), ' ', nameOf(s?.player_id ?? null), s?.points == null ? '' : ` (${points(s.points)})`);
  }
  const mine = !!who && table.seats.some((s) => s.player_id === who.player_id);
  return h(
    'li',
    { class: `table${mine ? ' yours' : ''}`, 'data-table': table.table, 'data-game': table.game_id },
    h('a', { class: 'game-link', href: `/games/${encodeURIComponent(table.game_id)}` }, h('span', { class: 'game-title' }, words('tour.table', { table: table.table })), h('span', {}, mine ? words('tour.yourGame') : words('lobby.openGame'))),
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
  const nameOf = (id) => (id === null ? words('tour.bot') : (names.get(id) ?? words('chal.aPlayer')));
  if (rounds.length === 0) return h('p', { class: 'empty' }, t.status === 'waiting' ? words('tour.pairedAtStart') : words('tour.noRounds'));
  return [...rounds]
    .reverse()
    .map((r) =>
      h(
        'section',
        { class: 'round', 'data-round': r.round, 'aria-labelledby': `round-${r.round}` },
        h('h3', { id: `round-${r.round}` }, words('tour.round', { round: r.round }), h('small', {}, ` · ${r.over ? words('tour.over') : words('tour.beingPlayed')}`)),
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
    t.rated ? words('me.rated') : words('tour.unrated'),
    t.fill_with_bots ? words('tour.fact.bots') : words('tour.fact.byes'),
    words('tour.fact.atMost', { n: t.max_players }),
  ].filter(Boolean);
  return [
    h(
      'section',
      { class: 'card', id: 'tournament', 'aria-labelledby': 'tournament-title', 'data-status': t.status, 'data-round': t.round },
      h('h2', { id: 'tournament-title' }, t.name),
      h('p', { id: 't-status', class: 'status-words' }, h('strong', {}, statusWords(t)), t.status === 'waiting' ? ` ${words('tour.orSooner')}` : ''),
      h('p', { class: 'hint' }, facts.join(' · ')),
      actions(t, reload),
      yourTable(t, rounds),
    ),
    h('section', { class: 'card', id: 'standings-card', 'aria-labelledby': 'standings-title' }, h('h2', { id: 'standings-title' }, t.status === 'waiting' ? words('tour.playersN', { n: t.standings.length }) : words('tour.standings')), standingsTable(t)),
    h('section', { class: 'card', id: 'rounds', 'aria-labelledby': 'rounds-title' }, h('h2', { id: 'rounds-title' }, words('tour.rounds')), roundsSection(t, rounds)),
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
    document.title = words('prof.title', { name: t.name });
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
