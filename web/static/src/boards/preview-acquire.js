// Acquire's preview of a move: whether a tile founds, grows or merges a chain (its size and
// share price after, the bonuses a merger pays out), and what buying a share costs. From the
// view (placed tiles, chains with size, price and bonuses) and the data file's price table.

import { list, money as formatMoney, t } from '../i18n/index.js';

/** @typedef {import('../../../types/api').components['schemas']} Schemas */
/** @typedef {import('./index.js').BoardContext} BoardContext */

/** @param {number} n */
const money = (n) => formatMoney('acquire', n);

/**
 * The tiles next to `tile` on the board of `data` (no diagonals).
 * @param {any} data
 * @param {string} tile
 * @returns {string[]}
 */
function neighbours(data, tile) {
  const m = /^(\d+)([A-Z])$/.exec(tile);
  if (!m) return [];
  const column = Number(m[1]);
  const r = data.board.rows.indexOf(m[2]);
  return [[column - 1, r], [column + 1, r], [column, r - 1], [column, r + 1]]
    .filter(([c, rr]) => data.board.columns.includes(c) && rr >= 0 && rr < data.board.rows.length)
    .map(([c, rr]) => `${c}${data.board.rows[rr]}`);
}

/**
 * The share price of a chain of `tier` at `size` tiles, from the data file's table.
 * @param {any} data
 * @param {number} tier
 * @param {number} size
 */
function priceAt(data, tier, size) {
  const rows = /** @type {{min: number, max: number | null, price: number}[]} */ (data.price_table?.[`tier_${tier}`] ?? []);
  return rows.find((r) => size >= r.min && (r.max == null || size <= r.max))?.price ?? 0;
}

/**
 * What a move would do, a line each.
 * @param {any} a an Acquire action
 * @param {BoardContext} ctx
 * @returns {string[]}
 */
export function preview(a, ctx) {
  const data = ctx.data;
  /** @type {Schemas['AcquireView'] | undefined} */
  const view = ctx.view;
  if (!data || !view) return [];
  const me = ctx.seat == null ? undefined : view.players[ctx.seat];
  const chain = (/** @type {string} */ id) => view.chains.find((c) => c.chain === id);
  switch (a.type) {
    case 'place_tile': {
      // The tiles the new one joins: all placed tiles connected to it.
      /** @type {Map<string, string | null>} */
      const placed = new Map(view.board.map((p) => [String(p.tile), p.chain ?? null]));
      /** @type {Set<string>} */
      const group = new Set([String(a.tile)]);
      const queue = [String(a.tile)];
      while (queue.length) {
        for (const next of neighbours(data, /** @type {string} */ (queue.pop()))) {
          if (placed.has(next) && !group.has(next)) {
            group.add(next);
            queue.push(next);
          }
        }
      }
      const chains = [...new Set([...group].map((tile) => placed.get(tile)).filter((c) => c != null))].map((c) => chain(/** @type {string} */ (c))).filter((c) => c !== undefined);
      if (a.chain) {
        const founded = chain(a.chain);
        const tier = founded?.tier ?? 1;
        const price = priceAt(data, tier, group.size);
        return [t('aq.help.founds', { chain: founded?.name ?? a.chain, n: group.size }), t('aq.help.price', { price: money(price) }), t('aq.help.founderShare', { price: money(price) })];
      }
      if (chains.length === 1) {
        const c = chains[0];
        const size = c.size + [...group].filter((tile) => placed.get(tile) !== c.chain).length;
        return [t('aq.help.grows', { chain: c.name, from: c.size, to: size }), t('aq.help.priceChange', { from: money(c.price), to: money(priceAt(data, c.tier, size)) })];
      }
      if (chains.length >= 2) {
        const bySize = [...chains].sort((x, y) => y.size - x.size);
        const lines = [t('aq.help.merges', { chains: list(chains.map((c) => c.name)), survivor: bySize[0].size > bySize[1].size ? bySize[0].name : t('aq.help.tie') })];
        for (const c of bySize.slice(1)) {
          const mine = me?.shares?.[data.chains.findIndex((/** @type {{id: string}} */ d) => d.id === c.chain)] ?? 0;
          lines.push(t('aq.help.bonuses', { chain: c.name, first: money(c.majority_bonus), second: money(c.minority_bonus), yours: mine }));
        }
        return lines;
      }
      return [group.size > 1 ? t('aq.help.noChainYet', { n: group.size }) : t('aq.help.alone')];
    }
    case 'buy_share': {
      const c = chain(a.chain);
      if (!c) return [];
      const lines = [t('help.costs', { amount: money(c.price) })];
      if (me?.cash != null) lines.push(t('help.cashAfter', { cash: money(me.cash - c.price) }));
      return lines;
    }
    default:
      return [];
  }
}
