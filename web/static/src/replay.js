// Replay controls: first, a turn back, an event back, a slider over every event, an event
// forward, a turn forward, last, and back to the live game; the event just shown, in words.
// Left and right arrow keys step an event (game.js).

import { h } from './dom.js';

/**
 * @param {{seq: number, last: number, turns: number[], explanation: string, go: (seq: number | null) => void}} at
 *   `turns`: the seqs where turns start
 */
export function replayControls({ seq, last, turns, explanation, go }) {
  const slider = h('input', {
    id: 'replay-slider',
    type: 'range',
    min: 1,
    max: last,
    value: seq,
    'aria-label': 'Event number',
    'aria-valuetext': `event ${seq} of ${last}`,
  });
  // Load the position when the slider is let go.
  slider.addEventListener('change', () => go(Number(slider.value)));
  const turnBack = [...turns].reverse().find((t) => t < seq) ?? 1;
  const turnForward = turns.find((t) => t > seq) ?? last;
  const turn = turns.filter((t) => t <= seq).length;
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
      step('replay-turn-back', 'One turn back', '« Turn', turnBack),
      step('replay-back', 'One event back', '◀', seq - 1),
      slider,
      step('replay-forward', 'One event forward', '▶', seq + 1),
      step('replay-turn-forward', 'One turn forward', 'Turn »', turnForward),
      step('replay-last', 'Last event', '▶▶', last),
      h('button', { type: 'button', id: 'replay-live', onclick: () => go(null) }, 'Back to the game'),
    ),
    h(
      'p',
      { id: 'replay-explanation', 'aria-live': 'polite' },
      h('strong', {}, `Event ${seq} of ${last}${turn ? `, turn ${turn}` : ''}: `),
      explanation,
    ),
  );
}
