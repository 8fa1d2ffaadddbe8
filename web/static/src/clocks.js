// Seat clocks: a seat's time as the game document gives it (`remaining_ms` as of the version's
// commit, and the `deadline` while it runs), counted down in the page once a second against the
// server's time (a device's clock may be off), and a time control in words for the lobby and
// the game's header.

import { serverNow } from './api.js';
import { h, s } from './dom.js';
import { t, tn } from './i18n/index.js';

/** @typedef {import('./api.js').Schemas['SeatClock']} SeatClock */
/** @typedef {import('./api.js').Schemas['Clock']} Clock */

/** Under this much time left (ms) a running clock is low: marked, and its player warned. */
export const LOW_MS = 60000;

/**
 * Milliseconds as a clock shows them: `4:07`, `1:02:03`, `2 d 5 h`.
 * @param {number} ms
 */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  if (days > 0) return t('clock.daysHours', { d: days, h: hours });
  if (hours > 0) return `${hours}:${two(minutes)}:${two(seconds)}`;
  return `${minutes}:${two(seconds)}`;
}

/**
 * A small clock face: a glyph such as ⏱ is missing from many fonts (it shows as a box).
 * @returns {SVGElement}
 */
export function clockIcon() {
  return s(
    'svg',
    { class: 'clock-icon', width: 14, height: 14, viewBox: '0 0 16 16', 'aria-hidden': 'true' },
    s('circle', { cx: 8, cy: 9, r: 6, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.8 }),
    s('path', { d: 'M8 5.5V9l2.2 1.6M6.5 1.5h3', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.8, 'stroke-linecap': 'round' }),
  );
}

/**
 * A seat's clock: counts down (in `tick`) while it runs. Its text is "Clock 4:07" (the word
 * for screen readers only).
 * @param {SeatClock} clock
 */
export function seatClock(clock) {
  const left = clock.running && clock.deadline ? Date.parse(clock.deadline) - serverNow() : clock.remaining_ms;
  return h(
    'span',
    {
      class: `clock${clock.running ? ' running' : ''}${left < LOW_MS ? ' low' : ''}`,
      'data-deadline': clock.running && clock.deadline ? clock.deadline : null,
      title: clock.running ? t('clock.leftForMove') : t('clock.onClock'),
    },
    clockIcon(),
    h('span', { class: 'visually-hidden' }, `${t('clock.word')} `),
    h('span', { class: 'time' }, clockText(left)),
  );
}

/** Counts the running clocks down, once a second. */
export function startTicking() {
  setInterval(() => {
    for (const el of document.querySelectorAll('.clock[data-deadline]')) {
      const left = Date.parse(/** @type {HTMLElement} */ (el).dataset.deadline ?? '') - serverNow();
      const time = el.querySelector('.time');
      if (time) time.textContent = clockText(left);
      el.classList.toggle('low', left < LOW_MS);
    }
  }, 1000);
}

/**
 * A time control in words: "1 day a move", "5 min + 5 s".
 * @param {Clock | null | undefined} clock
 * @returns {string | null}
 */
export function clockWords(clock) {
  if (!clock || clock.kind === 'none') return null;
  const span = (/** @type {number} */ s) =>
    s % 86400 === 0 ? tn('clock.days', s / 86400) : s % 3600 === 0 ? t('clock.hours', { n: s / 3600 }) : s % 60 === 0 ? t('clock.minutes', { n: s / 60 }) : t('clock.seconds', { n: s });
  if (clock.kind === 'per_move') return t('clock.perMove', { span: span(clock.seconds) });
  return t('clock.fischer', { span: span(clock.initial), inc: clock.increment });
}

/** The time controls the lobby offers: none, correspondence and live. */
export const CLOCK_CHOICES = [
  { id: 'none', label: t('clock.choice.none'), request: { kind: 'none' } },
  { id: 'day', label: t('clock.choice.day'), request: { kind: 'per_move', seconds: 86400 } },
  { id: 'three-days', label: t('clock.choice.threeDays'), request: { kind: 'per_move', seconds: 259200 } },
  { id: 'blitz', label: t('clock.choice.blitz'), request: { kind: 'fischer', initial: 300, increment: 5 } },
  { id: 'rapid', label: t('clock.choice.rapid'), request: { kind: 'fischer', initial: 900, increment: 10 } },

];
