// Line charts drawn as inline SVG: one line per seat over the rounds or turns of a game, for
// the end screen. No chart library: a few dozen points per line need axes, a legend and
// lines, nothing more. Each chart is a figure whose SVG is an image with a title and a
// description (what a screen reader announces), and whose numbers are also a table in a
// fold beneath it (WCAG 1.1.1: the chart's information as text).

import { chip, h, s } from './dom.js';
import { number, t } from './i18n/index.js';
import { seatLook } from './seats.js';

/**
 * @typedef {object} Line one seat's values, one per point (`null` where it is not known)
 * @property {number} seat
 * @property {string} name
 * @property {Array<number | null>} values
 */

/**
 * @typedef {object} ChartSpec
 * @property {string} id a stable id (tests and the table's caption refer to it)
 * @property {string} title
 * @property {string} axis what the x axis counts ("Round", "Turn")
 * @property {string[]} labels the label of each point on the x axis
 * @property {Line[]} lines
 * @property {(n: number) => string} [format] a value as the game writes it (money)
 */

const WIDTH = 440;
const HEIGHT = 240;
const PAD = { left: 68, right: 16, top: 12, bottom: 46 };

/**
 * Round numbers for an axis from `low` to `high`: 1, 2 or 5 times a power of ten apart.
 * @param {number} low
 * @param {number} high
 * @returns {number[]}
 */
export function ticks(low, high) {
  if (high <= low) return [low];
  const raw = (high - low) / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((m) => m >= raw) ?? raw;
  const out = [];
  // From the step at or under `low` to the first at or over `high`: every value fits.
  for (let v = Math.floor(low / step) * step; ; v += step) {
    out.push(Math.round(v * 1e6) / 1e6);
    if (v >= high) return out;
  }
}

/**
 * A chart: the figure with its SVG and its table.
 * @param {ChartSpec} spec
 * @returns {HTMLElement}
 */
export function lineChart(spec) {
  const format = spec.format ?? number;
  const known = spec.lines.flatMap((l) => l.values.filter((v) => v !== null));
  const axis = ticks(Math.min(0, ...known), Math.max(1, ...known));
  const low = axis[0] ?? 0;
  const high = axis.at(-1) ?? 1;
  const n = spec.labels.length;
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (/** @type {number} */ i) => PAD.left + (n <= 1 ? plotW / 2 : (i * plotW) / (n - 1));
  const y = (/** @type {number} */ v) => PAD.top + plotH - ((v - low) / (high - low || 1)) * plotH;
  // Every label when they fit, else about eight of them (always the first and the last).
  const every = Math.max(1, Math.ceil(n / 8));
  const shownLabel = (/** @type {number} */ i) => i === n - 1 || (i % every === 0 && n - 1 - i >= every / 2);
  const titleId = `chart-${spec.id}-title`;
  const descId = `chart-${spec.id}-desc`;
  const description = t('end.chart.desc', {
    axis: spec.axis,
    from: spec.labels[0] ?? '',
    to: spec.labels.at(-1) ?? '',
    finals: spec.lines.map((l) => `${l.name} ${last(l.values, format)}`).join(', '),
  });
  const svg = s(
    'svg',
    { class: 'chart-svg', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-labelledby': `${titleId} ${descId}` },
    s('title', { id: titleId }, spec.title),
    s('desc', { id: descId }, description),
    axis.map((v) =>
      s(
        'g',
        { class: 'tick' },
        s('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(v), y2: y(v), class: v === 0 ? 'zero' : 'grid' }),
        s('text', { x: PAD.left - 6, y: y(v) + 4, 'text-anchor': 'end' }, format(v)),
      ),
    ),
    spec.labels.map((label, i) => (shownLabel(i) ? s('text', { x: x(i), y: HEIGHT - PAD.bottom + 18, 'text-anchor': 'middle' }, label) : null)),
    s('text', { x: PAD.left + plotW / 2, y: HEIGHT - 6, 'text-anchor': 'middle', class: 'axis-title' }, spec.axis),
    spec.lines.map((line) => {
      const colour = seatLook(line.seat).colour;
      const points = line.values.map((v, i) => (v === null ? null : [x(i), y(v)])).filter((p) => p !== null);
      return s(
        'g',
        { class: 'series', 'data-seat': line.seat },
        s('polyline', { points: points.map((p) => p.join(',')).join(' '), fill: 'none', stroke: colour, 'stroke-width': 2.5, 'stroke-linejoin': 'round' }),
        // A mark per point, shaped per seat as on the board, so that lines differ without colour.
        n <= 40 ? points.map(([px, py]) => mark(line.seat, px, py, colour)) : null,
      );
    }),
  );
  return h(
    'figure',
    { class: 'chart', id: `chart-${spec.id}`, 'data-points': n },
    h('figcaption', {}, spec.title),
    h('ul', { class: 'legend' }, spec.lines.map((l) => h('li', {}, chip(seatLook(l.seat).colour, seatLook(l.seat).label), ' ', l.name))),
    svg,
    h(
      'details',
      { class: 'chart-table' },
      h('summary', {}, t('end.chart.table')),
      h(
        'div',
        { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': t('end.chart.tableOf', { title: spec.title }) },
        h(
          'table',
          {},
          h('caption', { class: 'visually-hidden' }, spec.title),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, spec.axis), spec.lines.map((l) => h('th', { scope: 'col', class: 'num' }, l.name)))),
          h(
            'tbody',
            {},
            spec.labels.map((label, i) =>
              h('tr', {}, h('th', { scope: 'row' }, label), spec.lines.map((l) => h('td', { class: 'num' }, l.values[i] == null ? '–' : format(/** @type {number} */ (l.values[i]))))),
            ),
          ),
        ),
      ),
    ),
  );
}

/**
 * The last known value, formatted.
 * @param {Array<number | null>} values
 * @param {(n: number) => string} format
 */
function last(values, format) {
  const v = [...values].reverse().find((x) => x !== null);
  return v == null ? '–' : format(v);
}

/**
 * A point's mark: a circle, square, triangle or diamond by seat.
 * @param {number} seat
 * @param {number} x
 * @param {number} y
 * @param {string} colour
 */
function mark(seat, x, y, colour) {
  const r = 3.5;
  const attrs = { fill: colour, stroke: '#fff', 'stroke-width': 1 };
  switch (seat % 4) {
    case 1:
      return s('rect', { x: x - r, y: y - r, width: 2 * r, height: 2 * r, ...attrs });
    case 2:
      return s('path', { d: `M${x} ${y - r - 1}L${x + r + 1} ${y + r}L${x - r - 1} ${y + r}Z`, ...attrs });
    case 3:
      return s('path', { d: `M${x} ${y - r - 1}L${x + r + 1} ${y}L${x} ${y + r + 1}L${x - r - 1} ${y}Z`, ...attrs });
    default:
      return s('circle', { cx: x, cy: y, r, ...attrs });
  }
}
