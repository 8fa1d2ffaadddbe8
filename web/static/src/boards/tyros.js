// Tyros's board: the map grid (Tyros, the fields, the open sea and the desert), each field's
// empire as a colour with its initial, cities and ships as seat chips (a number for several
// ships of one seat), galleys and explorers marked, pirates as a skull. Click a field for the
// actions tied to it (place a tile, sail there, found a city, build a ship, sink a ship).
// Only the viewer's own hand (tiles and cards) is drawn; other players show counts, which is
// all the server sends them.

import { chip, h, s, svgButton } from '../dom.js';
import { seatLook } from '../seats.js';
import { describeFields } from './generic.js';

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
 * @param {BoardContext} ctx
 * @param {string} id
 * @param {number} x
 * @param {number} y
 * @param {Map<string, Action[]>} byCell
 */
function cell(ctx, id, x, y, byCell) {
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
    s('text', { x: x + 8, y: y + 18, class: 'cell-id', fill: empire ? empire.ink : '#000' }, id === 'TY' ? 'Tyros' : id === 'SEA' ? 'Sea' : id === 'DES' ? 'Desert' : id),
  ];
  if (empire && field?.empire) {
    parts.push(s('text', { x: x + CELL - 8, y: y + 18, 'text-anchor': 'end', class: 'empire-letter', fill: empire.ink }, empire.letter));
    said.push(`${field.empire} empire`);
  }
  if (field?.city != null) {
    const look = seatLook(field.city);
    parts.push(
      s('rect', { x: x + 8, y: y + 26, width: 30, height: 18, fill: look.colour, stroke: '#000', class: 'city' }),
      s('text', { x: x + 23, y: y + 39, 'text-anchor': 'middle', class: 'marker-label' }, look.label),
    );
    said.push(`city of ${ctx.name(field.city)}`);
  }
  if (field?.pirate) {
    parts.push(s('text', { x: x + CELL - 10, y: y + 42, 'text-anchor': 'end', class: 'pirate' }, '☠'));
    said.push(field.pirate.sinks_at_turn_start ? 'a pirate (sinks at the next turn start)' : 'a pirate');
  }
  // Ships here, grouped by owner and kind: a chip with the seat label and a count.
  const here = view.ships.filter((sh) => sh.at === id);
  /** @type {Map<string, {owner: number, kind: string, count: number}>} */
  const groups = new Map();
  for (const sh of here) {
    const kind = sh.galley ? 'galley' : sh.explorer ? 'explorer' : 'ship';
    const key = `${sh.owner}:${kind}`;
    const g = groups.get(key) ?? { owner: sh.owner, kind, count: 0 };
    g.count += 1;
    groups.set(key, g);
  }
  [...groups.values()].forEach((g, k) => {
    const look = seatLook(g.owner);
    const gx = x + 6 + (k % 2) * 44;
    const gy = y + 50 + Math.floor(k / 2) * 20;
    const mark = g.kind === 'galley' ? 'G' : g.kind === 'explorer' ? 'E' : '';
    parts.push(
      s('path', { d: `M${gx} ${gy} h40 l-6 16 h-28 z`, fill: look.colour, stroke: '#000', class: `ship ${g.kind}`, 'data-owner': g.owner }),
      s('text', { x: gx + 20, y: gy + 12, 'text-anchor': 'middle', class: 'marker-label' }, `${look.label}${mark}×${g.count}`),
    );
    said.push(`${g.count} ${g.kind}${g.count > 1 ? 's' : ''} of ${ctx.name(g.owner)}`);
  });
  const g = s('g', { class: 'tyros-field', 'data-cell': id }, s('title', {}, said.join(', ')), parts);
  const actions = byCell.get(id) ?? [];
  if (actions.length) {
    g.setAttribute('data-actions', JSON.stringify(actions));
    svgButton(g, `${kind}: ${actions.length} action${actions.length > 1 ? 's' : ''}`, () => ctx.offer(actions, `${kind}: what do you do?`));
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
  const rows = view.grid.length;
  const cols = Math.max(...view.grid.map((r) => r.length));
  const cells = view.grid.flatMap((row, r) => row.map((id, c) => cell(ctx, id, c * CELL, r * CELL, byCell)));
  return s('svg', { class: 'board tyros', viewBox: `0 0 ${cols * CELL} ${rows * CELL}`, role: 'group', 'aria-label': 'Map' }, cells);
}

/** @param {View} view */
function phaseText(view) {
  const p = view.phase;
  switch (p.phase) {
    case 'expansion':
      return `round ${view.round}, expansion`;
    case 'actions':
      return `round ${view.round}, actions`;
    case 'round_end':
      return `round ${view.round}, choosing cards to keep`;
    default:
      return `round ${view.round}, ${p.phase.replace('_', ' ')}`;
  }
}

/** @type {import('./index.js').BoardModule} */
export default {
  render(ctx) {
    /** @type {View} */
    const view = ctx.view;
    const me = ctx.seat == null ? null : view.players[ctx.seat];
    const fight = view.fight;
    return h(
      'div',
      { class: 'tyros-board' },
      map(ctx),
      h(
        'p',
        { class: 'legend small' },
        Object.entries(EMPIRES).map(([name, e]) => h('span', {}, chip(e.colour, e.letter, e.ink), ` ${name} `)),
        ' · ☠ pirate · G galley · E explorer · ×n ships',
      ),
      me
        ? h(
            'p',
            { class: 'hand', 'data-hand': ctx.seat },
            `Your tiles: ${me.tiles?.length ? me.tiles.join(', ') : 'none'}. Your cards: ${cardsText(me.cards)}.`,
          )
        : null,
      fight
        ? h('p', { class: 'fight' }, `Fight on field ${fight.field}: ${fight.revealed ? `attacker ${cardsText(fight.attacker_cards)} against ${cardsText(fight.defender_cards)}` : `${fight.attacker_laid ?? 0} against ${fight.defender_laid ?? 0} cards laid`}.`)
        : null,
      view.offer ? h('p', { class: 'offer' }, `${ctx.name(view.offer.from)} offers ${ctx.name(view.offer.to)} ${cardsText(view.offer.give)} for ${cardsText(view.offer.get)}.`) : null,
      view.dues.length ? h('ul', { class: 'dues' }, view.dues.map((d) => h('li', {}, `${ctx.name(d.payer)} owes ${d.count} card${d.count > 1 ? 's' : ''} (${d.reason})${d.to != null ? ` to ${ctx.name(d.to)}` : ''}.`))) : null,
      h('p', { class: 'small' }, `Tiles face down: ${view.tile_pile}. Cards face down: ${view.draw_pile}; discards: ${view.discard_pile.length}.${view.last_round && !view.outcome ? ' This is the last round.' : ''}`),
    );
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

  describeValue(field, value, ctx) {
    if (field === 'to' && typeof value === 'number') return ctx.name(value);
    if (field === 'colour' && typeof value === 'string' && value in EMPIRES) return `${value} (${EMPIRES[value].letter})`;
    return null;
  },

  /** @param {Action} a */
  describeAction(a, ctx) {
    /** @type {View | undefined} */
    const view = ctx.view;
    switch (a.type) {
      case 'place_tile':
        return a.empire ? `Place tile ${a.tile} for the ${a.empire} empire` : `Place tile ${a.tile}`;
      case 'move':
        return `Sail ship ${a.ship} (at ${view?.ships[a.ship]?.at ?? '?'}) to ${a.to}${a.path?.length ? ` via ${a.path.join('–')}` : ''}${a.wind ? ' with the wind' : ''}${a.cost != null ? ` for ${a.cost} card${a.cost === 1 ? '' : 's'}` : ''}`;
      case 'found_city':
        return `Found a city on ${view?.ships[a.ship]?.at ?? '?'} with ship ${a.ship}`;
      case 'build_ship':
        return `Build a ${a.galley ? 'galley' : 'ship'} at ${a.at}`;
      case 'bank_swap':
        return `Swap ${cardsText(a.cards)} with the bank`;
      case 'bank_pick':
        return `Give ${cardsText(a.cards)} for a ${a.colour} card`;
      case 'offer_trade':
        return `Offer ${ctx.name(a.to)} ${cardsText(a.give)} for ${cardsText(a.get)}`;
      case 'accept_trade':
        return 'Accept the offer';
      case 'reject_trade':
        return 'Reject the offer';
      case 'withdraw_trade':
        return 'Withdraw the offer';
      case 'play_favourable_wind':
        return 'Play Favourable wind';
      case 'play_blockade_breaker':
        return `Break the blockade: ship ${a.ship} to ${a.to}`;
      case 'play_explorer':
        return 'Play Explorer';
      case 'explorer_voyage':
        return `Explorer voyage: ship ${a.ship} to ${a.to}`;
      case 'sink_ship':
        return `Sink ship ${a.target} with galley ${a.galley}`;
      case 'pass':
        return 'Pass';
      case 'end_turn':
        return 'End the turn';
      case 'pay':
        return `Pay ${cardsText(a.cards)}`;
      case 'lay_fight_cards':
        return `Lay ${cardsText(a.cards)}`;
      case 'choose_fight_discard':
        return `Discard ${cardsText(a.cards)}`;
      case 'keep':
        return `Keep ${cardsText(a.cards)}`;
      default:
        return describeFields(a, ctx);
    }
  },

  /** @param {Event} e */
  describeEvent(e, ctx) {
    const name = ctx.name;
    switch (e.type) {
      case 'tile_placed':
        return `${name(e.seat)} places tile ${e.tile} for the ${e.empire} empire.`;
      case 'ship_moved':
        return `${name(e.seat)} sails ship ${e.ship} from ${e.from} via ${e.path.join('–')}${e.wind ? ' with the wind' : ''}.`;
      case 'city_founded':
        return `${name(e.seat)} founds a city on field ${e.field}.`;
      case 'ship_built':
        return `${name(e.seat)} builds a ${e.galley ? 'galley' : 'ship'} at ${e.at}.`;
      case 'turn_started':
      case 'passed':
      case 'turn_ended':
        return `${name(e.seat)}: ${e.type.replace('_', ' ')}.`;
      case 'game_ended':
        return `The game is over. ${e.outcome.winners.map((w) => name(w)).join(' and ')} ${e.outcome.winners.length > 1 ? 'win' : 'wins'}.`;
      default:
        return `${describeFields(e, ctx)}.`;
    }
  },
};
