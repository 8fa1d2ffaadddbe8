// The game page (`/games/{id}`): play, spectate and replay one game. It holds the latest game
// document for the seat this tab plays (or for a spectator), the event log, and, in a replay,
// the position shown; every change of these re-renders the page from them.

import { actionList, offer, templateForms } from './actions.js';
import * as api from './api.js';
import { boardFor } from './boards/index.js';
import { byId, chip, h, humanize, replace } from './dom.js';
import { describeLifecycle, eventList } from './log.js';
import { replayControls } from './replay.js';
import { chooseSeat, chosenSeat, forgetSeat, heldSeats, rememberSeat, seatLook, takeTokenFromFragment } from './seats.js';
import { followGame } from './updates.js';

/** @typedef {import('./api.js').GameDocument} GameDocument */
/** @typedef {import('./api.js').StateDocument} StateDocument */
/** @typedef {import('./api.js').EventDto} EventDto */
/** @typedef {import('./api.js').Action} Action */

const gameId = decodeURIComponent(location.pathname.split('/')[2] ?? '');
const ASSETS = new URL('..', import.meta.url).href;

const page = {
  /** @type {string | null} */
  token: null,
  /** @type {GameDocument | null} */
  doc: null,
  /** @type {EventDto[]} events the viewer may see, in order */
  events: [],
  /** @type {unknown} the game's data file */
  data: null,
  title: '',
  /** @type {number | null} the seq shown in a replay; `null` when live */
  replaySeq: null,
  /** @type {StateDocument | null} */
  replayState: null,
  /** @type {Map<number, StateDocument>} */
  states: new Map(),
  busy: false,
};

/** @param {number} seat */
function seatName(seat) {
  return page.doc?.seats[seat]?.name ?? `Seat ${seat + 1}`;
}

/** @param {unknown} e */
function showError(e) {
  const box = byId('game-error');
  const refused = e instanceof api.ApiError && e.status >= 400 && e.status < 500;
  replace(box, refused ? `Refused: ${e.message}` : e instanceof Error ? e.message : String(e));
  box.hidden = false;
}

function clearError() {
  byId('game-error').hidden = true;
}

// ---- loading and following ----

/** Loads the events the page has not seen yet. */
async function catchUpEvents() {
  const after = page.events.at(-1)?.seq ?? 0;
  if (!page.doc || page.doc.version <= after) return;
  page.events.push(...(await api.eventsAfter(gameId, page.token, after)));
}

/** Takes a newer document (from an action, a poll or a reload), one at a time. */
let accepting = Promise.resolve();
/** @param {GameDocument} doc */
function accept(doc) {
  accepting = accepting.then(async () => {
    if (page.doc && doc.version < page.doc.version) return;
    page.doc = doc;
    try {
      await catchUpEvents();
    } catch (e) {
      showError(e);
    }
    render();
  }).catch(showError);
  return accepting;
}

/** @param {Action} action */
async function act(action) {
  if (!page.token || !page.doc || page.busy) return;
  page.busy = true;
  clearError();
  document.body.dataset.busy = 'true';
  try {
    const res = await api.postAction(gameId, page.token, action, page.doc.version);
    await accept(res.game);
  } catch (e) {
    showError(e);
    if (e instanceof api.ApiError && (e.status === 409 || e.status === 422)) {
      // The page was behind the game: show the game as it is now.
      await api.getGame(gameId, page.token).then(accept, () => {});
    }
  } finally {
    page.busy = false;
    delete document.body.dataset.busy;
  }
}

/** @type {{stop: () => void} | null} */
let following = null;

function follow() {
  following?.stop();
  following = followGame({
    gameId,
    token: page.token,
    version: () => page.doc?.version ?? 0,
    onDocument: (doc) => accept(doc),
    onConnection: (error) => {
      const box = byId('connection');
      box.hidden = error === null;
      if (error) replace(box, `Live updates interrupted (${error.message}); retrying…`);
    },
  });
}

/** Loads everything for the seat this tab plays (or as a spectator). */
async function load() {
  const held = chosenSeat(gameId);
  page.token = held?.token ?? null;
  let doc;
  try {
    doc = await api.getGame(gameId, page.token);
  } catch (e) {
    if (e instanceof api.ApiError && e.status === 401 && held) {
      // The server does not know this token (any more): watch instead.
      forgetSeat(gameId, held.seat);
      return load();
    }
    throw e;
  }
  page.doc = doc;
  page.events = [];
  page.states.clear();
  await catchUpEvents();
}

async function loadData() {
  const type = page.doc?.type ?? '';
  try {
    const res = await fetch(`${ASSETS}data/${encodeURIComponent(type)}.json`);
    page.data = res.ok ? await res.json() : null;
  } catch {
    page.data = null;
  }
  try {
    page.title = (await api.gameTypes()).find((g) => g.type === type)?.title ?? humanize(type);
  } catch {
    page.title = humanize(type);
  }
}

// ---- replay ----

/**
 * Shows the position after event `seq` (or the live game for `null`).
 * @param {number | null} seq
 */
async function showSeq(seq) {
  const doc = page.doc;
  if (!doc) return;
  if (seq === null) {
    page.replaySeq = null;
    page.replayState = null;
    history.replaceState(null, '', location.pathname);
    render();
    return;
  }
  const target = Math.min(Math.max(1, seq), Math.max(1, doc.version));
  page.replaySeq = target;
  history.replaceState(null, '', `${location.pathname}?seq=${target}`);
  try {
    let state = page.states.get(target);
    if (!state) {
      state = await api.stateAt(gameId, page.token, target);
      page.states.set(target, state);
    }
    if (page.replaySeq === target) page.replayState = state;
  } catch (e) {
    showError(e);
  }
  render();
}

// ---- rendering ----

/**
 * The game's configuration, as its `game_started` event recorded it (the game document does
 * not carry it); `null` for a game whose events do not say.
 * @returns {unknown}
 */
function gameConfig() {
  const started = page.events.find((e) => e.event.type === 'game_started')?.event;
  return started && 'config' in started ? started.config : null;
}

function focusKey() {
  const el = /** @type {HTMLElement | null} */ (document.activeElement);
  if (!el || el === document.body) return null;
  return el.dataset.action ?? (el.id ? `#${el.id}` : null);
}

/** @param {string | null} key */
function restoreFocus(key) {
  if (!key) return;
  const el = key.startsWith('#')
    ? document.getElementById(key.slice(1))
    : document.querySelector(`[data-action="${CSS.escape(key)}"]`);
  if (el instanceof HTMLElement || el instanceof SVGElement) el.focus();
  else if (document.activeElement === document.body) byId('actions').focus();
}

function render() {
  const doc = page.doc;
  if (!doc) return;
  const focused = focusKey();
  // Without its data file a board cannot be drawn: the generic one shows the view instead.
  const board = boardFor(page.data ? doc.type : '');
  const replaying = page.replaySeq !== null;
  const shown = replaying ? page.replayState : null;
  const view = replaying ? shown?.view : doc.view;
  const legal = replaying ? [] : doc.legal_actions;
  const templates = replaying ? [] : doc.action_templates;
  const activeSeats = replaying ? (shown?.active_seats ?? []) : doc.active_seats;
  const outcome = replaying ? shown?.outcome : doc.outcome;
  /** @type {import('./boards/index.js').BoardContext} */
  const ctx = {
    view,
    data: page.data,
    config: gameConfig(),
    seat: doc.seat ?? null,
    name: seatName,
    legal,
    offer: (actions, question) => offer(actions, (a) => board.describeAction(a, ctx), act, question),
  };

  document.body.dataset.version = String(doc.version);
  document.body.dataset.status = doc.status;
  document.body.dataset.seat = doc.seat == null ? '' : String(doc.seat);
  document.body.dataset.replay = replaying ? String(page.replaySeq) : '';

  replace(byId('game-title'), `${page.title} `, h('code', {}, gameId.slice(0, 8)));
  const stage = view && board.status ? board.status(ctx) : null;
  replace(
    byId('game-status'),
    `${humanize(doc.status)} · move ${doc.version}`,
    stage ? ` · ${stage}` : '',
    replaying ? ` · replay at event ${page.replaySeq}` : '',
  );

  // "Your turn": the game waits for this seat (or it has standing actions).
  const banner = byId('turn-banner');
  const mayAct = !replaying && (legal.length > 0 || templates.length > 0);
  const waitedFor = doc.seat != null && doc.active_seats.includes(doc.seat);
  document.body.dataset.yourTurn = String(mayAct && waitedFor);
  banner.hidden = doc.status === 'open' || replaying;
  banner.classList.toggle('yours', mayAct && waitedFor);
  if (doc.outcome) {
    const winners = doc.outcome.winners.map(seatName).join(' and ');
    replace(banner, `Game over: ${winners} ${doc.outcome.winners.length > 1 ? 'win' : 'wins'}.`);
  } else if (mayAct && waitedFor) {
    replace(banner, `Your turn, ${seatName(/** @type {number} */ (doc.seat))}!`);
  } else if (mayAct) {
    replace(banner, 'You may act now.');
  } else {
    replace(banner, `Waiting for ${doc.active_seats.map(seatName).join(' and ') || 'nobody'}.`);
  }
  document.title = `${mayAct && waitedFor ? '● Your turn · ' : ''}${page.title || 'Game'}`;

  renderSeatChoice(doc);
  renderJoin(doc);

  const boardEl = byId('board');
  if (view) {
    replace(boardEl, board.render(ctx));
  } else {
    replace(boardEl, h('p', { class: 'hint' }, replaying ? 'Loading…' : 'The game starts when every seat is taken.'));
  }

  const actionsArea = byId('actions');
  actionsArea.hidden = replaying || doc.seat == null || doc.status !== 'active';
  replace(
    byId('action-list'),
    legal.length || templates.length
      ? [actionList(legal, (a) => board.describeAction(a, ctx), act), templateForms(templates, act, (field, value) => board.describeValue?.(field, value, ctx) ?? null)]
      : h('p', { class: 'hint' }, 'Nothing to do right now.'),
  );

  renderPlayers(doc, ctx, activeSeats, board);
  renderOutcome(doc, outcome ?? null);

  /** @param {api.EventDto['event']} e */
  const describe = (e) => describeLifecycle(e, ctx.name) ?? board.describeEvent(e, ctx);
  const replayBox = byId('replay');
  replayBox.hidden = !replaying;
  if (replaying && page.replaySeq !== null) {
    const event = page.events.find((e) => e.seq === page.replaySeq);
    replace(
      replayBox,
      replayControls({
        seq: page.replaySeq,
        last: doc.version,
        explanation: event ? describe(event.event) : '',
        go: showSeq,
      }),
    );
  }
  const log = byId('log');
  replace(log, eventList(page.events, page.replaySeq, describe));
  if (!replaying) log.scrollTop = log.scrollHeight;
  restoreFocus(focused);
  document.body.dataset.ready = 'true';
}

/**
 * Which held seat this tab plays, or spectating.
 * @param {GameDocument} doc
 */
function renderSeatChoice(doc) {
  const held = heldSeats(gameId);
  const box = byId('seat-choice');
  const you = doc.seat == null ? 'You are watching.' : `You play ${seatName(doc.seat)} (seat ${doc.seat + 1}).`;
  if (held.length === 0) {
    replace(box, h('p', { id: 'you' }, you));
    return;
  }
  const select = h(
    'select',
    { id: 'seat-select' },
    held.map((s) => h('option', { value: s.seat, selected: s.seat === doc.seat }, `${s.name} (seat ${s.seat + 1})`)),
    h('option', { value: 'spectator', selected: doc.seat == null }, 'Watch as a spectator'),
  );
  select.addEventListener('change', async () => {
    chooseSeat(gameId, select.value === 'spectator' ? null : Number(select.value));
    await restart();
  });
  replace(box, h('p', { id: 'you' }, you), held.length > 0 ? h('label', { class: 'field' }, 'Play as ', select) : null);
}

/**
 * Open seats, each with a button to take it.
 * @param {GameDocument} doc
 */
function renderJoin(doc) {
  const box = byId('join');
  const open = doc.seats.filter((s) => s.open);
  if (doc.status !== 'open' || open.length === 0) {
    replace(box);
    return;
  }
  const name = h('input', { id: 'join-name', type: 'text', maxlength: 64, value: localStorage.getItem('boardgames.name') ?? '' });
  replace(
    box,
    h('h3', {}, 'Open seats'),
    h('label', { class: 'field' }, 'Your name ', name),
    open.map((s) =>
      h(
        'button',
        {
          type: 'button',
          class: 'join',
          'data-seat': s.seat,
          onclick: async () => {
            try {
              const joined = await api.joinSeat(gameId, { name: name.value.trim() || 'Player', seat: s.seat });
              localStorage.setItem('boardgames.name', joined.name);
              rememberSeat(gameId, { seat: joined.seat, name: joined.name, token: joined.token, mine: true });
              chooseSeat(gameId, joined.seat);
              await restart();
            } catch (e) {
              showError(e);
            }
          },
        },
        `Take seat ${s.seat + 1}`,
      ),
    ),
  );
}

/**
 * @param {GameDocument} doc
 * @param {import('./boards/index.js').BoardContext} ctx
 * @param {number[]} activeSeats
 * @param {import('./boards/index.js').BoardModule} board
 */
function renderPlayers(doc, ctx, activeSeats, board) {
  replace(
    byId('players'),
    doc.seats.map((s) => {
      const look = seatLook(s.seat);
      const rows = ctx.view ? board.playerRows(ctx, s.seat) : [];
      const active = activeSeats.includes(s.seat);
      return h(
        'section',
        { class: `player${active ? ' active' : ''}`, 'data-seat': s.seat, 'aria-label': `Seat ${s.seat + 1}` },
        h(
          'h3',
          {},
          chip(look.colour, look.label),
          ' ',
          s.open ? 'Open seat' : (s.name ?? ''),
          s.seat === doc.seat ? h('span', { class: 'badge' }, 'you') : null,
          active ? h('span', { class: 'badge to-act' }, 'to act') : null,
        ),
        rows.length ? h('dl', {}, rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])) : null,
      );
    }),
  );
}

/**
 * @param {GameDocument} doc
 * @param {api.Schemas['Outcome'] | null} outcome
 */
function renderOutcome(doc, outcome) {
  const box = byId('outcome');
  box.hidden = !outcome;
  if (!outcome) return;
  replace(
    byId('scores'),
    h(
      'table',
      { class: 'scores' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col' }, 'Score'), h('th', { scope: 'col' }, ''))),
      h(
        'tbody',
        {},
        outcome.scores.map((score, seat) =>
          h(
            'tr',
            { 'data-seat': seat, 'data-score': score, class: outcome.winners.includes(seat) ? 'winner' : '' },
            h('th', { scope: 'row' }, chip(seatLook(seat).colour, seatLook(seat).label), ' ', seatName(seat)),
            h('td', { class: 'num' }, score),
            h('td', {}, outcome.winners.includes(seat) ? '★ winner' : ''),
          ),
        ),
      ),
    ),
    doc.status === 'finished' ? h('p', {}, h('a', { href: '?seq=1' }, 'Replay the game')) : null,
  );
}

async function restart() {
  following?.stop();
  await load();
  render();
  follow();
}

async function main() {
  const shared = takeTokenFromFragment();
  if (shared) {
    try {
      const doc = await api.getGame(gameId, shared);
      if (doc.seat != null) {
        const name = doc.seats[doc.seat]?.name ?? `Seat ${doc.seat + 1}`;
        rememberSeat(gameId, { seat: doc.seat, name, token: shared, mine: true });
        chooseSeat(gameId, doc.seat);
      }
    } catch (e) {
      showError(e);
    }
  }
  try {
    await load();
    await loadData();
  } catch (e) {
    replace(byId('game-title'), 'Game not available');
    showError(e);
    return;
  }
  byId('replay-link').addEventListener('click', (e) => {
    e.preventDefault();
    showSeq(1);
  });
  document.addEventListener('keydown', (e) => {
    if (page.replaySeq === null || e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    const steps = { ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in steps) {
      e.preventDefault();
      showSeq(page.replaySeq + steps[/** @type {'ArrowLeft' | 'ArrowRight'} */ (e.key)]);
    }
  });
  const seq = Number(new URLSearchParams(location.search).get('seq'));
  if (Number.isInteger(seq) && seq > 0) {
    await showSeq(seq);
  } else {
    render();
  }
  follow();
}

main();

