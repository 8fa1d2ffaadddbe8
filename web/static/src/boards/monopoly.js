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
import { helpOn } from './help.js';
import { preview, squareFacts } from './preview-monopoly.js';
import { list, money as formatMoney, t, tn, tOr } from '../i18n/index.js';

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


/** @param {number} n */
const money = (n) => formatMoney('monopoly', n);

/**
 * A deck's printed name, the cards as a pile: "Ereigniskarten".
 * @param {string} deck
 */
const deckName = (deck) => (deck === 'ereignis' ? t('mo.deck.ereignis') : t('mo.deck.gemeinschaft'));

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
  return dataOf(ctx)?.squares[square]?.name ?? t('mo.square', { n: square });
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
  return card ? t('mo.quote', { text: card.text_de }) : t('mo.card', { id });
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
    said.push(t('mo.group', { group: tOr(`mo.groupName.${sq.group}`, sq.group ?? '') }));
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
    said.push(deed.hotel ? t('mo.aHotel') : tn('mo.houses', deed.houses));
  }
  // The name, wrapped; the price under it.
  // About 7.6 units a character at the names' 11.5 px, so that a line keeps clear of the
  // square's edges: on a phone (the drawing at least `minWidth` wide) the names are 12 CSS
  // pixels, as legible as the page's small print.
  const maxChars = Math.max(6, Math.floor(body.w / 7.6));
  const lines = nameLines(name, maxChars).slice(0, 4);
  lines.forEach((line, k) => cells.push(s('text', { x: body.x + body.w / 2, y: body.y + 15 + k * 14, 'text-anchor': 'middle', class: 'mono-name' }, line)));
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
    said.push(t('mo.ownedBy', { name: ctx.name(deed.owner) }));
  }
  if (deed?.mortgaged) {
    cells.push(
      s('rect', { x: body.x, y: body.y, width: body.w, height: body.h, fill: 'url(#mortgaged)' }),
      s('text', { x: body.x + body.w / 2, y: body.y + body.h - 18, 'text-anchor': 'middle', class: 'mortgaged' }, t('mo.mortgaged')),
    );
    said.push(t('mo.mortgaged'));
  }
  // Pawns standing here.
  const standing = view.players.filter((pl) => !pl.bankrupt && pl.position === i);
  standing.forEach((pl, k) => {
    const cols = Math.min(3, standing.length);
    const cx = body.x + body.w / 2 + ((k % cols) - (cols - 1) / 2) * 22;
    const cy = body.y + body.h / 2 + (lines.length > 2 ? 14 : 8) + Math.floor(k / 3) * 22;
    cells.push(pawn(pl.seat, cx, cy));
    said.push(t(pl.in_jail ? 'mo.hereInJail' : 'mo.here', { name: ctx.name(pl.seat) }));
  });
  if (marked.has(i)) cells.push(s('rect', { x: p.x + 3, y: p.y + 3, width: p.w - 6, height: p.h - 6, class: 'recent-mark' }));
  const g = s('g', { class: 'mono-cell', 'data-square': i }, cells);
  helpOn(g, [...said, ...squareFacts(sq)]);
  const actions = actionsAt(ctx, i);
  if (actions.length) {
    g.classList.add('playable');
    const label = `${name}: ${actions.map((a) => describeAction(a, ctx)).join('; ')}`;
    svgButton(g, { x: p.x, y: p.y, width: p.w, height: p.h }, label, actions, () => ctx.offer(actions, t('mo.whatDo', { square: name })));
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
  if (view.outcome) return tn('mo.roundsPlayed', view.rounds_completed);
  return view.round_limit ? t('mo.roundOf', { n: view.rounds_completed + 1, of: view.round_limit }) : t('mo.round', { n: view.rounds_completed + 1 });
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
    { class: 'board monopoly', viewBox: `0 0 ${SIDE} ${SIDE}`, role: 'group', 'aria-label': t('game.board') },
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
          s('title', {}, t('mo.rolled', { name: ctx.name(roll.seat), dice: list(roll.dice.map(String)) })),
          die(roll.dice[0] ?? 1, mid - 78, mid - 40, 70),
          die(roll.dice[1] ?? 1, mid + 8, mid - 40, 70),
          s('text', { x: mid, y: mid + 58, 'text-anchor': 'middle', class: 'small' }, t(roll.dice[0] === roll.dice[1] ? 'mo.rolledSumDouble' : 'mo.rolledSum', { name: ctx.name(roll.seat), dice: roll.dice.join(' + '), sum: roll.dice.reduce((a, b) => a + b, 0) })),
        )
      : null,
    s('text', { x: mid, y: D + 9 * W - 60, 'text-anchor': 'middle', class: 'small' }, `${t('mo.bank', { houses: view.bank_houses, hotels: view.bank_hotels })} · ${roundText(view)}`),
    s('text', { x: mid, y: D + 9 * W - 38, 'text-anchor': 'middle', class: 'small' }, view.decks.map((d) => `${deckName(d.deck)}: ${d.cards}`).join(' · ')),
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
  for (const c of b.cards) parts.push(t('mo.jailCardId', { id: c }));
  return parts.join(', ') || t('common.nothing');
}

/**
 * An offer from the point of view of `seat` (its receiver), or told plainly.
 * @param {Schemas['MonopolyTradeOffer']} o
 * @param {Lookup} ctx
 */
function offerText(o, ctx) {
  if (ctx.seat === o.to) return t('mo.offer.you', { give: bundleText(o.get, ctx), get: bundleText(o.give, ctx) });
  if (ctx.seat === o.from) return t('mo.offer.you', { give: bundleText(o.give, ctx), get: bundleText(o.get, ctx) });
  return t('mo.offer.them', { from: ctx.name(o.from), give: bundleText(o.give, ctx), to: ctx.name(o.to), get: bundleText(o.get, ctx) });
}

/**
 * What an auction's lot is, in words.
 * @param {Schemas['MonopolyLot']} lot
 * @param {Lookup} ctx
 */
function lotText(lot, ctx) {
  if (lot.kind === 'property') {
    const price = squareData(ctx, lot.square)?.price;
    return price ? t('mo.lotPrice', { square: squareName(ctx, lot.square), price: money(price) }) : squareName(ctx, lot.square);
  }
  return lot.building === 'hotel' ? t('mo.aHotel') : t('mo.aHouse');
}

/** Why money is owed, in words. @type {Record<string, string>} */
const REASONS = { rent: t('mo.reason.rent'), tax: t('mo.reason.tax'), card: t('mo.reason.card'), jail_fine: t('mo.reason.jail_fine'), interest: t('mo.reason.interest'), bankruptcy: t('mo.reason.bankruptcy') };

/**
 * The rent a street asks now, told with what more houses would bring.
 * @param {Lookup} ctx
 * @param {number} square
 */
function rentText(ctx, square) {
  const sq = squareData(ctx, square);
  if (!sq) return null;
  if (sq.rent) return t('mo.rent.street', { rent: money(sq.rent[0]), from: money(sq.rent[1]), to: money(sq.rent[5]), house: money(sq.house_cost ?? 0) });
  if (sq.rent_by_count) return t('mo.rent.stations', { rents: sq.rent_by_count.map(money).join(' / ') });
  if (sq.dice_multiplier_by_count) return t('mo.rent.works', { times: list(sq.dice_multiplier_by_count.map(String), 'disjunction') });

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
      return me?.in_jail ? t('mo.act.rollJail', { n: me.jail_attempts + 1 }) : t('mo.act.roll');
    case 'buy_property': {
      const sq = me ? squareData(ctx, me.position) : undefined;
      return sq ? t('mo.act.buy', { square: sq.name, price: money(sq.price ?? 0) }) : t('mo.act.buyIt');
    }
    case 'decline_property':
      return me ? t('mo.act.decline', { square: squareName(ctx, me.position) }) : t('mo.act.declineIt');
    case 'pay_jail_fine':
      return t('mo.act.payJail', { fine: money(50) });
    case 'use_jail_card':
      return t('mo.act.useCard');
    case 'pay_card_fine': {
      const offered = [...pastEvents(ctx)].reverse().find((e) => e.type === 'card_choice_offered');
      return offered && offered.type === 'card_choice_offered' ? t('mo.act.payFineOf', { amount: money(offered.amount) }) : t('mo.act.payFine');
    }
    case 'draw_card':
      return t('mo.act.draw');
    case 'end_turn':
      return t('ty.act.endTurn');
    case 'claim_rent': {
      const r = view?.rents.find((x) => x.rent === a.rent);
      return r ? t('mo.act.claim', { amount: money(r.amount), name: ctx.name(r.payer), square: squareName(ctx, r.square) }) : t('mo.act.claimIt');
    }
    case 'build': {
      const cost = a.squares.reduce((sum, q) => sum + (squareData(ctx, q)?.house_cost ?? 0), 0);
      const what = a.squares.map((q) => {
        const deed = view?.deeds.find((d) => d.square === q);
        return t(deed?.houses === 4 ? 'mo.act.hotelOn' : 'mo.act.houseOn', { square: squareName(ctx, q) });
      });
      return t('mo.act.build', { what: list(what), cost: money(cost) });
    }
    case 'sell_building': {
      const deed = view?.deeds.find((d) => d.square === a.square);
      const back = Math.floor((squareData(ctx, a.square)?.house_cost ?? 0) / 2);
      return t(deed?.hotel ? 'mo.act.sellHotel' : 'mo.act.sellHouse', { square: squareName(ctx, a.square), amount: money(back) });
    }
    case 'mortgage':
      return t('mo.act.mortgage', { square: squareName(ctx, a.square), amount: money(squareData(ctx, a.square)?.mortgage ?? 0) });
    case 'lift_mortgage':
      return t('mo.act.lift', { square: squareName(ctx, a.square), amount: money(squareData(ctx, a.square)?.unmortgage ?? 0) });
    case 'accept_trade': {
      const o = view?.offers.find((x) => x.offer === a.offer);
      return o ? t('mo.act.accept', { name: ctx.name(o.from), terms: offerText(o, ctx) }) : t('mo.act.acceptIt');
    }
    case 'reject_trade': {
      const o = view?.offers.find((x) => x.offer === a.offer);
      return o ? t('mo.act.reject', { name: ctx.name(o.from), terms: offerText(o, ctx) }) : t('mo.act.rejectIt');
    }
    case 'withdraw_trade': {
      const o = view?.offers.find((x) => x.offer === a.offer);
      return o ? t('mo.act.withdraw', { name: ctx.name(o.to) }) : t('mo.act.withdrawIt');
    }
    case 'bid':
      return t('mo.act.bid', { amount: money(a.amount) });
    case 'pass_auction': {
      const auction = view?.auction;
      return auction ? t('mo.act.pass', { lot: lotText(auction.lot, ctx) }) : t('mo.act.passIt');
    }
    case 'declare_demand':
      return a.squares.length ? t('mo.act.demand', { squares: a.squares.map((q) => squareName(ctx, q)).join(', ') }) : t('mo.act.demandNone');
    case 'pay_debt': {
      const debt = view?.debts.find((d) => d.debtor === ctx.seat);
      const total = debt?.lines.reduce((sum, l) => sum + l.amount, 0);
      return total ? t('mo.act.payDebtOf', { amount: money(total) }) : t('mo.act.payDebt');
    }
    case 'declare_bankruptcy': {
      const debt = view?.debts.find((d) => d.debtor === ctx.seat);
      const creditor = debt?.lines.find((l) => l.creditor != null)?.creditor;
      return t('mo.act.bankrupt', { name: creditor != null ? ctx.name(creditor) : t('mo.theBank') });
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
  preview,
  minWidth: 900,
  spaces: '.mono-cell',

  kindLabels: { build: t('mo.kind.build'), sell_building: t('mo.kind.sell'), mortgage: t('mo.kind.mortgage'), lift_mortgage: t('mo.kind.lift'), claim_rent: t('mo.kind.claim'), declare_demand: t('mo.kind.demand') },
  openTemplates: ['bid', 'accept_trade', 'settle_inheritance'],
  // Rules version 2 lists a trade template per field an offer may lead with: one composer per
  // partner picks the one its offer fits.
  composedTemplates: ['offer_trade'],

  rules: [
    [t('rules.goal'), [t('mo.rules.goal')]],
    [t('rules.turn'), [t('mo.rules.turn1'), t('mo.rules.turn2'), t('mo.rules.turn3')]],
    [t('mo.rules.building'), [t('mo.rules.building1'), t('mo.rules.building2')]],
    [t('mo.rules.jail'), [t('mo.rules.jail1')]],
    [t('mo.rules.debts'), [t('mo.rules.debts1')]],
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
      [t('ty.row.cash'), money(p.cash)],
      [t('mo.row.position'), p.bankrupt ? t('mo.bankrupt') : p.in_jail ? tn('mo.inJail', p.jail_attempts, { square: squareName(ctx, p.position) }) : squareName(ctx, p.position)],
      [
        t('mo.row.properties'),
        owned.length
          ? owned.map((d) => `${d.name}${d.hotel ? ` (${t('mo.hotel')})` : d.houses ? ` (${tn('mo.houses', d.houses)})` : ''}${d.mortgaged ? ` (${t('mo.mortgaged')})` : ''}`).join(', ')
          : t('common.none'),
      ],
      [t('mo.row.netWorth'), money(p.net_worth)],
    ];
    if (p.jail_cards.length) rows.push([t('mo.row.jailCards'), tn('mo.jailCards', p.jail_cards.length)]);
    const rents = view.rents.filter((r) => r.owner === seat || r.payer === seat);
    if (rents.length) {
      rows.push([t('mo.row.rents'), rents.map((r) => (r.owner === seat ? t('mo.row.mayClaim', { amount: money(r.amount), name: ctx.name(r.payer), square: squareName(ctx, r.square) }) : t('mo.row.owes', { amount: money(r.amount), name: ctx.name(r.owner) }))).join('; ')]);
    }
    const a = view.auction;
    if (a && a.bidders.includes(seat)) rows.push([t('mo.auction'), a.high?.seat === seat ? t('mo.row.highest', { amount: money(a.high.amount) }) : t('mo.row.bidding')]);
    const offers = view.offers.filter((o) => o.from === seat || o.to === seat);
    if (offers.length) rows.push([t('mo.row.offers'), offers.map((o) => t('mo.row.offer', { from: ctx.name(o.from), to: ctx.name(o.to), give: bundleText(o.give, ctx), get: bundleText(o.get, ctx) })).join('; ')]);
    const debt = view.debts.find((d) => d.debtor === seat);
    if (debt) rows.push([t('mo.row.debt'), debt.lines.map((l) => t('mo.row.debtLine', { amount: money(l.amount), reason: REASONS[l.reason] ?? l.reason })).join(', ')]);
    return rows;
  },

  status(ctx) {
    /** @type {View} */
    const view = ctx.view;
    if (view.outcome) return t('status.over');
    if (view.auction) return `${t('mo.auction')} · ${roundText(view)}`;
    if (view.turn) return `${t('status.turn', { name: ctx.name(view.turn.seat) })} · ${roundText(view)}`;
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
    if (roll) details.push(t(roll.dice[0] === roll.dice[1] ? 'mo.prompt.lastRollDouble' : 'mo.prompt.lastRoll', { name: ctx.name(roll.seat), dice: roll.dice.join(' + '), sum: roll.dice.reduce((x, y) => x + y, 0) }));
    if (me) details.push(t('prompt.yourCash', { cash: money(me.cash) }));
    const offersToMe = view.offers.filter((o) => o.to === ctx.seat);
    for (const o of view.offers) details.push(t('mo.prompt.offer', { from: ctx.name(o.from), to: ctx.name(o.to), terms: offerText(o, ctx) }));
    for (const r of view.rents) {
      const params = { amount: money(r.amount), payer: ctx.name(r.payer), owner: ctx.name(r.owner), square: squareName(ctx, r.square) };
      details.push(r.owner === ctx.seat ? t('mo.prompt.claim', params) : t('mo.prompt.owes', params));
    }
    const auction = view.auction;
    if (auction) {
      const high = auction.high ? t('mo.prompt.high', { amount: money(auction.high.amount), name: ctx.name(auction.high.seat) }) : t('mo.prompt.noBid', { min: money(auction.min_bid) });
      const title = t('mo.prompt.auction', { lot: lotText(auction.lot, ctx), high });
      details.unshift(t('mo.prompt.bidding', { names: auction.bidders.map((b) => ctx.name(b)).join(', ') }));
      return { title, details };
    }
    const debt = view.debts[0];
    if (debt) {
      const total = debt.lines.reduce((sum, l) => sum + l.amount, 0);
      const to = debt.lines
        .map((l) => t('mo.debtLine', { amount: money(l.amount), reason: REASONS[l.reason] ?? l.reason, name: l.creditor != null ? ctx.name(l.creditor) : t('mo.theBank') }))
        .join(', ');
      const title = debt.debtor === ctx.seat ? t('mo.prompt.youOwe', { amount: money(total), lines: to }) : t('mo.prompt.owesMoney', { name: ctx.name(debt.debtor), amount: money(total) });
      return { title, details };
    }
    if (view.shortage) {
      const key = view.shortage.building === 'hotel' ? 'mo.prompt.shortHotels' : 'mo.prompt.shortHouses';
      return { title: t(key, { n: view.shortage.stock, names: view.shortage.waiting.map((w) => ctx.name(w)).join(', ') }), details };
    }
    if (view.inheritance) {
      return { title: t('mo.prompt.inherits', { name: ctx.name(view.inheritance.creditor) }), details };
    }
    const turn = view.turn;
    if (!turn) return details.length ? { title: t('mo.prompt.between'), details } : null;
    const mine = turn.seat === ctx.seat;
    if (offersToMe.length && !mine) return { title: t('mo.prompt.offered', { name: ctx.name(offersToMe[0].from), terms: offerText(offersToMe[0], ctx) }), details };
    const step = turn.step.step;
    if (step === 'buy') {
      const p = view.players[turn.seat];
      const sq = p ? squareData(ctx, p.position) : undefined;
      const rent = p ? rentText(ctx, p.position) : null;
      if (rent) details.unshift(rent);
      if (mine && sq) return { title: t('mo.prompt.landed', { square: sq.name, price: money(sq.price ?? 0) }), details };
      if (sq) return { title: t('mo.prompt.mayBuy', { name: ctx.name(turn.seat), square: sq.name, price: money(sq.price ?? 0) }), details };
    }
    if (!mine) return { title: t('ev.turn', { name: ctx.name(turn.seat) }), details };
    if (me?.in_jail && ctx.legal.some((a) => a.type === 'roll')) return { title: t('mo.prompt.jail', { fine: money(50) }), details };
    if (ctx.legal.some((a) => a.type === 'pay_card_fine')) return { title: t('mo.prompt.cardFine'), details };
    if (ctx.legal.some((a) => a.type === 'roll')) return { title: t('mo.prompt.roll'), details };
    return { title: t('mo.prompt.end'), details };
  },

  describeValue(field, value, ctx) {
    if (field === 'to' && typeof value === 'number') return ctx.name(value);
    if (['give_properties', 'get_properties', 'lift', 'squares'].includes(field) && typeof value === 'number') return squareName(ctx, value);
    if (['give_cards', 'get_cards'].includes(field) && typeof value === 'string') return t('mo.jailCardId', { id: value });
    if (field === 'offer' && typeof value === 'number') {
      /** @type {View | undefined} */
      const view = ctx.view;
      const o = view?.offers.find((x) => x.offer === value);
      return o ? t('mo.offerBy', { name: ctx.name(o.from), terms: offerText(o, ctx) }) : t('mo.offerN', { n: value });
    }
    return null;
  },

  describeTemplate(tpl, ctx) {
    /** @type {View | undefined} */
    const view = ctx.view;
    const fixed = /** @type {Record<string, unknown>} */ (('fixed' in tpl && tpl.fixed) || {});
    switch (tpl.type) {
      case 'bid': {
        const auction = view?.auction;
        const domain = tpl.params.amount;
        const range = domain?.kind === 'integer' ? t('mo.tpl.range', { min: money(domain.min), max: money(domain.max) }) : t('mo.kind.bid');
        if (!auction) return { title: t('mo.kind.bid'), submit: t('mo.kind.bid') };
        const high = auction.high ? t('mo.tpl.high', { amount: money(auction.high.amount), name: ctx.name(auction.high.seat) }) : t('mo.tpl.noBid');
        return { title: t('mo.tpl.bidFor', { lot: lotText(auction.lot, ctx) }), hint: `${high}; ${range}.`, submit: t('mo.kind.bid') };
      }
      case 'offer_trade': {
        const to = typeof fixed.to === 'number' ? ctx.name(fixed.to) : t('mo.aPlayer');
        return { title: t('mo.tpl.offer', { name: to }), hint: t('mo.tpl.to', { name: to }), submit: t('mo.tpl.offerSubmit', { name: to }), empty: t('mo.tpl.empty') };
      }
      case 'accept_trade': {
        const o = view?.offers.find((x) => x.offer === fixed.offer);
        if (!o) return { title: t('mo.tpl.anOffer'), submit: t('mo.tpl.accept') };
        const terms = offerText(o, ctx);
        return { title: t('mo.tpl.offerOf', { name: ctx.name(o.from) }), hint: t('mo.tpl.acceptHint', { terms }), submit: t('mo.tpl.acceptTerms', { terms }) };
      }
      case 'settle_inheritance':
        return { title: t('mo.tpl.inherit'), hint: t('mo.tpl.inheritHint'), submit: t('mo.tpl.inheritSubmit') };
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
    const who = (seat) => (seat == null ? t('mo.theBank') : name(seat));
    switch (e.type) {
      case 'game_started':
        return e.config.round_limit
          ? t('mo.ev.startedRounds', { n: e.players, cash: money(e.config.start_money), rounds: e.config.round_limit })
          : t('mo.ev.started', { n: e.players, cash: money(e.config.start_money) });
      case 'deck_shuffled':
        return t('mo.ev.shuffled', { deck: deckName(e.deck), n: e.cards });
      case 'starting_rolled':
        return t('mo.ev.whoStarts', { rolls: e.rolls.map((r) => t('mo.ev.rolls', { name: name(r.seat), sum: r.dice.reduce((a, b) => a + b, 0) })).join(', ') });
      case 'turn_started':
        return t('ev.turn', { name: name(e.seat) });
      case 'dice_rolled':
        return t(e.dice.length === 2 && e.dice[0] === e.dice[1] ? 'mo.ev.rolledDouble' : 'mo.ev.rolled', { name: name(e.seat), dice: list(e.dice.map(String)) });
      case 'moved':
        return t(e.backward ? 'mo.ev.movedBack' : 'mo.ev.moved', { name: name(e.seat), from: sq(e.from), to: sq(e.to) });
      case 'salary_paid':
        return t('mo.ev.salary', { name: name(e.seat), amount: money(e.amount) });
      case 'sent_to_jail':
        return t('mo.ev.jail', { name: name(e.seat) });
      case 'jail_attempt_failed':
        return t('mo.ev.jailFailed', { name: name(e.seat), n: e.attempt });
      case 'left_jail': {
        const how = { fine: t('mo.ev.leftFine', { fine: money(50) }), card: t('mo.ev.leftCard'), doubles: t('mo.ev.leftDouble'), third_attempt: t('mo.ev.leftThird', { fine: money(50) }) };
        return t('mo.ev.leftJail', { name: name(e.seat), how: how[e.how] ?? '' });
      }
      case 'purchase_offered':
        return t('mo.prompt.mayBuy', { name: name(e.seat), square: sq(e.square), price: money(squareData(ctx, e.square)?.price ?? 0) });
      case 'property_bought':
        return t('mo.ev.bought', { name: name(e.seat), square: sq(e.square), price: money(e.price) });
      case 'purchase_declined':
        return t('mo.ev.declined', { name: name(e.seat), square: sq(e.square) });
      case 'rent_owed':
        return t(e.dice ? 'mo.ev.owedDice' : 'mo.ev.owed', { payer: name(e.payer), owner: name(e.owner), amount: money(e.amount), square: sq(e.square), dice: e.dice ? e.dice.join(' + ') : '' });
      case 'rent_claimed': {
        const owed = rentOwed(ctx, e.rent);
        return owed ? t('mo.ev.claimed', { owner: name(owed.owner), amount: money(owed.amount), square: sq(owed.square), payer: name(owed.payer) }) : t('mo.ev.claimedIt');
      }
      case 'rent_lapsed': {
        const owed = rentOwed(ctx, e.rent);
        return owed ? t('mo.ev.lapsed', { owner: name(owed.owner), amount: money(owed.amount), square: sq(owed.square), payer: name(owed.payer) }) : t('mo.ev.lapsedIt');
      }
      case 'paid':
        if (e.from == null) return t('mo.ev.bankPays', { name: who(e.to), amount: money(e.amount), reason: REASONS[e.reason] ?? t('mo.reason.payment') });
        return t('mo.ev.pays', { name: name(e.from), amount: money(e.amount), to: who(e.to), reason: REASONS[e.reason] ?? t('mo.reason.payment') });
      case 'debt_opened':
        return t('mo.ev.debt', { name: name(e.debtor), amount: money(e.amount), reason: REASONS[e.reason] ?? t('mo.reason.payment'), to: who(e.creditor) });
      case 'debt_paid':
        return t('mo.ev.debtPaid', { name: name(e.debtor) });
      case 'card_drawn':
        return t(e.deck === 'ereignis' ? 'mo.ev.drawsEreignis' : 'mo.ev.drawsGemeinschaft', { name: name(e.seat), text: cardText(ctx, e.card) });
      case 'card_choice_offered':
        return t('mo.ev.cardChoice', { name: name(e.seat), amount: money(e.amount) });
      case 'jail_card_returned':
        return t('mo.ev.cardBack', { name: name(e.seat), deck: deckName(e.card.startsWith('E') ? 'ereignis' : 'gemeinschaft') });
      case 'move_finished':
        return e.roll_again ? t('mo.ev.again', { name: name(e.seat) }) : t('mo.ev.moveDone', { name: name(e.seat) });
      case 'turn_ended':
        return t('ev.turnEnded', { name: name(e.seat) });
      case 'round_completed':
        return t('mo.ev.round', { n: e.rounds });
      case 'building_bought':
        return e.level >= 5
          ? t('mo.ev.hotel', { name: name(e.seat), square: sq(e.square), price: money(e.price) })
          : t('mo.ev.house', { name: name(e.seat), square: sq(e.square), price: money(e.price), n: e.level });
      case 'buildings_sold':
        return t('mo.ev.sold', {
          name: name(e.seat),
          amount: money(e.amount),
          levels: e.levels.map((l) => t('mo.ev.nowHas', { square: sq(l.square), what: l.level >= 5 ? t('mo.aHotel') : tn('mo.houses', l.level) })).join(', '),
        });
      case 'mortgaged':
        return t('mo.ev.mortgaged', { name: name(e.seat), square: sq(e.square), amount: money(e.amount) });
      case 'mortgage_lifted':
        return t('mo.ev.lifted', { name: name(e.seat), square: sq(e.square), amount: money(e.amount) });
      case 'auction_started':
        return t('mo.ev.auction', { lot: lotText(e.lot, ctx), min: money(e.min_bid), names: e.bidders.map((b) => name(b)).join(', ') }).replace(/^./, (c) => c.toUpperCase());
      case 'bid_placed':
        return t('mo.ev.bid', { name: name(e.seat), amount: money(e.amount) });
      case 'auction_passed':
        return t('mo.ev.passed', { name: name(e.seat) });
      case 'auction_won':
        return t('mo.ev.won', { name: name(e.seat), lot: lotText(e.lot, ctx), amount: money(e.amount) });
      case 'auction_unsold':
        return t('mo.ev.unsold', { lot: lotText(e.lot, ctx) });
      case 'bank_sales_queued':
        return t('mo.ev.bankSales', { squares: e.squares.map(sq).join(', ') });
      case 'shortage_opened':
        return tn(e.building === 'hotel' ? 'mo.ev.shortHotels' : 'mo.ev.shortHouses', e.stock, { names: e.waiting.map((w) => name(w)).join(', ') });
      case 'demand_declared':
        return e.squares.length ? t('mo.ev.demand', { name: name(e.seat), squares: e.squares.map(sq).join(', ') }) : t('mo.ev.demandNone', { name: name(e.seat) });
      case 'shortage_ended':
        return t('mo.ev.shortageEnded');
      case 'trade_offered':
        return t('mo.ev.offered', { from: name(e.offer.from), to: name(e.offer.to), give: bundleText(e.offer.give, ctx), get: bundleText(e.offer.get, ctx) });
      case 'trade_rejected': {
        const o = tradeOffered(ctx, e.offer);
        return o ? t('mo.ev.rejected', { to: name(o.to), from: name(o.from) }) : t('mo.ev.rejectedIt');
      }
      case 'trade_withdrawn': {
        const o = tradeOffered(ctx, e.offer);
        return o ? t('mo.ev.withdrawn', { from: name(o.from), to: name(o.to) }) : t('mo.ev.withdrawnIt');
      }
      case 'trade_executed':
        return t('mo.ev.traded', { from: name(e.offer.from), to: name(e.offer.to), give: bundleText(e.offer.give, ctx), get: bundleText(e.offer.get, ctx) });
      case 'bankruptcy_declared':
        return t('mo.ev.bankruptcy', { name: name(e.seat) });
      case 'property_transferred':
        return t('mo.ev.transferred', { square: sq(e.square), from: name(e.from), to: who(e.to) });
      case 'jail_card_transferred':
        return t('mo.ev.cardPassed', { from: name(e.from), to: name(e.to) });
      case 'inheritance_offered':
        return t('mo.ev.inherits', { name: name(e.creditor), squares: e.squares.map(sq).join(', ') });
      case 'inheritance_settled':
        return t('mo.ev.inherited', { name: name(e.creditor) });
      case 'trade_lapsed': {
        const o = tradeOffered(ctx, e.offer);
        return o ? t('mo.ev.tradeLapsed', { from: name(o.from), to: name(o.to), square: sq(e.square) }) : t('mo.ev.tradeLapsedIt', { square: sq(e.square) });
      }
      case 'player_bankrupt':
        return t('mo.ev.out', { name: name(e.seat) });
      case 'game_ended': {
        const winners = list(e.outcome.winners.map((w) => name(w)));
        const many = e.outcome.winners.length > 1;
        return e.reason === 'round_limit' ? t(many ? 'mo.ev.limitMany' : 'mo.ev.limitOne', { winners }) : t(many ? 'mo.ev.lastMany' : 'mo.ev.lastOne', { winners });
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
      if (p.bankrupt) return [t('mo.bankrupt'), '–', '–'];
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
      caption: t('mo.sheet.caption'),
      columns: [t('ty.row.cash'), t('mo.row.properties'), t('mo.sheet.buildings')],
      rows,
      note: t('mo.sheet.note'),
    };
  },
};
