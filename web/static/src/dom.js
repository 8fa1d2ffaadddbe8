// Building DOM and SVG elements without a framework: `h` for HTML, `s` for SVG. Attributes
// whose value is `null`, `undefined` or `false` are left out; `on*` functions become listeners.
// Text is always set as text, never parsed as HTML, so names and server strings cannot inject
// markup.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** @typedef {string | number | Node | null | undefined | false | ChildList} Child */
/** @typedef {Array<Child>} ChildList */
/** @typedef {Record<string, unknown>} Attrs */

/**
 * @param {Element} el
 * @param {Attrs} attrs
 */
function setAttrs(el, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      el.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    } else if (value === true) {
      el.setAttribute(name, '');
    } else {
      el.setAttribute(name, String(value));
    }
  }
}

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/**
 * An HTML element.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * An SVG element.
 * @param {string} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {SVGElement}
 */
export function s(tag, attrs = {}, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * Replaces the children of `el`.
 * @param {Element} el
 * @param {...Child} children
 */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/**
 * The element with this id.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el;
}

/**
 * Makes a drawn group act as a button: a transparent hotspot over `box`, drawn last so that it
 * takes the touch, is the focusable, labelled element, activated by click, Enter or Space, and
 * carries the actions it stands for (`data-actions`). The hotspot holds no text of its own: a
 * square of the board shows more than the move's words (its name, price, owner), and a button
 * whose visible text is not part of its name misleads speech input (WCAG 2.5.3). The group is
 * marked `target` for its highlight.
 * @param {SVGElement} group
 * @param {{x: number, y: number, width: number, height: number, rx?: number}} box
 * @param {string} label
 * @param {unknown[]} actions
 * @param {() => void} activate
 * @returns {SVGElement} the group
 */
export function svgButton(group, box, label, actions, activate) {
  const hotspot = s('rect', { ...box, class: 'hotspot', role: 'button', tabindex: 0, 'aria-label': label, 'data-actions': JSON.stringify(actions) });
  group.classList.add('target');
  hotspot.addEventListener('click', activate);
  hotspot.addEventListener('keydown', (e) => {
    const key = /** @type {KeyboardEvent} */ (e).key;
    if (key === 'Enter' || key === ' ') {
      e.preventDefault();
      activate();
    }
  });
  group.append(hotspot);
  return group;
}

/**
 * `snake_case` to words: `build_hotel` → `Build hotel`.
 * @param {string} name
 */
export function humanize(name) {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A small coloured badge with a label (a seat, a chain): colour is never the only cue, the
 * label says it too. Drawn as SVG so that it needs no inline style.
 * @param {string} colour
 * @param {string} label
 * @param {string} [ink] text colour
 */
export function chip(colour, label, ink = '#000') {
  const width = 10 + label.length * 9;
  return s(
    'svg',
    { class: 'chip', width, height: 20, viewBox: `0 0 ${width} 20`, 'aria-hidden': 'true' },
    s('rect', { x: 1, y: 1, width: width - 2, height: 18, rx: 9, fill: colour, stroke: '#222' }),
    s('text', { x: width / 2, y: 14, 'text-anchor': 'middle', fill: ink }, label),
  );
}
