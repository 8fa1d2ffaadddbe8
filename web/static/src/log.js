// The event log in sentences. Each entry links to the position right after it (`?seq=N`);
// the move just shown is marked.

import { h } from './dom.js';
import { t, tOr } from './i18n/index.js';

/** @typedef {import('./api.js').EventDto} EventDto */

/**
 * The log up to `until` (all of it when `null`), the entry at `until` marked as current and
 * the entries of `recent` as the last move.
 * @param {EventDto[]} events
 * @param {number | null} until
 * @param {(event: EventDto['event']) => string} describe
 * @param {number[]} [recent]
 */
export function eventList(events, until, describe, recent = []) {
  const shown = until === null ? events : events.filter((e) => e.seq <= until);
  return shown.map((e) =>
    h(
      'li',
      {
        'data-seq': e.seq,
        class: [e.seq === until ? 'current' : '', recent.includes(e.seq) ? 'recent' : '', e.event.type === 'turn_started' ? 'turn' : ''].join(' ').trim() || null,
        'aria-current': e.seq === until ? 'step' : null,
      },
      h('a', { href: `?seq=${e.seq}`, class: 'seq', 'aria-label': t('log.showAfter', { seq: String(e.seq) }) }, `#${e.seq}`),
      ' ',
      describe(e.event),
    ),
  );
}

/**
 * The service's own events in the log (clocks, resignation, the bots that stand in for absent
 * players), in words; `null` for the game's events, which the board describes.
 * @param {EventDto['event']} event
 * @param {(seat: number) => string} name
 * @returns {string | null}
 */
export function describeLifecycle(event, name) {
  switch (event.type) {
    case 'seat_timed_out':
      return t('log.timedOut', { name: name(event.seat) });
    case 'seat_resigned':
      return t('log.resigned', { name: name(event.seat) });
    case 'bot_took_over':
      return t('log.botTookOver', { bot: tOr(`bot.${event.level}`, event.level), name: name(event.seat) });
    case 'seat_reclaimed':
      return t('log.reclaimed', { name: name(event.seat) });
    case 'game_aborted':
      return t('log.aborted', { name: name(event.seat) });

    default:
      return null;
  }
}
