// Acquire's board: the 12 × 9 grid with the placed tiles (each chain a colour and a letter),
// the tile just placed marked, the viewer's own tiles outlined where they would go, and a
// legend; beside it the chains with size, price, bonuses and the share bank. Click a tile of
// yours to place it, a chain's button to buy a share; a merger's shares are sold, traded and
// kept with one form, and several shares are bought in one go. Only the viewer's own hand is
// ever drawn: the server sends no other.

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
const money = (n) => `$${n.toLocaleString('en')}`;

/**
 * A name with its indefinite article: "an Airport", "a Tower".
 * @param {string} name
 */
const withArticle = (name) => `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;

/**
 * `9F` → column 9, row F.
 * @param {string} tile
 */
function square(tile) {
  const m = /^(\d+)([A-Z])$/.exec(tile);
  return m ? { column: Number(m[1]), row: m[2] } : { column: 0, row: '' };
}

/**
 * The tiles next to `tile` (no diagonals).
 * @param {Data} data
 * @param {string} tile
 */
function neighbours(data, tile) {
  const { column, row } = square(tile);
  const r = data.board.rows.indexOf(row);
  return [
    [column - 1, r],
    [column + 1, r],
    [column, r - 1],
    [column, r + 1],
  ]
    .filter(([c, rr]) => data.board.columns.includes(c) && rr >= 0 && rr < data.board.rows.length)
    .map(([c, rr]) => `${c}${data.board.rows[rr]}`);
}

/**
 * What placing `tile` does: found, grow, merge, or stand alone.
 * @param {Lookup} ctx
 * @param {string} tile
 * @param {string | null | undefined} founds
 */
function placementText(ctx, tile, founds) {
  /** @type {Data} */
  const data = ctx.data;
  /** @type {View | undefined} */
  const view = ctx.view;
  if (founds) return `Place ${tile} and found ${chainName(data, founds)} (a free share for you)`;
  if (!view) return `Place ${tile}`;
  const near = neighbours(data, tile)
    .map((t) => view.board.find((p) => p.tile === t))
    .filter((p) => p !== undefined);
  const chains = [...new Set(near.map((p) => p.chain).filter((c) => c != null))];
  if (chains.length >= 2) return `Place ${tile}: merges ${chains.map((c) => chainName(data, /** @type {string} */ (c))).join(' and ')}`;
  if (chains.length === 1) return `Place ${tile}: ${chainName(data, /** @type {string} */ (chains[0]))} grows`;
  return near.length ? `Place ${tile} next to ${near.map((p) => p.tile).join(', ')}` : `Place ${tile}`;
}

/**
 * Tiles placed by the move just shown.
 * @param {any[]} recent
 * @returns {Set<string>}
 */
function freshTiles(recent) {
  const tiles = new Set();
  for (const e of /** @type {Event[]} */ (recent)) {
    if (e.type === 'tile_placed' || e.type === 'start_tile_placed' || e.type === 'bank_tile_placed') tiles.add(e.tile);
  }
  return tiles;
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
  const fresh = freshTiles(ctx.recent);
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
    const isFresh = fresh.has(placed.tile);
    parts.push(
      s(
        'g',
        { class: `tile${isFresh ? ' fresh' : ''}`, 'data-tile': placed.tile, 'data-chain': placed.chain ?? '' },
        s('title', {}, `${placed.tile}: ${look ? look.name : 'no chain yet'}${isFresh ? ', just placed' : ''}`),
        s('rect', { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 4, fill: look ? look.colour : '#c8c8c8', class: 'tile-face' }),
        s('text', { x: x + CELL / 2, y: y + CELL / 2 + 6, 'text-anchor': 'middle', class: 'tile-letter', fill: look ? look.ink : '#000' }, look ? look.letter : placed.tile),
      ),
    );
    if (isFresh) parts.push(s('rect', { x: x - 1, y: y - 1, width: CELL + 2, height: CELL + 2, rx: 6, class: 'recent-mark' }));
  }
  for (const tile of view.removed) {
    const [x, y] = at(tile);
    parts.push(s('g', { class: 'removed' }, s('title', {}, `${tile}: out of the game (it could never be placed)`), s('text', { x: x + CELL / 2, y: y + CELL / 2 + 5, 'text-anchor': 'middle', class: 'small' }, '✕')));
  }
  // The viewer's own tiles: outlined, and a button where placing it is legal.
  const me = ctx.seat == null ? null : view.players[ctx.seat];
  for (const tile of me?.hand ?? []) {
    const [x, y] = at(tile);
    const places = ctx.legal.filter((a) => a.type === 'place_tile' && a.tile === tile);
    const g = s(
      'g',
      { class: 'hand-tile', 'data-tile': tile },
      // The whole square takes the touch; the outline shows inside it.
      s('rect', { x, y, width: CELL, height: CELL, fill: 'transparent' }),
      s('rect', { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 4, class: places.length ? 'hand-playable' : 'hand-idle' }),
      s('text', { x: x + CELL / 2, y: y + CELL / 2 + 5, 'text-anchor': 'middle', class: 'small' }, tile),
    );
    if (places.length) {
      const only = /** @type {Action | undefined} */ (places[0]);
      const label = places.length > 1 ? `Place ${tile} and found a chain` : placementText(ctx, tile, only?.type === 'place_tile' ? only.chain : null);
      svgButton(g, { x, y, width: CELL, height: CELL }, label, places, () =>
        ctx.offer(places, `Place ${tile}: which chain do you found?`),
      );
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
 * What the marks on the board mean.
 * @param {BoardContext} ctx
 */
function legend(ctx) {
  /** @type {View} */
  const view = ctx.view;
  return h(
    'p',
    { class: 'legend small' },
    h('span', {}, chip('#c8c8c8', '·'), ' a tile in no chain yet'),
    h('span', {}, '✕ out of the game (could never be placed)'),
    ctx.seat != null && view.players[ctx.seat]?.hand ? h('span', {}, '▭ your tiles, outlined where they would go') : null,
    h('span', {}, '▦ dashed orange frame: just placed'),
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
    // On a phone the table scrolls sideways: a keyboard reaches it too (WCAG 2.1.1).
    { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': 'Chains and the share bank' },
    h(
      'table',
      { class: 'chains' },
      h('caption', {}, 'Chains and the share bank'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Chain', 'Size', 'Price', 'Bonuses (first / second)', 'Bank', me ? 'Yours' : null, 'Buy'].filter((x) => x !== null).map((t) => h('th', { scope: 'col' }, t)),
        ),
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
                ? h('button', { type: 'button', class: 'buy', 'data-actions': JSON.stringify(buy), 'aria-label': `Buy ${withArticle(c.name)} share for ${money(c.price)}`, onclick: () => ctx.offer(buy, 'Buy which share?') }, money(c.price))
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
  return `Merger: ${ctx.name(m.maker)}'s ${m.tile} joins ${chains}${survivor}.`;
}

/**
 * The form for a merger's shares: how many to sell and to trade (two for one of the
 * survivor), the rest kept. It stands for every `dispose_shares` action the seat may take.
 * @param {BoardContext} ctx
 * @param {Array<Action & {type: 'dispose_shares'}>} choices
 */
function disposeForm(ctx, choices) {
  /** @type {View} */
  const view = ctx.view;
  /** @type {Data} */
  const data = ctx.data;
  const m = view.merger;
  const defunct = m?.defuncts[0]?.chain;
  const i = view.chains.findIndex((c) => c.chain === defunct);
  const held = ctx.seat == null ? 0 : (view.players[ctx.seat]?.shares?.[i] ?? 0);
  const price = view.chains[i]?.price ?? 0;
  const survivor = m?.survivor ? chainName(data, m.survivor) : 'the survivor';
  const maxSell = Math.max(...choices.map((c) => c.sell));
  const maxTrade = Math.max(...choices.map((c) => c.trade));
  const sell = h('input', { type: 'number', id: 'dispose-sell', name: 'sell', min: 0, max: maxSell, step: 1, value: 0 });
  const trade = h('input', { type: 'number', id: 'dispose-trade', name: 'trade', min: 0, max: maxTrade, step: 2, value: 0 });
  const summary = h('p', { class: 'hint', 'aria-live': 'polite' });
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const update = () => {
    const s = Number(sell.value) || 0;
    const t = Number(trade.value) || 0;
    summary.textContent = `Sell ${s} for ${money(s * price)}, trade ${t} for ${t / 2} ${survivor}, keep ${held - s - t}.`;
  };
  sell.addEventListener('input', update);
  trade.addEventListener('input', update);
  update();
  const name = defunct ? chainName(data, defunct) : 'the defunct chain';
  return h(
    'form',
    {
      class: 'board-form dispose',
      'data-actions': JSON.stringify(choices),
      novalidate: true,
      onsubmit: (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        const chosen = choices.find((c) => c.sell === Number(sell.value) && c.trade === Number(trade.value));
        error.hidden = !!chosen;
        if (!chosen) {
          error.textContent = `That is not possible: sell up to ${maxSell}, trade an even number up to ${maxTrade}, and not more than your ${held} shares (the bank must have the ${survivor} shares).`;
          return;
        }
        ctx.act(chosen);
      },
    },
    h('h3', {}, `Your ${held} ${name} shares`),
    h('p', { class: 'hint' }, `Sell at ${money(price)} each, trade two for one ${survivor} share, keep the rest for later.`),
    h('div', { class: 'field' }, h('label', { for: 'dispose-sell' }, 'Sell'), sell),
    h('div', { class: 'field' }, h('label', { for: 'dispose-trade' }, `Trade (even, for ${survivor})`), trade),
    summary,
    error,
    h('button', { type: 'submit', class: 'action' }, 'Settle my shares'),
  );
}

/**
 * The tiles that may be placed, a button each; a tile that founds a chain asks which.
 * @param {BoardContext} ctx
 * @param {Array<Action & {type: 'place_tile'}>} places
 */
function handButtons(ctx, places) {
  /** @type {Map<string, Array<Action & {type: 'place_tile'}>>} */
  const byTile = new Map();
  for (const a of places) byTile.set(a.tile, [...(byTile.get(a.tile) ?? []), a]);
  return h(
    'div',
    { class: 'action-group', 'data-kind': 'place_tile' },
    [...byTile.entries()].map(([tile, actions]) =>
      h(
        'button',
        {
          type: 'button',
          class: 'action',
          'data-actions': JSON.stringify(actions),
          onclick: () => ctx.offer(actions, `Place ${tile}: which chain do you found?`),
        },
        actions.length > 1 ? `Place ${tile} and found a chain…` : placementText(ctx, tile, actions[0]?.chain),
      ),
    ),
  );
}

/**
 * Buying several shares at once: a count per chain, submitted as one buy after another.
 * @param {BoardContext} ctx
 * @param {Array<Action & {type: 'buy_share'}>} buys
 */
function buyForm(ctx, buys) {
  /** @type {View} */
  const view = ctx.view;
  const stage = view.stage.stage === 'turn' ? view.stage : null;
  const left = 3 - (stage?.bought ?? 0);
  const me = ctx.seat == null ? null : view.players[ctx.seat];
  const cash = me?.cash ?? 0;
  const inputs = buys.map((b) => {
    const chain = view.chains.find((c) => c.chain === b.chain);
    const input = h('input', { type: 'number', min: 0, max: Math.min(left, chain?.bank_shares ?? 0), step: 1, value: 0, 'aria-label': `${chain?.name ?? b.chain} shares to buy` });
    return { buy: b, price: chain?.price ?? 0, input, element: h('label', { class: 'count' }, h('span', {}, chain?.name ?? b.chain, h('small', {}, ` ${money(chain?.price ?? 0)}`)), input) };
  });
  const submit = h('button', { type: 'submit', class: 'action', id: 'buy-several' }, 'Buy');
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const update = () => {
    const n = inputs.reduce((sum, i) => sum + (Number(i.input.value) || 0), 0);
    const cost = inputs.reduce((sum, i) => sum + (Number(i.input.value) || 0) * i.price, 0);
    submit.textContent = n === 0 ? 'Buy shares: choose how many above' : `Buy ${n} share${n === 1 ? '' : 's'} for ${money(cost)}`;
    // Nothing chosen is nothing to submit.
    submit.disabled = n === 0;
    return { n, cost };
  };
  inputs.forEach((i) => i.input.addEventListener('input', update));
  update();
  return h(
    'form',
    {
      class: 'board-form buy-several',
      novalidate: true,
      onsubmit: (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        const { n, cost } = update();
        const problem = n === 0 ? 'Choose at least one share.' : n > left ? `At most ${left} more this turn.` : cost > cash ? `That costs ${money(cost)}; you have ${money(cash)}.` : null;
        error.hidden = !problem;
        error.textContent = problem ?? '';
        if (problem) return;
        ctx.actAll(inputs.flatMap((i) => Array.from({ length: Number(i.input.value) || 0 }, () => i.buy)));
      },
    },
    h('fieldset', { class: 'counts' }, h('legend', {}, `Buy several (up to ${left} this turn)`), inputs.map((i) => i.element)),
    error,
    submit,
  );
}

/** @type {import('./index.js').BoardModule} */
export default {
  minWidth: 560,

  kindLabels: { order_defuncts: 'Order of settling', buy_share: 'Buy a share' },

  rules: [
    ['Goal', ['Be the richest at the end: cash, plus bonuses and the sale of every share at the end.']],
    [
      'Your turn',
      [
        'Place one of your six tiles on its square. Then buy up to three shares of chains on the board, at the price their size sets. Then draw a tile.',
        'A tile next to a lone tile founds a chain of your choice, and you get one free share. A tile next to a chain makes it grow.',
      ],
    ],
    [
      'Mergers',
      [
        'A tile that joins two or more chains merges them: the largest survives (on a tie the player who placed the tile chooses). Chains of 11 or more tiles are safe and never swallowed.',
        'For each swallowed chain, its two largest shareholders are paid the first and second bonus. Then each holder sells shares at the chain’s price, trades two for one of the survivor, or keeps them for when the chain comes back.',
      ],
    ],
    ['The end', ['A player may announce the end on their turn when a chain has 41 or more tiles, or when the chains on the board meet the game’s end condition. Then bonuses are paid for every chain and every share is sold.']],
  ],

  render(ctx) {
    /** @type {View} */
    const view = ctx.view;
    const me = ctx.seat == null ? null : view.players[ctx.seat];
    const merger = mergerText(view, ctx);
    return {
      drawing: grid(ctx),
      panels: [
        legend(ctx),
        merger ? h('p', { class: 'merger' }, merger) : null,
        me?.hand ? h('p', { class: 'hand', 'data-hand': ctx.seat }, 'Your tiles: ', me.hand.length ? me.hand.join(', ') : 'none') : null,
        chainTable(ctx),
        h(
          'p',
          { class: 'small' },
          `Tiles face down: ${view.draw_pile}.`,
          view.bank_tiles.length ? ` Bank tiles waiting: ${view.bank_tiles.join(', ')}.` : '',
          view.end_conditions_hold ? ' The end may be announced.' : '',
        ),
      ].filter((x) => x !== null),
    };
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
    if (view.merger) return 'Merger';
    if (view.stage.stage === 'turn') return `${ctx.name(view.stage.seat)}'s turn`;
    return null;
  },

  prompt(ctx) {
    /** @type {View} */
    const view = ctx.view;
    /** @type {Data} */
    const data = ctx.data;
    const stage = view.stage;
    if (stage.stage !== 'turn') return null;
    const me = ctx.seat == null ? null : view.players[ctx.seat];
    const yours = ctx.legal.length > 0 || ctx.templates.length > 0;
    /** @type {string[]} */
    const details = [];
    if (me?.cash != null) details.push(`Your cash: ${money(me.cash)}.`);
    const m = view.merger;
    if (m) {
      details.unshift(/** @type {string} */ (mergerText(view, ctx)));
      const defunct = m.defuncts[0];
      if (defunct && m.settling) {
        const chain = view.chains.find((c) => c.chain === defunct.chain);
        details.push(`${chainName(data, defunct.chain)} is being settled at ${money(chain?.price ?? 0)} a share; still to decide: ${m.disposers.map((s) => ctx.name(s)).join(', ') || 'nobody'}.`);
      }
      if (!yours) return { title: `${ctx.name(m.disposers[0] ?? m.maker)} decides on the merger.`, details };
      if (ctx.legal.some((a) => a.type === 'choose_survivor')) return { title: 'The merging chains are equally large: choose the one that survives.', details };
      if (ctx.legal.some((a) => a.type === 'order_defuncts')) return { title: 'Choose the order in which the swallowed chains are settled.', details };
      return { title: 'Decide what to do with your shares of the swallowed chain.', details };
    }
    if (!yours) {
      const doing = stage.step === 'place' ? 'placing a tile' : stage.step === 'buy' ? 'buying shares' : 'settling a merger';
      return { title: `${ctx.name(stage.seat)} is ${doing}.`, details };
    }
    if (stage.step === 'place') {
      return { title: 'Place one of your tiles: they are outlined on the board.', details: [`Your tiles: ${me?.hand?.join(', ') || 'none'}.`, ...details] };
    }
    const left = 3 - stage.bought;
    const buyable = view.chains.filter((c) => c.active && c.bank_shares > 0).map((c) => `${c.name} ${money(c.price)}`);
    if (buyable.length) details.push(`For sale: ${buyable.join(', ')}.`);
    return { title: left > 0 ? `Buy up to ${left} share${left === 1 ? '' : 's'}, then end your turn.` : 'End your turn to draw a tile.', details };
  },

  controls(ctx) {
    /** @type {Array<Action & {type: 'place_tile'}>} */
    const places = /** @type {any[]} */ (ctx.legal.filter((a) => a.type === 'place_tile'));
    /** @type {Array<Action & {type: 'dispose_shares'}>} */
    const disposals = /** @type {any[]} */ (ctx.legal.filter((a) => a.type === 'dispose_shares'));
    /** @type {Array<Action & {type: 'buy_share'}>} */
    const buys = /** @type {any[]} */ (ctx.legal.filter((a) => a.type === 'buy_share'));
    /** @type {View} */
    const view = ctx.view;
    const left = view.stage.stage === 'turn' ? 3 - view.stage.bought : 0;
    /** @type {Node[]} */
    const controls = [];
    if (places.length) controls.push(handButtons(ctx, places));
    if (disposals.length) controls.push(disposeForm(ctx, disposals));
    if (buys.length && left > 1) controls.push(buyForm(ctx, buys));
    return { kinds: [places.length ? 'place_tile' : '', disposals.length ? 'dispose_shares' : ''].filter(Boolean), controls };
  },

  /** @param {Action} a */
  describeAction(a, ctx) {
    /** @type {Data} */
    const data = ctx.data;
    /** @type {View | undefined} */
    const view = ctx.view;
    switch (a.type) {
      case 'place_tile':
        return placementText(ctx, a.tile, a.chain);
      case 'choose_survivor':
        return `${chainName(data, a.chain)} survives; the others are swallowed`;
      case 'order_defuncts':
        return `Settle ${a.order.map((c) => chainName(data, c)).join(', then ')}`;
      case 'dispose_shares': {
        const defunct = view?.merger?.defuncts[0]?.chain;
        const price = view?.chains.find((c) => c.chain === defunct)?.price ?? 0;
        const survivor = view?.merger?.survivor ? chainName(data, view.merger.survivor) : 'the survivor';
        return a.sell === 0 && a.trade === 0 ? 'Keep all your shares' : `Sell ${a.sell} for ${money(a.sell * price)}, trade ${a.trade} for ${a.trade / 2} ${survivor}, keep the rest`;
      }
      case 'announce_end':
        return 'Announce the end: the game is scored after your turn';
      case 'buy_share': {
        const price = view?.chains.find((c) => c.chain === a.chain)?.price;
        return `Buy ${withArticle(chainName(data, a.chain))} share${price ? ` for ${money(price)}` : ''}`;
      }
      case 'end_turn':
        return view?.stage.stage === 'turn' && view.stage.announced ? 'End the game: final scoring' : 'End your turn and draw a tile';
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
        return `${name(e.maker)}'s ${e.tile} merges ${e.chains.map((c) => `${chain(c.chain)} (${c.size} tiles)`).join(' and ')}.`;
      case 'survivor_chosen':
        return `${chain(e.chain)} survives the merger.`;
      case 'defuncts_ordered':
        return `The swallowed chains are settled in this order: ${e.order.map((c) => chain(c.chain)).join(', ')}.`;
      case 'bank_tile_drawn':
        return e.tile ? `The bank draws ${e.tile} and now holds ${e.holding} ${chain(e.chain)} shares for the bonuses.` : `The bank draws no tile and holds ${e.holding} ${chain(e.chain)} shares for the bonuses.`;
      case 'bonuses_paid':
        return `Bonuses for ${chain(e.chain)} at ${e.size} tiles: ${e.payouts.map((p) => `${name(p.seat)} ${money(p.amount)}`).join(', ') || 'nobody holds a share'}${e.bank_award ? `; the bank's ${money(e.bank_award)} stays with the bank` : ''}.`;
      case 'disposal_started':
        return `Holders of ${chain(e.chain)} decide in turn what to do with their shares: ${e.holders.map((s) => name(s)).join(', ')}.`;
      case 'shares_disposed': {
        if (e.sold === 0 && e.traded === 0) return `${name(e.seat)} keeps all ${e.kept} ${chain(e.chain)} share${e.kept === 1 ? '' : 's'}.`;
        const parts = [
          e.sold ? `sells ${e.sold} ${chain(e.chain)} for ${money(e.proceeds)}` : null,
          e.traded ? `trades ${e.traded} for ${e.traded / 2} ${chain(e.survivor)}` : null,
          e.kept ? `keeps ${e.kept}` : null,
        ].filter(Boolean);
        return `${name(e.seat)} ${parts.join(', ').replace(/, ([^,]*)$/, ' and $1')}.`;
      }
      case 'chain_absorbed':
        return `${chain(e.defunct)} is swallowed by ${chain(e.survivor)}.`;
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
        return e.reason === 'announced' ? 'Final scoring: bonuses for every chain, then every share is sold.' : 'A full round passed without a tile placed: final scoring begins.';
      case 'shares_sold':
        return `${name(e.seat)} sells ${e.count} ${chain(e.chain)} share${e.count === 1 ? '' : 's'} at ${money(e.price)}: ${money(e.proceeds)}.`;
      case 'game_ended':
        return `The game is over. ${e.outcome.winners.map((w) => name(w)).join(' and ')} ${e.outcome.winners.length > 1 ? 'win' : 'wins'} with ${money(Math.max(...e.outcome.scores))}.`;
    }
  },

  scoreText: money,

  scoreSheet(ctx) {
    const events = ctx.events.map((e) => /** @type {Event} */ (e.event));
    const start = events.findIndex((e) => e.type === 'final_scoring_started');
    const tail = start < 0 ? [] : events.slice(start);
    /** @type {View} */
    const view = ctx.view;
    const bonuses = view.players.map((p) =>
      tail.reduce((sum, e) => sum + (e.type === 'bonuses_paid' ? e.payouts.filter((x) => x.seat === p.seat).reduce((s2, x) => s2 + x.amount, 0) : 0), 0),
    );
    const sales = view.players.map((p) => tail.reduce((sum, e) => sum + (e.type === 'shares_sold' && e.seat === p.seat ? e.proceeds : 0), 0));
    return {
      caption: 'Money at the end',
      columns: ['Cash before', 'Final bonuses', 'Shares sold'],
      rows: view.players.map((p, seat) => [money((p.cash ?? 0) - bonuses[seat] - sales[seat]), money(bonuses[seat]), money(sales[seat])]),
      note: 'At the end every chain pays its bonuses and every share is sold at its price; the score is the cash then.',
    };
  },
};
