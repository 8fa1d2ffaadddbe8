// Monopoly's board as printed: the 40 squares around the edge (Los at the bottom right), each
// with its full name, its group's colour band (with a short label, so that colour is never the
// only sign) on the side facing the centre, its price, its owner as a strip along the outer
// edge, houses and hotels in the band, a hatch when mortgaged; the players' pawns, which walk
// to where they land; the last roll's dice in the centre. Click a square for the actions tied
// to it (buy, build, sell, mortgage, lift, claim its rent); bids and trade offers are forms
// whose terms are spelled out. Monopoly hides nothing but the deck order, which the view never
// carries.

import { h, s, svgButton } from '../dom.js';
import { seatLook } from '../seats.js';
import { describeFields, unworded } from './generic.js';

/** @typedef {import('../../../types/api').components['schemas']} Schemas */
/** @typedef {Schemas['MonopolyView']} View */
/** @typedef {Schemas['MonopolyAction']} Action */
/** @typedef {Schemas['MonopolyEvent']} Event */
/** @typedef {import('./index.js').BoardContext} BoardContext */
/** @typedef {import('./index.js').Lookup} Lookup */
/**
 * @typedef {{index: number, name: string, type: string, group?: string, price?: number, rent?: number[],
 *   house_cost?: number, mortgage?: number, unmortgage?: number, amount?: number, rent_by_count?: number[],
 *   dice_multiplier_by_count?: number[]}} SquareData
 */
/** @typedef {{id: string, text_de: string}} CardData */
/** @typedef {{squares: SquareData[], groups: {id: string, name_de: string, squares: number[]}[], currency: string, decks: Record<string, string | {cards?: CardData[]}>}} Data */

/** A corner's side, and the depth of an edge square. */
const D = 112;
/** The width of an edge square. */
const W = 72;
const SIDE = 2 * D + 9 * W;
const BAND = 18;
const STRIP = 9;

/** Each group's printed colour and a label, so that colour is never the only sign. */
/** @type {Record<string, {colour: string, label: string, ink: string}>} */
const GROUPS = {
  braun: { colour: '#8B4513', label: 'Br', ink: '#fff' },
  hellblau: { colour: '#9ED8F0', label: 'Hb', ink: '#000' },
  pink: { colour: '#D93A96', label: 'Pk', ink: '#fff' },
  orange: { colour: '#F7941D', label: 'Or', ink: '#000' },
  rot: { colour: '#ED1B24', label: 'Rt', ink: '#000' },
  gelb: { colour: '#FEF200', label: 'Ge', ink: '#000' },
  gruen: { colour: '#1FB25A', label: 'Gr', ink: '#000' },
  dunkelblau: { colour: '#0072BB', label: 'Db', ink: '#fff' },
};

const DECK_NAMES = { ereignis: 'Ereigniskarte', gemeinschaft: 'Gemeinschaftskarte' };

/** @param {number} n */
const money = (n) => `M ${n.toLocaleString('en')}`;

/**
 * @param {Lookup} ctx
 * @returns {Data | null}
 */
const dataOf = (ctx) => ctx.data;

/**
 * @param {Lookup} ctx
 * @param {number} square
 */
function squareName(ctx, square) {
  return dataOf(ctx)?.squares[square]?.name ?? `square ${square}`;
}

/**
 * @param {Lookup} ctx
 * @param {number} square
 * @returns {SquareData | undefined}
 */
function squareData(ctx, square) {
  return dataOf(ctx)?.squares[square];
}

/**
 * A card by its id, with its printed text when the data file has it.
 * @param {Lookup} ctx
 * @param {string} id
 */
function cardText(ctx, id) {
  const card = Object.values(dataOf(ctx)?.decks ?? {})
    .flatMap((d) => (typeof d === 'object' ? (d.cards ?? []) : []))
    .find((c) => c.id === id);
  return card ? `“${card.text_de}”` : `card ${id}`;
}

/**
 * The log so far, when the context has it (a board context does; a bare lookup not).
 * @param {Lookup} ctx
 * @returns {Event[]}
 */
function pastEvents(ctx) {
  const events = /** @type {{events?: {event: any}[]}} */ (ctx).events;
  return (events ?? []).map((e) => e.event);
}

/** Last parts of German compounds on the board, where a long name breaks. */
const SUFFIXES = ['straße', 'strasse', 'bahnhof', 'platz', 'allee', 'werk', 'feld', 'steuer', 'schafts', 'zitäts', 'nis'];

/**
 * A name split into lines of at most `max` characters, breaking long German compounds before
 * their last part (Bahnhof-straße, Elektrizitäts-werk).
 * @param {string} name
 * @param {number} max
 */
export function nameLines(name, max) {
  /** @type {(w: string) => string[]} */
  const split = (w) => {
    if (w.length <= max) return [w];
    const suffix = SUFFIXES.find((sfx) => w.toLowerCase().endsWith(sfx) && w.length > sfx.length);
    if (!suffix) return [`${w.slice(0, max - 1)}-`, ...split(w.slice(max - 1))];
    const head = split(w.slice(0, w.length - suffix.length));
    head[head.length - 1] += '-';
    return [...head, w.slice(w.length - suffix.length)];
  };
  const words = name.split(' ').flatMap(split);
  /** @type {string[]} */
  const lines = [];
  for (const word of words) {
    const last = lines.at(-1);
    if (last !== undefined && !last.endsWith('-') && last.length + 1 + word.length <= max) lines[lines.length - 1] = `${last} ${word}`;
    else if (last !== undefined && last.endsWith('-') && last.length + word.length - 1 <= max) lines[lines.length - 1] = `${last.slice(0, -1)}${word}`;
    else lines.push(word);
  }
  return lines;
}

/**
 * The owner's mark on a square: the seat's mark and as much of the name as fits, shortened
 * with an ellipsis (a cut mid-word, "3 random bo", reads as a misspelling); the square's title
 * names the owner in full.
 * @param {string} mark
 * @param {string} name
 * @param {number} max characters
 */
export function ownerLabel(mark, name, max) {
  const full = `${mark} ${name}`;
  if (full.length <= max) return full;
  const room = max - mark.length - 2;
  return room >= 2 ? `${mark} ${name.slice(0, room).trimEnd()}…` : mark;
}

/**
 * A square's rectangle and which side of the board it is on.
 * @param {number} i
 * @returns {{x: number, y: number, w: number, h: number, side: 'corner' | 'bottom' | 'left' | 'top' | 'right'}}
 */
function place(i) {
  const far = D + 9 * W;
  if (i === 0) return { x: far, y: far, w: D, h: D, side: 'corner' };
  if (i < 10) return { x: D + (9 - i) * W, y: far, w: W, h: D, side: 'bottom' };
  if (i === 10) return { x: 0, y: far, w: D, h: D, side: 'corner' };
  if (i < 20) return { x: 0, y: D + (19 - i) * W, w: D, h: W, side: 'left' };
  if (i === 20) return { x: 0, y: 0, w: D, h: D, side: 'corner' };
  if (i < 30) return { x: D + (i - 21) * W, y: 0, w: W, h: D, side: 'top' };
  if (i === 30) return { x: far, y: 0, w: D, h: D, side: 'corner' };
  return { x: far, y: D + (i - 31) * W, w: D, h: W, side: 'right' };
}

/**
 * The band facing the centre, the strip on the outer edge, and what is left for the text.
 * @param {ReturnType<typeof place>} p
 */
function parts(p) {
  const { x, y, w, h } = p;
  switch (p.side) {
    case 'bottom':
      return { band: { x, y, w, h: BAND }, strip: { x, y: y + h - STRIP, w, h: STRIP }, body: { x, y: y + BAND, w, h: h - BAND - STRIP } };
    case 'top':
      return { band: { x, y: y + h - BAND, w, h: BAND }, strip: { x, y, w, h: STRIP }, body: { x, y: y + STRIP, w, h: h - BAND - STRIP } };
    case 'left':
      return { band: { x: x + w - BAND, y, w: BAND, h }, strip: { x, y, w: STRIP, h }, body: { x: x + STRIP, y, w: w - BAND - STRIP, h } };
    case 'right':
      return { band: { x, y, w: BAND, h }, strip: { x: x + w - STRIP, y, w: STRIP, h }, body: { x: x + BAND, y, w: w - BAND - STRIP, h } };
    default:
      return { band: null, strip: { x, y: y + h - STRIP, w, h: STRIP }, body: { x, y, w, h: h - STRIP } };
  }
}

/**
 * The viewer's legal actions tied to one square.
 * @param {BoardContext} ctx
 * @param {number} square
 * @returns {Action[]}
 */
function actionsAt(ctx, square) {
  /** @type {View} */
  const view = ctx.view;
  /** @type {Action[]} */
  const legal = /** @type {any} */ (ctx.legal);
  const here = ctx.seat != null && view.players[ctx.seat]?.position === square;
  return legal.filter((a) => {
    switch (a.type) {
      case 'buy_property':
      case 'decline_property':
        return here && view.turn?.step.step === 'buy';
      case 'build':
        return a.squares[0] === square;
      case 'sell_building':
      case 'mortgage':
      case 'lift_mortgage':
        return a.square === square;
      case 'claim_rent':
        return view.rents.some((r) => r.rent === a.rent && r.square === square);
      default:
        return false;
    }
  });
}

/**
 * A pawn: a head and a body in the seat's colour, its number on it; moved as one piece.
 * @param {number} seat
 * @param {number} cx
 * @param {number} cy
 */
function pawn(seat, cx, cy) {
  const look = seatLook(seat);
  return s(
    'g',
    { class: 'pawn', 'data-token': seat, 'data-piece': `pawn-${seat}` },
    s('path', { d: `M${cx - 9} ${cy + 11} L${cx - 5} ${cy - 2} L${cx + 5} ${cy - 2} L${cx + 9} ${cy + 11} Z`, fill: look.colour, stroke: '#000', 'stroke-width': 1.5 }),
    s('circle', { cx, cy: cy - 7, r: 6.5, fill: look.colour, stroke: '#000', 'stroke-width': 1.5 }),
    s('text', { x: cx, y: cy + 9, 'text-anchor': 'middle', class: 'pawn-label' }, String(seat + 1)),
  );
}

/**
 * Squares the move just shown touched.
 * @param {any[]} recent
 * @returns {Set<number>}
 */
function touched(recent) {
  const squares = new Set();
  for (const e of /** @type {Event[]} */ (recent)) {
    if (e.type === 'moved') squares.add(e.to);
    if (['property_bought', 'building_bought', 'mortgaged', 'mortgage_lifted', 'purchase_declined'].includes(e.type) && 'square' in e) squares.add(e.square);
    if (e.type === 'auction_won' && e.lot.kind === 'property') squares.add(e.lot.square);
    if (e.type === 'buildings_sold') e.levels.forEach((l) => squares.add(l.square));
  }
  return squares;
}

/**
 * @param {BoardContext} ctx
 * @param {number} i
 * @param {Set<number>} marked
 */
function squareCell(ctx, i, marked) {
  /** @type {View} */
  const view = ctx.view;
  /** @type {Data} */
  const data = ctx.data;
  const sq = data.squares[i];
  const p = place(i);
  const { band, strip, body } = parts(p);
  const deed = view.deeds.find((d) => d.square === i);
  const group = sq?.group ? GROUPS[sq.group] : null;
  const name = sq?.name ?? String(i);
  const cells = [s('rect', { x: p.x, y: p.y, width: p.w, height: p.h, class: p.side === 'corner' ? 'mono-corner' : 'mono-square' })];
  /** @type {string[]} */
  const said = [name];
  if (group && band) {
    cells.push(s('rect', { x: band.x, y: band.y, width: band.w, height: band.h, fill: group.colour, stroke: '#555' }));
    said.push(`group ${sq.group}`);
    if (!deed?.houses && !deed?.hotel) {
      cells.push(s('text', { x: band.x + band.w / 2, y: band.y + band.h / 2 + 4, 'text-anchor': 'middle', class: 'group-label', fill: group.ink }, group.label));
    }
  }
  // Houses and hotels, in the band.
  if (band && (deed?.hotel || deed?.houses)) {
    const across = band.w > band.h;
    if (deed.hotel) {
      const hw = across ? 30 : 12;
      const hh = across ? 12 : 30;
      const hx = band.x + (band.w - hw) / 2;
      const hy = band.y + (band.h - hh) / 2;
      cells.push(s('rect', { x: hx, y: hy, width: hw, height: hh, fill: '#c0272d', stroke: '#000' }), s('text', { x: hx + hw / 2, y: hy + hh / 2 + 4, 'text-anchor': 'middle', class: 'marker-label', fill: '#fff' }, 'H'));
    } else {
      for (let k = 0; k < deed.houses; k++) {
        const hx = across ? band.x + 5 + k * 16 : band.x + (band.w - 11) / 2;
        const hy = across ? band.y + (band.h - 11) / 2 : band.y + 5 + k * 16;
        cells.push(s('rect', { x: hx, y: hy, width: 11, height: 11, fill: '#1a8a3a', stroke: '#000' }));
      }
    }
    said.push(deed.hotel ? 'a hotel' : `${deed.houses} house${deed.houses > 1 ? 's' : ''}`);
  }
  // The name, wrapped; the price under it.
  const maxChars = Math.max(6, Math.floor(body.w / 6.6));
  const lines = nameLines(name, maxChars).slice(0, 4);
  lines.forEach((line, k) => cells.push(s('text', { x: body.x + body.w / 2, y: body.y + 15 + k * 13, 'text-anchor': 'middle', class: 'mono-name' }, line)));
  const price = sq?.price ?? (sq?.type === 'tax' ? sq.amount : undefined);
  if (price !== undefined && deed?.owner == null) {
    cells.push(s('text', { x: body.x + body.w / 2, y: body.y + body.h - 5, 'text-anchor': 'middle', class: 'mono-price' }, money(price)));
  }
  if (deed?.owner != null) {
    const look = seatLook(deed.owner);
    cells.push(
      s('rect', { x: strip.x, y: strip.y, width: strip.w, height: strip.h, fill: look.colour, class: 'owner-bar' }),
      s('text', { x: body.x + body.w / 2, y: body.y + body.h - 5, 'text-anchor': 'middle', class: 'marker-label' }, ownerLabel(look.label, ctx.name(deed.owner), maxChars + 2)),
    );
    said.push(`owned by ${ctx.name(deed.owner)}`);
  }
  if (deed?.mortgaged) {
    cells.push(
      s('rect', { x: body.x, y: body.y, width: body.w, height: body.h, fill: 'url(#mortgaged)' }),
      s('text', { x: body.x + body.w / 2, y: body.y + body.h - 18, 'text-anchor': 'middle', class: 'mortgaged' }, 'mortgaged'),
    );
    said.push('mortgaged');
  }
  // Pawns standing here.
  const standing = view.players.filter((pl) => !pl.bankrupt && pl.position === i);
  standing.forEach((pl, k) => {
    const cols = Math.min(3, standing.length);
    const cx = body.x + body.w / 2 + ((k % cols) - (cols - 1) / 2) * 22;
    const cy = body.y + body.h / 2 + (lines.length > 2 ? 14 : 8) + Math.floor(k / 3) * 22;
    cells.push(pawn(pl.seat, cx, cy));
    said.push(`${ctx.name(pl.seat)} is here${pl.in_jail ? ' (in jail)' : ''}`);
  });
  if (marked.has(i)) cells.push(s('rect', { x: p.x + 3, y: p.y + 3, width: p.w - 6, height: p.h - 6, class: 'recent-mark' }));
  const g = s('g', { class: 'mono-cell', 'data-square': i }, s('title', {}, said.join(', ')), cells);
  const actions = actionsAt(ctx, i);
  if (actions.length) {
    g.classList.add('playable');
    const label = `${name}: ${actions.map((a) => describeAction(a, ctx)).join('; ')}`;
    svgButton(g, { x: p.x, y: p.y, width: p.w, height: p.h }, label, actions, () => ctx.offer(actions, `${name}: what do you do?`));
  }
  return g;
}

/**
 * The last roll, from the log.
 * @param {Lookup} ctx
 */
function lastRoll(ctx) {
  const roll = [...pastEvents(ctx)].reverse().find((e) => e.type === 'dice_rolled');
  return roll && roll.type === 'dice_rolled' ? roll : null;
}

/**
 * One die: a rounded square with its pips.
 * @param {number} value
 * @param {number} x
 * @param {number} y
 * @param {number} size
 */
function die(value, x, y, size) {
  /** @type {Record<number, Array<[number, number]>>} */
  const pips = {
    1: [[0.5, 0.5]],
    2: [[0.25, 0.25], [0.75, 0.75]],
    3: [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
    4: [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]],
    5: [[0.25, 0.25], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0.75, 0.75]],
    6: [[0.25, 0.25], [0.75, 0.25], [0.25, 0.5], [0.75, 0.5], [0.25, 0.75], [0.75, 0.75]],
  };
  return s(
    'g',
    { class: 'die-face' },
    s('rect', { x, y, width: size, height: size, rx: size / 6, class: 'die' }),
    (pips[value] ?? []).map(([px, py]) => s('circle', { cx: x + px * size, cy: y + py * size, r: size / 11, class: 'pip' })),
  );
}

/**
 * The round being played, or the rounds played once the game is over.
 * @param {View} view
 */
function roundText(view) {
  const limit = view.round_limit ? ` of ${view.round_limit}` : '';
  return view.outcome ? `${view.rounds_completed} rounds played` : `round ${view.rounds_completed + 1}${limit}`;
}

/**
 * @param {BoardContext} ctx
 */
function board(ctx) {
  /** @type {View} */
  const view = ctx.view;
  const marked = touched(ctx.recent);
  const cells = [];
  for (let i = 0; i < 40; i++) cells.push(squareCell(ctx, i, marked));
  const roll = lastRoll(ctx);
  const mid = SIDE / 2;
  return s(
    'svg',
    { class: 'board monopoly', viewBox: `0 0 ${SIDE} ${SIDE}`, role: 'group', 'aria-label': 'Board' },
    s(
      'defs',
      {},
      s('pattern', { id: 'mortgaged', width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, s('rect', { width: 2, height: 8, fill: '#b00020', opacity: 0.25 })),
    ),
    s('rect', { x: D, y: D, width: 9 * W, height: 9 * W, class: 'mono-centre' }),
    s('text', { x: mid, y: D + 120, 'text-anchor': 'middle', class: 'mono-title' }, 'MONOPOLY'),
    roll
      ? s(
          'g',
          { class: 'dice', 'data-dice': roll.dice.join('+') },
          s('title', {}, `${ctx.name(roll.seat)} rolled ${roll.dice.join(' and ')}`),
          die(roll.dice[0] ?? 1, mid - 78, mid - 40, 70),
          die(roll.dice[1] ?? 1, mid + 8, mid - 40, 70),
          s('text', { x: mid, y: mid + 58, 'text-anchor': 'middle', class: 'small' }, `${ctx.name(roll.seat)} rolled ${roll.dice.join(' + ')} = ${roll.dice.reduce((a, b) => a + b, 0)}${roll.dice[0] === roll.dice[1] ? ', a double' : ''}`),
        )
      : null,
    s('text', { x: mid, y: D + 9 * W - 60, 'text-anchor': 'middle', class: 'small' }, `Bank: ${view.bank_houses} houses, ${view.bank_hotels} hotels · ${roundText(view)}`),
    s('text', { x: mid, y: D + 9 * W - 38, 'text-anchor': 'middle', class: 'small' }, view.decks.map((d) => `${d.deck === 'ereignis' ? 'Ereigniskarten' : 'Gemeinschaftskarten'}: ${d.cards}`).join(' · ')),
    cells,
  );
}

/**
 * @param {Schemas['MonopolyBundle']} b
 * @param {Lookup} ctx
 */
function bundleText(b, ctx) {
  const parts = [];
  if (b.cash) parts.push(money(b.cash));
  for (const sq of b.properties) parts.push(squareName(ctx, sq));
  for (const c of b.cards) parts.push(`a get-out-of-jail card (${c})`);
  return parts.join(', ') || 'nothing';
}

/**
 * An offer from the point of view of `seat` (its receiver), or told plainly.
 * @param {Schemas['MonopolyTradeOffer']} o
 * @param {Lookup} ctx
 */
function offerText(o, ctx) {
  if (ctx.seat === o.to) return `you give ${bundleText(o.get, ctx)}, you get ${bundleText(o.give, ctx)}`;
  if (ctx.seat === o.from) return `you give ${bundleText(o.give, ctx)}, you get ${bundleText(o.get, ctx)}`;
  return `${ctx.name(o.from)} gives ${bundleText(o.give, ctx)}; ${ctx.name(o.to)} gives ${bundleText(o.get, ctx)}`;
}

/**
 * What an auction's lot is, in words.
 * @param {Schemas['MonopolyLot']} lot
 * @param {Lookup} ctx
 */
function lotText(lot, ctx) {
  if (lot.kind === 'property') {
    const price = squareData(ctx, lot.square)?.price;
    return `${squareName(ctx, lot.square)}${price ? ` (printed price ${money(price)})` : ''}`;
  }
  return `a ${lot.building}`;
}

/** @type {Record<string, string>} */
const REASONS = { rent: 'rent', tax: 'tax', card: 'a card', jail_fine: 'the jail fine', interest: 'interest', bankruptcy: 'bankruptcy' };

/**
 * The rent a street asks now, told with what more houses would bring.
 * @param {Lookup} ctx
 * @param {number} square
 */
function rentText(ctx, square) {
  const sq = squareData(ctx, square);
  if (!sq) return null;
  if (sq.rent) return `Rent ${money(sq.rent[0])}, doubled with the whole group; ${money(sq.rent[1])} to ${money(sq.rent[5])} with houses and a hotel (houses ${money(sq.house_cost ?? 0)} each).`;
  if (sq.rent_by_count) return `Rent ${sq.rent_by_count.map(money).join(' / ')} for 1 to 4 stations owned.`;
  if (sq.dice_multiplier_by_count) return `Rent ${sq.dice_multiplier_by_count.join(' or ')} times the dice, for one or both works owned.`;
  return null;
}

/**
 * @param {Action} a
 * @param {Lookup} ctx
 */
function describeAction(a, ctx) {
  /** @type {View | undefined} */
  const view = ctx.view;
  const me = ctx.seat != null ? view?.players[ctx.seat] : undefined;
  switch (a.type) {
    case 'roll':
      return me?.in_jail ? `Roll for a double to leave jail (attempt ${me.jail_attempts + 1} of 3)` : 'Roll the dice';
    case 'buy_property': {
      const sq = me ? squareData(ctx, me.position) : undefined;
      return sq ? `Buy ${sq.name} for ${money(sq.price ?? 0)}` : 'Buy the property';
    }
    case 'decline_property':
      return me ? `Don't buy ${squareName(ctx, me.position)}: it goes to auction` : 'Leave it to auction';
    case 'pay_jail_fine':
      return 'Pay M 50 to leave jail, then roll';
    case 'use_jail_card':
      return 'Use your get-out-of-jail card, then roll';
    case 'pay_card_fine': {
      const offered = [...pastEvents(ctx)].reverse().find((e) => e.type === 'card_choice_offered');
      return offered && offered.type === 'card_choice_offered' ? `Pay the fine of ${money(offered.amount)}` : 'Pay the fine';
    }
    case 'draw_card':
      return 'Draw an Ereigniskarte instead';
    case 'end_turn':
      return 'End your turn';
    case 'claim_rent': {
      const r = view?.rents.find((x) => x.rent === a.rent);
      return r ? `Claim ${money(r.amount)} rent from ${ctx.name(r.payer)} for ${squareName(ctx, r.square)}` : 'Claim the rent';
    }
    case 'build': {
      const cost = a.squares.reduce((sum, q) => sum + (squareData(ctx, q)?.house_cost ?? 0), 0);
      const what = a.squares.map((q) => {
        const deed = view?.deeds.find((d) => d.square === q);
        return `${deed?.houses === 4 ? 'a hotel' : 'a house'} on ${squareName(ctx, q)}`;
      });
      return `Build ${what.join(', ')} for ${money(cost)}`;
    }
    case 'sell_building': {
      const deed = view?.deeds.find((d) => d.square === a.square);
      const back = Math.floor((squareData(ctx, a.square)?.house_cost ?? 0) / 2);
      return `Sell ${deed?.hotel ? 'the hotel' : 'a house'} on ${squareName(ctx, a.square)}: get ${money(back)}`;
    }
    case 'mortgage':
      return `Mortgage ${squareName(ctx, a.square)}: get ${money(squareData(ctx, a.square)?.mortgage ?? 0)}`;
    case 'lift_mortgage':
      return `Lift the mortgage on ${squareName(ctx, a.square)}: pay ${money(squareData(ctx, a.square)?.unmortgage ?? 0)}`;
    case 'accept_trade': {
      const o = view?.offers.find((x) => x.offer === a.offer);
      return o ? `Accept ${ctx.name(o.from)}'s offer: ${offerText(o, ctx)}` : 'Accept the offer';
    }
    case 'reject_trade': {
      const o = view?.offers.find((x) => x.offer === a.offer);
      return o ? `Reject ${ctx.name(o.from)}'s offer (${offerText(o, ctx)})` : 'Reject the offer';
    }
    case 'withdraw_trade': {
      const o = view?.offers.find((x) => x.offer === a.offer);
      return o ? `Withdraw your offer to ${ctx.name(o.to)}` : 'Withdraw your offer';
    }
    case 'bid':
      return `Bid ${money(a.amount)}`;
    case 'pass_auction': {
      const auction = view?.auction;
      return auction ? `Leave the auction of ${lotText(auction.lot, ctx)} for good` : 'Leave the auction';
    }
    case 'declare_demand':
      return a.squares.length ? `Ask for buildings on ${a.squares.map((q) => squareName(ctx, q)).join(', ')}` : 'Ask for no buildings';
    case 'pay_debt': {
      const debt = view?.debts.find((d) => d.debtor === ctx.seat);
      const total = debt?.lines.reduce((sum, l) => sum + l.amount, 0);
      return total ? `Pay your debt of ${money(total)}` : 'Pay your debt';
    }
    case 'declare_bankruptcy': {
      const debt = view?.debts.find((d) => d.debtor === ctx.seat);
      const creditor = debt?.lines.find((l) => l.creditor != null)?.creditor;
      return `Declare bankruptcy: everything you own goes to ${creditor != null ? ctx.name(creditor) : 'the bank'}`;
    }
    default:
      return describeFields(a, ctx);
  }
}

/**
 * The rent event a claim or lapse refers to.
 * @param {Lookup} ctx
 * @param {number} rent
 */
function rentOwed(ctx, rent) {
  const owed = pastEvents(ctx).find((e) => e.type === 'rent_owed' && e.rent === rent);
  return owed && owed.type === 'rent_owed' ? owed : null;
}

/**
 * The trade an event refers to by its number.
 * @param {Lookup} ctx
 * @param {number} offer
 */
function tradeOffered(ctx, offer) {
  const made = [...pastEvents(ctx)].reverse().find((e) => e.type === 'trade_offered' && e.offer.offer === offer);
  return made && made.type === 'trade_offered' ? made.offer : null;
}

/** @type {import('./index.js').BoardModule} */
export default {
  minWidth: 780,

  kindLabels: { build: 'Build', sell_building: 'Sell a building', mortgage: 'Mortgage', lift_mortgage: 'Lift a mortgage', claim_rent: 'Claim rent', declare_demand: 'Ask for buildings' },
  openTemplates: ['bid', 'accept_trade', 'settle_inheritance'],
  // Rules version 2 lists a trade template per field an offer may lead with: one composer per
  // partner picks the one its offer fits.
  composedTemplates: ['offer_trade'],

  rules: [
    ['Goal', ['Stay solvent while the others go bankrupt. With a round limit, the richest player (cash, properties and buildings) wins when the limit is reached.']],
    [
      'Your turn',
      [
        'Roll both dice and move your pawn. Passing Los earns M 200. After a double you roll again; the third double in a row sends you to jail.',
        'Land on an unowned property: buy it at its printed price, or it is auctioned to everyone. Land on another player’s property: that player may claim the rent before the next player rolls.',
        'Between rolls you may build, sell buildings, mortgage, lift mortgages and offer trades to the others.',
      ],
    ],
    [
      'Building',
      [
        'Owning every street of a colour group doubles its rent and lets you build houses, evenly across the group, then a hotel. The bank has only 32 houses and 12 hotels.',
        'A mortgage pays half the price; lifting it costs that plus 10 %. Mortgaged properties ask no rent.',
      ],
    ],
    ['Jail', ['In jail, roll for a double, pay M 50 or use a get-out-of-jail card. After three failed rolls you pay and move.']],
    ['Debts', ['A player who cannot pay must sell buildings and mortgage to raise the money; who still cannot pay is bankrupt, and everything goes to the creditor.']],
  ],

  render(ctx) {
    return { drawing: board(ctx) };
  },

  playerRows(ctx, seat) {
    /** @type {View} */
    const view = ctx.view;
    const p = view.players[seat];
    if (!p) return [];
    const owned = view.deeds.filter((d) => d.owner === seat);
    /** @type {Array<[string, string | Node]>} */
    const rows = [
      ['Cash', money(p.cash)],
      ['Position', p.bankrupt ? 'bankrupt' : `${squareName(ctx, p.position)}${p.in_jail ? ` (in jail, ${p.jail_attempts} failed attempt${p.jail_attempts === 1 ? '' : 's'})` : ''}`],
      ['Properties', owned.length ? owned.map((d) => `${d.name}${d.hotel ? ' (hotel)' : d.houses ? ` (${d.houses} house${d.houses > 1 ? 's' : ''})` : ''}${d.mortgaged ? ' (mortgaged)' : ''}`).join(', ') : 'none'],
      ['Net worth', money(p.net_worth)],
    ];
    if (p.jail_cards.length) rows.push(['Jail cards', `${p.jail_cards.length} get-out-of-jail card${p.jail_cards.length > 1 ? 's' : ''}`]);
    const rents = view.rents.filter((r) => r.owner === seat || r.payer === seat);
    if (rents.length) {
      rows.push(['Rent claims', rents.map((r) => (r.owner === seat ? `may claim ${money(r.amount)} from ${ctx.name(r.payer)} (${squareName(ctx, r.square)})` : `owes ${money(r.amount)} to ${ctx.name(r.owner)} if claimed`)).join('; ')]);
    }
    const a = view.auction;
    if (a && a.bidders.includes(seat)) rows.push(['Auction', a.high?.seat === seat ? `highest bid ${money(a.high.amount)}` : 'bidding']);
    const offers = view.offers.filter((o) => o.from === seat || o.to === seat);
    if (offers.length) rows.push(['Trade offers', offers.map((o) => `${ctx.name(o.from)} to ${ctx.name(o.to)}: ${ctx.name(o.from)} gives ${bundleText(o.give, ctx)}, gets ${bundleText(o.get, ctx)}`).join('; ')]);
    const debt = view.debts.find((d) => d.debtor === seat);
    if (debt) rows.push(['Debt', debt.lines.map((l) => `${money(l.amount)} for ${REASONS[l.reason] ?? l.reason}`).join(', ')]);
    return rows;
  },

  status(ctx) {
    /** @type {View} */
    const view = ctx.view;
    if (view.outcome) return 'Game over';
    if (view.auction) return `Auction · ${roundText(view)}`;
    if (view.turn) return `${ctx.name(view.turn.seat)}'s turn · ${roundText(view)}`;
    return roundText(view);
  },

  prompt(ctx) {
    /** @type {View} */
    const view = ctx.view;
    if (view.outcome) return null;
    const me = ctx.seat == null ? null : view.players[ctx.seat];
    /** @type {Array<string>} */
    const details = [];
    const roll = lastRoll(ctx);
    if (roll) details.push(`Last roll: ${ctx.name(roll.seat)} ${roll.dice.join(' + ')} = ${roll.dice.reduce((x, y) => x + y, 0)}${roll.dice[0] === roll.dice[1] ? ' (a double)' : ''}.`);
    if (me) details.push(`Your cash: ${money(me.cash)}.`);
    const offersToMe = view.offers.filter((o) => o.to === ctx.seat);
    for (const o of view.offers) details.push(`${ctx.name(o.from)}'s offer to ${ctx.name(o.to)}: ${offerText(o, ctx)}.`);
    for (const r of view.rents) {
      details.push(r.owner === ctx.seat ? `Claim ${money(r.amount)} from ${ctx.name(r.payer)} for ${squareName(ctx, r.square)} before the next roll, or it is lost.` : `${ctx.name(r.payer)} owes ${ctx.name(r.owner)} ${money(r.amount)} for ${squareName(ctx, r.square)} if claimed.`);
    }
    const auction = view.auction;
    if (auction) {
      const high = auction.high ? `high bid ${money(auction.high.amount)} by ${ctx.name(auction.high.seat)}` : `no bid yet, bids from ${money(auction.min_bid)}`;
      const title = `Auction of ${lotText(auction.lot, ctx)}: ${high}.`;
      details.unshift(`Still bidding: ${auction.bidders.map((b) => ctx.name(b)).join(', ')}.`);
      return { title, details };
    }
    const debt = view.debts[0];
    if (debt) {
      const total = debt.lines.reduce((sum, l) => sum + l.amount, 0);
      const to = debt.lines.map((l) => `${money(l.amount)} ${REASONS[l.reason] ?? l.reason} to ${l.creditor != null ? ctx.name(l.creditor) : 'the bank'}`).join(', ');
      const title = debt.debtor === ctx.seat ? `You owe ${money(total)} (${to}): sell buildings or mortgage to raise it, then pay; or declare bankruptcy.` : `${ctx.name(debt.debtor)} owes ${money(total)} and must raise the money.`;
      return { title, details };
    }
    if (view.shortage) {
      return { title: `Too few ${view.shortage.building}s in the bank (${view.shortage.stock}) for ${view.shortage.waiting.map((w) => ctx.name(w)).join(', ')}: say which streets you want them on; they are auctioned.`, details };
    }
    if (view.inheritance) {
      return { title: `${ctx.name(view.inheritance.creditor)} inherits mortgaged properties: lift each now, or pay 10 % interest and keep it mortgaged.`, details };
    }
    const turn = view.turn;
    if (!turn) return details.length ? { title: 'Between turns.', details } : null;
    const mine = turn.seat === ctx.seat;
    if (offersToMe.length && !mine) return { title: `${ctx.name(offersToMe[0].from)} offers you a trade: ${offerText(offersToMe[0], ctx)}.`, details };
    const step = turn.step.step;
    if (step === 'buy') {
      const p = view.players[turn.seat];
      const sq = p ? squareData(ctx, p.position) : undefined;
      const rent = p ? rentText(ctx, p.position) : null;
      if (rent) details.unshift(rent);
      if (mine && sq) return { title: `You landed on ${sq.name}: buy it for ${money(sq.price ?? 0)}, or it goes to auction.`, details };
      if (sq) return { title: `${ctx.name(turn.seat)} may buy ${sq.name} for ${money(sq.price ?? 0)}.`, details };
    }
    if (!mine) return { title: `${ctx.name(turn.seat)}'s turn.`, details };
    if (me?.in_jail && ctx.legal.some((a) => a.type === 'roll')) return { title: `You are in jail: roll for a double, pay M 50, or use a get-out-of-jail card.`, details };
    if (ctx.legal.some((a) => a.type === 'pay_card_fine')) return { title: 'Pay the fine on the card, or draw an Ereigniskarte instead.', details };
    if (ctx.legal.some((a) => a.type === 'roll')) return { title: 'Your turn: roll the dice. Build, mortgage or trade first if you like.', details };
    return { title: 'Build, mortgage or trade if you like, then end your turn.', details };
  },

  describeValue(field, value, ctx) {
    if (field === 'to' && typeof value === 'number') return ctx.name(value);
    if (['give_properties', 'get_properties', 'lift', 'squares'].includes(field) && typeof value === 'number') return squareName(ctx, value);
    if (['give_cards', 'get_cards'].includes(field) && typeof value === 'string') return `get-out-of-jail card ${value}`;
    if (field === 'offer' && typeof value === 'number') {
      /** @type {View | undefined} */
      const view = ctx.view;
      const o = view?.offers.find((x) => x.offer === value);
      return o ? `${ctx.name(o.from)}'s offer: ${offerText(o, ctx)}` : `offer ${value}`;
    }
    return null;
  },

  describeTemplate(t, ctx) {
    /** @type {View | undefined} */
    const view = ctx.view;
    const fixed = /** @type {Record<string, unknown>} */ (('fixed' in t && t.fixed) || {});
    switch (t.type) {
      case 'bid': {
        const auction = view?.auction;
        const domain = t.params.amount;
        const range = domain?.kind === 'integer' ? `bid from ${money(domain.min)} up to your ${money(domain.max)}` : 'bid';
        if (!auction) return { title: 'Bid', submit: 'Bid' };
        const high = auction.high ? `High bid ${money(auction.high.amount)} by ${ctx.name(auction.high.seat)}` : 'No bid yet';
        return { title: `Bid for ${lotText(auction.lot, ctx)}`, hint: `${high}; ${range}.`, submit: 'Bid' };
      }
      case 'offer_trade': {
        const to = typeof fixed.to === 'number' ? ctx.name(fixed.to) : 'a player';
        return { title: `Offer ${to} a trade`, hint: `To: ${to}`, submit: `Offer the trade to ${to}`, empty: 'A trade moves something: choose what you give or what you ask for.' };
      }
      case 'accept_trade': {
        const o = view?.offers.find((x) => x.offer === fixed.offer);
        if (!o) return { title: 'An offer to you', submit: 'Accept' };
        const terms = offerText(o, ctx);
        return { title: `${ctx.name(o.from)}'s offer`, hint: `If you accept: ${terms}. Mortgages you receive can be lifted now; the others cost 10 % interest.`, submit: `Accept: ${terms}` };
      }
      case 'settle_inheritance':
        return { title: 'Mortgaged properties you inherit', hint: 'Tick the ones to lift now; on the others you pay 10 % interest and they stay mortgaged.', submit: 'Settle the mortgages' };
      default:
        return null;
    }
  },

  describeAction,

  /** @param {Event} e */
  describeEvent(e, ctx) {
    const name = ctx.name;
    const sq = (/** @type {number} */ q) => squareName(ctx, q);
    /** @param {number | null | undefined} seat */
    const who = (seat) => (seat == null ? 'the bank' : name(seat));
    switch (e.type) {
      case 'game_started':
        return `The game starts with ${e.players} players, each with ${money(e.config.start_money)}${e.config.round_limit ? `, for ${e.config.round_limit} rounds` : ''}.`;
      case 'deck_shuffled':
        return `The ${e.deck === 'ereignis' ? 'Ereigniskarten' : 'Gemeinschaftskarten'} are shuffled (${e.cards} cards).`;
      case 'starting_rolled':
        return `Who starts: ${e.rolls.map((r) => `${name(r.seat)} rolls ${r.dice.reduce((a, b) => a + b, 0)}`).join(', ')}.`;
      case 'turn_started':
        return `${name(e.seat)}'s turn.`;
      case 'dice_rolled':
        return `${name(e.seat)} rolls ${e.dice.join(' and ')}${e.dice.length === 2 && e.dice[0] === e.dice[1] ? ', a double' : ''}.`;
      case 'moved':
        return `${name(e.seat)} moves ${e.backward ? 'back ' : ''}from ${sq(e.from)} to ${sq(e.to)}.`;
      case 'salary_paid':
        return `${name(e.seat)} collects ${money(e.amount)} for passing Los.`;
      case 'sent_to_jail':
        return `${name(e.seat)} goes to jail.`;
      case 'jail_attempt_failed':
        return `${name(e.seat)} rolls no double and stays in jail (attempt ${e.attempt} of 3).`;
      case 'left_jail': {
        const how = { fine: 'by paying M 50', card: 'with a get-out-of-jail card', doubles: 'by rolling a double', third_attempt: 'after the third attempt, paying M 50' };
        return `${name(e.seat)} leaves jail ${how[e.how] ?? ''}.`;
      }
      case 'purchase_offered':
        return `${name(e.seat)} may buy ${sq(e.square)} for ${money(squareData(ctx, e.square)?.price ?? 0)}.`;
      case 'property_bought':
        return `${name(e.seat)} buys ${sq(e.square)} for ${money(e.price)}.`;
      case 'purchase_declined':
        return `${name(e.seat)} does not buy ${sq(e.square)}: it goes to auction.`;
      case 'rent_owed':
        return `${name(e.payer)} owes ${name(e.owner)} ${money(e.amount)} rent for ${sq(e.square)}${e.dice ? ` (dice ${e.dice.join(' + ')})` : ''}, if claimed in time.`;
      case 'rent_claimed': {
        const owed = rentOwed(ctx, e.rent);
        return owed ? `${name(owed.owner)} claims the ${money(owed.amount)} rent for ${sq(owed.square)} from ${name(owed.payer)}.` : 'The rent is claimed.';
      }
      case 'rent_lapsed': {
        const owed = rentOwed(ctx, e.rent);
        return owed ? `${name(owed.owner)} did not claim the ${money(owed.amount)} rent for ${sq(owed.square)} in time: ${name(owed.payer)} keeps it.` : 'An unclaimed rent lapses.';
      }
      case 'paid':
        if (e.from == null) return `The bank pays ${who(e.to)} ${money(e.amount)} (${REASONS[e.reason] ?? 'a payment'}).`;
        return `${name(e.from)} pays ${money(e.amount)} to ${who(e.to)} (${REASONS[e.reason] ?? 'a payment'}).`;
      case 'debt_opened':
        return `${name(e.debtor)} cannot pay ${money(e.amount)} (${REASONS[e.reason] ?? 'a payment'} to ${who(e.creditor)}) and must raise the money or go bankrupt.`;
      case 'debt_paid':
        return `${name(e.debtor)} pays off the debt.`;
      case 'card_drawn':
        return `${name(e.seat)} draws ${e.deck === 'ereignis' ? 'an Ereigniskarte' : 'a Gemeinschaftskarte'}: ${cardText(ctx, e.card)}`;
      case 'card_choice_offered':
        return `${name(e.seat)} may pay ${money(e.amount)} or draw an Ereigniskarte.`;
      case 'jail_card_returned':
        return `${name(e.seat)}'s get-out-of-jail card goes back under the ${e.card.startsWith('E') ? 'Ereigniskarten' : 'Gemeinschaftskarten'}.`;
      case 'move_finished':
        return e.roll_again ? `${name(e.seat)} rolled a double and rolls again.` : `${name(e.seat)} has moved.`;
      case 'turn_ended':
        return `${name(e.seat)} ends the turn.`;
      case 'round_completed':
        return `Round ${e.rounds} is complete.`;
      case 'building_bought':
        return e.level >= 5
          ? `${name(e.seat)} builds a hotel on ${sq(e.square)} for ${money(e.price)}.`
          : `${name(e.seat)} builds a house on ${sq(e.square)} for ${money(e.price)} (${e.level} there now).`;
      case 'buildings_sold':
        return `${name(e.seat)} sells buildings for ${money(e.amount)}: ${e.levels.map((l) => `${sq(l.square)} now has ${l.level >= 5 ? 'a hotel' : `${l.level} house${l.level === 1 ? '' : 's'}`}`).join(', ')}.`;
      case 'mortgaged':
        return `${name(e.seat)} mortgages ${sq(e.square)} for ${money(e.amount)}.`;
      case 'mortgage_lifted':
        return `${name(e.seat)} lifts the mortgage on ${sq(e.square)} for ${money(e.amount)}.`;
      case 'auction_started':
        return `${lotText(e.lot, ctx)} is auctioned, bids from ${money(e.min_bid)}; bidding: ${e.bidders.map((b) => name(b)).join(', ')}.`.replace(/^./, (c) => c.toUpperCase());
      case 'bid_placed':
        return `${name(e.seat)} bids ${money(e.amount)}.`;
      case 'auction_passed':
        return `${name(e.seat)} leaves the auction.`;
      case 'auction_won':
        return `${name(e.seat)} wins the auction of ${lotText(e.lot, ctx)} for ${money(e.amount)}.`;
      case 'auction_unsold':
        return `Nobody bids for ${lotText(e.lot, ctx)}: it stays with the bank.`;
      case 'bank_sales_queued':
        return `The bank will auction ${e.squares.map(sq).join(', ')}.`;
      case 'shortage_opened':
        return `Only ${e.stock} ${e.building}${e.stock === 1 ? ' is' : 's are'} left in the bank, wanted by ${e.waiting.map((w) => name(w)).join(', ')}: they are auctioned.`;
      case 'demand_declared':
        return e.squares.length ? `${name(e.seat)} wants buildings on ${e.squares.map(sq).join(', ')}.` : `${name(e.seat)} wants no building.`;
      case 'shortage_ended':
        return 'The building shortage is settled.';
      case 'trade_offered':
        return `${name(e.offer.from)} offers ${name(e.offer.to)} a trade: ${name(e.offer.from)} gives ${bundleText(e.offer.give, ctx)}; ${name(e.offer.to)} gives ${bundleText(e.offer.get, ctx)}.`;
      case 'trade_rejected': {
        const o = tradeOffered(ctx, e.offer);
        return o ? `${name(o.to)} rejects ${name(o.from)}'s offer.` : 'A trade offer is rejected.';
      }
      case 'trade_withdrawn': {
        const o = tradeOffered(ctx, e.offer);
        return o ? `${name(o.from)} withdraws the offer to ${name(o.to)}.` : 'A trade offer is withdrawn.';
      }
      case 'trade_executed':
        return `The trade is done: ${name(e.offer.from)} gives ${bundleText(e.offer.give, ctx)}; ${name(e.offer.to)} gives ${bundleText(e.offer.get, ctx)}.`;
      case 'bankruptcy_declared':
        return `${name(e.seat)} declares bankruptcy.`;
      case 'property_transferred':
        return `${sq(e.square)} passes from ${name(e.from)} to ${who(e.to)}.`;
      case 'jail_card_transferred':
        return `${name(e.from)}'s get-out-of-jail card passes to ${name(e.to)}.`;
      case 'inheritance_offered':
        return `${name(e.creditor)} inherits the mortgaged ${e.squares.map(sq).join(', ')}: each is lifted now or costs 10 % interest.`;
      case 'inheritance_settled':
        return `${name(e.creditor)} settles the inherited mortgages.`;
      case 'trade_lapsed': {
        const o = tradeOffered(ctx, e.offer);
        const whose = o ? `${name(o.from)}'s offer to ${name(o.to)}` : 'A trade offer';
        return `${whose} lapses: ${sq(e.square)} has changed since it was made.`;
      }
      case 'player_bankrupt':
        return `${name(e.seat)} is bankrupt and leaves the game.`;
      case 'game_ended': {
        const winners = `${e.outcome.winners.map((w) => name(w)).join(' and ')} ${e.outcome.winners.length > 1 ? 'win' : 'wins'}`;
        return e.reason === 'round_limit' ? `The round limit is reached: ${winners} with the highest net worth.` : `Only one player is left: ${winners}.`;
      }
      default:
        return unworded(e, ctx);
    }
  },

  scoreText: money,

  scoreSheet(ctx) {
    /** @type {View} */
    const view = ctx.view;
    /** @type {Data} */
    const data = ctx.data;
    const rows = view.players.map((p) => {
      if (p.bankrupt) return ['bankrupt', '–', '–'];
      let properties = 0;
      let buildings = 0;
      for (const d of view.deeds.filter((x) => x.owner === p.seat)) {
        const sq = data.squares[d.square];
        properties += d.mortgaged ? (sq?.mortgage ?? 0) : (sq?.price ?? 0);
        buildings += (sq?.house_cost ?? 0) * (d.hotel ? 5 : d.houses);
      }
      return [money(p.cash), money(properties), money(buildings)];
    });
    return {
      caption: 'Net worth at the end',
      columns: ['Cash', 'Properties', 'Buildings'],
      rows,
      note: 'Net worth is cash, plus each property at its printed price (half when mortgaged), plus what its houses and hotel cost.',
    };
  },
};
