// The end screen of a game that is over: who placed where and why (the outcome, each seat's
// score and the game's score sheet beside it), how the ratings moved in a rated game, what to
// do next (play again, download the record, replay), and charts of the game drawn from its
// log. A game called off or never started gets a short screen of its own: nothing was
// played, so no scores, charts or rematch of the same seats.
//
// The scores are drawn afresh with every render (a replay shows them as of its position); the
// ratings and the charts are loaded once per game, into elements kept between renders.

import * as api from './api.js';
import { lineChart } from './charts.js';
import { chip, h, replace } from './dom.js';
import { formatOf, gameCharts, thin } from './game-charts.js';
import { lang, t, tOr } from './i18n/index.js';
import * as players from './players/api.js';
import { playersRematch, rematchBox } from './rematch.js';
import { heldSeats, seatLook } from './seats.js';

/** @typedef {import('./api.js').GameDocument} GameDocument */
/** @typedef {import('./api.js').EventDto} EventDto */
/** @typedef {import('./boards/index.js').BoardModule} BoardModule */
/** @typedef {import('./boards/index.js').BoardContext} BoardContext */

/**
 * What the end screen needs from the game page.
 * @typedef {object} EndContext
 * @property {string} gameId
 * @property {string | null} token the seat's token (a finished game shows everything anyway)
 * @property {GameDocument} doc the live document
 * @property {EventDto[]} events the whole log
 * @property {BoardModule} board
 * @property {BoardContext} ctx the position shown
 * @property {api.Schemas['Outcome'] | null} outcome the outcome of the position shown
 * @property {(seat: number) => string} name a seat's display name
 * @property {() => void} rematch starts a rematch of the same seats
 */

/**
 * Draws the end screen into `#outcome` (hidden while the game goes on).
 * @param {EndContext} end
 */
export function renderEndScreen(end) {
  const { doc } = end;
  const box = document.getElementById('outcome');
  if (!box) return;
  const over = doc.status === 'aborted' || doc.status === 'expired';
  box.hidden = !end.outcome && !over;
  document.body.dataset.endScreen = box.hidden ? '' : doc.status;
  if (box.hidden) return;
  const title = document.getElementById('outcome-title');
  if (title) replace(title, end.outcome ? t('end.title') : tOr(`end.title.${doc.status}`, t('end.title')));
  if (!end.outcome) {
    renderCalledOff(end);
    return;
  }
  renderScores(end, end.outcome);
  const extras = document.getElementById('end-extras');
  if (extras && doc.status === 'finished' && !extras.dataset.loaded) {
    extras.dataset.loaded = 'true';
    const ratings = h('div', { id: 'ratings', 'aria-live': 'polite' });
    const charts = h('section', { id: 'end-charts', class: 'end-charts', 'aria-labelledby': 'end-charts-title', 'aria-busy': 'true' }, h('h3', { id: 'end-charts-title' }, t('end.charts')), h('p', { class: 'hint' }, t('common.loading')));
    replace(extras, ratings, charts);
    if (doc.rated) loadRatings(end, ratings);
    loadCharts(end, charts);
  }
}

/**
 * A game that was called off (aborted) or never started (expired).
 * @param {EndContext} end
 */
function renderCalledOff(end) {
  const { doc } = end;
  const expired = doc.status === 'expired';
  replace(
    /** @type {HTMLElement} */ (document.getElementById('scores')),
    h('p', { id: 'end-reason' }, tOr(`end.reason.${doc.status}`, '')),
    h(
      'p',
      { class: 'after-game' },
      // After a game nobody joined, the lobby lists the open games of its type: a table that
      // waits for players now is the quickest game.
      h('a', { href: expired ? `/?${new URLSearchParams({ type: doc.type, status: 'open' })}` : '/', class: 'button', id: 'end-lobby' }, t('end.toLobby')),
      ' ',
      // Or the same game set up anew, to wait for players again.
      expired ? h('a', { href: '/#create', class: 'button', id: 'end-new' }, t('end.newGame')) : null,
      // A called-off game has a record too: its setup, checkable like any other.
      doc.status === 'aborted' ? recordLink(end) : null,
    ),
    // Players may ask the same table again (the server's rematch); a game of seats that never
    // began is simply created anew in the lobby.
    doc.status === 'aborted' && playersRematch(doc) ? rematchBox(end.gameId) : null,
  );
  const extras = document.getElementById('end-extras');
  if (extras) replace(extras);
}

/** @param {EndContext} end */
function recordLink(end) {
  return h('a', { href: `/v1/games/${encodeURIComponent(end.gameId)}/record`, download: `${end.doc.type}-${end.gameId}.json`, class: 'button', id: 'download-record' }, t('game.downloadRecord'));
}

/**
 * The places and scores: the outcome's score per seat, the board's breakdown beside it, and
 * what to do next.
 * @param {EndContext} end
 * @param {api.Schemas['Outcome']} outcome
 */
function renderScores(end, outcome) {
  const { doc, board, ctx } = end;
  // Resignations can end a game before its rules score it: no score sheet then.
  const scored = outcome.scores.length > 0;
  const sheet = scored && board.scoreSheet && ctx.view ? board.scoreSheet(ctx) : null;
  const places = outcome.places ?? [];
  const order = doc.seats
    .map((s) => ({ seat: s.seat, score: outcome.scores[s.seat] ?? null, place: places[s.seat] ?? 0 }))
    .sort((a, b) => a.place - b.place || (b.score ?? 0) - (a.score ?? 0));
  const left = new Map((outcome.left ?? []).map((l) => [l.seat, l.reason === 'resigned' ? t('game.badge.resigned') : t('game.leftTimeout')]));
  const mine = heldSeats(end.gameId).length > 0;
  replace(
    /** @type {HTMLElement} */ (document.getElementById('scores')),
    h(
      'table',
      { class: 'scores' },
      sheet ? h('caption', {}, sheet.caption) : null,
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col', class: 'num' }, t('end.place')),
          h('th', { scope: 'col' }, t('game.score.player')),
          h('th', { scope: 'col', class: 'num' }, t('game.score.score')),
          h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, t('game.score.result'))),
        ),
      ),
      h(
        'tbody',
        {},
        order.map(({ score, seat }) =>
          h(
            'tr',
            { 'data-seat': seat, 'data-score': score, 'data-place': places[seat] ?? null, class: outcome.winners.includes(seat) ? 'winner' : '' },
            h('td', { class: 'num place' }, places[seat] ? t('end.placeN', { n: places[seat] }) : '–'),
            h(
              'th',
              { scope: 'row' },
              chip(seatLook(seat).colour, seatLook(seat).label),
              ' ',
              end.name(seat),
              sheet ? h('span', { class: 'breakdown' }, sheet.columns.map((c, i) => h('span', {}, `${c}: `, h('b', {}, sheet.rows[seat]?.[i] ?? '–')))) : null,
            ),
            h('td', { class: 'num total' }, score == null ? '–' : (board.scoreText?.(score) ?? score)),
            h('td', {}, outcome.winners.includes(seat) ? `★ ${t('game.score.winner')}` : (left.get(seat) ?? (places[seat] ? t('game.score.place', { n: places[seat] }) : ''))),
          ),
        ),
      ),
    ),
    sheet?.note ? h('p', { class: 'hint' }, sheet.note) : null,
    outcome.ended_by === 'resignation' ? h('p', { class: 'hint' }, t('game.endedByResignation')) : null,
    outcome.left?.length && scored ? h('p', { class: 'hint' }, t('game.leftPlacedAfter')) : null,
    doc.status === 'finished'
      ? h(
          'p',
          { class: 'after-game' },
          mine && !playersRematch(doc) ? h('button', { type: 'button', id: 'rematch', class: 'action', onclick: () => end.rematch() }, t('end.playAgain')) : null,
          ' ',
          // The self-contained record, checkable offline (docs/fairness.md).
          recordLink(end),
          ' ',
          h('a', { href: '?seq=1', class: 'button', id: 'replay-start' }, t('game.replayGame')),
        )
      : null,
    // A table of players: the server's rematch, asked or accepted here (`rematch.js`).
    playersRematch(doc) ? rematchBox(end.gameId) : null,
    h('div', { id: 'rematch-links', 'aria-live': 'polite' }),
  );
}

const ratingFormat = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const changeFormat = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' });

/**
 * The rating changes of a rated game: each player's profile lists the game's change.
 * @param {EndContext} end
 * @param {HTMLElement} box
 */
async function loadRatings(end, box) {
  const seats = end.doc.seats.filter((s) => s.player_id);
  const rows = await Promise.all(
    seats.map(async (s) => {
      try {
        const profile = await players.profile(/** @type {string} */ (s.player_id));
        return { seat: s.seat, change: profile.rating_history.find((r) => r.game_id === end.gameId) ?? null };
      } catch {
        return { seat: s.seat, change: null };
      }
    }),
  );
  const known = rows.filter((r) => r.change);
  if (!known.length) {
    replace(box, h('p', { class: 'hint' }, t('end.ratings.none')));
    return;
  }
  replace(
    box,
    h(
      'table',
      { class: 'ratings' },
      h('caption', {}, t('end.ratings')),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('game.score.player')), h('th', { scope: 'col', class: 'num' }, t('end.ratings.before')), h('th', { scope: 'col', class: 'num' }, t('end.ratings.after')), h('th', { scope: 'col', class: 'num' }, t('end.ratings.change')))),
      h(
        'tbody',
        {},
        known.map(({ seat, change }) => {
          const c = /** @type {import('./players/api.js').PlayerProfile['rating_history'][number]} */ (change);
          const delta = c.rating_after - c.rating_before;
          return h(
            'tr',
            { 'data-seat': seat },
            h('th', { scope: 'row' }, chip(seatLook(seat).colour, seatLook(seat).label), ' ', end.name(seat)),
            h('td', { class: 'num' }, ratingFormat.format(c.rating_before)),
            h('td', { class: 'num' }, ratingFormat.format(c.rating_after)),
            h('td', { class: `num ${delta >= 0 ? 'gain' : 'loss'}` }, changeFormat.format(delta)),
          );
        }),
      ),
    ),
  );
}

/** Positions fetched at once: a few, so that a long game's charts do not flood the server. */
const PARALLEL = 4;

/**
 * The charts of the game: its positions at the end of each round or turn, read and drawn.
 * @param {EndContext} end
 * @param {HTMLElement} box
 */
async function loadCharts(end, box) {
  const spec = gameCharts(end.doc.type);
  const done = (/** @type {import('./dom.js').Child[]} */ ...children) => {
    replace(box, h('h3', { id: 'end-charts-title' }, t('end.charts')), ...children);
    box.removeAttribute('aria-busy');
    box.dataset.ready = 'true';
  };
  if (!spec) {
    done(h('p', { class: 'hint' }, t('end.charts.none')));
    return;
  }
  const points = thin(spec.points(end.events, end.doc.seats.length));
  /** @type {Array<import('./game-charts.js').Reading[] | null>} */
  const readings = new Array(points.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < points.length) {
      const i = next++;
      const point = /** @type {import('./game-charts.js').Point} */ (points[i]);
      try {
        const state = await api.stateAt(end.gameId, end.token, point.seq);
        readings[i] = state.view ? spec.read(state.view, end.ctx.data) : null;
      } catch {
        readings[i] = null;
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  const first = readings.find((r) => r !== null);
  if (!first || points.length < 2) {
    done(h('p', { class: 'hint' }, t('end.charts.none')));
    return;
  }
  const axis = spec.unit === 'round' ? t('end.chart.round') : t('end.chart.turn');
  const seats = end.doc.seats.map((s) => s.seat);
  const charts = first
    .map((reading, k) => {
      const lines = seats.map((seat) => ({ seat, name: end.name(seat), values: readings.map((r) => r?.[k]?.values[seat] ?? null) }));
      return { reading, lines };
    })
    // A chart of nothing (a chain nobody held, holdings hidden from this reader) is left out.
    .filter(({ lines }) => lines.some((l) => l.values.some((v) => v !== null && v !== 0)))
    .map(({ reading, lines }) => lineChart({ id: reading.id, title: reading.title, axis, labels: points.map((p) => p.label), lines, format: formatOf(reading) }));
  done(charts.length ? h('div', { class: 'chart-grid' }, charts) : h('p', { class: 'hint' }, t('end.charts.none')));
}
