// Tyros's preview of a move: what it costs in trade cards (a voyage per field entered, a city,
// a ship, a bank trade), the cards left in hand after, and what it gives (a field joining an
// empire, a city, a card of a chosen colour). The costs are the map file's constants; a move
// the server lists carries its own cost where it has one (a voyage).

import { t, tn, tOr } from '../i18n/index.js';

/** @typedef {import('../../../types/api').components['schemas']} Schemas */
/** @typedef {import('./index.js').BoardContext} BoardContext */

/**
 * How many cards a set of cards (`{orange: 2, joker: 1}`) holds.
 * @param {Record<string, number> | null | undefined} cards
 */
const count = (cards) => Object.values(cards ?? {}).reduce((sum, n) => sum + n, 0);

/**
 * What a move would do, a line each.
 * @param {any} a a Tyros action
 * @param {BoardContext} ctx
 * @returns {string[]}
 */
export function preview(a, ctx) {
  /** @type {Schemas['TyrosView'] | undefined} */
  const view = ctx.view;
  const constants = ctx.data?.constants ?? {};
  const me = ctx.seat == null ? undefined : view?.players[ctx.seat];
  if (!view || !me) return [];
  /** @param {number} cost */
  const pay = (cost) => [tn('tr.help.costs', cost), tn('tr.help.left', Math.max(0, me.cards_in_hand - cost))];
  const colourOf = (/** @type {string | null | undefined} */ field) => view.fields.find((f) => f.field === field)?.empire;
  const empireSize = (/** @type {string} */ empire) => view.fields.filter((f) => f.empire === empire).length;
  switch (a.type) {
    case 'move':
    case 'explorer_voyage': {
      const lines = a.cost != null ? pay(a.cost) : [];
      const owner = view.fields.find((f) => f.field === a.to)?.city;
      if (owner != null && owner !== ctx.seat) lines.push(t('tr.help.tribute', { name: ctx.name(owner), n: constants.tribute_cards ?? 1 }));
      return lines;
    }
    case 'found_city': {
      const at = view.ships[a.ship]?.at;
      const empire = colourOf(at);
      return [...pay(constants.city_cost ?? 5), t('tr.help.city', { colour: empire ? tOr(`tr.colour.${empire}`, empire) : '' }), t('tr.help.shipBack')];
    }
    case 'build_ship':
      return pay(constants.ship_build_cost ?? 1);
    case 'bank_pick':
      return [...pay(count(a.cards)), t('tr.help.gets', { colour: tOr(`tr.colour.${a.colour}`, a.colour) })];
    case 'bank_swap':
      return [tn('tr.help.swap', count(a.cards))];
    case 'place_tile':
      return a.empire ? [t('tr.help.joins', { colour: tOr(`tr.colour.${a.empire}`, a.empire), from: empireSize(a.empire), to: empireSize(a.empire) + 1 })] : [];
    case 'pay':
      return pay(count(a.cards));
    default:
      return [];
  }
}
