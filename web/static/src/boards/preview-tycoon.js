// Tycoon's preview of a move: what a ticket, a hotel, a factory or a loan costs or brings, the
// mover's cash after, and what a city's payday pays once a hotel lengthens its chain. From the
// view and the board's data file (the hotel track's payouts per tier).

import { money as formatMoney, t } from '../i18n/index.js';

/** @typedef {import('../../../types/api').components['schemas']} Schemas */
/** @typedef {import('./index.js').BoardContext} BoardContext */

/** @param {number} n */
const money = (n) => formatMoney('tycoon', n);

/**
 * What a move would do, a line each.
 * @param {any} a a Tycoon action
 * @param {BoardContext} ctx
 * @returns {string[]}
 */
export function preview(a, ctx) {
  const data = ctx.data;
  /** @type {Schemas['TycoonView'] | undefined} */
  const view = ctx.view;
  const me = ctx.seat == null ? undefined : view?.players[ctx.seat];
  if (!data || !view || !me) return [];
  const after = (/** @type {number} */ delta) => t('help.cashAfter', { cash: money(me.cash + delta) });
  const plane = me.plane.at === 'city' ? /** @type {Schemas['TycoonPlaneCity']} */ (me.plane) : null;
  const info = plane ? data.cities.find((/** @type {{id: string}} */ c) => c.id === plane.city) : undefined;
  const city = plane ? view.cities.find((c) => c.city === plane.city) : undefined;
  /** The payday of `info`'s city with its chain reaching `space`. @param {number} space */
  const payday = (space) => {
    const [first, second] = data.tiers[info?.tier]?.track?.[Math.min(space, data.track.unbuildable_space)] ?? [0, 0];
    return t('ty.help.payday', { first: money(first), second: money(second) });
  };
  switch (a.type) {
    case 'buy_ticket': {
      const ticket = [...data.scheduled_tickets, ...data.charter_tickets].find((x) => x.id === a.ticket);
      return ticket ? [t('help.costs', { amount: money(ticket.price) }), after(-ticket.price)] : [];
    }
    case 'build_hotel': {
      if (!info || !city || plane?.field == null) return [];
      const cost = info.landing_costs[plane.field];
      return [t('help.costs', { amount: money(cost) }), after(-cost), t('ty.help.chain', { n: city.chain_length + 1 }), payday(city.chain_length + 1)];
    }
    case 'renovate_hotel':
      return info && city ? [t('ty.help.chain', { n: city.chain_length + 1 }), payday(city.chain_length + 1)] : [];
    case 'build_factory': {
      if (!info || !city) return [];
      const cost = info.factory_costs[city.factories.length] ?? 0;
      return [t('help.costs', { amount: money(cost) }), after(-cost)];
    }
    case 'take_loan': {
      const loan = data.loans.find((/** @type {{id: string}} */ l) => l.id === a.loan);
      return loan ? [t('help.gives', { amount: money(loan.amount) }), after(loan.amount), t('ty.help.repay', { amount: money(loan.repay) })] : [];
    }
    case 'settle_loan': {
      const loan = data.loans.find((/** @type {{id: string}} */ l) => l.id === a.loan);
      if (!loan || a.decision !== 'repay') return [];
      return [t('help.costs', { amount: money(loan.repay) }), after(-loan.repay)];
    }
    default:
      return [];
  }
}
