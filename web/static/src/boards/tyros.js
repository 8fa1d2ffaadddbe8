// Tyros's board: the map grid (Tyros, the fields, the open sea and the desert), each field's
// empire as a colour with its initial, cities and ships as seat marks (a count for several
// ships of one seat), galleys and explorers marked, pirates as a skull; the last sailing drawn
// as a path, the last tile or city marked. Click a field for the actions tied to it (place a
// tile, sail there, found a city, build a ship, sink a ship). Only the viewer's own hand (tiles
// and cards) is drawn; other players show counts, which is all the server sends them.

import { chip, h, s, svgButton } from '../dom.js';
import { seatLook } from '../seats.js';
import { describeFields, unworded } from './generic.js';

/** @typedef {import('../../../types/api').components['schemas']} Schemas */
/** @typedef {Schemas['TyrosView']} View */
/** @typedef {Schemas['TyrosAction']} Action */
/** @typedef {Schemas['TyrosEvent']} Event */
/** @typedef {Schemas['TyrosCards']} Cards */
/** @typedef {import('./index.js').BoardContext} BoardContext */
/** @typedef {import('./index.js').Lookup} Lookup */

const CELL = 96;

/** Each empire's colour, its letter, and the ink that reads on it. */
/** @type {Record<string, {colour: string, letter: string, ink: string}>} */
const EMPIRES = {
  orange: { colour: '#E69F00', letter: 'O', ink: '#000' },
  yellow: { colour: '#F0E442', letter: 'Y', ink: '#000' },
  green: { colour: '#009E73', letter: 'G', ink: '#fff' },
  violet: { colour: '#A77BCA', letter: 'V', ink: '#000' },
};
const CARD_KINDS = /** @type {const} */ (['orange', 'yellow', 'green', 'violet', 'joker']);

/** Why a payment is owed, in words. */
/** @type {Record<string, string>} */
const DUE_REASONS = {
  move: 'for sailing',
  voyage: 'for the explorer’s voyage',
  toll: 'as a pirate toll',
  tribute: 'as tribute for a city',
  city: 'for founding a city',
  build: 'for building a ship',
  galley: 'for a war galley',
  levy: 'to the pirate',
};

/** @type {Record<string, string>} */
const ACTION_CARDS = { favourable_wind: 'Favourable wind', blockade_breaker: 'Blockade breaker', explorer: 'Explorer' };

/**
 * `{orange: 2, joker: 1}` as "2 orange, 1 joker".
 * @param {Cards | null | undefined} cards
 */
export function cardsText(cards) {
  if (!cards) return 'hidden';
  const parts = CARD_KINDS.filter((k) => cards[k]).map((k) => `${cards[k]} ${k}`);
  return parts.join(', ') || 'none';
}

/**
 * A cell in words: Tyros, or a field by number.
 * @param {string | number | null | undefined} cell
 */
function cellText(cell) {
  if (cell == null) return 'the supply';
  if (cell === 'TY') return 'Tyros';
  return `field ${cell}`;
}

/**
 * A field with its empire: "field 14 (orange)".
 * @param {Lookup} ctx
 * @param {string | number} cell
 */
function fieldText(ctx, cell) {
  /** @type {View | undefined} */
  const view = ctx.view;
  const empire = view?.fields.find((f) => f.field === String(cell))?.empire;
  return `${cellText(String(cell))}${empire ? ` (${empire})` : ''}`;
}

/**
 * A ship by its id: "Ann's ship", "Bob's galley".
 * @param {Lookup} ctx
 * @param {number} id
 */
function shipText(ctx, id) {
  /** @type {View | undefined} */
  const view = ctx.view;
  const ship = view?.ships[id];
  if (!ship) return `ship ${id}`;
  const kind = ship.galley ? 'galley' : ship.explorer ? 'explorer ship' : 'ship';
  return ctx.seat === ship.owner ? `your ${kind}` : `${ctx.name(ship.owner)}'s ${kind}`;
}

/**
 * What a payment may be made with.
 * @param {Schemas['TyrosNeed']} need
 */
function needText(need) {
  if (need.kind === 'colour') return `${need.colour} (or jokers)`;
  if (need.kind === 'identical') return 'two of a kind';
  return 'any colour';
}

/**
 * A due, from the payer's side or told plainly.
 * @param {Schemas['TyrosDue']} d
 * @param {Lookup} ctx
 */
function dueText(d, ctx) {
  const payer = d.payer === ctx.seat ? 'You pay' : `${ctx.name(d.payer)} pays`;
  const to = d.to == null ? 'to the discard pile' : `to ${d.to === ctx.seat ? 'you' : ctx.name(d.to)}`;
  return `${payer} ${d.count} card${d.count === 1 ? '' : 's'} of ${needText(d.need)} ${DUE_REASONS[d.reason] ?? ''} ${to}`.replace(/\s+/g, ' ');
}

/**
 * The cell a legal action is about, if any.
 * @param {View} view
 * @param {Action} a
 * @returns {string | null}
 */
function cellOf(view, a) {
  switch (a.type) {
    case 'place_tile':
      return String(a.tile);
    case 'move':
    case 'explorer_voyage':
    case 'play_blockade_breaker':
      return a.to;
    case 'build_ship':
      return a.at;
    case 'found_city':
      return view.ships[a.ship]?.at ?? null;
    case 'sink_ship':
      return view.ships[a.target]?.at ?? null;
    default:
      return null;
  }
}

/**
 * The marks of the move just shown: fields it changed and the paths sailed.
 * @param {any[]} recent
 */
function recentMarks(recent) {
  /** @type {{cells: Set<string>, paths: string[][]}} */
  const marks = { cells: new Set(), paths: [] };
  for (const e of /** @type {Event[]} */ (recent)) {
    if (e.type === 'tile_placed') marks.cells.add(String(e.tile));
    if (e.type === 'city_founded') marks.cells.add(e.field);
    if (e.type === 'ship_built') marks.cells.add(e.at);
    if (e.type === 'pirate_appeared' || e.type === 'pirate_sunk') marks.cells.add(e.field);
    if (e.type === 'ship_moved' || e.type === 'explorer_sailed') marks.paths.push([e.from, ...e.path]);
    if (e.type === 'ship_relocated') marks.paths.push([e.from, e.to]);
  }
  return marks;
}

/**
 * @param {BoardContext} ctx
 * @param {string} id
 * @param {number} x
 * @param {number} y
 * @param {Map<string, Action[]>} byCell
 * @param {Set<string>} marked
 */
function cell(ctx, id, x, y, byCell, marked) {
  /** @type {View} */
  const view = ctx.view;
  const field = view.fields.find((f) => f.field === id);
  const empire = field?.empire ? EMPIRES[field.empire] : null;
  const kind = id === 'TY' ? 'Tyros' : id === 'SEA' ? 'Open sea' : id === 'DES' ? 'Desert' : `Field ${id}`;
  /** @type {string[]} */
  const said = [kind];
  const parts = [
    s('rect', {
      x: x + 2,
      y: y + 2,
      width: CELL - 4,
      height: CELL - 4,
      rx: 6,
      fill: empire ? empire.colour : id === 'TY' ? '#d9c9a3' : id === 'SEA' ? '#9cc3e0' : id === 'DES' ? '#e8d8a8' : '#f4f1e8',
      class: 'tyros-cell',
    }),
    s('text', { x: x + 8, y: y + 19, class: 'cell-id', fill: empire ? empire.ink : '#000' }, id === 'TY' ? 'Tyros' : id === 'SEA' ? 'Sea' : id === 'DES' ? 'Desert' : id),
  ];
  if (empire && field?.empire) {
    parts.push(s('text', { x: x + CELL - 8, y: y + 19, 'text-anchor': 'end', class: 'empire-letter', fill: empire.ink }, empire.letter));
    said.push(`${field.empire} empire`);
  } else if (/^\d+$/.test(id)) {
    said.push('no empire yet');
  }
  if (field?.city != null) {
    const look = seatLook(field.city);
    parts.push(
      s('path', { d: `M${x + 8} ${y + 46} v-14 l8 -7 l8 7 l8 -7 l8 7 v14 z`, fill: look.colour, stroke: '#000', class: 'city' }),
      s('text', { x: x + 24, y: y + 43, 'text-anchor': 'middle', class: 'marker-label' }, look.label),
    );
    said.push(`city of ${ctx.name(field.city)}`);
  }
  if (field?.pirate) {
    parts.push(s('text', { x: x + CELL - 10, y: y + 46, 'text-anchor': 'end', class: 'pirate' }, '☠'));
    said.push(field.pirate.sinks_at_turn_start ? 'a pirate (sunk at the next turn start)' : 'a pirate');
  }
  // Ships here, grouped by owner and kind: a hull with the seat label and a count.
  const here = view.ships.filter((sh) => sh.at === id);
  /** @type {Map<string, {owner: number, kind: string, count: number, ids: number[]}>} */
  const groups = new Map();
  for (const sh of here) {
    const shipKind = sh.galley ? 'galley' : sh.explorer ? 'explorer' : 'ship';
    const key = `${sh.owner}:${shipKind}`;
    const g = groups.get(key) ?? { owner: sh.owner, kind: shipKind, count: 0, ids: [] };
    g.count += 1;
    g.ids.push(sh.id);
    groups.set(key, g);
  }
  [...groups.values()].forEach((g, k) => {
    const look = seatLook(g.owner);
    const gx = x + 4 + (k % 2) * 45;
    const gy = y + 52 + Math.floor(k / 2) * 20;
    const mark = g.kind === 'galley' ? 'G' : g.kind === 'explorer' ? 'E' : '';
    parts.push(
      s(
        'g',
        { class: `ship ${g.kind}`, 'data-owner': g.owner, 'data-piece': `ships-${g.ids[0]}` },
        s('path', { d: `M${gx} ${gy} h42 l-6 16 h-30 z`, fill: look.colour, stroke: '#000' }),
        s('text', { x: gx + 21, y: gy + 12, 'text-anchor': 'middle', class: 'marker-label' }, `${look.label}${mark}×${g.count}`),
      ),
    );
    said.push(`${g.count} ${g.kind}${g.count > 1 ? 's' : ''} of ${ctx.name(g.owner)}`);
  });
  if (marked.has(id)) parts.push(s('rect', { x: x + 5, y: y + 5, width: CELL - 10, height: CELL - 10, rx: 6, class: 'recent-mark' }));
  const g = s('g', { class: 'tyros-field', 'data-cell': id }, s('title', {}, said.join(', ')), parts);
  const actions = byCell.get(id) ?? [];
  if (actions.length) {
    const label = `${kind}: ${actions.map((a) => describeAction(a, ctx)).join('; ')}`;
    svgButton(g, { x, y, width: CELL, height: CELL, rx: 6 }, label, actions, () => ctx.offer(actions, `${kind}: what do you do?`));
  }
  return g;
}

/** @param {BoardContext} ctx */
function map(ctx) {
  /** @type {View} */
  const view = ctx.view;
  /** @type {Action[]} */
  const legal = /** @type {any} */ (ctx.legal);
  /** @type {Map<string, Action[]>} */
  const byCell = new Map();
  for (const a of legal) {
    const at = cellOf(view, a);
    if (at) byCell.set(at, [...(byCell.get(at) ?? []), a]);
  }
  const marks = recentMarks(ctx.recent);
  const rows = view.grid.length;
  const cols = Math.max(...view.grid.map((r) => r.length));
  /** @type {Map<string, [number, number]>} */
  const centres = new Map();
  view.grid.forEach((row, r) => row.forEach((id, c) => centres.set(id, [c * CELL + CELL / 2, r * CELL + CELL / 2])));
  const cells = view.grid.flatMap((row, r) => row.map((id, c) => cell(ctx, id, c * CELL, r * CELL, byCell, marks.cells)));
  const paths = marks.paths.map((path) => {
    const points = path.map((p) => centres.get(String(p))).filter((p) => p !== undefined);
    return points.length > 1 ? s('polyline', { points: points.map(([px, py]) => `${px},${py}`).join(' '), class: 'sail-path' }) : null;
  });
  return s(
    'svg',
    { class: 'board tyros', viewBox: `0 0 ${cols * CELL} ${rows * CELL}`, role: 'group', 'aria-label': 'Map' },
    s('defs', {}, s('marker', { id: 'tyros-arrow', viewBox: '0 0 10 10', refX: 7, refY: 5, markerWidth: 4, markerHeight: 4, orient: 'auto' }, s('path', { d: 'M0 0 L10 5 L0 10 z', fill: '#d55e00' }))),
    cells,
    paths,
  );
}

/** @param {View} view */
function phaseText(view) {
  const p = view.phase;
  const last = view.last_round ? ' (the last)' : '';
  switch (p.phase) {
    case 'expansion':
      return `round ${view.round}${last}: expanding the empires`;
    case 'pirates':
      return `round ${view.round}${last}: pirates`;
    case 'actions':
      return `round ${view.round}${last}: actions`;
    case 'round_end':
      return `round ${view.round}${last}: choosing cards to keep`;
    case 'finished':
      return 'game over';
    default:
      return `round ${view.round}`;
  }
}

/**
 * @param {Action} a
 * @param {Lookup} ctx
 */
function describeAction(a, ctx) {
  /** @type {View | undefined} */
  const view = ctx.view;
  switch (a.type) {
    case 'place_tile': {
      if (a.empire) return `Place tile ${a.tile}: field ${a.tile} joins the ${a.empire} empire`;
      return `Place tile ${a.tile} on its field`;
    }
    case 'move': {
      const from = view?.ships[a.ship]?.at;
      const via = a.path && a.path.length > 1 ? ` via ${a.path.slice(0, -1).map(cellText).join(', ')}` : '';
      const cost = a.cost != null ? `: ${a.cost} card${a.cost === 1 ? '' : 's'}` : '';
      return `Sail ${shipText(ctx, a.ship)} from ${cellText(from)} to ${fieldText(ctx, a.to)}${via}${a.wind ? ' with the favourable wind' : ''}${cost}`;
    }
    case 'found_city': {
      const at = view?.ships[a.ship]?.at;
      const empire = view?.fields.find((f) => f.field === at)?.empire;
      return `Found a city on ${fieldText(ctx, at ?? '?')} with ${shipText(ctx, a.ship)}: 5 ${empire ?? ''} cards`.replace('  ', ' ');
    }
    case 'build_ship':
      return `Build a ${a.galley ? 'war galley' : 'ship'} at ${fieldText(ctx, a.at)}: 1 card${a.galley ? ' and two of a kind' : ''}`;
    case 'bank_swap':
      return `Swap ${cardsText(a.cards)} with the bank`;
    case 'bank_pick':
      return `Give ${cardsText(a.cards)} for ${a.colour === 'orange' ? 'an' : 'a'} ${a.colour} card from the pile`;
    case 'offer_trade':
      return `Offer ${ctx.name(a.to)}: you give ${cardsText(a.give)}, you get ${cardsText(a.get)}`;
    case 'accept_trade': {
      const o = view?.offer;
      return o ? `Accept ${ctx.name(o.from)}'s offer: you give ${cardsText(o.get)}, you get ${cardsText(o.give)}` : 'Accept the offer';
    }
    case 'reject_trade': {
      const o = view?.offer;
      return o ? `Reject ${ctx.name(o.from)}'s offer` : 'Reject the offer';
    }
    case 'withdraw_trade': {
      const o = view?.offer;
      return o ? `Withdraw your offer to ${ctx.name(o.to)}` : 'Withdraw your offer';
    }
    case 'play_favourable_wind':
      return 'Play Favourable wind: one later sailing this round costs half';
    case 'play_blockade_breaker':
      return `Play Blockade breaker: push ${shipText(ctx, a.ship)} to ${fieldText(ctx, a.to)}`;
    case 'play_explorer':
      return 'Play Explorer: a later voyage to a field of no empire';
    case 'explorer_voyage':
      return `Explorer voyage: ${shipText(ctx, a.ship)} to ${fieldText(ctx, a.to)}${a.cost != null ? `: ${a.cost} card${a.cost === 1 ? '' : 's'}` : ''}`;
    case 'sink_ship':
      return `Sink ${shipText(ctx, a.target)} with ${shipText(ctx, a.galley)}`;
    case 'pass':
      return 'Pass (you may act again if the others go on)';
    case 'end_turn':
      return 'End your turn without a trade';
    case 'pay':
      return `Pay ${cardsText(a.cards)}`;
    case 'lay_fight_cards':
      return `Lay ${cardsText(a.cards)} face down`;
    case 'choose_fight_discard':
      return `Discard ${cardsText(a.cards)}`;
    case 'keep':
      return `Keep ${cardsText(a.cards)}`;
    default:
      return describeFields(a, ctx);
  }
}

/** @type {import('./index.js').BoardModule} */
export default {
  minWidth: 520,

  kindLabels: { move: 'Sail a ship', place_tile: 'Place a tile', build_ship: 'Build a ship', play_blockade_breaker: 'Blockade breaker', explorer_voyage: 'Explorer voyage', sink_ship: 'Sink a ship', pay: 'Pay', keep: 'Keep', found_city: 'Found a city' },
  openTemplates: ['pay', 'keep', 'lay_fight_cards', 'choose_fight_discard'],
  countOrder: [...CARD_KINDS],

  rules: [
    ['Goal', ['Control the most valuable fields at the end: a city scores more than ships, and fields of larger empires score more. The first player with a city in every empire earns a bonus.']],
    [
      'A round',
      [
        'Cards: everyone draws trade cards, added to the few they kept.',
        'Expansion: in turn, each player places a landscape tile on its field next to an empire; the field joins that empire (the player chooses when several touch it).',
        'Actions: in turn, each player takes one action or passes, until everyone has passed in a row.',
        'End of round: everyone keeps up to three cards and discards the rest.',
      ],
    ],
    [
      'Actions',
      [
        'Sail a ship to a field of an empire, paying one card of that empire’s colour for every field entered; at most two ships on a field. Ending on another player’s city costs one card as tribute.',
        'Found a city where your ship stands alone: five cards of the field’s colour; the ship returns to your supply. Build a ship in one of your cities for one card. Trade cards with the bank or with another player.',
      ],
    ],
    ['The end', ['The game ends after the round in which the tiles run out and a player has none left. Fields are then scored by who controls them: a city, or the ships of one player alone.']],
  ],

  render(ctx) {
    /** @type {View} */
    const view = ctx.view;
    const me = ctx.seat == null ? null : view.players[ctx.seat];
    const fight = view.fight;
    return {
      drawing: map(ctx),
      panels: [
        h(
          'p',
          { class: 'legend small' },
          Object.entries(EMPIRES).map(([name, e]) => h('span', {}, chip(e.colour, e.letter, e.ink), ` ${name} `)),
          h('span', {}, '☠ pirate'),
          h('span', {}, 'G galley, E explorer, ×n ships'),
        ),
        me
          ? h('p', { class: 'hand', 'data-hand': ctx.seat }, `Your tiles: ${me.tiles?.length ? me.tiles.join(', ') : 'none'}. Your cards: ${cardsText(me.cards)}.`)
          : null,
        fight
          ? h('p', { class: 'fight' }, `Fight on ${cellText(fight.field)}: ${fight.revealed ? `attacker ${cardsText(fight.attacker_cards)} against ${cardsText(fight.defender_cards)}` : `${fight.attacker_laid ?? 0} against ${fight.defender_laid ?? 0} cards laid`}.`)
          : null,
        h('p', { class: 'small' }, `Tiles face down: ${view.tile_pile}. Cards face down: ${view.draw_pile}; discarded: ${view.discard_pile.length}.${view.last_round && !view.outcome ? ' This is the last round.' : ''}`),
      ].filter((x) => x !== null),
    };
  },

  playerRows(ctx, seat) {
    /** @type {View} */
    const view = ctx.view;
    const p = view.players[seat];
    if (!p) return [];
    const standing = view.standings.find((x) => x.seat === seat);
    /** @type {Array<[string, string]>} */
    const rows = [
      ['Points now', String(standing?.total ?? 0)],
      ['Tiles', p.tiles ? `${p.tiles.join(', ') || 'none'}` : `${p.tiles_in_hand} in hand`],
      ['Cards', p.cards ? cardsText(p.cards) : `${p.cards_in_hand} in hand`],
      ['Cities left', String(p.cities_left)],
      ['Ships in supply', String(p.ships_in_supply)],
    ];
    if (p.galley_tokens) rows.push(['Galley tokens', String(p.galley_tokens)]);
    // Without the variant the engine marks every action card used: say nothing then.
    /** @type {Schemas['TyrosConfig'] | null} */
    const config = ctx.config;
    if (config?.action_cards) {
      rows.push(['Action cards', Object.entries(p.action_cards).map(([k, st]) => `${k.replace(/_/g, ' ')} ${st}`).join(', ')]);
    }
    if (p.keep_chosen) rows.push(['Keeps', p.kept ? cardsText(p.kept) : 'chosen']);
    return rows;
  },

  status(ctx) {
    /** @type {View} */
    const view = ctx.view;
    if (view.outcome) return 'Game over';
    return phaseText(view);
  },

  prompt(ctx) {
    /** @type {View} */
    const view = ctx.view;
    const me = ctx.seat == null ? null : view.players[ctx.seat];
    const yours = ctx.legal.length > 0 || ctx.templates.length > 0;
    /** @type {string[]} */
    const details = [];
    if (me) details.push(`Your cards: ${cardsText(me.cards)}. Your tiles: ${me.tiles?.join(', ') || 'none'}.`);
    for (const d of view.dues) details.push(`${dueText(d, ctx)}.`);
    const o = view.offer;
    if (o) details.push(o.to === ctx.seat ? `${ctx.name(o.from)} offers you: you give ${cardsText(o.get)}, you get ${cardsText(o.give)}.` : `${ctx.name(o.from)} offers ${ctx.name(o.to)}: ${cardsText(o.give)} for ${cardsText(o.get)}.`);
    const p = view.phase;
    if (p.phase === 'finished') return null;
    if (view.fight) {
      const f = view.fight;
      return { title: `A galley fight on ${cellText(f.field)}: ${yours ? 'lay one to five cards face down; the most of one kind wins.' : 'the galleys’ owners lay their cards.'}`, details };
    }
    const due = view.dues[0];
    if (due) return { title: due.payer === ctx.seat ? `Pay ${due.count} card${due.count === 1 ? '' : 's'} of ${needText(due.need)} ${DUE_REASONS[due.reason] ?? ''}.` : `${ctx.name(due.payer)} is paying.`, details };
    if (o && o.to === ctx.seat) return { title: `${ctx.name(o.from)} offers you a trade: you give ${cardsText(o.get)}, you get ${cardsText(o.give)}.`, details };
    if (p.phase === 'expansion') return { title: yours ? 'Place a tile: its field joins a neighbouring empire.' : `${view.active_seats.map((s2) => ctx.name(s2)).join(', ')} is placing a tile.`, details };
    if (p.phase === 'round_end') return { title: yours ? 'Choose the cards you keep for the next round; the rest are discarded.' : 'Players choose the cards they keep.', details };
    if (p.phase === 'pirates') return { title: 'The pirate phase.', details };
    if (p.phase === 'actions') {
      const turn = p.turn;
      if (turn.seat !== ctx.seat || !yours) return { title: `${ctx.name(turn.seat)}'s turn${p.passes ? ` (${p.passes} pass${p.passes === 1 ? '' : 'es'} in a row: the action phase ends when everyone has passed)` : ''}.`, details };
      return { title: turn.acted ? 'Your action is done: trade if you like, or end your turn.' : 'Your turn: sail, found a city, build a ship or trade — or pass.', details };
    }
    return null;
  },

  describeValue(field, value, ctx) {
    if (field === 'to' && typeof value === 'number') return ctx.name(value);
    if (field === 'colour' && typeof value === 'string' && value in EMPIRES) return `${value} (${EMPIRES[value].letter})`;
    return null;
  },

  describeTemplate(t, ctx) {
    /** @type {View | undefined} */
    const view = ctx.view;
    switch (t.type) {
      case 'pay': {
        const due = view?.dues[0];
        return { title: due ? `Pay ${due.count} card${due.count === 1 ? '' : 's'}` : 'Pay', hint: due ? `${dueText(due, ctx)}.` : undefined, submit: 'Pay these cards' };
      }
      case 'keep':
        return { title: 'Cards to keep', hint: 'Choose the cards you keep for the next round; the others are discarded.', submit: 'Keep these cards' };
      case 'bank_swap':
        return { title: 'Swap cards with the bank', hint: 'Discard one to three cards and draw as many from the pile. Your action for this turn.', submit: 'Swap with the bank' };
      case 'bank_pick':
        return { title: 'Pick a colour from the pile', hint: 'Discard three cards and take one card of the colour you name from the pile. Your action for this turn.', submit: 'Give three, pick one' };
      case 'offer_trade':
        return { title: 'Offer a trade', hint: 'Cards you give and cards you want; the other player accepts or rejects.', submit: 'Offer the trade' };
      case 'lay_fight_cards':
        return { title: 'Cards for the fight', hint: 'Lay one to five cards face down: the most cards of one kind wins.', submit: 'Lay these cards' };
      case 'choose_fight_discard':
        return { title: 'Cards to discard', hint: 'You won: discard one of your largest groups.', submit: 'Discard these' };
      default:
        return null;
    }
  },

  describeAction,

  /** @param {Event} e */
  describeEvent(e, ctx) {
    const name = ctx.name;
    switch (e.type) {
      case 'game_started': {
        const c = e.config;
        const variants = [c.pirates ? 'pirates' : null, c.action_cards ? 'action cards' : null, c.galleys ? 'war galleys' : null].filter(Boolean);
        return `The game starts with ${e.players} players${variants.length ? `, with ${variants.join(', ')}` : ''}.`;
      }
      case 'tile_pile_shuffled':
        return `The ${e.tiles} landscape tiles are shuffled.`;
      case 'empire_founded':
        return `The ${e.empire} empire is founded on field ${e.field}${e.set_aside.length ? ` (${e.set_aside.length === 1 ? `tile ${e.set_aside[0]} was` : `tiles ${e.set_aside.join(', ')} were`} too close to another empire: set aside)` : ''}.`;
      case 'tiles_dealt':
        return e.tiles ? `${name(e.seat)} receives tiles ${e.tiles.join(', ')}.` : `${name(e.seat)} receives ${e.count} tile${e.count === 1 ? '' : 's'}.`;
      case 'draw_pile_shuffled':
        return `The ${e.cards} trade cards are shuffled.`;
      case 'start_player_chosen':
        return `${name(e.seat)} starts.`;
      case 'round_started':
        return `Round ${e.round} begins; ${name(e.start_player)} starts.`;
      case 'cards_drawn':
        return e.cards ? `${name(e.seat)} draws ${cardsText(e.cards)}.` : `${name(e.seat)} draws ${e.count} card${e.count === 1 ? '' : 's'}.`;
      case 'draw_pile_rebuilt':
        return e.rule === 'shuffle' ? `The ${e.cards} discarded cards are shuffled into a new draw pile.` : `The ${e.cards} discarded cards are turned over under the draw pile.`;
      case 'expansion_started':
        return 'The empires expand: each player places tiles.';
      case 'tile_placed':
        return `${name(e.seat)} places tile ${e.tile}: field ${e.tile} joins the ${e.empire} empire.`;
      case 'tile_drawn':
        return e.tile != null ? `${name(e.seat)} draws tile ${e.tile}.` : `${name(e.seat)} draws a tile.`;
      case 'placement_skipped':
        return e.reason === 'no_tiles' ? `${name(e.seat)} has no tile left.` : `${name(e.seat)} has no tile that fits next to an empire.`;
      case 'tiles_swapped':
        return e.returned != null || e.drawn != null
          ? `${name(e.seat)} swaps ${e.returned != null ? `tile ${e.returned}` : 'a tile'} for ${e.drawn != null ? `tile ${e.drawn}` : 'one from the pile'}.`
          : `${name(e.seat)} swaps a tile blindly with the pile.`;
      case 'tile_swap_skipped':
        return e.reason === 'pile_empty' ? `${name(e.seat)} cannot swap: the tile pile is empty.` : `${name(e.seat)} cannot swap: no tile in the pile would fit.`;
      case 'no_progress_draws':
        return 'No tile could be placed this round: everyone draws a tile.';
      case 'last_round_reached':
        return `Round ${e.round} is the last.`;
      case 'pirate_phase_started':
        return 'The pirates come.';
      case 'pirate_appeared':
        return `A pirate appears on field ${e.field}${e.sinks_at_turn_start ? ': two ships are already there and will sink it' : ''}.`;
      case 'no_pirate':
        return 'No pirate appears this round.';
      case 'pirate_sunk':
        return `The pirate on field ${e.field} is sunk: ${e.points.map((p) => `${name(p.seat)} scores ${p.points}`).join(', ')}.`;
      case 'action_phase_started':
        return 'The action phase begins.';
      case 'turn_started':
        return `${name(e.seat)}'s turn.`;
      case 'dues_owed':
        return `To pay: ${e.dues.map((d) => dueText(d, ctx).replace(/^You/, 'you')).join('; ')}.`;
      case 'due_paid':
        return `${name(e.seat)} pays ${cardsText(e.cards)} ${DUE_REASONS[e.reason] ?? ''}${e.to != null ? ` to ${name(e.to)}` : ''}.`.replace(/\s+\./, '.').replace(/\s+/g, ' ');
      case 'ship_moved':
        return `${name(e.seat)} sails a ship from ${cellText(e.from)} to ${fieldText(ctx, e.path.at(-1) ?? e.from)}${e.path.length > 1 ? ` via ${e.path.slice(0, -1).map(cellText).join(', ')}` : ''}${e.wind ? ' with the favourable wind' : ''}${e.fight_with != null ? `, where a fight with ${shipText(ctx, e.fight_with)} starts` : ''}.`;
      case 'explorer_sailed':
        return `${name(e.seat)}'s explorer sails from ${cellText(e.from)} to ${fieldText(ctx, e.path.at(-1) ?? e.from)}${e.fight_with != null ? `, where a fight with ${shipText(ctx, e.fight_with)} starts` : ''}.`;
      case 'city_founded':
        return `${name(e.seat)} founds a city on ${fieldText(ctx, e.field)}.`;
      case 'bonus_earned':
        return `${name(e.seat)} has a city in every empire first: ${e.points} bonus points.`;
      case 'ship_built':
        return `${name(e.seat)} builds a ${e.galley ? 'war galley' : 'ship'} at ${fieldText(ctx, e.at)}.`;
      case 'bank_traded':
        return e.form === 'swap' ? `${name(e.seat)} swaps cards with the bank.` : `${name(e.seat)} gives three cards to pick a colour from the pile.`;
      case 'cards_discarded':
        return `${name(e.seat)} discards ${cardsText(e.cards)}${e.reason === 'round_end' ? ' at the end of the round' : ''}.`;
      case 'card_taken_from_pile':
        return `${name(e.seat)} takes ${e.card === 'orange' ? 'an' : 'a'} ${e.card} card from the pile.`;
      case 'pile_search_failed':
        return `${name(e.seat)} finds no ${e.colour} card in the pile.`;
      case 'trade_offered':
        return `${name(e.from)} offers ${name(e.to)} ${cardsText(e.give)} for ${cardsText(e.get)}.`;
      case 'trade_accepted':
        return `${name(e.to)} accepts: ${name(e.from)} gives ${cardsText(e.give)} and gets ${cardsText(e.get)}.`;
      case 'trade_rejected':
        return `${name(e.to)} rejects ${name(e.from)}'s offer.`;
      case 'trade_withdrawn':
        return `${name(e.from)} withdraws the offer to ${name(e.to)}.`;
      case 'action_card_played':
        return `${name(e.seat)} plays ${ACTION_CARDS[e.card] ?? e.card}.`;
      case 'action_card_used':
        return `${name(e.seat)} uses ${ACTION_CARDS[e.card] ?? e.card}.`;
      case 'action_card_lost':
        return `${name(e.seat)}'s ${ACTION_CARDS[e.card] ?? e.card} goes unused and is lost.`;
      case 'ship_relocated':
        return `${name(e.seat)} breaks the blockade: ${shipText(ctx, e.ship)} moves from ${cellText(e.from)} to ${cellText(e.to)}.`;
      case 'ship_sunk':
        return `${name(e.seat)}'s galley sinks ${shipText(ctx, e.ship)}.`;
      case 'fight_started':
        return `A galley fight starts on ${cellText(e.field)}: ${shipText(ctx, e.attacker)} against ${shipText(ctx, e.defender)}.`;
      case 'fight_cards_laid':
        return e.cards ? `${name(e.seat)} lays ${cardsText(e.cards)} face down.` : `${name(e.seat)} lays ${e.count} card${e.count === 1 ? '' : 's'} face down.`;
      case 'fight_revealed':
        return `The fight's cards: attacker ${cardsText(e.attacker_cards)}, defender ${cardsText(e.defender_cards)}; ${e.winner != null ? `${name(e.winner)} wins` : 'a tie'}.`;
      case 'fight_resolved':
        return e.winner != null
          ? `${name(e.winner)} wins the fight and discards ${cardsText(e.discarded)}${e.sunk != null ? `; ${shipText(ctx, e.sunk)} sinks` : ''}.`
          : 'The fight is a tie: both galleys become ordinary ships.';
      case 'passed':
        return `${name(e.seat)} passes.`;
      case 'turn_ended':
        return e.passed ? `${name(e.seat)}'s turn ends with a pass.` : `${name(e.seat)}'s turn ends.`;
      case 'action_phase_ended':
        return 'Everyone passed in a row: the action phase is over.';
      case 'keep_chosen':
        return e.cards ? `${name(e.seat)} keeps ${cardsText(e.cards)}.` : `${name(e.seat)} chooses the cards to keep.`;
      case 'game_ended':
        return `The game is over. ${e.scores.map((sc) => `${name(sc.seat)} ${sc.total}`).join(', ')}: ${e.outcome.winners.map((w) => name(w)).join(' and ')} ${e.outcome.winners.length > 1 ? 'win' : 'wins'}.`;
      default:
        return unworded(e, ctx);
    }
  },

  scoreSheet(ctx) {
    const ended = ctx.events.map((e) => /** @type {Event} */ (e.event)).find((e) => e.type === 'game_ended');
    /** @type {View} */
    const view = ctx.view;
    const sheets = ended && ended.type === 'game_ended' ? ended.scores : view.standings;
    const bySeat = (/** @type {number} */ seat) => sheets.find((x) => x.seat === seat);
    return {
      caption: 'Points at the end',
      columns: ['Cities', 'Ships', 'Explorers', 'Pirates', 'Bonus', 'Cities built'],
      rows: view.players.map((p) => {
        const sc = bySeat(p.seat);
        return sc ? [sc.city_points, sc.ship_points, sc.explorer_points, sc.pirate_points, sc.bonus, sc.cities] : ['–', '–', '–', '–', '–', '–'];
      }),
      note: 'Cities and ships score the fields they control by the size of the field’s empire; ties go to more cities on the board, then more fields held by ships.',
    };
  },
};
