// Acquire's board: the 12 × 9 grid with the placed tiles (each chain a colour and a letter),
// the tile just placed marked, the viewer's own tiles outlined where they would go, and a
// legend; beside it the chains with size, price, bonuses and the share bank. Click a tile of
// yours to place it, a chain's button to buy a share; a merger's shares are sold, traded and
// kept with one form, and several shares are bought in one go. Only the viewer's own hand is
// ever drawn: the server sends no other.

import { chip, h, s, svgButton } from '../dom.js';
import { preview } from './preview-acquire.js';
import { list, money as formatMoney, t, tn } from '../i18n/index.js';

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
const money = (n) => formatMoney('acquire', n);

/**
 * A key with its variant for a name that starts with a vowel (`…Vowel`): English says "an
 * Airport share"; the other catalogues have the same words in both.
 * @param {'aq.act.buy' | 'aq.act.buyFor' | 'aq.ev.bought'} key
 * @param {string} chain
 * @returns {import('../i18n/index.js').Key}
 */
const articled = (key, chain) => (/^[aeiou]/i.test(chain) ? /** @type {const} */ (`${key}Vowel`) : key);

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
  if (founds) return t('aq.place.found', { tile, chain: chainName(data, founds) });
  if (!view) return t('aq.place', { tile });
  const near = neighbours(data, tile)
    .map((t) => view.board.find((p) => p.tile === t))
    .filter((p) => p !== undefined);
  const chains = [...new Set(near.map((p) => p.chain).filter((c) => c != null))];
  if (chains.length >= 2) return t('aq.place.merges', { tile, chains: list(chains.map((c) => chainName(data, /** @type {string} */ (c)))) });
  if (chains.length === 1) return t('aq.place.grows', { tile, chain: chainName(data, /** @type {string} */ (chains[0])) });
  return near.length ? t('aq.place.next', { tile, tiles: near.map((p) => p.tile).join(', ') }) : t('aq.place', { tile });
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
        s('title', {}, `${placed.tile}: ${look ? look.name : t('aq.noChain')}${isFresh ? `, ${t('aq.justPlaced')}` : ''}`),
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
      const label = places.length > 1 ? t('aq.place.foundAny', { tile }) : placementText(ctx, tile, only?.type === 'place_tile' ? only.chain : null);
      svgButton(g, { x, y, width: CELL, height: CELL }, label, places, () =>
        ctx.offer(places, t('aq.place.which', { tile })),
      );
    } else {
      g.append(s('title', {}, t('aq.yourTile', { tile })));
    }
    parts.push(g);
  }
  return s(
    'svg',
    {
      class: 'board acquire',
      viewBox: `0 0 ${MARGIN + columns.length * CELL + 4} ${MARGIN + rows.length * CELL + 4}`,
      role: 'group',
      'aria-label': t('game.board'),
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
    h('span', {}, chip('#c8c8c8', '·'), ` ${t('aq.legend.lone')}`),
    h('span', {}, `✕ ${t('aq.legend.dead')}`),
    ctx.seat != null && view.players[ctx.seat]?.hand ? h('span', {}, `▭ ${t('aq.legend.hand')}`) : null,
    h('span', {}, `▦ ${t('aq.legend.fresh')}`),
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
    { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': t('aq.table') },
    h(
      'table',
      { class: 'chains' },
      h('caption', {}, t('aq.table')),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          [t('aq.col.chain'), t('aq.col.size'), t('aq.col.price'), t('aq.col.bonuses'), t('aq.col.bank'), me ? t('aq.col.yours') : null, t('aq.col.buy')].filter((x) => x !== null).map((head) => h('th', { scope: 'col' }, head)),
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
            h('th', { scope: 'row' }, chip(look.colour, look.letter, look.ink), ' ', c.name, c.safe ? h('small', {}, ` ${t('aq.safe')}`) : null),
            h('td', { class: 'num' }, c.active ? c.size : '–'),
            h('td', { class: 'num' }, c.active ? money(c.price) : '–'),
            h('td', { class: 'num' }, c.active ? `${money(c.majority_bonus)} / ${money(c.minority_bonus)}` : '–'),
            h('td', { class: 'num' }, c.bank_shares),
            me ? h('td', { class: 'num' }, me.shares ? me.shares[i] : '?') : null,
            h(
              'td',
              {},
              buy.length
                ? h('button', { type: 'button', class: 'buy', 'data-actions': JSON.stringify(buy), 'aria-label': t(articled('aq.act.buyFor', c.name), { chain: c.name, price: money(c.price) }), onclick: () => ctx.offer(buy, t('aq.buyWhich')) }
, money(c.price))
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
  const params = { name: ctx.name(m.maker), tile: m.tile, chains };
  return m.survivor ? t('aq.merger.survivor', { ...params, survivor: chainName(ctx.data, m.survivor) }) : t('aq.merger.open', params);
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
  const survivor = m?.survivor ? chainName(data, m.survivor) : t('aq.theSurvivor');
  const maxSell = Math.max(...choices.map((c) => c.sell));
  const maxTrade = Math.max(...choices.map((c) => c.trade));
  const sell = h('input', { type: 'number', id: 'dispose-sell', name: 'sell', min: 0, max: maxSell, step: 1, value: 0 });
  const trade = h('input', { type: 'number', id: 'dispose-trade', name: 'trade', min: 0, max: maxTrade, step: 2, value: 0 });
  const summary = h('p', { class: 'hint', 'aria-live': 'polite' });
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const update = () => {
    const s = Number(sell.value) || 0;
    const tr = Number(trade.value) || 0;
    summary.textContent = `${t('aq.dispose', { sell: s, proceeds: money(s * price), trade: tr, get: tr / 2, survivor, keep: held - s - tr })}.`;
  };
  sell.addEventListener('input', update);
  trade.addEventListener('input', update);
  update();
  const name = defunct ? chainName(data, defunct) : t('aq.theDefunct');
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
          error.textContent = t('aq.dispose.impossible', { maxSell, maxTrade, held, survivor });
          return;
        }
        ctx.act(chosen);
      },
    },
    h('h3', {}, tn('aq.dispose.yourShares', held, { chain: name })),
    h('p', { class: 'hint' }, t('aq.dispose.hint', { price: money(price), survivor })),
    h('div', { class: 'field' }, h('label', { for: 'dispose-sell' }, t('aq.sell')), sell),
    h('div', { class: 'field' }, h('label', { for: 'dispose-trade' }, t('aq.tradeFor', { survivor })), trade),
    summary,
    error,
    h('button', { type: 'submit', class: 'action' }, t('aq.settle')),
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
          onclick: () => ctx.offer(actions, t('aq.place.which', { tile })),
        },
        actions.length > 1 ? `${t('aq.place.foundAny', { tile })}…` : placementText(ctx, tile, actions[0]?.chain),
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
    const input = h('input', { type: 'number', min: 0, max: Math.min(left, chain?.bank_shares ?? 0), step: 1, value: 0, 'aria-label': t('aq.toBuy', { chain: chain?.name ?? b.chain }) });
    return { buy: b, price: chain?.price ?? 0, input, element: h('label', { class: 'count' }, h('span', {}, chain?.name ?? b.chain, h('small', {}, ` ${money(chain?.price ?? 0)}`)), input) };
  });
  const submit = h('button', { type: 'submit', class: 'action', id: 'buy-several' }, t('aq.col.buy'));
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const update = () => {
    const n = inputs.reduce((sum, i) => sum + (Number(i.input.value) || 0), 0);
    const cost = inputs.reduce((sum, i) => sum + (Number(i.input.value) || 0) * i.price, 0);
    submit.textContent = n === 0 ? t('aq.buy.none') : tn('aq.buy.n', n, { cost: money(cost) });
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
        const problem = n === 0 ? t('aq.buy.atLeastOne') : n > left ? t('aq.buy.atMost', { n: left }) : cost > cash ? t('aq.buy.tooDear', { cost: money(cost), cash: money(cash) }) : null;
        error.hidden = !problem;
        error.textContent = problem ?? '';
        if (problem) return;
        ctx.actAll(inputs.flatMap((i) => Array.from({ length: Number(i.input.value) || 0 }, () => i.buy)));
      },
    },
    h('fieldset', { class: 'counts' }, h('legend', {}, t('aq.buy.several', { n: left })), inputs.map((i) => i.element)),

    error,
    submit,
  );
}

/** @type {import('./index.js').BoardModule} */
export default {
  preview,
  minWidth: 560,

  kindLabels: { order_defuncts: t('aq.kind.order'), buy_share: t('aq.kind.buy') },

  rules: [
    [t('rules.goal'), [t('aq.rules.goal')]],
    [t('rules.turn'), [t('aq.rules.turn1'), t('aq.rules.turn2')]],
    [t('aq.rules.mergers'), [t('aq.rules.mergers1'), t('aq.rules.mergers2')]],
    [t('rules.end'), [t('aq.rules.end')]],
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
        me?.hand ? h('p', { class: 'hand', 'data-hand': ctx.seat }, `${t('aq.yourTiles')}: `, me.hand.length ? me.hand.join(', ') : t('common.none')) : null,
        chainTable(ctx),
        h(
          'p',
          { class: 'small' },
          t('aq.drawPile', { n: view.draw_pile }),
          view.bank_tiles.length ? ` ${t('aq.bankTiles', { tiles: view.bank_tiles.join(', ') })}` : '',
          view.end_conditions_hold ? ` ${t('aq.mayAnnounce')}` : '',
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
          .join(', ') || t('common.none')
      : t('aq.hidden');
    return [
      [t('aq.row.cash'), p.cash == null ? t('aq.hidden') : money(p.cash)],
      [t('aq.row.shares'), shares],
      [t('aq.row.tiles'), String(p.hand_size)],
    ];
  },

  status(ctx) {
    /** @type {View} */
    const view = ctx.view;
    if (view.stage.stage === 'finished') return t('status.over');
    if (view.merger) return t('aq.merger');
    if (view.stage.stage === 'turn') return t('status.turn', { name: ctx.name(view.stage.seat) });
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
    if (me?.cash != null) details.push(t('prompt.yourCash', { cash: money(me.cash) }));
    const m = view.merger;
    if (m) {
      details.unshift(/** @type {string} */ (mergerText(view, ctx)));
      const defunct = m.defuncts[0];
      if (defunct && m.settling) {
        const chain = view.chains.find((c) => c.chain === defunct.chain);
        details.push(t('aq.prompt.settling', { chain: chainName(data, defunct.chain), price: money(chain?.price ?? 0), names: m.disposers.map((s) => ctx.name(s)).join(', ') || t('game.nobody') }));
      }
      if (!yours) return { title: t('aq.prompt.decides', { name: ctx.name(m.disposers[0] ?? m.maker) }), details };
      if (ctx.legal.some((a) => a.type === 'choose_survivor')) return { title: t('aq.prompt.survivor'), details };
      if (ctx.legal.some((a) => a.type === 'order_defuncts')) return { title: t('aq.prompt.order'), details };
      return { title: t('aq.prompt.dispose'), details };
    }
    if (!yours) {
      const doing = stage.step === 'place' ? 'aq.prompt.placing' : stage.step === 'buy' ? 'aq.prompt.buying' : 'aq.prompt.merging';
      return { title: t(doing, { name: ctx.name(stage.seat) }), details };
    }
    if (stage.step === 'place') {
      return { title: t('aq.prompt.place'), details: [`${t('aq.yourTiles')}: ${me?.hand?.join(', ') || t('common.none')}.`, ...details] };
    }
    const left = 3 - stage.bought;
    const buyable = view.chains.filter((c) => c.active && c.bank_shares > 0).map((c) => `${c.name} ${money(c.price)}`);
    if (buyable.length) details.push(t('aq.prompt.forSale', { list: buyable.join(', ') }));
    return { title: left > 0 ? tn('aq.prompt.buy', left) : t('aq.prompt.endToDraw'), details };
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
        return t('aq.act.survivor', { chain: chainName(data, a.chain) });
      case 'order_defuncts':
        return t('aq.act.order', { chains: a.order.map((c) => chainName(data, c)).join(t('aq.thenSep')) });
      case 'dispose_shares': {
        const defunct = view?.merger?.defuncts[0]?.chain;
        const price = view?.chains.find((c) => c.chain === defunct)?.price ?? 0;
        const survivor = view?.merger?.survivor ? chainName(data, view.merger.survivor) : t('aq.theSurvivor');
        return a.sell === 0 && a.trade === 0 ? t('aq.act.keepAll') : t('aq.act.dispose', { sell: a.sell, proceeds: money(a.sell * price), trade: a.trade, get: a.trade / 2, survivor });
      }
      case 'announce_end':
        return t('aq.act.announce');
      case 'buy_share': {
        const price = view?.chains.find((c) => c.chain === a.chain)?.price;
        const chain = chainName(data, a.chain);
        return price ? t(articled('aq.act.buyFor', chain), { chain, price: money(price) }) : t(articled('aq.act.buy', chain), { chain });
      }
      case 'end_turn':
        return view?.stage.stage === 'turn' && view.stage.announced ? t('aq.act.endGame') : t('aq.act.endTurn');
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
        return t('aq.ev.started', { n: e.players });
      case 'tiles_shuffled':
        return t('aq.ev.shuffled', { n: e.tiles });
      case 'start_tile_placed':
        return t('aq.ev.startTile', { name: name(e.seat), tile: e.tile });
      case 'tile_drawn':
        return e.tile ? t('aq.ev.drawsTile', { name: name(e.seat), tile: e.tile }) : t('aq.ev.draws', { name: name(e.seat) });
      case 'turn_started':
        return t('ev.turn', { name: name(e.seat) });
      case 'placement_skipped':
        return t('aq.ev.noTile', { name: name(e.seat) });
      case 'tile_placed':
        return t('aq.ev.places', { name: name(e.seat), tile: e.tile });
      case 'chain_founded':
        return t(e.free_share ? 'aq.ev.foundsFree' : 'aq.ev.founds', { name: name(e.seat), chain: chain(e.chain), tiles: e.tiles.join(', ') });
      case 'chain_grew':
        return t('aq.ev.grows', { chain: chain(e.chain), tiles: e.tiles.join(', ') });
      case 'merger_started':
        return t('aq.ev.merger', { name: name(e.maker), tile: e.tile, chains: list(e.chains.map((c) => tn('aq.chainSize', c.size, { chain: chain(c.chain) }))) });
      case 'survivor_chosen':
        return t('aq.ev.survives', { chain: chain(e.chain) });
      case 'defuncts_ordered':
        return t('aq.ev.ordered', { chains: e.order.map((c) => chain(c.chain)).join(', ') });
      case 'bank_tile_drawn':
        return e.tile ? t('aq.ev.bankDraws', { tile: e.tile, n: e.holding, chain: chain(e.chain) }) : t('aq.ev.bankDrawsNone', { n: e.holding, chain: chain(e.chain) });
      case 'bonuses_paid': {
        const paid = e.payouts.map((p) => `${name(p.seat)} ${money(p.amount)}`).join(', ') || t('aq.ev.noHolder');
        const bank = e.bank_award ? t('aq.ev.bankKeeps', { amount: money(e.bank_award) }) : '';
        return `${t('aq.ev.bonuses', { chain: chain(e.chain), size: e.size, paid })}${bank}.`;
      }
      case 'disposal_started':
        return t('aq.ev.disposal', { chain: chain(e.chain), names: e.holders.map((s) => name(s)).join(', ') });
      case 'shares_disposed': {
        if (e.sold === 0 && e.traded === 0) return tn('aq.ev.keepsAll', e.kept, { name: name(e.seat), chain: chain(e.chain) });
        const parts = [
          e.sold ? t('aq.ev.sells', { n: e.sold, chain: chain(e.chain), proceeds: money(e.proceeds) }) : null,
          e.traded ? t('aq.ev.trades', { n: e.traded, get: e.traded / 2, survivor: chain(e.survivor) }) : null,
          e.kept ? t('aq.ev.keeps', { n: e.kept }) : null,
        ].filter((p) => p !== null);
        return `${name(e.seat)} ${list(/** @type {string[]} */ (parts))}.`;
      }
      case 'chain_absorbed':
        return t('aq.ev.absorbed', { defunct: chain(e.defunct), survivor: chain(e.survivor) });
      case 'merger_completed':
        return t('aq.ev.mergerDone', { survivor: chain(e.survivor), tiles: e.tiles.join(', ') });
      case 'bank_tile_placed':
        return t('aq.ev.bankPlaces', { tile: e.tile });
      case 'bank_tile_set_aside':
        return t('aq.ev.bankAside', { tile: e.tile });
      case 'end_announced':
        return t('aq.ev.announced', { name: name(e.seat) });
      case 'share_bought':
        return t(articled('aq.ev.bought', chain(e.chain)), { name: name(e.seat), chain: chain(e.chain), price: money(e.price) });
      case 'dead_tile_removed':
        return t('aq.ev.dead', { name: name(e.seat), tile: e.tile });
      case 'turn_ended':
        return t('ev.turnEnded', { name: name(e.seat) });
      case 'final_scoring_started':
        return e.reason === 'announced' ? t('aq.ev.finalAnnounced') : t('aq.ev.finalStalled');
      case 'shares_sold':
        return tn('aq.ev.sold', e.count, { name: name(e.seat), chain: chain(e.chain), price: money(e.price), proceeds: money(e.proceeds) });
      case 'game_ended': {
        const winners = list(e.outcome.winners.map((w) => name(w)));
        return t(e.outcome.winners.length > 1 ? 'aq.ev.overMany' : 'aq.ev.overOne', { winners, amount: money(Math.max(...e.outcome.scores)) });
      }
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
      caption: t('aq.sheet.caption'),
      columns: [t('aq.sheet.before'), t('aq.sheet.bonuses'), t('aq.sheet.sold')],
      rows: view.players.map((p, seat) => [money((p.cash ?? 0) - bonuses[seat] - sales[seat]), money(bonuses[seat]), money(sales[seat])]),
      note: t('aq.sheet.note'),

    };
  },
};
