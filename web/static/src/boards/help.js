// Help where the eye is: one tooltip for the board's spaces, cards and controls, shown on hover,
// on keyboard focus and on a long press (touch), and hidden by moving away, Escape or a tap
// elsewhere. What a spot says comes from the board: its `data-help` lines (or the `<title>` it
// was drawn with), and for a move on offer the board's preview of what the move would do
// (`BoardModule.preview`). The tooltip is `position: fixed` and never takes room in the page,
// so showing it shifts nothing; the spot that shows it names it in `aria-describedby`.

import { h } from '../dom.js';

/** @typedef {import('./index.js').BoardModule} BoardModule */
/** @typedef {import('./index.js').BoardContext} BoardContext */

/** The tooltip's id, for `aria-describedby`. */
export const HELP_ID = 'board-help';
/** How long a finger rests on a spot before its help shows (a tap acts, a press explains). */
const LONG_PRESS_MS = 450;
/** Lines are kept in `data-help` separated by this (a character no label contains). */
const SEP = '\n';

/**
 * Gives an element help lines: the first is its heading.
 * @param {Element} el
 * @param {Array<string | null | undefined | false>} lines
 * @returns {Element} `el`
 */
export function helpOn(el, lines) {
  const kept = lines.filter((l) => typeof l === 'string' && l.length > 0);
  if (kept.length) el.setAttribute('data-help', kept.join(SEP));
  return el;
}

/**
 * The actions an element stands for (`data-action` for one, `data-actions` for several).
 * @param {Element} el
 * @returns {import('./index.js').Action[]}
 */
function actionsOf(el) {
  try {
    const one = el.getAttribute('data-action');
    if (one) return [JSON.parse(one)];
    const many = el.getAttribute('data-actions');
    return many ? JSON.parse(many) : [];
  } catch {
    return [];
  }
}

/**
 * After a render: every spot of the board (an element with `data-help`, or a group drawn with
 * a `<title>`) and every control standing for moves gets its help, with the board's preview of
 * each move. A spot that is no control of its own becomes focusable and is named by its help
 * (`role=img`), so that a keyboard reaches what a mouse hovers; the native `<title>` tooltip is
 * dropped for ours, which would otherwise show twice.
 * @param {Element[]} roots the board and the controls beside it
 * @param {BoardModule} board
 * @param {BoardContext} ctx
 */
export function annotate(roots, board, ctx) {
  /** @param {import('./index.js').Action} a */
  const previewLines = (a) => {
    const lines = board.preview?.(a, ctx) ?? [];
    return lines.length ? [board.describeAction(a, ctx), ...lines.map((l) => `· ${l}`)] : [];
  };
  for (const root of roots) {
    for (const title of root.querySelectorAll('svg g > title')) {
      const spot = /** @type {Element} */ (title.parentElement);
      if (!spot.hasAttribute('data-help')) helpOn(spot, (title.textContent ?? '').split('; '));
      title.remove();
    }
    // A drawn button with no help of its own is a spot headed by its label.
    for (const hotspot of root.querySelectorAll('svg [role=button][data-actions]')) {
      const group = hotspot.parentElement;
      if (group && !hotspot.closest('[data-help]')) helpOn(group, [hotspot.getAttribute('aria-label')]);
    }
    for (const spot of root.querySelectorAll('[data-help]')) {
      const control = spot.matches('[role=button], button, a, input, select') ? spot : spot.querySelector('[role=button], button');
      if (control) {
        const moves = actionsOf(control).flatMap(previewLines);
        if (moves.length) spot.setAttribute('data-help', [spot.getAttribute('data-help'), ...moves].join(SEP));
      } else if (spot instanceof SVGElement) {
        spot.setAttribute('tabindex', '0');
        // An image's inside is presentational: a spot holding spots is a group instead.
        spot.setAttribute('role', spot.querySelector('[data-help], g > title') ? 'group' : 'img');
        spot.setAttribute('aria-label', (spot.getAttribute('data-help') ?? '').split(SEP).join('. '));
        spot.classList.add('help-spot');
      }
    }
    // The dock's controls: a move's button tells what it would do.
    for (const control of root.querySelectorAll('button[data-action], button[data-actions]')) {
      if (control.closest('[data-help]')) continue;
      const lines = actionsOf(control).flatMap(previewLines).slice(1);
      if (lines.length) helpOn(control, [control.textContent, ...lines]);
    }
  }
}

/**
 * The tooltip and its listeners, once per page.
 * @param {HTMLElement} within where spots are (the game's main area)
 */
export function installHelp(within) {
  const tip = h('div', { id: HELP_ID, role: 'tooltip', class: 'board-help', hidden: true });
  document.body.append(tip);
  /** @type {Element | null} the spot shown */
  let shown = null;
  /** @type {'hover' | 'focus' | 'touch' | null} */
  let how = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let press;
  let swallowClick = false;

  /** @param {EventTarget | null} target */
  const spotOf = (target) => (target instanceof Element && within.contains(target) ? target.closest('[data-help]') : null);

  const hide = () => {
    if (shown) shown.removeAttribute('aria-describedby');
    shown = null;
    how = null;
    tip.hidden = true;
  };

  /**
   * @param {Element} spot
   * @param {'hover' | 'focus' | 'touch'} by
   */
  const show = (spot, by) => {
    const lines = (spot.getAttribute('data-help') ?? '').split(SEP);
    if (shown && shown !== spot) shown.removeAttribute('aria-describedby');
    tip.replaceChildren(h('strong', {}, lines[0]), ...lines.slice(1).map((l) => h('span', {}, l)));
    tip.hidden = false;
    shown = spot;
    how = by;
    // The focused control is described (the spot may be the group around it).
    const described = spot.contains(document.activeElement) && document.activeElement !== document.body ? document.activeElement : spot;
    (described ?? spot).setAttribute('aria-describedby', HELP_ID);
    if (described !== spot) spot.setAttribute('aria-describedby', HELP_ID);
    place(tip, spot.getBoundingClientRect());
  };

  within.addEventListener('pointerover', (e) => {
    if (e.pointerType !== 'mouse') return;
    const spot = spotOf(e.target);
    if (spot && spot !== shown) show(spot, 'hover');
  });
  within.addEventListener('pointerout', (e) => {
    if (e.pointerType !== 'mouse' || how !== 'hover' || !shown) return;
    if (!(e.relatedTarget instanceof Node && shown.contains(e.relatedTarget))) hide();
  });
  within.addEventListener('focusin', (e) => {
    const spot = spotOf(e.target);
    if (spot) show(spot, 'focus');
    else if (how === 'focus') hide();
  });
  within.addEventListener('focusout', (e) => {
    if (how === 'focus' && !(e.relatedTarget instanceof Node && shown?.contains(e.relatedTarget))) hide();
  });
  // A long press shows the help and swallows the click that ends it; a tap elsewhere hides.
  document.addEventListener(
    'pointerdown',
    (e) => {
      clearTimeout(press);
      // A long press that ended without a click (the browser's own long-press gesture) must
      // not swallow the next tap.
      swallowClick = false;
      const spot = spotOf(e.target);
      if (how === 'touch' && spot !== shown) hide();
      if (e.pointerType === 'mouse' || !spot) return;
      press = setTimeout(() => {
        swallowClick = true;
        show(spot, 'touch');
      }, LONG_PRESS_MS);
    },
    true,
  );
  const cancel = () => clearTimeout(press);
  document.addEventListener('pointercancel', cancel, true);
  document.addEventListener('pointerup', cancel, true);
  document.addEventListener(
    'click',
    (e) => {
      if (!swallowClick) return;
      swallowClick = false;
      e.preventDefault();
      e.stopPropagation();
    },
    true,
  );
  // A press on a spot is for its help, not the browser's menu.
  within.addEventListener('contextmenu', (e) => {
    if (spotOf(e.target)) e.preventDefault();
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && shown) hide();
  });
  // A re-render replaces the spot: the help goes with it (or follows the focus).
  new MutationObserver(() => {
    if (shown && !shown.isConnected) {
      const again = spotOf(document.activeElement);
      if (again && how === 'focus') show(again, 'focus');
      else hide();
    }
  }).observe(within, { childList: true, subtree: true });
  window.addEventListener('scroll', () => shown && place(tip, shown.getBoundingClientRect()), { passive: true, capture: true });
}

/**
 * Puts the tooltip below the spot, or above it when there is no room below, inside the
 * window.
 * @param {HTMLElement} tip
 * @param {DOMRect} at
 */
function place(tip, at) {
  const margin = 6;
  const { innerWidth: vw, innerHeight: vh } = window;
  const box = tip.getBoundingClientRect();
  const left = Math.max(margin, Math.min(at.left + at.width / 2 - box.width / 2, vw - box.width - margin));
  const below = at.bottom + margin;
  const top = below + box.height <= vh - margin ? below : Math.max(margin, at.top - box.height - margin);
  tip.style.left = `${Math.round(left)}px`;
  tip.style.top = `${Math.round(top)}px`;
}
