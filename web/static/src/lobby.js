// The lobby (`/`): the list of games with the players at each table (the reader's own tables
// first), filters kept in the address (`lobby/filters.js`) and paging, joining an open seat,
// inviting a player by name (`lobby/invite.js`), and creating a game of any hosted type with
// its options and a person or an open seat per seat.
//
// The list shows no number of moves: `GET /v1/games` has only the game's `version`, a count of
// events (a roll, a payout, a card drawn are events too), which no player counts by, and no
// rounds or turns.

import * as api from './api.js';
import { CLOCK_CHOICES, clockIcon, clockWords } from './clocks.js';
import { configForm, hasRefs } from './config-form.js';
import { byId, chip, h, humanize, replace } from './dom.js';
import { dateText } from './i18n/dates.js';
import { list, t, tn, tOr } from './i18n/index.js';
import './i18n/page.js';
import { addressOf, listQuery, readFilters } from './lobby/filters.js';
import { showInvite } from './lobby/invite.js';
import { isMine, ownFirst, seatsCell } from './lobby/tables.js';
import { showProblem } from './problems.js';
import { heldGames, heldSeats, rememberSeat, seatLook, shareLink } from './seats.js';
import { joinAsPlayer, rememberCreated, seatAsPlayer, tokenFor } from './players/play-as.js';

/** @typedef {import('./api.js').GameType} GameType */
/** @typedef {import('./api.js').GameSummary} GameSummary */

const PAGE_SIZE = 15;
const NAME_KEY = 'boardgames.name';

/**
 * What a seat can be at creation. Bots, when the catalogue lists them, join this list as one
 * more kind (`{kind: 'bot:mcts', label: 'Bot (mcts)', request: () => ({bot: 'mcts'})}`); the
 * form and the request follow from it.
 * @type {{kind: string, label: string, request: (name: string) => api.Schemas['SeatRequest']}[]}
 */
const SEAT_KINDS = [
  { kind: 'person', label: t('lobby.kind.person'), request: (name) => ({ name }) },
  { kind: 'open', label: t('lobby.kind.open'), request: () => ({ open: true }) },
  { kind: 'bot-random', label: t('lobby.kind.random'), request: () => ({ bot: /** @type {const} */ ('random') }) },
  { kind: 'bot-greedy', label: t('lobby.kind.greedy'), request: () => ({ bot: /** @type {const} */ ('greedy') }) },
  { kind: 'bot-mcts', label: t('lobby.kind.mcts'), request: () => ({ bot: /** @type {const} */ ('mcts') }) },
];

/** @type {GameType[]} */
let catalogue = [];
/** @type {Record<string, unknown> | null} */
let components = null;

/** The filters and the page shown, mirrored in the address bar. */
const listing = {
  filters: readFilters(''),
  /** @type {string[]} cursors of the pages before this one */
  previous: [],
  /** @type {string | undefined} */
  cursor: undefined,
};

/**
 * A game's name in the page's language (the edition's printed name), else the server's.
 * @param {string} type
 */
export function titleOf(type) {
  return tOr(`games.${type}`, catalogue.find((g) => g.type === type)?.title ?? type);
}

function playerName() {
  const input = /** @type {HTMLInputElement} */ (byId('player-name'));
  const name = input.value.trim() || t('lobby.namePlaceholder');
  localStorage.setItem(NAME_KEY, name);
  return name;
}

/** @param {unknown} e */
function showError(e) {
  const box = byId('lobby-error');
  showProblem(box, e);
  box.hidden = false;
}

function clearError() {
  byId('lobby-error').hidden = true;
}

// ---- the list ----

/** @param {string} iso */
function ago(iso) {
  const seconds = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (seconds < 60) return t('lobby.justNow');
  if (seconds < 3600) return t('lobby.minutesAgo', { n: Math.floor(seconds / 60) });
  if (seconds < 86400) return t('lobby.hoursAgo', { n: Math.floor(seconds / 3600) });
  return dateText(iso);
}

/**
 * @param {string} gameId
 * @param {number} seat
 */
async function join(gameId, seat) {
  clearError();
  try {
    if (await joinAsPlayer(gameId, seat)) {
      location.href = `/games/${gameId}`;
      return;
    }
    const joined = await api.joinSeat(gameId, { name: playerName(), seat });
    rememberSeat(gameId, { seat: joined.seat, name: joined.name, token: joined.token, mine: true });
    location.href = `/games/${gameId}`;
  } catch (e) {
    showError(e);
  }
}

/** @param {string} status */
function statusText(status) {
  return tOr(`lobby.status.${status}`, humanize(status));
}

/**
 * A game nobody has moved in for a day or more says so: it may be abandoned.
 * @param {GameSummary} game
 */
function idleText(game) {
  if (game.status !== 'open' && game.status !== 'active') return null;
  const days = Math.floor((Date.now() - Date.parse(game.updated_at)) / 86400000);
  return days >= 1 ? h('small', { class: 'idle' }, ` ${tn('lobby.idle', days)}`) : null;
}

/** Lists asked for so far: only the answer to the latest is shown. */
let listsAsked = 0;

/** Columns of the list (for a row that spans them). */
const COLUMNS = 5;
async function loadList() {
  clearError();
  const body = byId('game-rows');
  replace(body, h('tr', {}, h('td', { colspan: COLUMNS }, t('common.loading'))));
  const asked = ++listsAsked;
  const f = listing.filters;
  let page;
  try {
    page = await api.listGames({ ...listQuery(f), cursor: listing.cursor, limit: PAGE_SIZE });
  } catch (e) {
    if (asked !== listsAsked) return;
    replace(body);
    showError(e);
    return;
  }
  // Two filters changed at once ask twice; an earlier answer arriving last must not show
  // the list of a filter no longer chosen.
  if (asked !== listsAsked) return;
  const shown = ownFirst(page.games);
  const rows = shown.map((g) => {
    const mine = isMine(g);
    return h(
      'tr',
      { 'data-game': g.game_id, 'data-mine': mine ? 'true' : null, class: mine ? 'mine' : null },
      h(
        'td',
        {},
        h('a', { href: `/games/${g.game_id}` }, titleOf(g.type)),
        ' ',
        h('code', {}, g.game_id.slice(0, 8)),
        mine ? h('span', { class: 'badge' }, t('lobby.yourSeat')) : null,
        g.rated ? h('span', { class: 'badge rated' }, t('me.rated')) : null,
        clockWords(g.clock) ? h('small', { class: 'clock-words' }, ' ', clockIcon(), h('span', { class: 'visually-hidden' }, t('lobby.clockPrefix')), clockWords(g.clock)) : null,
      ),
      h('td', {}, h('span', { class: `status ${g.status}` }, statusText(g.status)), idleText(g)),
      h('td', { class: 'seats' }, seatsCell(g, (seat) => join(g.game_id, seat))),
      h('td', { title: g.updated_at }, ago(g.updated_at)),
      h('td', {}, g.version > 0 ? h('a', { href: `/games/${g.game_id}?seq=1` }, t('lobby.replay')) : null),
    );
  });
  replace(body, rows.length ? rows : h('tr', {}, h('td', { colspan: COLUMNS }, t('lobby.noGames'))));
  const prev = /** @type {HTMLButtonElement} */ (byId('page-prev'));
  const next = /** @type {HTMLButtonElement} */ (byId('page-next'));
  prev.disabled = listing.previous.length === 0;
  next.disabled = !page.next_cursor;
  next.onclick = () => {
    listing.previous.push(listing.cursor ?? '');
    listing.cursor = page.next_cursor ?? undefined;
    loadList();
  };
  prev.onclick = () => {
    listing.cursor = listing.previous.pop() || undefined;
    loadList();
  };
  replace(byId('page-number'), t('lobby.page', { n: listing.previous.length + 1 }));
}

/** The filter selects, by the query name each one sets. */
const FILTER_SELECTS = /** @type {const} */ ([
  ['type', 'filter-type'],
  ['status', 'filter-status'],
  ['rated', 'filter-rated'],
  ['clock', 'filter-clock'],
]);

function setupFilters() {
  listing.filters = readFilters(location.search);
  replace(
    byId('filter-type'),
    h('option', { value: '' }, t('lobby.allGames')),
    catalogue.map((g) => h('option', { value: g.type }, titleOf(g.type))),
  );
  for (const [name, id] of FILTER_SELECTS) {
    const select = /** @type {HTMLSelectElement} */ (byId(id));
    select.value = listing.filters[name];
    select.addEventListener('change', () => {
      listing.filters = readFilters(
        `?${new URLSearchParams(FILTER_SELECTS.map(([n, i]) => [n, /** @type {HTMLSelectElement} */ (byId(i)).value]))}`,
      );
      listing.previous = [];
      listing.cursor = undefined;
      history.replaceState(null, '', addressOf(listing.filters));
      loadList();
    });
  }
  byId('refresh').addEventListener('click', () => loadList());
}

// ---- your seats ----

/** The most games "Your seats" looks up. */
const MINE_SHOWN = 12;

/**
 * One game this browser holds a seat in: its type, who plays, and whose turn it is.
 * @param {string} id
 */
async function mineEntry(id) {
  const held = heldSeats(id);
  const mine = held.find((s) => s.mine) ?? held[0];
  const link = h('a', { href: `/games/${id}` }, h('code', {}, id.slice(0, 8)));
  try {
    const doc = await api.getGame(id, mine?.token ?? null);
    const names = doc.seats.map((s) => (s.open ? t('lobby.openSeat') : (s.name ?? t('common.seatN', { n: s.seat + 1 })))).join(', ');
    const yourTurn = doc.status === 'active' && doc.seat != null && doc.active_seats.includes(doc.seat);
    const waiting = list(doc.active_seats.map((s) => doc.seats[s]?.name ?? t('common.seatN', { n: s + 1 })));
    const state =
      doc.status === 'finished' ? t('lobby.mine.finished') : doc.status === 'open' ? t('lobby.mine.waitingPlayers') : yourTurn ? t('lobby.mine.yourTurn') : t('lobby.mine.waitingFor', { names: waiting });
    return h(
      'li',
      { 'data-game': id },
      h('a', { href: `/games/${id}` }, titleOf(doc.type)),
      ' ',
      h('code', {}, id.slice(0, 8)),
      `: ${names}. `,
      h('span', { class: yourTurn ? 'turn' : '' }, state),
    );
  } catch {
    return h('li', { 'data-game': id }, link, ` ${t('lobby.mine.unavailable')}`);
  }
}

async function showMine() {
  const games = heldGames().slice(-MINE_SHOWN).reverse();
  const list = byId('my-games');
  if (!games.length) {
    replace(list, h('li', {}, t('lobby.mine.none')));
    return;
  }
  replace(list, await Promise.all(games.map(mineEntry)));
}

// ---- creating a game ----

/** @type {{form: import('./config-form.js').ConfigForm, seats: () => {request: api.Schemas['SeatRequest'], mine: boolean}[]} | null} */
let creating = null;

async function typeChanged() {
  const select = /** @type {HTMLSelectElement} */ (byId('new-type'));
  const type = catalogue.find((g) => g.type === select.value);
  if (!type) return;
  if (!components && hasRefs(type.config_schema)) {
    components = (await api.openapi()).components.schemas;
  }
  const form = configForm(
    /** @type {any} */ (type.config_schema ?? {}),
    /** @type {Record<string, unknown>} */ (type.default_config ?? {}),
    components ?? {},
    type.type,
  );

  replace(byId('new-config'), form.element);
  const count = /** @type {HTMLSelectElement} */ (byId('new-seat-count'));
  const before = rememberedSetup(type.type)?.count ?? (Number(count.value) || type.min_seats);
  replace(
    count,
    Array.from({ length: type.max_seats - type.min_seats + 1 }, (_, i) => {
      const n = type.min_seats + i;
      return h('option', { value: n, selected: n === Math.min(Math.max(before, type.min_seats), type.max_seats) }, tn('lobby.nSeats', n));
    }),
  );
  creating = { form, seats: seatRows() };
  document
    .getElementById('config-bank_trade_once_per_round')
    ?.addEventListener('change', (e) => (/** @type {HTMLElement} */ (e.target).dataset.chosen = 'true'));
  suggestForClock();
}

/**
 * Under a per-move clock every bank swap is a move, so nothing bounds a Tyros round where a
 * player keeps swapping (docs/games/tyros.md, "Endless bank swaps"): such a table starts with
 * "One bank trade per round" ticked, until the creator sets that box by hand.
 */
function suggestForClock() {
  const box = /** @type {HTMLInputElement | null} */ (document.getElementById('config-bank_trade_once_per_round'));
  if (!box || box.dataset.chosen) return;
  const clock = CLOCK_CHOICES.find((c) => c.id === clockSelect().value) ?? CLOCK_CHOICES[0];
  box.checked = clock.request.kind === 'per_move';
}

/** Where the lobby remembers the last seats chosen, per game type. */
const SETUP_KEY = 'boardgames.lobby.seats.v1';

/** @typedef {{kind: string, name: string}} SeatSetup */

/**
 * The seats last chosen for a game type, if any.
 * @param {string} type
 * @returns {{count: number, seats: SeatSetup[], mine: number} | null}
 */
function rememberedSetup(type) {
  try {
    return JSON.parse(localStorage.getItem(SETUP_KEY) ?? '{}')[type] ?? null;
  } catch {
    return null;
  }
}

/**
 * @param {string} type
 * @param {{count: number, seats: SeatSetup[], mine: number}} setup
 */
function rememberSetup(type, setup) {
  let all = {};
  try {
    all = JSON.parse(localStorage.getItem(SETUP_KEY) ?? '{}') ?? {};
  } catch {
    all = {};
  }
  localStorage.setItem(SETUP_KEY, JSON.stringify({ ...all, [type]: setup }));
}

/** The seat rows for the chosen seat count (as last chosen for this game); returns their reader. */
function seatRows() {
  const count = Number(/** @type {HTMLSelectElement} */ (byId('new-seat-count')).value);
  const type = /** @type {HTMLSelectElement} */ (byId('new-type')).value;
  const remembered = rememberedSetup(type);
  const me = playerName();
  const rows = Array.from({ length: count }, (_, seat) => {
    const look = seatLook(seat);
    const before = remembered?.seats[seat];
    const kind = h(
      'select',
      { id: `seat-kind-${seat}`, 'aria-label': t('lobby.seatWho', { n: seat + 1 }) },
      SEAT_KINDS.map((k) => h('option', { value: k.kind, selected: before?.kind === k.kind }, k.label)),
    );
    const isMine = (remembered?.mine ?? 0) === seat;
    const name = h('input', {
      id: `seat-name-${seat}`,
      type: 'text',
      maxlength: 64,
      value: isMine ? me : (before?.name ?? t('lobby.playerN', { n: seat + 1 })),
      'aria-label': t('lobby.seatName', { n: seat + 1 }),
      // The player's own seat takes "Your name" until it is edited by hand.
      'data-follows-player': isMine,
    });
    name.addEventListener('input', () => delete name.dataset.followsPlayer);
    const mine = h('input', {
      type: 'radio',
      name: 'mine',
      id: `seat-mine-${seat}`,
      value: seat,
      checked: isMine,
      'aria-label': t('lobby.iPlaySeat', { n: seat + 1 }),
    });
    const personal = () => {
      const person = kind.value === 'person';
      name.disabled = !person;
      mine.disabled = !person;
    };
    kind.addEventListener('change', personal);
    personal();
    const row = h(
      'li',
      { class: 'seat-row' },
      chip(look.colour, look.label),
      kind,
      name,
      h('label', { class: 'mine', for: `seat-mine-${seat}` }, mine, ` ${t('lobby.iPlayThis')}`),
    );
    return { row, kind, name, mine };
  });
  replace(byId('new-seats'), rows.map((r) => r.row));
  return () => {
    rememberSetup(type, {
      count,
      seats: rows.map((r) => ({ kind: r.kind.value, name: r.name.value.trim() })),
      mine: Math.max(0, rows.findIndex((r) => r.mine.checked)),
    });
    return rows.map((r) => {
      const kind = SEAT_KINDS.find((k) => k.kind === r.kind.value) ?? SEAT_KINDS[0];
      return { request: kind.request(r.name.value.trim()), mine: r.mine.checked && !r.mine.disabled };
    });
  };
}

/** @param {SubmitEvent} e */
async function create(e) {
  e.preventDefault();
  clearError();
  if (!creating) return;
  const type = /** @type {HTMLSelectElement} */ (byId('new-type')).value;
  const seats = creating.seats();
  const requests = seats.map((s) => seatAsPlayer(s.request, s.mine));
  let created;
  try {
    created = await api.createGame({
      type: /** @type {api.Schemas['CreateGameRequest']['type']} */ (type),
      config: /** @type {any} */ (creating.form.value()),
      seats: requests,
      clock: /** @type {any} */ ((CLOCK_CHOICES.find((c) => c.id === clockSelect().value) ?? CLOCK_CHOICES[0]).request),
    }, tokenFor(requests));
  } catch (err) {
    showError(err);
    return;
  }
  rememberCreated(created);
  for (const seat of created.seats) {
    // Bot seats have no token: nobody holds them.
    if (!seat.open && 'token' in seat) {
      rememberSeat(created.game_id, {
        seat: seat.seat,
        name: seat.name,
        token: seat.token,
        mine: seats[seat.seat]?.mine ?? false,
      });
    }
  }
  const links = created.seats.map((seat) => {
    const link = shareLink(created.game_id, 'token' in seat ? seat.token : undefined);
    const input = h('input', { type: 'text', readonly: true, value: link, class: 'share', 'aria-label': t('lobby.linkFor', { n: seat.seat + 1 }) });
    return h(
      'li',
      {},
      chip(seatLook(seat.seat).colour, seatLook(seat.seat).label),
      ' ',
      seat.open ? t('lobby.link.open') : t('lobby.link.named', { name: seat.name }),
      input,
      h('button', { type: 'button', onclick: () => navigator.clipboard?.writeText(link) }, t('lobby.copy')),
    );
  });
  replace(
    byId('created'),
    h('h3', {}, t('lobby.created', { game: titleOf(type) })),
    h('p', {}, h('a', { href: `/games/${created.game_id}`, id: 'open-created', class: 'button' }, t('lobby.openGame'))),
    h('p', {}, t('lobby.sendLinks')),
    h('ul', { class: 'links' }, links),
  );
  showMine();
  loadList();
}

/** @returns {HTMLSelectElement} */
function clockSelect() {
  return /** @type {HTMLSelectElement} */ (byId('new-clock'));
}

async function main() {
  const nameInput = /** @type {HTMLInputElement} */ (byId('player-name'));
  nameInput.value = localStorage.getItem(NAME_KEY) ?? '';
  nameInput.addEventListener('input', () => {
    for (const input of document.querySelectorAll('[data-follows-player]')) {
      /** @type {HTMLInputElement} */ (input).value = nameInput.value.trim() || t('lobby.namePlaceholder');
    }
  });
  try {
    catalogue = await api.gameTypes();
  } catch (e) {
    showError(e);
    return;
  }
  const typeSelect = /** @type {HTMLSelectElement} */ (byId('new-type'));
  replace(typeSelect, catalogue.map((g) => h('option', { value: g.type }, titleOf(g.type))));

  typeSelect.addEventListener('change', typeChanged);
  byId('new-seat-count').addEventListener('change', () => {
    if (creating) creating.seats = seatRows();
  });
  replace(clockSelect(), CLOCK_CHOICES.map((c) => h('option', { value: c.id }, c.label)));
  clockSelect().value = localStorage.getItem('boardgames.lobby.clock') ?? 'none';
  clockSelect().addEventListener('change', () => {
    localStorage.setItem('boardgames.lobby.clock', clockSelect().value);
    suggestForClock();
  });
  byId('create-form').addEventListener('submit', (e) => create(/** @type {SubmitEvent} */ (e)));
  await typeChanged();
  setupFilters();
  showInvite(catalogue);
  showMine();
  await loadList();
  document.body.dataset.ready = 'true';
}

main();
