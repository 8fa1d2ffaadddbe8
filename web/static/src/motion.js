// What makes a move visible: pieces that glide from where they stood to where they stand now
// (the board is redrawn from scratch, so each piece is found again by its `data-piece` key and
// animated from its old place), and a short tone when it becomes your turn. Both respect the
// reader's settings: no movement with `prefers-reduced-motion`, no sound unless switched on.

/** @typedef {Map<string, DOMRect>} Places */

const GLIDE_MS = 450;

function reducedMotion() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Where every piece in `root` is now, on screen.
 * @param {Element} root
 * @returns {Places}
 */
export function piecePlaces(root) {
  /** @type {Places} */
  const places = new Map();
  for (const el of root.querySelectorAll('[data-piece]')) {
    const key = /** @type {HTMLElement | SVGElement} */ (el).dataset.piece;
    if (key) places.set(key, el.getBoundingClientRect());
  }
  return places;
}

/**
 * Moves every piece of `root` that stood elsewhere in `before` from its old place to its new
 * one. Only pieces that moved are animated; SVG pieces are moved in their drawing's units.
 * @param {Element} root
 * @param {Places} before
 */
export function glide(root, before) {
  if (before.size === 0 || reducedMotion()) return;
  for (const el of root.querySelectorAll('[data-piece]')) {
    const piece = /** @type {HTMLElement | SVGGraphicsElement} */ (el);
    const old = before.get(piece.dataset.piece ?? '');
    if (!old) continue;
    const now = piece.getBoundingClientRect();
    let dx = old.left - now.left;
    let dy = old.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    if (piece instanceof SVGGraphicsElement) {
      // Screen pixels to the drawing's units.
      const scale = piece.ownerSVGElement?.getScreenCTM()?.a || 1;
      dx /= scale;
      dy /= scale;
    }
    piece.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'translate(0, 0)' }], {
      duration: GLIDE_MS,
      easing: 'ease-out',
    });
  }
}

/** @type {AudioContext | null} */
let audio = null;

/** Browsers let a page play sound only after a click or key: prepare it then. */
export function unlockSound() {
  if (audio) return;
  try {
    audio = new AudioContext();
  } catch {
    audio = null;
  }
}

/** Two short notes, rising: it is your turn. */
export function turnChime() {
  if (!audio) return;
  const now = audio.currentTime;
  [660, 880].forEach((frequency, i) => {
    if (!audio) return;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, now + i * 0.16);
    gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.16 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.16 + 0.15);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + i * 0.16);
    osc.stop(now + i * 0.16 + 0.16);
  });
}
