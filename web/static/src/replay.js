// Replay controls: first, back, a slider over every event, forward, last, and back to the live
// game; the event just shown, in words. Left and right arrow keys step too (game.js).

import { h } from './dom.js';

/**
 * @param {{seq: number, last: number, explanation: string, go: (seq: number | null) => void}} at
 */
export function replayControls({ seq, last, explanation, go }) {
  const slider = h('input', {
    id: 'replay-slider',
    type: 'range',
    min: 1,
    max: last,
    value: seq,
    'aria-label': 'Event number',
    'aria-valuetext': `event ${seq} of ${last}`,
  });
  // Move while dragging only the label; load the position when the slider is let go.
  slider.addEventListener('change', () => go(Number(slider.value)));
  /**
   * @param {string} id
   * @param {string} label
   * @param {string} text
   * @param {number} target
   */
  const step = (id, label, text, target) =>
    h('button', { type: 'button', id, 'aria-label': label, disabled: target === seq || target < 1 || target > last, onclick: () => go(target) }, text);
  return h(
    'div',
    { class: 'replay-controls' },
    h(
      'div',
      { class: 'replay-buttons', role: 'group', 'aria-label': 'Replay' },
      step('replay-first', 'First event', '◀◀', 1),
      step('replay-back', 'One event back', '◀', seq - 1),
      slider,
      step('replay-forward', 'One event forward', '▶', seq + 1),
      step('replay-last', 'Last event', '▶▶', last),
      h('button', { type: 'button', id: 'replay-live', onclick: () => go(null) }, 'Back to the live game'),
    ),
    h('p', { id: 'replay-explanation', 'aria-live': 'polite' }, h('strong', {}, `Event ${seq} of ${last}: `), explanation),
  );
}
