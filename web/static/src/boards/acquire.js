// Acquire's board: the 12 × 9 grid with the placed tiles (each chain a colour and a letter),
// the viewer's own tiles outlined where they would go, and the chains with size, price,
// bonuses and the share bank. Click a tile of yours to place it, a chain's button to buy a
// share. Only the viewer's own hand is ever drawn: the server sends no other.

import { chip, h, s, svgButton } from '../dom.js';

/** @typedef {import('../../../types/api').components['schemas']} Schemas */
/** @typedef {Schemas['AcquireView']} View */
/** @typedef {Schemas['AcquireAction']} Action */
/** @typedef {Schemas['AcquireEvent']} Event */
/** @typedef {import('./index.js').BoardContext} BoardContext */
/** @typedef {import('./index.js').Lookup} Lookup */
/** @typedef {{board: {columns: number[], rows: string[]}, chains: {id: string, name: string}[]}} Data */

const CELL = 44;
const MARGIN = 26;

// Distinguishable colours (Okabe–Ito plus two); every tile also carries its chain's letter.
const CHAIN_COLOURS = ['#E69F00', '#56B4E9', '#009E73', '#F0E442', '#0072B2', '#D55E00', '#CC79A7'];
const DARK = new Set(['#009E73', '#0072B2', '#D55E00']);

/**
 * Colour and letter of a chain, by its place in the data file.
 * @param {Data} data
 * @param {string} chain
 */
function chainLook(data, chain) {
  const i = Math.max(0, data.chains.findIndex((c) => c.id === chain));
  const colour = CHAIN_COLOURS[i % CHAIN_COLOURS.length];
  const name = data.chains[i]?.name ?? chain;
  return { colour, ink: DARK.has(colour) ? '#fff' : '#000', letter: name.charAt(0), name };
}

/**
 * @param {Data} data
 * @param {string} chain
 */
const chainName = (data, chain) => chainLook(data, chain).name;

/** @param {number} n */
const money = (n) => n.toLocaleString('en');

/**
 * `9F` → column 9, row F.
 * @param {string} tile
 */
function square(tile) {
  const m = /^(\d+)([A-Z])$/.exec(tile);
  return m ? { column: Number(m[1]), row: m[2] } : { column: 0, row: '' };
}

/**
 * @param {BoardContext} ctx
 */
function grid(ctx) {
  /** @type {View} */
  const view = ctx.view;
  /** @type {Data} */
  const data = ctx.data;
  const { columns, rows } = data.board;
  /**
   * @param {string} tile
   * @returns {[number, number]}
   */
  const at = (tile) => {
    const { column, row } = square(tile);
    return [MARGIN + columns.indexOf(column) * CELL, MARGIN + rows.indexOf(row) * CELL];
  };
  const parts = [
    columns.map((c, i) => s('text', { x: MARGIN + i * CELL + CELL / 2, y: MARGIN - 8, 'text-anchor': 'middle', class: 'small' }, c)),
    rows.map((r, i) => s('text', { x: MARGIN - 14, y: MARGIN + i * CELL + CELL / 2 + 4, 'text-anchor': 'middle', class: 'small' }, r)),
    s('rect', { x: MARGIN, y: MARGIN, width: columns.length * CELL, height: rows.length * CELL, class: 'grid-bg' }),
  ];
  for (let i = 1; i < columns.length; i++) {
    parts.push(s('line', { x1: MARGIN + i * CELL, y1: MARGIN, x2: MARGIN + i * CELL, y2: MARGIN + rows.length * CELL, class: 'grid-line' }));
  }
  for (let i = 1; i < rows.length; i++) {
    parts.push(s('line', { x1: MARGIN, y1: MARGIN + i * CELL, x2: MARGIN + columns.length * CELL, y2: MARGIN + i * CELL, class: 'grid-line' }));
  }
  for (const placed of view.board) {
    const [x, y] = at(placed.tile);
    const look = placed.chain ? chainLook(data, placed.chain) : null;
    parts.push(
      s(
        'g',
        { class: 'tile', 'data-tile': placed.tile, 'data-chain': placed.chain ?? '' },
        s('title', {}, `${placed.tile}: ${look ? look.name : 'no chain yet'}`),
        s('rect', { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 4, fill: look ? look.colour : '#c8c8c8', class: 'tile-face' }),
        s('text', { x: x + CELL / 2, y: y + CELL / 2 + 5, 'text-anchor': 'middle', class: 'tile-letter', fill: look ? look.ink : '#000' }, look ? look.letter : placed.tile),
      ),
    );
  }
  for (const tile of view.removed) {
    const [x, y] = at(tile);
    parts.push(s('g', { class: 'removed' }, s('title', {}, `${tile}: out of the game`), s('text', { x: x + CELL / 2, y: y + CELL / 2 + 5, 'text-anchor': 'middle', class: 'small' }, '✕')));
  }
  // The viewer's own tiles: outlined, and a button where placing it is legal.
  const me = ctx.seat == null ? null : view.players[ctx.seat];
  for (const tile of me?.hand ?? []) {
    const [x, y] = at(tile);
    const places = ctx.legal.filter((a) => a.type === 'place_tile' && a.tile === tile);
    const g = s(
      'g',
      { class: 'hand-tile', 'data-tile': tile },
      s('rect', { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 4, class: places.length ? 'hand-playable' : 'hand-idle' }),
      s('text', { x: x + CELL / 2, y: y + CELL / 2 + 5, 'text-anchor': 'middle', class: 'small' }, tile),
    );
    if (places.length) {
      g.setAttribute('data-actions', JSON.stringify(places));
      svgButton(g, `Place ${tile}`, () => ctx.offer(places, `Place ${tile}: which chain do you found?`));
    } else {
      g.append(s('title', {}, `${tile}: your tile`));
    }
    parts.push(g);
  }
  return s(
    'svg',
    {
      class: 'board acquire',
      viewBox: `0 0 ${MARGIN + columns.length * CELL + 4} ${MARGIN + rows.length * CELL + 4}`,
      role: 'group',
      'aria-label': 'Board',
    },
    parts,
  );
}

/**
 * The chains: size, price, bonuses and the share bank, with a buy button where legal.
 * @param {BoardContext} ctx
 */
function chainTable(ctx) {
  /** @type {View} */
  const view = ctx.view;
  /** @type {Data} */
  const data = ctx.data;
  const me = ctx.seat == null ? null : view.players[ctx.seat];
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'chains' },
      h('caption', {}, 'Chains and the share bank'),
      h(
        'thead',
        {},
        h('tr', {}, ['Chain', 'Size', 'Price', 'Bonuses', 'Bank', me ? 'Yours' : null, ''].filter((x) => x !== null).map((t) => h('th', { scope: 'col' }, t))),
      ),
      h(
        'tbody',
        {},
        view.chains.map((c, i) => {
          const look = chainLook(data, c.chain);
          const buy = ctx.legal.filter((a) => a.type === 'buy_share' && a.chain === c.chain);
          return h(
            'tr',
            { 'data-chain': c.chain, class: c.active ? 'active' : 'inactive' },
            h('th', { scope: 'row' }, chip(look.colour, look.letter, look.ink), ' ', c.name, c.safe ? h('small', {}, ' safe') : null),
            h('td', { class: 'num' }, c.active ? c.size : '–'),
            h('td', { class: 'num' }, c.active ? money(c.price) : '–'),
            h('td', { class: 'num' }, c.active ? `${money(c.majority_bonus)} / ${money(c.minority_bonus)}` : '–'),
            h('td', { class: 'num' }, c.bank_shares),
            me ? h('td', { class: 'num' }, me.shares ? me.shares[i] : '?') : null,
            h(
              'td',
              {},
              buy.length
                ? h('button', { type: 'button', class: 'buy', 'data-actions': JSON.stringify(buy), onclick: () => ctx.offer(buy, 'Buy which share?') }, `Buy (${money(c.price)})`)
                : null,
            ),
          );
        }),
      ),
    ),
  );
}

/**
 * The merger being settled, in words.
 * @param {View} view
 * @param {Lookup} ctx
 */
function mergerText(view, ctx) {
  const m = view.merger;
  if (!m) return null;
  const chains = m.chains.map((c) => `${chainName(ctx.data, c.chain)} (${c.size})`).join(', ');
  const survivor = m.survivor ? `; ${chainName(ctx.data, m.survivor)} survives` : '; the survivor is still to be chosen';
  const deciding = m.disposers.length ? `; ${ctx.name(m.disposers[0])} decides on the shares` : '';
  return `Merger: ${ctx.name(m.maker)}'s ${m.tile} joins ${chains}${survivor}${deciding}.`;
}

/** @type {import('./index.js').BoardModule} */
export default {
  render(ctx) {
    /** @type {View} */
    const view = ctx.view;
    const me = ctx.seat == null ? null : view.players[ctx.seat];
    const merger = mergerText(view, ctx);
    return h(
      'div',
      { class: 'acquire-board' },
      grid(ctx),
      merger ? h('p', { class: 'merger' }, merger) : null,
      me?.hand
        ? h('p', { class: 'hand', 'data-hand': ctx.seat }, 'Your tiles: ', me.hand.length ? me.hand.join(', ') : 'none')
        : null,
      chainTable(ctx),
      h(
        'p',
        { class: 'small' },
        `Tiles face down: ${view.draw_pile}.`,
        view.bank_tiles.length ? ` Bank tiles waiting: ${view.bank_tiles.join(', ')}.` : '',
        view.end_conditions_hold ? ' The end may be announced.' : '',
      ),
    );
  },

  playerRows(ctx, seat) {
    /** @type {View} */
    const view = ctx.view;
    const p = view.players[seat];
    if (!p) return [];
    const shares = p.shares
      ? p.shares
          .map((n, i) => (n ? `${view.chains[i]?.name ?? i} ${n}` : null))
          .filter(Boolean)
          .join(', ') || 'none'
      : 'hidden';
    return [
      ['Cash', p.cash == null ? 'hidden' : money(p.cash)],
      ['Shares', shares],
      ['Tiles in hand', String(p.hand_size)],
    ];
  },

  status(ctx) {
    /** @type {View} */
    const view = ctx.view;
    if (view.stage.stage === 'finished') return 'Game over';
    if (view.merger) return mergerText(view, ctx);
    if (view.stage.stage === 'turn') return `${ctx.name(view.stage.seat)}'s turn`;
    return null;
  },

  /** @param {Action} a */
  describeAction(a, ctx) {
    /** @type {Data} */
    const data = ctx.data;
    switch (a.type) {
      case 'place_tile':
        return a.chain ? `Place ${a.tile} and found ${chainName(data, a.chain)}` : `Place ${a.tile}`;
      case 'choose_survivor':
        return `${chainName(data, a.chain)} survives`;
      case 'order_defuncts':
        return `Settle ${a.order.map((c) => chainName(data, c)).join(', then ')}`;
      case 'dispose_shares':
        return a.sell === 0 && a.trade === 0 ? 'Keep all shares' : `Sell ${a.sell}, trade ${a.trade} (for ${a.trade / 2}), keep the rest`;
      case 'announce_end':
        return 'Announce the end of the game';
      case 'buy_share': {
        /** @type {View | undefined} */
        const view = ctx.view;
        const price = view?.chains.find((c) => c.chain === a.chain)?.price;
        return `Buy a ${chainName(data, a.chain)} share${price ? ` (${money(price)})` : ''}`;
      }
      case 'end_turn':
        return 'End the turn';
    }
  },

  /** @param {Event} e */
  describeEvent(e, ctx) {
    /** @type {Data} */
    const data = ctx.data;
    const name = ctx.name;
    const chain = (/** @type {string} */ c) => chainName(data, c);
    switch (e.type) {
      case 'game_started':
        return `The game starts with ${e.players} players.`;
      case 'tiles_shuffled':
        return `The ${e.tiles} tiles are shuffled face down.`;
      case 'start_tile_placed':
        return `${name(e.seat)} draws ${e.tile} and places it to start.`;
      case 'tile_drawn':
        return e.tile ? `${name(e.seat)} draws ${e.tile}.` : `${name(e.seat)} draws a tile.`;
      case 'turn_started':
        return `${name(e.seat)}'s turn.`;
      case 'placement_skipped':
        return `${name(e.seat)} has no tile that can be placed.`;
      case 'tile_placed':
        return `${name(e.seat)} places ${e.tile}.`;
      case 'chain_founded':
        return `${name(e.seat)} founds ${chain(e.chain)} with ${e.tiles.join(', ')}${e.free_share ? ' and gets a free share' : ''}.`;
      case 'chain_grew':
        return `${chain(e.chain)} grows by ${e.tiles.join(', ')}.`;
      case 'merger_started':
        return `${name(e.maker)}'s ${e.tile} merges ${e.chains.map((c) => `${chain(c.chain)} (${c.size})`).join(' and ')}.`;
      case 'survivor_chosen':
        return `${chain(e.chain)} survives the merger.`;
      case 'defuncts_ordered':
        return `The defunct chains are settled in this order: ${e.order.map((c) => chain(c.chain)).join(', ')}.`;
      case 'bank_tile_drawn':
        return `The bank draws ${e.tile ?? 'nothing'} for ${chain(e.chain)}: it holds ${e.holding}.`;
      case 'bonuses_paid':
        return `Bonuses for ${chain(e.chain)} at size ${e.size}: ${e.payouts.map((p) => `${name(p.seat)} ${money(p.amount)}`).join(', ') || 'none'}${e.bank_award ? `; the bank's ${money(e.bank_award)} is not paid` : ''}.`;
      case 'disposal_started':
        return `Holders of ${chain(e.chain)} decide in turn: ${e.holders.map((s) => name(s)).join(', ')}.`;
      case 'shares_disposed':
        return `${name(e.seat)} sells ${e.sold} ${chain(e.chain)} for ${money(e.proceeds)}, trades ${e.traded} for ${e.traded / 2} ${chain(e.survivor)} and keeps ${e.kept}.`;
      case 'chain_absorbed':
        return `${chain(e.defunct)} joins ${chain(e.survivor)}.`;
      case 'merger_completed':
        return `The merger is complete: ${chain(e.survivor)} takes ${e.tiles.join(', ')}.`;
      case 'bank_tile_placed':
        return `The bank places ${e.tile}.`;
      case 'bank_tile_set_aside':
        return `The bank's ${e.tile} cannot be placed and leaves the game.`;
      case 'end_announced':
        return `${name(e.seat)} announces the end of the game.`;
      case 'share_bought':
        return `${name(e.seat)} buys a ${chain(e.chain)} share for ${money(e.price)}.`;
      case 'dead_tile_removed':
        return `${name(e.seat)} shows ${e.tile}, which can never be placed, and it leaves the game.`;
      case 'turn_ended':
        return `${name(e.seat)} ends the turn.`;
      case 'final_scoring_started':
        return e.reason === 'announced' ? 'Final scoring begins.' : 'A full round passed without a tile: final scoring begins.';
      case 'shares_sold':
        return `${name(e.seat)} sells ${e.count} ${chain(e.chain)} at ${money(e.price)}: ${money(e.proceeds)}.`;
      case 'game_ended':
        return `The game is over. ${e.outcome.winners.map((w) => name(w)).join(' and ')} ${e.outcome.winners.length > 1 ? 'win' : 'wins'}.`;
    }
  },
};
