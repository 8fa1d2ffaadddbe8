// The board's frame: the drawing at the width that fits the frame or larger, inside a frame
// that scrolls, so a reader zooms with the buttons and pans with a finger, the wheel or the
// keyboard. A board module says how wide its drawing must be for readable text and targets of
// at least 44 px (`minWidth`); on a phone the frame starts at that width and is panned, on a
// wider screen the drawing fits the frame. The frame survives every redraw, and with it the zoom and the place panned to.

import { byId, h, replace } from './dom.js';
import { t } from './i18n/index.js';

const ZOOMS = [1, 1.5, 2, 3];
/** Frames narrower than this (CSS pixels) are a phone's. */
const PHONE = 640;

const frame = {
  zoom: 0,
  /** The drawing's smallest readable width, in CSS pixels. */
  minWidth: 0,
};

/** @returns {HTMLElement} */
function canvas() {
  return byId('board-canvas');
}

function applyZoom() {
  const box = byId('board');
  const fit = box.clientWidth || 1;
  // A phone's frame starts at the drawing's readable width and pans; a wider screen fits it.
  const base = fit < PHONE ? Math.max(fit, frame.minWidth) : fit;
  const width = base * ZOOMS[frame.zoom];
  canvas().style.width = `${Math.round(width)}px`;
  document.body.dataset.zoom = String(ZOOMS[frame.zoom]);
  const out = /** @type {HTMLButtonElement | null} */ (document.getElementById('zoom-out'));
  const into = /** @type {HTMLButtonElement | null} */ (document.getElementById('zoom-in'));
  if (out) out.disabled = frame.zoom === 0;
  if (into) into.disabled = frame.zoom === ZOOMS.length - 1;
}

/**
 * Zooms by `step` levels, keeping the middle of the frame where it was.
 * @param {number} step
 */
function zoomBy(step) {
  const box = byId('board');
  const next = Math.min(ZOOMS.length - 1, Math.max(0, frame.zoom + step));
  if (next === frame.zoom) return;
  const ratio = ZOOMS[next] / ZOOMS[frame.zoom];
  const cx = box.scrollLeft + box.clientWidth / 2;
  const cy = box.scrollTop + box.clientHeight / 2;
  frame.zoom = next;
  applyZoom();
  box.scrollLeft = cx * ratio - box.clientWidth / 2;
  box.scrollTop = cy * ratio - box.clientHeight / 2;
}

/** The zoom buttons (once; the page keeps them). */
export function setUpFrame() {
  replace(
    byId('board-tools'),
    h('button', { type: 'button', id: 'zoom-out', 'aria-label': t('zoom.out'), onclick: () => zoomBy(-1) }, '−'),
    h('button', { type: 'button', id: 'zoom-in', 'aria-label': t('zoom.in'), onclick: () => zoomBy(1) }, '+'),
    h('button', { type: 'button', id: 'zoom-fit', onclick: () => zoomBy(-ZOOMS.length) }, t('zoom.fit')),

  );
  new ResizeObserver(() => applyZoom()).observe(byId('board'));
}

/**
 * Puts a new drawing in the frame, keeping zoom and scroll.
 * @param {Node | null} drawing
 * @param {number} minWidth
 */
export function showDrawing(drawing, minWidth) {
  frame.minWidth = minWidth;
  replace(canvas(), drawing);
  byId('board-tools').hidden = drawing === null;
  applyZoom();
}

/**
 * Pans the frame so that `el` (the last move's mark) is in view, when it is not: on a phone,
 * another player's move is shown where it happened.
 * @param {Element} el
 */
export function reveal(el) {
  const box = byId('board');
  if (box.scrollWidth <= box.clientWidth && box.scrollHeight <= box.clientHeight) return;
  const frame = box.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  if (r.left >= frame.left && r.right <= frame.right && r.top >= frame.top && r.bottom <= frame.bottom) return;
  box.scrollLeft += r.left + r.width / 2 - (frame.left + frame.width / 2);
  box.scrollTop += r.top + r.height / 2 - (frame.top + frame.height / 2);
}
