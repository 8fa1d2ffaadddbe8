// Tyros's board: the Mediterranean divided into the grid of rectangles, as printed (Tyros, the
// fields, the open sea and the desert): the coast is drawn under the grid, from the frame the
// layout file gives (engine/rules/tyros-layout.json) and Natural Earth land
// (web/static/src/boards/maps/mediterranean.js, made by web/tools/make-maps.mjs). Each
// field's empire is a tint of its colour over the map, a border and a badge with its initial, cities and ships as seat marks (a count for several
// ships of one seat), galleys and explorers marked, pirates as a skull; the last sailing drawn
// as a path, the last tile or city marked. Click a field for the actions tied to it (place a
// tile, sail there, found a city, build a ship, sink a ship). Only the viewer's own hand (tiles
// and cards) is drawn; other players show counts, which is all the server sends them.

import { chip, h, s, svgButton } from '../dom.js';
import { helpOn } from './help.js';
import { preview } from './preview-tyros.js';
import { seatLook } from '../seats.js';
import { list, t, tn, tOr } from '../i18n/index.js';
import { describeFields, unworded } from './generic.js';
import mediterranean from './maps/mediterranean.js';

/** @typedef {import('../../../types/api').components['schemas']} Schemas */
/** @typedef {Schemas['TyrosView']} View */
/** @typedef {Schemas['TyrosAction']} Action */
/** @typedef {Schemas['TyrosEvent']} Event */
/** @typedef {Schemas['TyrosCards']} Cards */
/** @typedef {import('./index.js').BoardContext} BoardContext */
/** @typedef {import('./index.js').Lookup} Lookup */

/** A cell's size: 4 : 3, which with the layout's frame keeps the map true to scale near 38° N. */
const CELL_W = 128;
const CELL_H = 96;

/**
 * The layout file: the part of the world the grid covers (degrees).
 * @typedef {{map: {west: number, east: number, north: number, south: number}}} Layout
 */

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
  move: t('tr.due.move'),
  voyage: t('tr.due.voyage'),
  toll: t('tr.due.toll'),
  tribute: t('tr.due.tribute'),
  city: t('tr.due.city'),
  build: t('tr.due.build'),
  galley: t('tr.due.galley'),
  levy: t('tr.due.levy'),
};

/**
 * A card colour (or the joker) in words.
 * @param {string} kind
 */
const colour = (kind) => tOr(`tr.colour.${kind}`, kind);

/** @type {Record<string, string>} */
const ACTION_CARDS = { favourable_wind: t('tr.card.wind'), blockade_breaker: t('tr.card.blockade'), explorer: t('tr.card.explorer') };

/**
 * `{orange: 2, joker: 1}` as "2 orange, 1 joker".
 * @param {Cards | null | undefined} cards
 */
export function cardsText(cards) {
  if (!cards) return t('aq.hidden');
  const parts = CARD_KINDS.filter((k) => cards[k]).map((k) => `${cards[k]} ${colour(k)}`);
  return parts.join(', ') || t('common.none');
}

/**
 * A cell in words: Tyros, or a field by number.
 * @param {string | number | null | undefined} cell
 */
function cellText(cell) {
  if (cell == null) return t('tr.supply');
  if (cell === 'TY') return 'Tyros';
  return t('tr.field', { n: String(cell) });
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
  return `${cellText(String(cell))}${empire ? ` (${colour(empire)})` : ''}`;
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
  if (!ship) return t('tr.shipN', { n: id });
  const kind = ship.galley ? 'galley' : ship.explorer ? 'explorer' : 'ship';
  return ctx.seat === ship.owner ? t(`tr.your.${kind}`) : t(`tr.their.${kind}`, { name: ctx.name(ship.owner) });
}

/**
 * What a payment may be made with.
 * @param {Schemas['TyrosNeed']} need
 */
function needText(need) {
  if (need.kind === 'colour') return t('tr.need.colour', { colour: colour(need.colour) });
  if (need.kind === 'identical') return t('tr.need.identical');
  return t('tr.need.any');
}

/**
 * A due, from the payer's side or told plainly.
 * @param {Schemas['TyrosDue']} d
 * @param {Lookup} ctx
 */
function dueText(d, ctx) {
  const to = d.to == null ? t('tr.toDiscard') : d.to === ctx.seat ? t('tr.toYou') : t('tr.to', { name: ctx.name(d.to) });
  const params = { name: ctx.name(d.payer), need: needText(d.need), reason: DUE_REASONS[d.reason] ?? '', to };
  return tn(d.payer === ctx.seat ? 'tr.due.youPay' : 'tr.due.pays', d.count, params).replace(/\s+/g, ' ');
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
  const kind = id === 'TY' ? 'Tyros' : id === 'SEA' ? t('tr.sea') : id === 'DES' ? t('tr.desert') : t('tr.Field', { n: id });
  /** @type {string[]} */
  const said = [kind];
  // The map shows through: an empire is a tint of its colour and a border in it; Tyros, the
  // sea and the desert are tinted; a free field is the map itself.
  const tint = empire ? empire.colour : id === 'TY' ? '#c9a66b' : id === 'DES' ? '#d9b36c' : null;
  const parts = [
    s('rect', {
      x: x + 2,
      y: y + 2,
      width: CELL_W - 4,
      height: CELL_H - 4,
      rx: 6,
      // Transparent, not none: a free field still takes the pointer (its help on hover).
      fill: tint ?? 'transparent',
      stroke: empire ? empire.colour : '#55606b',
      class: `tyros-cell${empire ? ' empire' : tint ? ' tinted' : ''}`,
    }),
    s('text', { x: x + 8, y: y + 20, class: 'cell-id' }, id === 'TY' ? 'Tyros' : id === 'SEA' ? t('tr.sea') : id === 'DES' ? t('tr.desert') : id),
  ];
  if (empire && field?.empire) {
    parts.push(
      s('rect', { x: x + CELL_W - 30, y: y + 6, width: 24, height: 20, rx: 4, fill: empire.colour, stroke: '#222', class: 'empire-badge' }),
      s('text', { x: x + CELL_W - 18, y: y + 21, 'text-anchor': 'middle', class: 'empire-letter', fill: empire.ink }, empire.letter),
    );
    said.push(t('tr.empire', { colour: colour(field.empire) }));
  } else if (/^\d+$/.test(id)) {
    said.push(t('tr.noEmpire'));
  }
  if (field?.city != null) {
    const look = seatLook(field.city);
    parts.push(
      s('path', { d: `M${x + 8} ${y + 46} v-14 l8 -7 l8 7 l8 -7 l8 7 v14 z`, fill: look.colour, stroke: '#000', class: 'city' }),
      s('text', { x: x + 24, y: y + 43, 'text-anchor': 'middle', class: 'marker-label' }, look.label),
    );
    said.push(t('tr.cityOf', { name: ctx.name(field.city) }));
  }
  if (field?.pirate) {
    parts.push(s('text', { x: x + CELL_W - 10, y: y + 50, 'text-anchor': 'end', class: 'pirate' }, '☠'));
    said.push(field.pirate.sinks_at_turn_start ? t('tr.pirateSinks') : t('tr.pirate'));
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
    const gx = x + 6 + (k % 2) * 60;
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
    said.push(tn(`tr.group.${g.kind}`, g.count, { name: ctx.name(g.owner) }));
  });
  if (marked.has(id)) parts.push(s('rect', { x: x + 5, y: y + 5, width: CELL_W - 10, height: CELL_H - 10, rx: 6, class: 'recent-mark' }));
  const g = s('g', { class: 'tyros-field', 'data-cell': id }, parts);
  helpOn(g, said);
  const actions = byCell.get(id) ?? [];
  if (actions.length) {
    const label = `${kind}: ${actions.map((a) => describeAction(a, ctx)).join('; ')}`;
    svgButton(g, { x, y, width: CELL_W, height: CELL_H, rx: 6 }, label, actions, () => ctx.offer(actions, t('mo.whatDo', { square: kind })));
  }
  return g;
}

/**
 * The coast under the grid: the layout's frame is the grid's outline, so one transform puts
 * the land (in degrees × scale, north up) on the drawing. Only a picture: the cells above it
 * say what each is.
 * @param {Layout} layout
 * @param {number} width
 * @param {number} height
 */
function coast(layout, width, height) {
  const f = layout.map;
  const k = mediterranean.scale;
  const sx = width / ((f.east - f.west) * k);
  const sy = height / ((f.north - f.south) * k);
  return s(
    'svg',
    { x: 0, y: 0, width, height, viewBox: `0 0 ${width} ${height}`, class: 'med-map', 'aria-hidden': 'true' },
    s('path', { d: mediterranean.land, class: 'land', transform: `scale(${sx} ${sy}) translate(${-f.west * k} ${f.north * k})` }),
  );
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
  view.grid.forEach((row, r) => row.forEach((id, c) => centres.set(id, [c * CELL_W + CELL_W / 2, r * CELL_H + CELL_H / 2])));
  const cells = view.grid.flatMap((row, r) => row.map((id, c) => cell(ctx, id, c * CELL_W, r * CELL_H, byCell, marks.cells)));
  const paths = marks.paths.map((path) => {
    const points = path.map((p) => centres.get(String(p))).filter((p) => p !== undefined);
    return points.length > 1 ? s('polyline', { points: points.map(([px, py]) => `${px},${py}`).join(' '), class: 'sail-path' }) : null;
  });
  const width = cols * CELL_W;
  const height = rows * CELL_H;
  return s(
    'svg',
    { class: 'board tyros', viewBox: `0 0 ${width} ${height}`, role: 'group', 'aria-label': t('tr.map') },
    s('defs', {}, s('marker', { id: 'tyros-arrow', viewBox: '0 0 10 10', refX: 7, refY: 5, markerWidth: 4, markerHeight: 4, orient: 'auto' }, s('path', { d: 'M0 0 L10 5 L0 10 z', fill: '#d55e00' }))),
    s('rect', { x: 0, y: 0, width, height, class: 'med-sea' }),
    ctx.layout ? coast(ctx.layout, width, height) : null,
    cells,
    paths,
  );
}

/** @param {View} view */
function phaseText(view) {
  const p = view.phase;
  const round = view.last_round ? t('tr.lastRound', { n: view.round }) : t('mo.round', { n: view.round });
  switch (p.phase) {
    case 'expansion':
      return `${round}: ${t('tr.phase.expansion')}`;
    case 'pirates':
      return `${round}: ${t('tr.phase.pirates')}`;
    case 'actions':
      return `${round}: ${t('tr.phase.actions')}`;
    case 'round_end':
      return `${round}: ${t('tr.phase.keep')}`;
    case 'finished':
      return t('status.over');
    default:
      return round;
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
      if (a.empire) return t('tr.act.placeJoins', { n: a.tile, colour: colour(a.empire) });
      return t('tr.act.place', { n: a.tile });
    }
    case 'move': {
      const from = view?.ships[a.ship]?.at;
      const via = a.path && a.path.length > 1 ? t('tr.via', { fields: a.path.slice(0, -1).map(cellText).join(', ') }) : '';
      const cost = a.cost != null ? `: ${tn('tr.cards', a.cost)}` : '';
      return `${t('tr.act.sail', { ship: shipText(ctx, a.ship), from: cellText(from), to: fieldText(ctx, a.to) })}${via}${a.wind ? t('tr.withWind') : ''}${cost}`;
    }
    case 'found_city': {
      const at = view?.ships[a.ship]?.at;
      const empire = view?.fields.find((f) => f.field === at)?.empire;
      return t('tr.act.found', { field: fieldText(ctx, at ?? '?'), ship: shipText(ctx, a.ship), colour: empire ? colour(empire) : '' }).replace('  ', ' ');
    }
    case 'build_ship':
      return t(a.galley ? 'tr.act.buildGalley' : 'tr.act.build', { field: fieldText(ctx, a.at) });
    case 'bank_swap':
      return t('tr.act.swap', { cards: cardsText(a.cards) });
    case 'bank_pick':
      return t('tr.act.pick', { cards: cardsText(a.cards), colour: colour(a.colour) });
    case 'offer_trade':
      return t('tr.act.offer', { name: ctx.name(a.to), give: cardsText(a.give), get: cardsText(a.get) });
    case 'accept_trade': {
      const o = view?.offer;
      return o ? t('mo.act.accept', { name: ctx.name(o.from), terms: t('mo.offer.you', { give: cardsText(o.get), get: cardsText(o.give) }) }) : t('mo.act.acceptIt');
    }
    case 'reject_trade': {
      const o = view?.offer;
      return o ? t('tr.act.reject', { name: ctx.name(o.from) }) : t('mo.act.rejectIt');
    }
    case 'withdraw_trade': {
      const o = view?.offer;
      return o ? t('mo.act.withdraw', { name: ctx.name(o.to) }) : t('mo.act.withdrawIt');
    }
    case 'play_favourable_wind':
      return t('tr.act.wind');
    case 'play_blockade_breaker':
      return t('tr.act.blockade', { ship: shipText(ctx, a.ship), to: fieldText(ctx, a.to) });
    case 'play_explorer':
      return t('tr.act.explorer');
    case 'explorer_voyage':
      return `${t('tr.act.voyage', { ship: shipText(ctx, a.ship), to: fieldText(ctx, a.to) })}${a.cost != null ? `: ${tn('tr.cards', a.cost)}` : ''}`;
    case 'sink_ship':
      return t('tr.act.sink', { target: shipText(ctx, a.target), galley: shipText(ctx, a.galley) });
    case 'pass':
      return t('tr.act.pass');
    case 'end_turn':
      return t('tr.act.end');
    case 'pay':
      return t('tr.act.pay', { cards: cardsText(a.cards) });
    case 'lay_fight_cards':
      return t('tr.act.lay', { cards: cardsText(a.cards) });
    case 'choose_fight_discard':
      return t('tr.act.discard', { cards: cardsText(a.cards) });
    case 'keep':
      return t('tr.act.keep', { cards: cardsText(a.cards) });
    default:
      return describeFields(a, ctx);
  }
}

/** @type {import('./index.js').BoardModule} */
export default {
  preview,
  minWidth: 690,
  layout: true,
  spaces: '.tyros-field',

  kindLabels: { move: t('tr.kind.move'), place_tile: t('tr.kind.place'), build_ship: t('tr.kind.build'), play_blockade_breaker: t('tr.card.blockade'), explorer_voyage: t('tr.kind.voyage'), sink_ship: t('tr.kind.sink'), pay: t('tr.kind.pay'), keep: t('tr.kind.keep'), found_city: t('tr.kind.found') },
  openTemplates: ['pay', 'keep', 'lay_fight_cards', 'choose_fight_discard'],
  countOrder: [...CARD_KINDS],

  rules: [
    [t('rules.goal'), [t('tr.rules.goal')]],
    [t('tr.rules.round'), [t('tr.rules.round1'), t('tr.rules.round2'), t('tr.rules.round3'), t('tr.rules.round4')]],
    [t('tr.rules.actions'), [t('tr.rules.actions1'), t('tr.rules.actions2')]],
    [t('rules.end'), [t('tr.rules.end')]],
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
          Object.entries(EMPIRES).map(([name, e]) => h('span', {}, chip(e.colour, e.letter, e.ink), ` ${colour(name)} `)),
          h('span', {}, `☠ ${t('tr.legend.pirate')}`),
          h('span', {}, t('tr.legend.ships')),
        ),
        me
          ? h('p', { class: 'hand', 'data-hand': ctx.seat }, t('tr.hand', { tiles: me.tiles?.length ? me.tiles.join(', ') : t('common.none'), cards: cardsText(me.cards) }))
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
      [t('tr.row.points'), String(standing?.total ?? 0)],
      [t('tr.row.tiles'), p.tiles ? `${p.tiles.join(', ') || t('common.none')}` : t('tr.inHand', { n: p.tiles_in_hand })],
      [t('field.cards'), p.cards ? cardsText(p.cards) : t('tr.inHand', { n: p.cards_in_hand })],
      [t('tr.row.cities'), String(p.cities_left)],
      [t('tr.row.ships'), String(p.ships_in_supply)],
    ];
    if (p.galley_tokens) rows.push([t('tr.row.galleys'), String(p.galley_tokens)]);
    // Without the variant the engine marks every action card used: say nothing then.
    /** @type {Schemas['TyrosConfig'] | null} */
    const config = ctx.config;
    if (config?.action_cards) {
      rows.push([t('tr.row.actionCards'), Object.entries(p.action_cards).map(([k, st]) => `${tOr(`tr.cardName.${k}`, k)} ${t(`tr.cardState.${st}`)}`).join(', ')]);
    }
    if (p.keep_chosen) rows.push([t('tr.row.keeps'), p.kept ? cardsText(p.kept) : t('tr.chosen')]);
    return rows;
  },

  status(ctx) {
    /** @type {View} */
    const view = ctx.view;
    if (view.outcome) return t('status.over');
    return phaseText(view);
  },

  prompt(ctx) {
    /** @type {View} */
    const view = ctx.view;
    const me = ctx.seat == null ? null : view.players[ctx.seat];
    const yours = ctx.legal.length > 0 || ctx.templates.length > 0;
    /** @type {string[]} */
    const details = [];
    if (me) details.push(t('tr.hand', { tiles: me.tiles?.join(', ') || t('common.none'), cards: cardsText(me.cards) }));
    for (const d of view.dues) details.push(`${dueText(d, ctx)}.`);
    const o = view.offer;
    if (o) details.push(o.to === ctx.seat ? t('mo.prompt.offered', { name: ctx.name(o.from), terms: t('mo.offer.you', { give: cardsText(o.get), get: cardsText(o.give) }) }) : t('tr.prompt.offers', { from: ctx.name(o.from), to: ctx.name(o.to), give: cardsText(o.give), get: cardsText(o.get) }));
    const p = view.phase;
    if (p.phase === 'finished') return null;
    if (view.fight) {
      const f = view.fight;
      return { title: t(yours ? 'tr.prompt.fightYours' : 'tr.prompt.fight', { field: cellText(f.field) }), details };
    }
    const due = view.dues[0];
    if (due) return { title: due.payer === ctx.seat ? tn('tr.prompt.pay', due.count, { need: needText(due.need), reason: DUE_REASONS[due.reason] ?? '' }).replace(/\s+\./, '.') : t('tr.prompt.paying', { name: ctx.name(due.payer) }), details };
    if (o && o.to === ctx.seat) return { title: t('mo.prompt.offered', { name: ctx.name(o.from), terms: t('mo.offer.you', { give: cardsText(o.get), get: cardsText(o.give) }) }), details };
    if (p.phase === 'expansion') return { title: yours ? t('tr.prompt.place') : t('tr.prompt.placing', { names: view.active_seats.map((s2) => ctx.name(s2)).join(', ') }), details };
    if (p.phase === 'round_end') return { title: yours ? t('tr.prompt.keep') : t('tr.prompt.keeping'), details };
    if (p.phase === 'pirates') return { title: t('tr.prompt.pirates'), details };
    if (p.phase === 'actions') {
      const turn = p.turn;
      if (turn.seat !== ctx.seat || !yours) return { title: p.passes ? tn('tr.prompt.turnPasses', p.passes, { name: ctx.name(turn.seat) }) : t('ev.turn', { name: ctx.name(turn.seat) }), details };
      return { title: turn.acted ? t('tr.prompt.acted') : t('tr.prompt.turn'), details };
    }
    return null;
  },

  describeValue(field, value, ctx) {
    if (field === 'to' && typeof value === 'number') return ctx.name(value);
    if (field === 'colour' && typeof value === 'string' && value in EMPIRES) return `${colour(value)} (${EMPIRES[value].letter})`;
    return null;
  },

  describeTemplate(tpl, ctx) {
    /** @type {View | undefined} */
    const view = ctx.view;
    switch (tpl.type) {
      case 'pay': {
        const due = view?.dues[0];
        return { title: due ? tn('tr.tpl.payN', due.count) : t('tr.kind.pay'), hint: due ? `${dueText(due, ctx)}.` : undefined, submit: t('tr.tpl.paySubmit') };
      }
      case 'keep':
        return { title: t('tr.tpl.keep'), hint: t('tr.prompt.keep'), submit: t('tr.tpl.keepSubmit') };
      case 'bank_swap':
        return { title: t('tr.tpl.swap'), hint: t('tr.tpl.swapHint'), submit: t('tr.tpl.swapSubmit') };
      case 'bank_pick':
        return { title: t('tr.tpl.pick'), hint: t('tr.tpl.pickHint'), submit: t('tr.tpl.pickSubmit') };
      case 'offer_trade':
        return { title: t('tr.tpl.offer'), hint: t('tr.tpl.offerHint'), submit: t('tr.tpl.offerSubmit') };
      case 'lay_fight_cards':
        return { title: t('tr.tpl.fight'), hint: t('tr.tpl.fightHint'), submit: t('tr.tpl.fightSubmit') };
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
        const variants = [c.pirates ? t('tr.variant.pirates') : null, c.action_cards ? t('tr.variant.actionCards') : null, c.galleys ? t('tr.variant.galleys') : null].filter((v) => v !== null);
        return variants.length ? t('tr.ev.startedWith', { n: e.players, variants: list(/** @type {string[]} */ (variants)) }) : t('aq.ev.started', { n: e.players });
      }
      case 'tile_pile_shuffled':
        return t('tr.ev.tilesShuffled', { n: e.tiles });
      case 'empire_founded': {
        const params = { colour: colour(e.empire), n: e.field, tiles: e.set_aside.join(', ') };
        return e.set_aside.length ? tn('tr.ev.empireAside', e.set_aside.length, params) : t('tr.ev.empire', params);
      }
      case 'tiles_dealt':
        return e.tiles ? t('tr.ev.tilesDealt', { name: name(e.seat), tiles: e.tiles.join(', ') }) : tn('tr.ev.tilesDealtN', e.count, { name: name(e.seat) });
      case 'draw_pile_shuffled':
        return t('tr.ev.deckShuffled', { n: e.cards });
      case 'start_player_chosen':
        return t('tr.ev.starts', { name: name(e.seat) });
      case 'round_started':
        return t('tr.ev.round', { n: e.round, name: name(e.start_player) });
      case 'cards_drawn':
        return e.cards ? t('tr.ev.draws', { name: name(e.seat), cards: cardsText(e.cards) }) : tn('tr.ev.drawsN', e.count, { name: name(e.seat) });
      case 'draw_pile_rebuilt':
        return t(e.rule === 'shuffle' ? 'tr.ev.rebuiltShuffle' : 'tr.ev.rebuiltTurn', { n: e.cards });
      case 'expansion_started':
        return t('tr.ev.expansion');
      case 'tile_placed':
        return t('tr.ev.placed', { name: name(e.seat), n: e.tile, colour: colour(e.empire) });
      case 'tile_drawn':
        return e.tile != null ? t('tr.ev.tileDrawn', { name: name(e.seat), n: e.tile }) : t('tr.ev.tileDrawnHidden', { name: name(e.seat) });
      case 'placement_skipped':
        return t(e.reason === 'no_tiles' ? 'tr.ev.noTiles' : 'tr.ev.noFit', { name: name(e.seat) });
      case 'tiles_swapped':
        return e.returned == null && e.drawn == null
          ? t('tr.ev.swappedBlind', { name: name(e.seat) })
          : t('tr.ev.swapped', { name: name(e.seat), returned: e.returned != null ? t('tr.tileN', { n: e.returned }) : t('tr.aTile'), drawn: e.drawn != null ? t('tr.tileN', { n: e.drawn }) : t('tr.fromPile') });
      case 'tile_swap_skipped':
        return t(e.reason === 'pile_empty' ? 'tr.ev.swapEmpty' : 'tr.ev.swapNoFit', { name: name(e.seat) });
      case 'no_progress_draws':
        return t('tr.ev.stalled');
      case 'last_round_reached':
        return t('tr.ev.lastRound', { n: e.round });
      case 'pirate_phase_started':
        return t('tr.ev.pirates');
      case 'pirate_appeared':
        return t(e.sinks_at_turn_start ? 'tr.ev.pirateDoomed' : 'tr.ev.pirate', { n: e.field });
      case 'no_pirate':
        return t('tr.ev.noPirate');
      case 'pirate_sunk':
        return t('tr.ev.pirateSunk', { n: e.field, points: e.points.map((p) => t('tr.ev.scores', { name: name(p.seat), n: p.points })).join(', ') });
      case 'action_phase_started':
        return t('tr.ev.actions');
      case 'turn_started':
        return t('ev.turn', { name: name(e.seat) });
      case 'dues_owed':
        return t('tr.ev.dues', { dues: e.dues.map((d) => dueText(d, ctx)).join('; ') });
      case 'due_paid':
        return t('tr.ev.paid', { name: name(e.seat), cards: cardsText(e.cards), reason: DUE_REASONS[e.reason] ?? '', to: e.to != null ? t('tr.to', { name: name(e.to) }) : '' }).replace(/\s+\./, '.').replace(/\s+/g, ' ');
      case 'ship_moved': {
        const via = e.path.length > 1 ? t('tr.via', { fields: e.path.slice(0, -1).map(cellText).join(', ') }) : '';
        const fight = e.fight_with != null ? t('tr.fightWith', { ship: shipText(ctx, e.fight_with) }) : '';
        return `${t('tr.ev.sails', { name: name(e.seat), from: cellText(e.from), to: fieldText(ctx, e.path.at(-1) ?? e.from) })}${via}${e.wind ? t('tr.withWind') : ''}${fight}.`;
      }
      case 'explorer_sailed': {
        const fight = e.fight_with != null ? t('tr.fightWith', { ship: shipText(ctx, e.fight_with) }) : '';
        return `${t('tr.ev.explorer', { name: name(e.seat), from: cellText(e.from), to: fieldText(ctx, e.path.at(-1) ?? e.from) })}${fight}.`;
      }
      case 'city_founded':
        return t('tr.ev.city', { name: name(e.seat), field: fieldText(ctx, e.field) });
      case 'bonus_earned':
        return t('tr.ev.bonus', { name: name(e.seat), n: e.points });
      case 'ship_built':
        return t(e.galley ? 'tr.ev.galley' : 'tr.ev.ship', { name: name(e.seat), field: fieldText(ctx, e.at) });
      case 'bank_traded':
        return t(e.form === 'swap' ? 'tr.ev.bankSwap' : 'tr.ev.bankPick', { name: name(e.seat) });
      case 'cards_discarded':
        return t(e.reason === 'round_end' ? 'tr.ev.discardedEnd' : 'tr.ev.discarded', { name: name(e.seat), cards: cardsText(e.cards) });
      case 'card_taken_from_pile':
        return t('tr.ev.picked', { name: name(e.seat), colour: colour(e.card) });
      case 'pile_search_failed':
        return t('tr.ev.pickMissed', { name: name(e.seat), colour: colour(e.colour) });
      case 'trade_offered':
        return t('tr.ev.offered', { from: name(e.from), to: name(e.to), give: cardsText(e.give), get: cardsText(e.get) });
      case 'trade_accepted':
        return t('tr.ev.accepted', { from: name(e.from), to: name(e.to), give: cardsText(e.give), get: cardsText(e.get) });
      case 'trade_rejected':
        return t('mo.ev.rejected', { to: name(e.to), from: name(e.from) });
      case 'trade_withdrawn':
        return t('mo.ev.withdrawn', { from: name(e.from), to: name(e.to) });
      case 'action_card_played':
        return t('tr.ev.cardPlayed', { name: name(e.seat), card: ACTION_CARDS[e.card] ?? e.card });
      case 'action_card_used':
        return t('tr.ev.cardUsed', { name: name(e.seat), card: ACTION_CARDS[e.card] ?? e.card });
      case 'action_card_lost':
        return t('tr.ev.cardLost', { name: name(e.seat), card: ACTION_CARDS[e.card] ?? e.card });
      case 'ship_relocated':
        return t('tr.ev.blockade', { name: name(e.seat), ship: shipText(ctx, e.ship), from: cellText(e.from), to: cellText(e.to) });
      case 'ship_sunk':
        return t('tr.ev.sunk', { name: name(e.seat), ship: shipText(ctx, e.ship) });
      case 'fight_started':
        return t('tr.ev.fight', { field: cellText(e.field), attacker: shipText(ctx, e.attacker), defender: shipText(ctx, e.defender) });
      case 'fight_cards_laid':
        return e.cards ? t('tr.ev.laid', { name: name(e.seat), cards: cardsText(e.cards) }) : tn('tr.ev.laidN', e.count, { name: name(e.seat) });
      case 'fight_revealed':
        return t('tr.ev.revealed', { attacker: cardsText(e.attacker_cards), defender: cardsText(e.defender_cards), result: e.winner != null ? t('tr.ev.winnerIs', { name: name(e.winner) }) : t('tr.ev.tie') });
      case 'fight_resolved':
        return e.winner != null
          ? `${t('tr.ev.won', { name: name(e.winner), cards: cardsText(e.discarded) })}${e.sunk != null ? t('tr.ev.andSinks', { ship: shipText(ctx, e.sunk) }) : ''}.`
          : t('tr.ev.tied');
      case 'passed':
        return t('tr.ev.passes', { name: name(e.seat) });
      case 'turn_ended':
        return e.passed ? t('tr.ev.endPass', { name: name(e.seat) }) : t('tr.ev.end', { name: name(e.seat) });
      case 'action_phase_ended':
        return t('tr.ev.actionsOver');
      case 'keep_chosen':
        return e.cards ? t('tr.ev.kept', { name: name(e.seat), cards: cardsText(e.cards) }) : t('tr.ev.keeping', { name: name(e.seat) });
      case 'game_ended': {
        const scores = e.scores.map((sc) => `${name(sc.seat)} ${sc.total}`).join(', ');
        const winners = list(e.outcome.winners.map((w) => name(w)));
        return t(e.outcome.winners.length > 1 ? 'tr.ev.overMany' : 'tr.ev.overOne', { scores, winners });
      }
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
      caption: t('tr.sheet.caption'),
      columns: [t('tr.sheet.cities'), t('tr.sheet.ships'), t('tr.sheet.explorers'), t('tr.sheet.pirates'), t('tr.sheet.bonus'), t('tr.sheet.built')],
      rows: view.players.map((p) => {
        const sc = bySeat(p.seat);
        return sc ? [sc.city_points, sc.ship_points, sc.explorer_points, sc.pirate_points, sc.bonus, sc.cities] : ['–', '–', '–', '–', '–', '–'];
      }),
      note: t('tr.sheet.note'),
    };
  },
};
