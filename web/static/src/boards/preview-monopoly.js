// Monopoly's help: what a square is (price, rents, house cost, mortgage) and what a move would
// do before it is made (what it costs or brings, the mover's cash after, the rents it
// changes). Everything from the view and the board's data file; the server stays the judge.

import { list, money as formatMoney, t } from '../i18n/index.js';

/** @typedef {import('../../../types/api').components['schemas']} Schemas */
/** @typedef {Schemas['MonopolyView']} View */
/** @typedef {import('./index.js').BoardContext} BoardContext */
/**
 * @typedef {{index: number, name: string, type: string, group?: string, price?: number, rent?: number[],
 *   house_cost?: number, mortgage?: number, unmortgage?: number, amount?: number, rent_by_count?: number[],
 *   dice_multiplier_by_count?: number[]}} SquareData
 */

/** @param {number} n */
const money = (n) => formatMoney('monopoly', n);

/**
 * @param {BoardContext} ctx
 * @param {number} square
 * @returns {SquareData | undefined}
 */
const squareOf = (ctx, square) => ctx.data?.squares?.[square];

/**
 * The lines that say what a square is: its price, its rents, what a house costs, its mortgage.
 * @param {SquareData | undefined} sq
 * @returns {string[]}
 */
export function squareFacts(sq) {
  if (!sq) return [];
  const lines = [];
  if (sq.price !== undefined) lines.push(t('help.price', { price: money(sq.price) }));
  if (sq.type === 'tax' && sq.amount !== undefined) lines.push(t('help.costs', { amount: money(sq.amount) }));
  if (sq.rent) {
    lines.push(
      t('mo.help.rents', { base: money(sq.rent[0]), group: money(2 * sq.rent[0]), houses: sq.rent.slice(1, 5).map(money).join(' / '), hotel: money(sq.rent[5]) }),
      t('mo.help.houseCost', { cost: money(sq.house_cost ?? 0) }),
    );
  }
  if (sq.rent_by_count) lines.push(t('mo.help.stations', { rents: sq.rent_by_count.map(money).join(' / ') }));
  if (sq.dice_multiplier_by_count) lines.push(t('mo.help.works', { times: list(sq.dice_multiplier_by_count.map(String), 'disjunction') }));
  if (sq.mortgage !== undefined) lines.push(t('mo.help.mortgage', { amount: money(sq.mortgage), lift: money(sq.unmortgage ?? sq.mortgage) }));
  return lines;
}

/**
 * The rent a street with `houses` houses (5: a hotel) asks.
 * @param {SquareData | undefined} sq
 * @param {number} houses
 */
const streetRent = (sq, houses) => sq?.rent?.[Math.min(5, houses)] ?? 0;

/**
 * What a move would do, a line each; none for moves with nothing to foresee.
 * @param {any} a a Monopoly action
 * @param {BoardContext} ctx
 * @returns {string[]}
 */
export function preview(a, ctx) {
  /** @type {View | undefined} */
  const view = ctx.view;
  const me = ctx.seat != null ? view?.players[ctx.seat] : undefined;
  if (!view || !me) return [];
  const after = (/** @type {number} */ delta) => t('help.cashAfter', { cash: money(me.cash + delta) });
  const deed = (/** @type {number} */ q) => view.deeds.find((d) => d.square === q);
  const level = (/** @type {number} */ q) => (deed(q)?.hotel ? 5 : (deed(q)?.houses ?? 0));
  switch (a.type) {
    case 'buy_property': {
      const sq = squareOf(ctx, me.position);
      if (!sq?.price) return [];
      // The square's own help tells its rents; the move tells what it costs and changes.
      const lines = [t('help.costs', { amount: money(sq.price) }), after(-sq.price)];
      const group = ctx.data?.groups?.find((/** @type {{id: string, squares: number[]}} */ g) => g.id === sq.group);
      if (sq.rent && group && group.squares.every((/** @type {number} */ q) => q === sq.index || deed(q)?.owner === ctx.seat)) {
        lines.push(t('mo.help.completes'));
      }
      return lines;
    }
    case 'decline_property':
      return [t('mo.help.auction')];
    case 'build': {
      const squares = /** @type {number[]} */ (a.squares);
      const cost = squares.reduce((sum, q) => sum + (squareOf(ctx, q)?.house_cost ?? 0), 0);
      return [
        t('help.costs', { amount: money(cost) }),
        after(-cost),
        ...squares.map((q) => t('mo.help.rentNow', { square: squareOf(ctx, q)?.name ?? String(q), from: money(streetRent(squareOf(ctx, q), level(q))), to: money(streetRent(squareOf(ctx, q), level(q) + 1)) })),
      ];
    }
    case 'sell_building': {
      const sq = squareOf(ctx, a.square);
      const back = Math.floor((sq?.house_cost ?? 0) / 2);
      const now = level(a.square);
      return [t('help.gives', { amount: money(back) }), after(back), t('mo.help.rentNow', { square: sq?.name ?? '', from: money(streetRent(sq, now)), to: money(streetRent(sq, Math.max(0, now - 1))) })];
    }
    case 'mortgage': {
      const amount = squareOf(ctx, a.square)?.mortgage ?? 0;
      return [t('help.gives', { amount: money(amount) }), after(amount), t('mo.help.noRent')];
    }
    case 'lift_mortgage': {
      const amount = squareOf(ctx, a.square)?.unmortgage ?? 0;
      return [t('help.costs', { amount: money(amount) }), after(-amount)];
    }
    case 'pay_jail_fine':
      return [t('help.costs', { amount: money(50) }), after(-50)];
    case 'bid':
      return [t('mo.help.ifWon', { cash: money(me.cash - a.amount) })];
    default:
      return [];
  }
}
