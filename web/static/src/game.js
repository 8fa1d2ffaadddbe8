// The game page (`/games/{id}`): play, spectate and replay one game. It holds the latest game
// document for the seat this tab plays (or for a spectator), the event log, and the position
// shown: the live game, a position of the replay, or, while other players' moves are replayed
// at a readable pace, the position after one of them. Every change re-renders the page from
// these.

import { actionList, offer, templateForms } from './actions.js';
import * as api from './api.js';
import { setUpChat } from './chat.js';
import { loadBoard } from './boards/index.js';
import { annotate, installHelp } from './boards/help.js';
import { rove } from './boards/roving.js';
import { clockIcon, clockWords, seatClock, startTicking } from './clocks.js';
import { byId, chip, h, humanize, replace } from './dom.js';
import { forgetForm, keepForms, restoreForms } from './form-memory.js';
import { renderEndScreen } from './endscreen.js';
import { describeLifecycle, eventList } from './log.js';
import { glide, piecePlaces, turnChime, unlockSound } from './motion.js';
import { list, t, tn, tOr } from './i18n/index.js';
import './i18n/page.js';
import { setUpMenu } from './menu.js';
import { adoptPlayerSeat, identity } from './players/identity.js';
import { joinAsPlayer, joiningAs } from './players/play-as.js';
import { askRematch, playersRematch, rematch } from './rematch.js';
import { notifyOffer, showTurn, startWatching } from './notify.js';
import { showProblem } from './problems.js';
import { replayControls } from './replay.js';
import { chooseSeat, chosenSeat, forgetSeat, heldSeats, rememberSeat, seatLook, takeTokenFromFragment } from './seats.js';
import { PACE_MS, settings } from './settings.js';
import { followGame } from './updates.js';
import { reveal, setUpFrame, showDrawing } from './viewport.js';

/** @typedef {import('./api.js').GameDocument} GameDocument */
/** @typedef {import('./api.js').StateDocument} StateDocument */
/** @typedef {import('./api.js').EventDto} EventDto */
/** @typedef {import('./api.js').Action} Action */
/** @typedef {import('./boards/index.js').BoardModule} BoardModule */
/** @typedef {import('./boards/index.js').BoardContext} BoardContext */

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
  /** @type {unknown} the board's layout file, for a board drawn on a map */
  layout: null,
  title: '',
  /** @type {BoardModule | null} */
  board: null,
  /** @type {number | null} the seq shown in a replay; `null` when live */
  replaySeq: null,
  /** @type {StateDocument | null} */
  replayState: null,
  /** @type {Map<number, StateDocument>} */
  states: new Map(),
  /**
   * While other players' moves are replayed at a readable pace: the position shown, which
   * move of how many, and whose.
   * @type {{state: StateDocument, step: number, steps: number, who: string} | null}
   */
  playback: null,
  /** Set to end a playback at once. */
  skip: false,
  /**
   * Answers to the viewer's own actions waiting in the queue of documents: the other moves
   * before them are shown at once, not replayed (a reclaimed seat is the player's at once).
   */
  ownPending: 0,
  /** When each document waiting in the queue arrived (the oldest first). */
  /** @type {number[]} */
  queued: [],
  /** @type {EventDto[]} the move just shown, marked on the board */
  recent: [],
  busy: false,
  offline: false,
  /** Whether the last render was the viewer's turn (for the chime); `null` before the first. */
  /** @type {boolean | null} */
  wasYourTurn: null,
  /** The last event whose mark the board's frame was panned to. */
  revealed: 0,
};

/**
 * A seat's name; when two seats share one (two bots of a kind), with its seat mark too.
 * @param {number} seat
 */
function seatName(seat) {
  const seats = page.doc?.seats ?? [];
  const name = seats[seat]?.name ?? t('common.SeatN', { n: seat + 1 });
  const shared = seats.some((s) => s.seat !== seat && s.name === name);
  return shared ? `${name} ${seatLook(seat).label}` : name;
}

/**
 * A bot's level in words ("greedy" → "gierig").
 * @param {string | null | undefined} level
 */
function botName(level) {
  return level ? tOr(`bot.${level}`, level) : '';
}

/** @param {unknown} e */
function showError(e) {

  const box = byId('game-error');
  const refused = e instanceof api.ApiError && e.status >= 400 && e.status < 500;
  showProblem(box, e, refused ? (message) => t('common.refused', { message }) : undefined);
  box.hidden = false;
}

function clearError() {
  byId('game-error').hidden = true;
}

/**
 * How far (in milliseconds) a playback may fall behind the documents that arrive: bots that
 * move faster than the pace would otherwise leave the board minutes behind the game.
 */
const MAX_LAG_MS = 5000;

/**
 * Whether a playback should end now: skipped, an answer to the viewer's own move waits, or the
 * next document has waited too long.
 */
function hurry() {
  return page.skip || page.ownPending > 0 || lagging();
}

/** Whether the oldest document waiting in the queue has waited too long. */
function lagging() {
  const oldest = page.queued[0];
  return oldest !== undefined && Date.now() - oldest > MAX_LAG_MS;
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => {
    const started = Date.now();
    const tick = () => (hurry() || Date.now() - started >= ms ? resolve(undefined) : setTimeout(tick, 50));
    tick();
  });
}

/**
 * Bursts of more moves than this are shown at once: a page that was away, or a stand-in
 * bot's turns, would otherwise replay for minutes while the game goes on.
 */
const MAX_PLAYBACK = 12;

/**
 * Whether replaying `steps` moves would take a noticeable share (a tenth) of the time left on
 * the viewer's own running clock: then they are shown at once, the time is the viewer's to
 * move in (a day a move leaves room for a replay; a minute does not).
 * @param {GameDocument} doc
 * @param {number} steps
 */
function costsOwnTime(doc, steps) {
  const mine = doc.seat == null ? null : doc.seats[doc.seat];
  const clock = mine?.clock;
  if (!clock?.running || !clock.deadline || mine?.status === 'taken_over') return false;
  const left = Date.parse(clock.deadline) - api.serverNow();
  return steps * PACE_MS[settings().pace] > left / 10;
}

// ---- loading and following ----

/** Loads the events the page has not seen yet. */
async function catchUpEvents() {
  const after = page.events.at(-1)?.seq ?? 0;
  if (!page.doc || page.doc.version <= after) return;
  page.events.push(...(await api.eventsAfter(gameId, page.token, after)));
}

/**
 * The events of `events` grouped by move: the events one action caused share its seat and
 * its time of writing.
 * @param {EventDto[]} events
 * @returns {EventDto[][]}
 */
function moves(events) {
  /** @type {EventDto[][]} */
  const groups = [];
  for (const e of events) {
    const last = groups.at(-1);
    const first = last?.[0];
    if (last && first && first.created_at === e.created_at && (e.seat === null || e.seat === first.seat)) {
      last.push(e);
    } else {
      groups.push([e]);
    }
  }
  return groups;
}

/**
 * Shows other players' moves one at a time at the reader's pace: the position after each move
 * but the last, each for a moment, unless skipped. The live position follows.
 * @param {EventDto[][]} groups
 */
async function playBack(groups) {
  const pace = PACE_MS[settings().pace];
  page.skip = false;
  for (let i = 0; i < groups.length - 1 && !hurry(); i++) {
    const group = groups[i];
    const seq = /** @type {EventDto} */ (group.at(-1)).seq;
    let state;
    try {
      state = page.states.get(seq) ?? (await api.stateAt(gameId, page.token, seq));
    } catch {
      break;
    }
    page.states.set(seq, state);
    const seat = group.find((e) => e.seat !== null)?.seat;
    page.playback = { state, step: i + 1, steps: groups.length, who: seat == null ? t('game.theGame') : seatName(seat) };
    page.recent = group;
    render();
    await sleep(pace);
  }
  page.playback = null;
}

/** The documents being taken, one after another. */
let accepting = Promise.resolve();

/**
 * Takes a newer document (from an action, the stream, a poll or a reload), one at a time.
 * Other players' moves are replayed at the reader's pace; the viewer's own at once.
 * @param {GameDocument} doc
 * @param {boolean} [own] the answer to the viewer's own action
 */
function accept(doc, own = false) {
  if (own) {
    page.skip = true;
    page.ownPending += 1;
  }
  page.queued.push(Date.now());
  accepting = accepting
    .then(async () => {
      page.queued.shift();
      if (own) page.ownPending -= 1;
      if (page.doc && doc.version <= page.doc.version) return;
      const before = page.doc?.version ?? 0;
      page.doc = doc;
      try {
        await catchUpEvents();
      } catch (e) {
        showError(e);
      }
      const fresh = page.events.filter((e) => e.seq > before);
      const groups = moves(fresh);
      const paced =
        !own && page.ownPending === 0 && !lagging() && before > 0 && page.replaySeq === null && PACE_MS[settings().pace] > 0 && groups.length <= MAX_PLAYBACK && !costsOwnTime(doc, groups.length);
      if (paced && groups.length > 1) await playBack(groups);
      page.recent = groups.at(-1) ?? [];
      render();
      // Leave another player's last move on screen for a moment before the next arrives.
      if (paced && fresh.length) {
        page.skip = false;
        await sleep(PACE_MS[settings().pace]);
      }
    })
    .catch(showError);
  return accepting;
}

/**
 * Submits one action. A refusal because the page was behind the game (another player moved
 * first) is retried once when the same action is still legal in the newer game. Once taken,
 * the form it came from (`form`, its key) is forgotten: it starts afresh.
 * @param {Action} action
 * @param {string} [form]
 * @returns {Promise<boolean>} whether the action was taken
 */
async function act(action, form) {
  if (!page.token || !page.doc || page.busy || page.offline) return false;
  let taken = false;
  page.busy = true;
  clearError();
  document.body.dataset.busy = 'true';
  try {
    let version = page.doc.version;
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await api.postAction(gameId, page.token, action, version);
        taken = true;
        if (form) forgetForm(form);
        await accept(res.game, true);
        break;
      } catch (e) {
        const stale = e instanceof api.ApiError && e.status === 409 && attempt === 0;
        const now = stale ? await api.getGame(gameId, page.token).catch(() => null) : null;
        const key = JSON.stringify(action);
        if (now && now.legal_actions.some((a) => JSON.stringify(a) === key)) {
          version = now.version;
          continue;
        }
        if (now) {
          await accept(now, true);
          throw new Error(t('game.movedFirst'));
        }
        throw e;
      }
    }
  } catch (e) {
    showError(e);
    if (e instanceof api.ApiError && e.status === 422) {
      // The page was behind the game: show the game as it is now.
      await api.getGame(gameId, page.token).then((/** @type {GameDocument} */ doc) => accept(doc, true), () => {});
    }
  } finally {
    page.busy = false;
    delete document.body.dataset.busy;
    render();
  }
  return taken;
}

/**
 * Submits several actions, one after another (buying three shares): stops at the first
 * refusal.
 * @param {Action[]} actions
 */
async function actAll(actions) {
  for (const action of actions) {
    const before = page.doc?.version;
    await act(action);
    if (page.doc?.version === before) return;
  }
}

/** @type {{stop: () => void} | null} */
let following = null;
/** @type {ReturnType<typeof setUpChat> | null} */
let chat = null;

/** Whether the game's stream brings chat now (else the chat reads its page every few seconds). */
function chatStreams() {
  const status = page.doc?.status;
  return document.body.dataset.updates === 'stream' && !page.offline && (status === 'active' || status === 'open');
}

function follow() {
  following?.stop();
  following = followGame({
    gameId,
    token: page.token,
    // A signed-in player without a seat follows as a spectator with its key: the watchers' chat.
    streamToken: page.token ?? identity()?.token ?? null,
    onChat: (m) => chat?.onMessage(m),
    onStreamOpen: () => chat?.reload(),
    version: () => page.doc?.version ?? 0,
    onDocument: (doc) => accept(doc),
    onConnection: (offline) => {
      page.offline = offline;
      document.body.dataset.offline = String(offline);
      const box = byId('connection');
      box.hidden = !offline;
      replace(box, t('game.offline'));
      render();
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
  // What happened last is marked from the start.
  page.recent = moves(page.events).at(-1) ?? [];
}

async function loadData() {
  const type = page.doc?.type ?? '';
  try {
    const res = await fetch(`${ASSETS}data/${encodeURIComponent(type)}.json`);
    page.data = res.ok ? await res.json() : null;
  } catch {
    page.data = null;
  }
  // Without its data file a board cannot be drawn: the generic one shows the view instead.
  page.board = await loadBoard(page.data ? type : '');
  page.layout = null;
  if (page.board.layout) {
    // Without it the board is drawn all the same, without its map.
    try {
      const res = await fetch(`${ASSETS}data/${encodeURIComponent(type)}-layout.json`);
      page.layout = res.ok ? await res.json() : null;
    } catch {
      page.layout = null;
    }
  }
  try {
    page.title = tOr(`games.${type}`, (await api.gameTypes()).find((g) => g.type === type)?.title ?? humanize(type));
  } catch {
    page.title = tOr(`games.${type}`, humanize(type));
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
    page.recent = [];
    history.replaceState(null, '', location.pathname);
    render();
    return;
  }
  const target = Math.min(Math.max(1, seq), Math.max(1, doc.version));
  page.replaySeq = target;
  page.recent = page.events.filter((e) => e.seq === target);
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

/** The seqs where a turn starts, for stepping a replay turn by turn. */
function turnStarts() {
  return page.events.filter((e) => e.event.type === 'turn_started').map((e) => e.seq);
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
  // A form's control gets its focus back through `form-memory.js`.
  if (!el || el === document.body || el.closest('[data-form-key]')) return null;
  // A space of a board that is one tab stop is found again by its place among the spaces.
  if (el.dataset.rove) return `rove:${el.dataset.rove}`;
  // A board spot that is only help (no move) is found again by its place among them.
  if (el.classList.contains('help-spot')) return `spot:${[...document.querySelectorAll('#board .help-spot')].indexOf(el)}`;
  return el.dataset.action ?? (el.id ? `#${el.id}` : null);
}

/** @param {string | null} key */
function restoreFocus(key) {
  if (!key) return;
  const el = key.startsWith('#')
    ? document.getElementById(key.slice(1))
    : key.startsWith('rove:')
      ? document.querySelector(`#board [data-rove="${CSS.escape(key.slice(5))}"]`)
      : key.startsWith('spot:')
      ? document.querySelectorAll('#board .help-spot')[Number(key.slice(5))]
      : document.querySelector(`[data-action="${CSS.escape(key)}"]`);
  if (el instanceof HTMLElement || el instanceof SVGElement) el.focus();
  else if (document.activeElement === document.body) byId('actions').focus();
}

/**
 * The players' moves up to event `seq`, in words ("no moves yet", "12 moves"): the events a
 * seat's action wrote count once, and the game's own (its start, a shuffle) not at all; the
 * event count, the document's version, would say "move 32" before anyone moved.
 * @param {number} seq
 */
function movesText(seq) {
  const made = moves(page.events.filter((e) => e.seq <= seq)).filter((g) => g.some((e) => e.seat !== null)).length;
  return made === 0 ? t('game.noMoves') : tn('game.moves', made);
}

/** The position the page shows: live, a replay's, or a move being played back. */
function shownPosition() {
  const doc = /** @type {GameDocument} */ (page.doc);
  if (page.replaySeq !== null) {
    const s = page.replayState;
    return { view: s?.view, seq: page.replaySeq, active: s?.active_seats ?? [], outcome: s?.outcome ?? null, live: false };
  }
  if (page.playback) {
    const s = page.playback.state;
    return { view: s.view, seq: s.seq, active: s.active_seats, outcome: s.outcome, live: false };
  }
  return { view: doc.view, seq: doc.version, active: doc.active_seats, outcome: doc.outcome, live: true };
}

function render() {
  const doc = page.doc;
  const board = page.board;
  if (!doc || !board) return;
  const focused = focusKey();
  const replaying = page.replaySeq !== null;
  const shown = shownPosition();
  const legal = shown.live ? doc.legal_actions : [];
  // Only Monopoly and Tyros list templates (the others' lists are always empty).
  const templates = !shown.live || (doc.type !== 'monopoly' && doc.type !== 'tyros') ? [] : doc.action_templates;
  /** @type {BoardContext} */
  const ctx = {
    view: shown.view,
    data: page.data,
    layout: page.layout,
    config: gameConfig(),
    seat: doc.seat ?? null,
    name: seatName,
    legal,
    templates,
    recent: page.recent.map((e) => e.event),
    events: page.events.filter((e) => e.seq <= shown.seq),
    offer: (actions, question) => offer(actions, (a) => board.describeAction(a, ctx), act, question),
    act,
    actAll,
  };

  const body = document.body.dataset;
  // The version a test or a script may wait for: only once the page shows it.
  if (shown.live) body.version = String(doc.version);
  body.status = doc.status;
  body.seat = doc.seat == null ? '' : String(doc.seat);
  body.replay = replaying ? String(page.replaySeq) : '';
  body.playback = page.playback ? 'true' : '';

  replace(byId('game-title'), `${page.title} `, h('code', {}, gameId.slice(0, 8)));
  const stage = shown.view && board.status ? board.status(ctx) : null;
  replace(
    byId('game-status'),
    `${tOr(`game.status.${doc.status}`, humanize(doc.status))} · ${movesText(shown.seq)}`,
    clockWords(doc.clock) ? [' · ', clockIcon(), h('span', { class: 'visually-hidden' }, t('lobby.clockPrefix')), clockWords(doc.clock)] : '',
    stage ? ` · ${stage}` : '',
    replaying ? ` · ${t('game.replayAt', { seq: String(page.replaySeq) })}` : '',
  );

  renderSeatChoice(doc);
  renderJoin(doc);

  const boardEl = byId('board');
  const before = piecePlaces(boardEl);
  if (shown.view) {
    const drawn = board.render(ctx);
    showDrawing(drawn.drawing, board.minWidth);
    replace(byId('board-panels'), drawn.panels ?? []);
    glide(boardEl, before);
    const last = page.recent.at(-1)?.seq ?? 0;
    const mark = boardEl.querySelector('.recent-mark');
    if (last !== page.revealed && mark) {
      page.revealed = last;
      reveal(mark);
    }
  } else {
    showDrawing(h('p', { class: 'hint' }, replaying ? t('common.loading') : t('game.startsWhenFull')), 0);
    replace(byId('board-panels'));
  }

  renderDock(doc, ctx, board, shown);
  annotate([boardEl, byId('board-panels'), byId('action-list')], board, ctx);
  const drawing = boardEl.querySelector('svg.board');
  if (board.spaces && drawing) rove(drawing, board.spaces);
  renderPlayers(doc, ctx, shown.active, board);
  renderEndScreen({ gameId, token: page.token, doc, events: page.events, board, ctx, outcome: shown.outcome, name: seatName, rematch: startRematch });
  renderRules(board);

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
        turns: turnStarts(),
        explanation: event ? describe(event.event) : '',
        go: showSeq,
      }),
    );
  }
  const log = byId('log');
  const logUntil = replaying ? page.replaySeq : page.playback ? page.playback.state.seq : null;
  replace(log, eventList(page.events, logUntil, describe, page.recent.map((e) => e.seq)));
  if (!replaying) log.scrollTop = log.scrollHeight;
  restoreFocus(focused);
  body.ready = 'true';
}

/**
 * The dock beside the board: what the game waits for (the prompt bar), the pace of a playback,
 * and the viewer's moves.
 * The banner tells the position shown (while moves are played back, whom the game waited for
 * then), so that it never runs ahead of the board.
 * @param {GameDocument} doc
 * @param {BoardContext} ctx
 * @param {BoardModule} board
 * @param {{live: boolean, active: number[], outcome: GameDocument['outcome']}} shown
 */
function renderDock(doc, ctx, board, shown) {
  const live = shown.live;
  const replaying = page.replaySeq !== null;
  const legal = ctx.legal;
  const templates = ctx.templates;
  const mayAct = live && (legal.length > 0 || templates.length > 0);
  const waitedFor = doc.seat != null && doc.active_seats.includes(doc.seat);
  const yourTurn = mayAct && waitedFor;
  document.body.dataset.yourTurn = String(yourTurn && !page.offline);
  if (yourTurn && page.wasYourTurn === false && settings().sound) turnChime();
  page.wasYourTurn = yourTurn;

  const banner = byId('turn-banner');
  banner.classList.toggle('yours', yourTurn);
  const mine = doc.seat == null ? null : doc.seats[doc.seat];
  const standIn = (/** @type {number} */ seat) => (doc.seats[seat]?.status === 'taken_over' ? t('game.botFor', { name: seatName(seat) }) : seatName(seat));
  const waiting = list(shown.active.map(standIn)) || t('game.nobody');
  if (doc.status === 'open') {
    replace(banner, t('game.banner.open'));
  } else if (replaying) {
    replace(banner, t('game.banner.replay', { seq: String(page.replaySeq), last: String(doc.version) }));
  } else if (shown.outcome) {
    const winners = list(shown.outcome.winners.map(seatName));
    replace(banner, shown.outcome.winners.length > 1 ? t('game.banner.overMany', { winners }) : t('game.banner.overOne', { winners }));
  } else if (doc.status === 'active' && mine?.status === 'taken_over') {
    replace(banner, t('game.banner.takenOver'));
  } else if (yourTurn) {
    replace(banner, t('game.banner.yourTurn', { name: seatName(/** @type {number} */ (doc.seat)) }));
  } else if (legal.length > 0) {
    // A move of one's own out of turn (a rent to claim, an offer to answer); forms that are
    // always open (Monopoly's trade offers) are no reason to say so.
    replace(banner, t('game.banner.waitingMayAct', { names: waiting }));
  } else {
    replace(banner, t('game.banner.waiting', { names: waiting }));
  }
  // The title, the tab's icon, a notification when hidden, the low-time warning (`notify.js`).
  showTurn({ gameId, game: page.title, name: doc.seat == null ? '' : seatName(doc.seat), yourTurn: yourTurn && !page.offline, clock: live && mine?.clock?.running ? mine.clock : null });
  const offer = doc.seat != null && doc.status === 'active' && live ? notifyOffer(render) : null;
  replace(byId('notify'), offer);

  // The clocks that run, beside the moves (on a phone the seat panels are far below).
  const clocks = byId('dock-clocks');
  const running = live && !doc.outcome ? doc.seats.filter((s) => s.clock?.running) : [];
  clocks.hidden = running.length === 0;
  replace(
    clocks,
    running.map((s) => h('span', { class: 'dock-clock' }, s.seat === doc.seat ? t('game.yourTime') : t('game.theirTime', { name: seatName(s.seat) }), ' ', s.clock ? seatClock(s.clock) : null)),
  );

  // Once the game is over nothing is waited for (a game ended by resignation left its last
  // question in the view).
  const prompt = ctx.view && board.prompt && !shown.outcome ? board.prompt(ctx) : null;
  const promptBox = byId('prompt');
  promptBox.hidden = !prompt;
  if (prompt) {
    replace(
      promptBox,
      h('p', { class: 'prompt-title' }, prompt.title),
      prompt.details?.length ? h('ul', { class: 'prompt-details' }, prompt.details.map((d) => h('li', {}, d))) : null,
    );
  }

  const pacing = byId('pacing');
  pacing.hidden = !page.playback;
  if (page.playback) {
    const p = page.playback;
    replace(
      pacing,
      h('span', {}, t('game.showing', { name: p.who, step: p.step, steps: p.steps })),
      h('button', { type: 'button', id: 'skip-playback', onclick: () => (page.skip = true) }, t('game.skipToNow')),
    );
  }

  const actionsArea = byId('actions');
  actionsArea.hidden = replaying || doc.seat == null || doc.status !== 'active';
  const custom = board.controls && mayAct ? board.controls(ctx) : { kinds: [], controls: [] };
  const listed = legal.filter((a) => !custom.kinds.includes(a.type));
  const words = (/** @type {string} */ field, /** @type {unknown} */ value) => board.describeValue?.(field, value, ctx) ?? null;
  const named = (/** @type {import('./api.js').ActionTemplate} */ t) => board.describeTemplate?.(t, ctx) ?? null;
  // With nothing else to do, every form is open; else only the decision at hand.
  const open = (/** @type {import('./api.js').ActionTemplate} */ t) => listed.length === 0 || (board.openTemplates ?? []).includes(t.type);
  // The seat can be taken back also while the stand-in's moves are played back.
  const takenOver = !replaying && doc.status === 'active' && mine?.status === 'taken_over';
  if (takenOver) {
    promptBox.hidden = false;
    replace(promptBox, h('p', { class: 'prompt-title' }, t('game.clockRanOut', { bot: botName(mine?.bot?.level) })));
  }
  replace(
    byId('action-list'),
    takenOver
      ? h('button', { type: 'button', class: 'action', id: 'reclaim', onclick: () => seatCommand('reclaim') }, t('game.reclaim'))
      : mayAct
      ? [custom.controls, actionList(listed, (a) => board.describeAction(a, ctx), act, board.kindLabels), templateForms(templates, act, words, named, open, board.countOrder ?? null, board.composedTemplates ?? [])]
      : h('p', { class: 'hint' }, page.playback ? t('game.movesAfterPlayback') : t('game.nothingToDo')),
  );
  // Offline or replaying other moves: the controls stay visible but cannot be used; taking a
  // seat back can, also while the stand-in's moves replay (it ends the replay).
  const paused = page.offline || page.playback !== null || page.busy;
  const blocked = page.offline || page.busy;
  actionsArea.classList.toggle('paused', paused);
  // The controls are drawn afresh each time: a control a board disabled itself (a form with
  // nothing chosen) stays so.
  for (const control of actionsArea.querySelectorAll('button, input, select')) {
    if (control.id === 'reclaim' ? blocked : paused) /** @type {HTMLButtonElement} */ (control).disabled = true;
  }
  // What the user was filling in survives the redraw (another player's move, a playback).
  restoreForms(byId('action-list'), live);
  document.body.dataset.paused = String(paused);
}

/**
 * Resigns, aborts or reclaims the seat this tab plays, and shows the game as it is then.
 * @param {'resign' | 'abort' | 'reclaim'} what
 */
async function seatCommand(what) {
  const doc = page.doc;
  if (!doc || !page.token || doc.seat == null) return;
  clearError();
  try {
    const res =
      what === 'resign' ? await api.resign(gameId, page.token, doc.seat) : what === 'reclaim' ? await api.reclaim(gameId, page.token, doc.seat) : await api.abortGame(gameId, page.token);
    if (res.game) await accept(res.game, true);
    else await api.getGame(gameId, page.token).then((/** @type {GameDocument} */ d) => accept(d, true));
  } catch (e) {
    showError(e);
  }
}

/**
 * The game's own commands for the menu: resign or abort while it goes on, a rematch once over.
 * @returns {Node[]}
 */
function gameCommands() {
  const doc = page.doc;
  if (!doc || !heldSeats(gameId).length) return [];
  const mine = doc.seat == null ? null : doc.seats[doc.seat];
  const going = doc.status === 'active' || doc.status === 'open';
  // A game nobody has moved in may be called off; after that, a player resigns.
  const moved = page.events.some((e) => e.seat !== null);
  /** @type {Node[]} */
  const commands = [];
  if (going && mine && !moved) {
    commands.push(h('button', { type: 'button', id: 'menu-abort', onclick: () => confirmThen(t('game.abort.ask'), t('game.abort.yes'), () => seatCommand('abort')) }, t('game.abort')));
  } else if (going && mine && mine.status !== 'resigned') {
    const ask = doc.seats.length > 2 ? t('game.resign.askMany') : t('game.resign.askTwo');
    commands.push(h('button', { type: 'button', id: 'menu-resign', onclick: () => confirmThen(ask, t('game.resign'), () => seatCommand('resign')) }, t('game.resign')));
  }
  if (doc.status === 'finished') commands.push(h('button', { type: 'button', id: 'menu-rematch', onclick: () => startRematch() }, playersRematch(doc) ? t('game.rematch.players') : t('game.rematch.seats')));
  return commands;
}

/**
 * Asks before doing something that cannot be undone (a modal dialog; Escape cancels).
 * @param {string} question
 * @param {string} yes
 * @param {() => void} then
 */
function confirmThen(question, yes, then) {
  const dialog = h(
    'dialog',
    { class: 'chooser', 'aria-label': question },
    h('p', {}, question),
    h(
      'div',
      { class: 'choices' },
      h('button', { type: 'button', class: 'action', id: 'confirm-yes', onclick: () => { dialog.close(); then(); } }, yes),
      h('button', { type: 'button', class: 'cancel', onclick: () => dialog.close() }, t('common.cancel')),
    ),
  );
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

/**
 * Which held seat this tab plays, or spectating.
 * @param {GameDocument} doc
 */
function renderSeatChoice(doc) {
  const held = heldSeats(gameId);
  const box = byId('seat-choice');
  const you = doc.seat == null ? t('game.watching') : t('game.youPlay', { name: seatName(doc.seat), n: doc.seat + 1 });
  if (held.length === 0) {
    replace(box, h('p', { id: 'you' }, you));
    return;
  }
  const select = h(
    'select',
    { id: 'seat-select' },
    held.map((s) => h('option', { value: s.seat, selected: s.seat === doc.seat }, t('game.nameSeat', { name: s.name, n: s.seat + 1 }))),
    h('option', { value: 'spectator', selected: doc.seat == null }, t('game.spectate')),
  );
  select.addEventListener('change', async () => {
    chooseSeat(gameId, select.value === 'spectator' ? null : Number(select.value));
    await restart();
  });
  replace(box, h('p', { id: 'you' }, you), held.length > 1 || doc.seat == null ? h('label', { class: 'field' }, `${t('game.playAs')} `, select) : null);
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
  if (document.getElementById('join-name')) return;
  const name = h('input', { id: 'join-name', type: 'text', maxlength: 64, value: localStorage.getItem('boardgames.name') ?? '' });
  replace(
    box,
    h('h3', {}, t('lobby.status.open')),
    joiningAs() ?? h('label', { class: 'field' }, `${t('lobby.yourName')} `, name),
    open.map((s) =>
      h(
        'button',
        {
          type: 'button',
          class: 'join',
          'data-seat': s.seat,
          onclick: async () => {
            try {
              if (await joinAsPlayer(gameId, s.seat)) {
                chooseSeat(gameId, s.seat);
                await restart();
                return;
              }
              const joined = await api.joinSeat(gameId, { name: name.value.trim() || t('lobby.namePlaceholder'), seat: s.seat });
              localStorage.setItem('boardgames.name', joined.name);
              rememberSeat(gameId, { seat: joined.seat, name: joined.name, token: joined.token, mine: true });
              chooseSeat(gameId, joined.seat);
              await restart();
            } catch (e) {
              showError(e);
            }
          },
        },
        t('game.takeSeat', { n: s.seat + 1 }),
      ),
    ),
  );
}

/**
 * A panel per seat: name, whose turn, the game's facts, and a place for a clock.
 * @param {GameDocument} doc
 * @param {BoardContext} ctx
 * @param {number[]} activeSeats
 * @param {BoardModule} board
 */
function renderPlayers(doc, ctx, activeSeats, board) {
  replace(
    byId('players'),
    doc.seats.map((s) => {
      const look = seatLook(s.seat);
      const rows = ctx.view ? board.playerRows(ctx, s.seat) : [];
      const active = activeSeats.includes(s.seat);
      const who = s.open ? t('game.openSeat') : (s.name ?? '');
      return h(
        'section',
        { class: `player${active ? ' active' : ''}`, 'data-seat': s.seat, 'aria-label': t('game.seatPanel', { n: s.seat + 1, who }) },
        h(
          'h3',
          {},
          chip(look.colour, look.label),
          ' ',
          who,
          s.kind === 'bot' ? h('span', { class: 'badge' }, s.bot ? t('game.badge.botLevel', { bot: botName(s.bot.level) }) : t('game.badge.bot')) : null,
          s.status === 'taken_over' ? h('span', { class: 'badge' }, t('game.badge.standIn', { bot: botName(s.bot?.level) })) : null,
          s.status === 'resigned' ? h('span', { class: 'badge' }, t('game.badge.resigned')) : null,
          s.seat === doc.seat ? h('span', { class: 'badge' }, t('game.badge.you')) : null,
          active ? h('span', { class: 'badge to-act' }, t('game.badge.toAct')) : null,
          s.clock && page.replaySeq === null ? seatClock(s.clock) : null,
        ),
        rows.length ? h('dl', {}, rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])) : null,
      );
    }),
  );
}

/** @param {BoardModule} board */
function renderRules(board) {
  const box = byId('rules-text');
  if (box.dataset.filled) return;
  box.dataset.filled = 'true';
  replace(
    box,
    board.rules.length
      ? board.rules.map(([heading, paragraphs]) => [h('h3', {}, heading), paragraphs.map((p) => h('p', {}, p))])
      : h('p', {}, t('game.noRules')),
  );
}

async function startRematch() {
  const doc = page.doc;
  if (!doc) return;
  if (playersRematch(doc)) {
    await askRematch(gameId);
    return;
  }
  try {
    const created = await rematch(doc, gameConfig(), gameId);
    replace(byId('rematch-links'), created);
  } catch (e) {
    showError(e);
  }
}

async function restart() {
  following?.stop();
  await load();
  render();
  follow();
  // Another seat (or none) may read another channel.
  chat?.reload();
}

async function main() {
  const shared = takeTokenFromFragment();
  // A seat of the signed-in player is played with the player's key (docs/players.md).
  await adoptPlayerSeat(gameId);
  if (shared) {
    try {
      const doc = await api.getGame(gameId, shared);
      if (doc.seat != null) {
        const name = doc.seats[doc.seat]?.name ?? t('common.SeatN', { n: doc.seat + 1 });
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
    replace(byId('game-title'), t('game.unavailable'));
    showError(e);
    return;
  }
  setUpFrame();
  installHelp(/** @type {HTMLElement} */ (document.querySelector('main')));
  startTicking();
  startWatching();
  keepForms(byId('action-list'));
  setUpMenu(gameCommands);
  chat = setUpChat({ gameId, token: () => page.token, streaming: chatStreams });
  document.addEventListener('pointerdown', unlockSound, { once: true });
  document.addEventListener('keydown', unlockSound, { once: true });
  byId('replay-link').addEventListener('click', (e) => {
    e.preventDefault();
    showSeq(1);
  });
  document.addEventListener('click', (e) => {
    const link = e.target instanceof Element ? e.target.closest('a#replay-start') : null;
    if (link) {
      e.preventDefault();
      showSeq(1);
    }
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
