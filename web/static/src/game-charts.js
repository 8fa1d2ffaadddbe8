// What the end screen charts for each game, and along which axis: the positions to look at
// (read from the event log: where each round or turn ended, counted as the game's rules count
// them) and the numbers to read from the game's view at each of them. The end screen fetches
// those positions (`GET /v1/games/{id}/states/{seq}`) and draws a line per seat.
//
// Rounds for Monopoly (its round limit counts them) and Tyros (its rounds are numbered);
// turns for Acquire and Tycoon, whose rules count a player's turn and no rounds.

import { money, t } from './i18n/index.js';

/** @typedef {import('./api.js').EventDto} EventDto */

/**
 * A point of the x axis: the position after event `seq`, labelled `label`.
 * @typedef {{seq: number, label: string}} Point
 */

/**
 * One chart's numbers at one position: a value per seat (`null`: not known there).
 * @typedef {{id: string, title: string, values: Array<number | null>, money?: 'monopoly' | 'tycoon' | 'acquire'}} Reading
 */

/**
 * @typedef {object} GameCharts
 * @property {'round' | 'turn'} unit what the x axis counts
 * @property {(events: EventDto[], seats: number) => Point[]} points where to look
 * @property {(view: any, data: any) => Reading[]} read what to read there
 */

/** At most this many positions are fetched for a chart (the first and last always). */
export const MAX_POINTS = 30;

/**
 * The seq where play starts (after the setup: shuffles, a start tile, the first player).
 * @param {EventDto[]} events
 */
function startSeq(events) {
  const first = events.find((e) => e.event.type === 'turn_started' || e.event.type === 'round_started');
  return first?.seq ?? events[0]?.seq ?? 1;
}

/**
 * The start, `marks` in order, and the last event (labelled "End" unless a mark is there).
 * @param {EventDto[]} events
 * @param {Point[]} marks
 * @returns {Point[]}
 */
function withEnds(events, marks) {
  const start = startSeq(events);
  const last = events.at(-1)?.seq ?? start;
  /** @type {Point[]} */
  const points = [{ seq: start, label: t('end.chart.start') }, ...marks.filter((m) => m.seq > start)];
  if ((points.at(-1)?.seq ?? 0) < last) points.push({ seq: last, label: t('end.chart.end') });
  return points;
}

/**
 * Every turn: the position after each `turn_ended`, numbered from 1.
 * @param {EventDto[]} events
 */
function turnPoints(events) {
  const ends = events.filter((e) => e.event.type === 'turn_ended');
  return withEnds(
    events,
    ends.map((e, i) => ({ seq: e.seq, label: String(i + 1) })),
  );
}

/**
 * @param {Array<any>} players
 * @param {(p: any) => number | null | undefined} pick
 */
const perSeat = (players, pick) => players.map((p) => pick(p) ?? null);

/** @type {Record<string, GameCharts>} */
const GAMES = {
  monopoly: {
    unit: 'round',
    points: (events) =>
      withEnds(
        events,
        events.filter((e) => e.event.type === 'round_completed').map((e) => ({ seq: e.seq, label: String(/** @type {any} */ (e.event).rounds) })),
      ),
    read: (view) => [
      { id: 'cash', title: t('end.chart.cash'), values: perSeat(view.players, (p) => p.cash), money: 'monopoly' },
      { id: 'net-worth', title: t('end.chart.netWorth'), values: perSeat(view.players, (p) => p.net_worth), money: 'monopoly' },
      { id: 'properties', title: t('end.chart.properties'), values: perSeat(view.players, (p) => view.deeds.filter((/** @type {any} */ d) => d.owner === p.seat).length) },
    ],
  },
  acquire: {
    unit: 'turn',
    points: turnPoints,
    read: (view) => {
      /** @type {any[]} */
      const chains = view.chains;
      /** @type {Reading[]} */
      const readings = [
        { id: 'cash', title: t('end.chart.cash'), values: perSeat(view.players, (p) => p.cash), money: 'acquire' },
        {
          id: 'net-worth',
          title: t('end.chart.netWorthShares'),
          values: perSeat(view.players, (p) => (p.cash == null || !p.shares ? null : p.cash + p.shares.reduce((/** @type {number} */ sum, /** @type {number} */ n, /** @type {number} */ i) => sum + n * (chains[i]?.active ? chains[i].price : 0), 0))),
          money: 'acquire',
        },
      ];
      // One chart per chain: a chain nobody ever held is left out by the end screen.
      chains.forEach((c, i) => readings.push({ id: `shares-${c.chain}`, title: t('end.chart.sharesOf', { chain: c.name }), values: perSeat(view.players, (p) => p.shares?.[i]) }));
      return readings;
    },
  },
  tycoon: {
    unit: 'turn',
    points: turnPoints,
    read: (view) => [
      { id: 'cash', title: t('end.chart.cash'), values: perSeat(view.players, (p) => p.cash), money: 'tycoon' },
      { id: 'net-worth', title: t('end.chart.netWorth'), values: perSeat(view.players, (p) => p.net_worth), money: 'tycoon' },
      { id: 'hotels', title: t('end.chart.hotels'), values: perSeat(view.players, (p) => view.cities.reduce((/** @type {number} */ n, /** @type {any} */ c) => n + c.track.filter((/** @type {any} */ o) => o === p.seat).length, 0)) },
      { id: 'factories', title: t('end.chart.factories'), values: perSeat(view.players, (p) => view.cities.reduce((/** @type {number} */ n, /** @type {any} */ c) => n + c.factories.filter((/** @type {any} */ o) => o === p.seat).length, 0)) },
    ],
  },
  tyros: {
    unit: 'round',
    // The position just before each round starts is the end of the one before.
    points: (events) =>
      withEnds(
        events,
        events.filter((e) => e.event.type === 'round_started' && /** @type {any} */ (e.event).round > 1).map((e) => ({ seq: e.seq - 1, label: String(/** @type {any} */ (e.event).round - 1) })),
      ),
    read: (view) => {
      const standing = (/** @type {number} */ seat) => view.standings.find((/** @type {any} */ x) => x.seat === seat);
      return [
        { id: 'points', title: t('end.chart.points'), values: perSeat(view.players, (p) => standing(p.seat)?.total) },
        { id: 'cities', title: t('end.chart.cities'), values: perSeat(view.players, (p) => view.fields.filter((/** @type {any} */ f) => f.city === p.seat).length) },
        { id: 'ships', title: t('end.chart.ships'), values: perSeat(view.players, (p) => view.ships.filter((/** @type {any} */ x) => x.owner === p.seat && x.at != null).length) },
      ];
    },
  },
};

/**
 * What to chart for a game type; `null` for a game without charts.
 * @param {string} type
 */
export function gameCharts(type) {
  return GAMES[type] ?? null;
}

/**
 * At most `max` of `points`, evenly spread, the first and the last always among them.
 * @param {Point[]} points
 * @param {number} [max]
 */
export function thin(points, max = MAX_POINTS) {
  if (points.length <= max) return points;
  const step = (points.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => /** @type {Point} */ (points[Math.round(i * step)]));
}

/**
 * A reading's value as the game writes it.
 * @param {Reading} reading
 * @returns {((n: number) => string) | undefined}
 */
export function formatOf(reading) {
  const game = reading.money;
  return game ? (n) => money(game, n) : undefined;
}
