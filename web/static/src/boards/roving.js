// A board of many spaces as one tab stop: Tab enters the board at the space last visited and
// leaves it at once; the arrow keys move between its spaces by where they are drawn (right
// goes to the nearest space to the right), Home and End to the first and last. Each space keeps
// what it has: its button (Enter acts) or, with no move there, its help, which shows on focus
// like on hover (help.js). This is the "roving tabindex" of the WAI-ARIA practices: 40
// Monopoly squares would otherwise be 40 tab stops before the moves.

import { t } from '../i18n/index.js';

/** The space visited last, by its place among the board's spaces, kept across redraws. */
let current = 0;

/** Arrow keys as directions on the screen. */
/** @type {Record<string, [number, number]>} */
const DIRECTIONS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

/**
 * What takes the focus in a space: the space itself when it is a help spot, else its button.
 * @param {Element} space
 * @returns {SVGElement | HTMLElement | null}
 */
function stopOf(space) {
  const el = space.matches('[tabindex]') ? space : (space.querySelector(':scope > [role=button][tabindex]') ?? space.querySelector('[tabindex]'));
  return el instanceof SVGElement || el instanceof HTMLElement ? el : null;
}

/**
 * The stop nearest `from` in direction `dir`: ahead of it, and the nearer the less it strays
 * sideways.
 * @param {Element[]} stops
 * @param {number} from
 * @param {[number, number]} dir
 */
function nearest(stops, from, dir) {
  const centre = (/** @type {Element} */ e) => {
    const r = e.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  };
  const [fx, fy] = centre(stops[from]);
  let best = -1;
  let bestScore = Infinity;
  stops.forEach((stop, i) => {
    if (i === from) return;
    const [x, y] = centre(stop);
    const ahead = (x - fx) * dir[0] + (y - fy) * dir[1];
    if (ahead <= 1) return;
    const aside = Math.abs((x - fx) * dir[1] - (y - fy) * dir[0]);
    const score = ahead + 2 * aside;
    if (score < bestScore) {
      bestScore = score;
      best = i;
    }
  });
  return best;
}

/**
 * Makes the spaces `selector` of `drawing` one tab stop with arrow keys between them. Call
 * after the help has made the spaces without a move focusable (`annotate`).
 * @param {Element} drawing the board's SVG
 * @param {string} selector its spaces, in the board's order
 */
export function rove(drawing, selector) {
  const stops = /** @type {(SVGElement | HTMLElement)[]} */ ([...drawing.querySelectorAll(selector)].map(stopOf).filter((e) => e !== null));
  if (!stops.length) return;
  if (current >= stops.length) current = 0;
  stops.forEach((stop, i) => {
    stop.setAttribute('tabindex', i === current ? '0' : '-1');
    stop.setAttribute('data-rove', String(i));
  });
  // The board says how to move in it.
  drawing.setAttribute('aria-label', `${drawing.getAttribute('aria-label') ?? t('game.board')}. ${t('game.boardArrows')}`);
  drawing.addEventListener('focusin', (e) => {
    const i = stops.indexOf(/** @type {any} */ (e.target));
    if (i < 0 || i === current) return;
    stops[current]?.setAttribute('tabindex', '-1');
    stops[i].setAttribute('tabindex', '0');
    current = i;
  });
  drawing.addEventListener('keydown', (e) => {
    const key = /** @type {KeyboardEvent} */ (e).key;
    const from = stops.indexOf(/** @type {any} */ (e.target));
    if (from < 0) return;
    const dir = DIRECTIONS[key];
    const to = dir ? nearest(stops, from, dir) : key === 'Home' ? 0 : key === 'End' ? stops.length - 1 : -1;
    if (!dir && to < 0) return;
    e.preventDefault();
    if (to >= 0) stops[to].focus();
  });
}
