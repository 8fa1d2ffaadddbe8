// Replay controls: first, a turn back, an event back, a slider over every event, an event
// forward, a turn forward, last, and back to the live game; the event just shown, in words.
// Left and right arrow keys step an event (game.js).

import { h } from './dom.js';
import { t } from './i18n/index.js';

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
    'aria-label': t('replay.eventNumber'),
    'aria-valuetext': t('replay.eventOf', { seq: String(seq), last: String(last) }),
  });
  // Load the position when the slider is let go.
  slider.addEventListener('change', () => go(Number(slider.value)));
  const turnBack = [...turns].reverse().find((s) => s < seq) ?? 1;
  const turnForward = turns.find((s) => s > seq) ?? last;
  const turn = turns.filter((s) => s <= seq).length;
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
      { class: 'replay-buttons', role: 'group', 'aria-label': t('lobby.replay') },
      step('replay-first', t('replay.first'), '◀◀', 1),
      step('replay-turn-back', t('replay.turnBack'), `« ${t('replay.turn')}`, turnBack),
      step('replay-back', t('replay.back'), '◀', seq - 1),
      slider,
      step('replay-forward', t('replay.forward'), '▶', seq + 1),
      step('replay-turn-forward', t('replay.turnForward'), `${t('replay.turn')} »`, turnForward),
      step('replay-last', t('replay.last'), '▶▶', last),
      h('button', { type: 'button', id: 'replay-live', onclick: () => go(null) }, t('replay.live')),
    ),
    h(
      'p',
      { id: 'replay-explanation', 'aria-live': 'polite' },
      h('strong', {}, `${turn ? t('replay.atTurn', { seq: String(seq), last: String(last), turn }) : t('replay.at', { seq: String(seq), last: String(last) })}: `),

      explanation,
    ),
  );
}
