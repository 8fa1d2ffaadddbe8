// The board of a game without a drawing of its own: its view as nested tables, actions and
// events in words built from their fields. Every hosted game is playable through it.

import { h, humanize } from '../dom.js';
import { t } from '../i18n/index.js';

/** Fields whose number is a seat. */
const SEAT_FIELDS = ['seat', 'maker', 'owner'];

/**
 * A value as text, seats by name where a field says it is a seat.
 * @param {string} key
 * @param {unknown} value
 * @param {import('./index.js').Lookup} ctx
 * @returns {string}
 */
function valueText(key, value, ctx) {
  if (SEAT_FIELDS.includes(key) && typeof value === 'number') return ctx.name(value);
  if (Array.isArray(value)) return value.map((v) => valueText('', v, ctx)).join(', ');
  if (value && typeof value === 'object') return JSON.stringify(value);
  return typeof value === 'string' ? humanize(value) : String(value);
}

/**
 * `{type: "x", a: 1}` as "X: a 1".
 * @param {{type: string} & Record<string, unknown>} thing
 * @param {import('./index.js').Lookup} ctx
 */
export function describeFields(thing, ctx) {
  const fields = Object.entries(thing).filter(([k, v]) => k !== 'type' && v !== null && v !== undefined);
  const text = fields.map(([k, v]) => `${humanize(k).toLowerCase()} ${valueText(k, v, ctx)}`).join(', ');
  return text ? `${humanize(thing.type)}: ${text}` : humanize(thing.type);
}

/**
 * The words for an event a board's log has no sentence for. Its parameter is `never`: the type
 * check fails when the API's types name an event the board's switch leaves out, so a new event
 * cannot land unworded. At run time (a newer server than the client) it lists the fields.
 * @param {never} event
 * @param {import('./index.js').Lookup} ctx
 */
export function unworded(event, ctx) {
  const thing = /** @type {{type: string} & Record<string, unknown>} */ (/** @type {unknown} */ (event));
  return `${describeFields(thing, ctx)}.`;
}

/**
 * @param {unknown} value
 * @returns {Node | string}
 */
function table(value) {
  if (Array.isArray(value)) {
    return value.length ? h('ol', { start: 0 }, value.map((v) => h('li', {}, table(v)))) : '(none)';
  }
  if (value && typeof value === 'object') {
    return h(
      'dl',
      { class: 'generic' },
      Object.entries(value).flatMap(([k, v]) => [h('dt', {}, humanize(k)), h('dd', {}, table(v))]),
    );
  }
  return value === null ? '–' : String(value);
}

/** @type {import('./index.js').BoardModule} */
export default {
  minWidth: 0,
  rules: [],
  render: (ctx) => ({
    drawing: h(
      'div',
      { class: 'generic-board' },
      h('p', { class: 'hint' }, t('board.generic')
),
      table(ctx.view),
    ),
  }),
  playerRows: () => [],
  describeEvent: (event, ctx) => `${describeFields(event, ctx)}.`,
  describeAction: (action, ctx) => describeFields(action, ctx),
  describeValue: (field, value, ctx) => (SEAT_FIELDS.includes(field) && typeof value === 'number' ? ctx.name(value) : null),
};
