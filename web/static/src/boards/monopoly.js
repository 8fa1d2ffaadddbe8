// Monopoly's board: the 40 squares around the edge (Los at the bottom right, as printed), each
// street with its group's colour and a short group label, owners as seat chips, houses and
// hotels, mortgages, and every player's token. The centre lists what is open: pending rent
// claims, the auction, trade offers and debts. Click a square for the actions tied to it
// (buy, build, sell, mortgage, lift, claim its rent); bids and trade offers are template forms.
// Monopoly has no hidden information beyond the deck order, which the view never carries.

import { h, s, svgButton } from '../dom.js';
import { seatLook } from '../seats.js';
import { describeFields } from './generic.js';

/** @typedef {import('../../../types/api').components['schemas']} Schemas */
/** @typedef {Schemas['MonopolyView']} View */
/** @typedef {Schemas['MonopolyAction']} Action */
/** @typedef {Schemas['MonopolyEvent']} Event */
/** @typedef {import('./index.js').BoardContext} BoardContext */
/** @typedef {import('./index.js').Lookup} Lookup */
/** @typedef {{index: number, name: string, type: string, group?: string, price?: number}} SquareData */
/** @typedef {{id: string, text_de: string}} CardData */
/** @typedef {{squares: SquareData[], groups: {id: string, name_de: string}[], currency: string, decks: Record<string, string | {cards?: CardData[]}>}} Data */

const CELL = 62;
const SIDE = 11 * CELL;

/** Each group's printed colour and a label, so that colour is never the only sign. */
/** @type {Record<string, {colour: string, label: string, ink: string}>} */
const GROUPS = {
  braun: { colour: '#8B4513', label: 'Br', ink: '#fff' },
  hellblau: { colour: '#9ED8F0', label: 'Hb', ink: '#000' },
  pink: { colour: '#D93A96', label: 'Pk', ink: '#fff' },
  orange: { colour: '#F7941D', label: 'Or', ink: '#000' },
  rot: { colour: '#ED1B24', label: 'Rt', ink: '#fff' },
  gelb: { colour: '#FEF200', label: 'Ge', ink: '#000' },
  gruen: { colour: '#1FB25A', label: 'Gr', ink: '#000' },
  dunkelblau: { colour: '#0072BB', label: 'Db', ink: '#fff' },
};

/** @param {number} n */
const money = (n) => `M ${n.toLocaleString('en')}`;

/**
 * @param {Lookup} ctx
 * @param {number} square
 */
function squareName(ctx, square) {
  /** @type {Data | null} */
  const data = ctx.data;
  return data?.squares[square]?.name ?? `square ${square}`;
}

/**
 * A card by its id (`E08`), with its printed text when the data file has it.
 * @param {Lookup} ctx
 * @param {string} id
 */
function cardText(ctx, id) {
  /** @type {Data | null} */
  const data = ctx.data;
  const card = Object.values(data?.decks ?? {})
    .flatMap((d) => (typeof d === 'object' ? (d.cards ?? []) : []))
    .find((c) => c.id === id);
  return card ? `${id} (“${card.text_de}”)` : `card ${id}`;
}

/**
 * The top-left corner of a square: Los bottom right, then clockwise as printed (bottom row
 * leftwards, left column upwards, top row rightwards, right column downwards).
 * @param {number} i
 * @returns {[number, number]}
 */
function corner(i) {
  if (i <= 10) return [(10 - i) * CELL, 10 * CELL];
  if (i <= 20) return [0, (20 - i) * CELL];
  if (i <= 30) return [(i - 20) * CELL, 0];
  return [10 * CELL, (i - 30) * CELL];
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
 * @param {BoardContext} ctx
 * @param {number} i
 */
function squareCell(ctx, i) {
  /** @type {View} */
  const view = ctx.view;
  /** @type {Data} */
  const data = ctx.data;
  const sq = data.squares[i];
  const [x, y] = corner(i);
  const deed = view.deeds.find((d) => d.square === i);
  const group = sq?.group ? GROUPS[sq.group] : null;
  const name = sq?.name ?? String(i);
  const parts = [s('rect', { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, class: 'mono-square' })];
  /** @type {string[]} */
  const said = [name];
  if (group) {
    parts.push(
      s('rect', { x: x + 1, y: y + 1, width: CELL - 2, height: 14, fill: group.colour }),
      s('text', { x: x + 4, y: y + 12, class: 'group-label', fill: group.ink }, group.label),
    );
    said.push(`group ${sq.group}`);
  }
  parts.push(s('text', { x: x + CELL / 2, y: y + 26, 'text-anchor': 'middle', class: 'tiny mono-name' }, name.length > 11 ? `${name.slice(0, 10)}.` : name));
  if (deed?.owner != null) {
    const look = seatLook(deed.owner);
    parts.push(
      s('rect', { x: x + 3, y: y + CELL - 18, width: 26, height: 15, rx: 7, fill: look.colour, stroke: '#222', class: 'owner' }),
      s('text', { x: x + 16, y: y + CELL - 6, 'text-anchor': 'middle', class: 'marker-label' }, look.label),
    );
    said.push(`owned by ${ctx.name(deed.owner)}`);
  } else if (sq?.price) {
    parts.push(s('text', { x: x + CELL / 2, y: y + CELL - 6, 'text-anchor': 'middle', class: 'tiny' }, String(sq.price)));
  }
  if (deed?.hotel || deed?.houses) {
    const text = deed.hotel ? 'Hotel' : `${deed.houses}⌂`;
    parts.push(s('text', { x: x + CELL - 4, y: y + 40, 'text-anchor': 'end', class: 'buildings' }, text));
    said.push(deed.hotel ? 'a hotel' : `${deed.houses} house${deed.houses > 1 ? 's' : ''}`);
  }
  if (deed?.mortgaged) {
    parts.push(s('text', { x: x + CELL - 4, y: y + CELL - 6, 'text-anchor': 'end', class: 'mortgaged' }, 'Hyp'));
    said.push('mortgaged');
  }
  // Tokens: one small disc per player standing here.
  view.players
    .filter((p) => !p.bankrupt && p.position === i)
    .forEach((p, k) => {
      const look = seatLook(p.seat);
      const cx = x + 10 + (k % 4) * 14;
      const cy = y + 36 + Math.floor(k / 4) * 12;
      parts.push(
        s('circle', { cx, cy, r: 6, fill: look.colour, stroke: '#000', class: 'token', 'data-token': p.seat }),
        s('text', { x: cx, y: cy + 3, 'text-anchor': 'middle', class: 'token-label' }, String(p.seat + 1)),
      );
      said.push(`${ctx.name(p.seat)} is here${p.in_jail ? ' (in jail)' : ''}`);
    });
  const g = s('g', { class: 'mono-cell', 'data-square': i }, s('title', {}, said.join(', ')), parts);
  const actions = actionsAt(ctx, i);
  if (actions.length) {
    g.setAttribute('data-actions', JSON.stringify(actions));
    g.classList.add('playable');
    svgButton(g, `${name}: ${actions.length} action${actions.length > 1 ? 's' : ''}`, () => ctx.offer(actions, `${name}: what do you do?`));
  }
  return g;
}

/**
 * What is open, in words, for the board's centre and the status line.
 * @param {View} view
 * @param {Lookup} ctx
 * @returns {string[]}
 */
function openMatters(view, ctx) {
  const lines = [];
  for (const r of view.rents) {
    lines.push(`Rent ${money(r.amount)} for ${squareName(ctx, r.square)}: ${ctx.name(r.payer)} owes ${ctx.name(r.owner)} (unclaimed).`);
  }
  if (view.auction) {
    const a = view.auction;
    const lot = a.lot.kind === 'property' ? squareName(ctx, a.lot.square) : `a ${a.lot.building}`;
    const high = a.high ? `${ctx.name(a.high.seat)} bids ${money(a.high.amount)}` : `no bid yet (at least ${money(a.min_bid)})`;
    lines.push(`Auction of ${lot}: ${high}; still bidding: ${a.bidders.map((b) => ctx.name(b)).join(', ')}.`);
  }
  for (const o of view.offers) lines.push(`Trade offer ${o.offer}: ${offerText(o, ctx)}.`);
  for (const d of view.debts) {
    const total = d.lines.reduce((sum, l) => sum + l.amount, 0);
    lines.push(`${ctx.name(d.debtor)} owes ${money(total)} and must raise it.`);
  }
  if (view.shortage) lines.push(`Building shortage: ${view.shortage.stock} ${view.shortage.building}(s) for ${view.shortage.waiting.map((w) => ctx.name(w)).join(', ')}.`);
  if (view.inheritance) lines.push(`${ctx.name(view.inheritance.creditor)} settles the mortgages inherited.`);
  return lines;
}

/**
 * @param {Schemas['MonopolyBundle']} b
 * @param {Lookup} ctx
 */
function bundleText(b, ctx) {
  const parts = [];
  if (b.cash) parts.push(money(b.cash));
  for (const sq of b.properties) parts.push(squareName(ctx, sq));
  for (const c of b.cards) parts.push(`jail card ${c}`);
  return parts.join(' + ') || 'nothing';
}

/**
 * @param {Schemas['MonopolyTradeOffer']} o
 * @param {Lookup} ctx
 */
function offerText(o, ctx) {
  return `${ctx.name(o.from)} gives ${bundleText(o.give, ctx)} to ${ctx.name(o.to)} for ${bundleText(o.get, ctx)}`;
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
  const cells = [];
  for (let i = 0; i < 40; i++) cells.push(squareCell(ctx, i));
  const centre = [
    s('text', { x: SIDE / 2, y: 2 * CELL, 'text-anchor': 'middle', class: 'mono-title' }, 'MONOPOLY'),
    s('text', { x: SIDE / 2, y: 2 * CELL + 26, 'text-anchor': 'middle', class: 'small' }, `Bank: ${view.bank_houses} houses, ${view.bank_hotels} hotels · ${roundText(view)}`),
  ];
  return s(
    'svg',
    { class: 'board monopoly', viewBox: `0 0 ${SIDE} ${SIDE}`, role: 'group', 'aria-label': 'Board' },
    s('rect', { x: CELL, y: CELL, width: 9 * CELL, height: 9 * CELL, class: 'mono-centre' }),
    centre,
    cells,
  );
}

/** @type {Record<string, string>} */
const REASONS = { rent: 'rent', tax: 'tax', card: 'a card', jail_fine: 'the jail fine', interest: 'interest', bankruptcy: 'bankruptcy' };

/** @type {import('./index.js').BoardModule} */
export default {
  render(ctx) {
    /** @type {View} */
    const view = ctx.view;
    const open = openMatters(view, ctx);
    return h(
      'div',
      { class: 'monopoly-board' },
      board(ctx),
      open.length ? h('ul', { class: 'open-matters' }, open.map((l) => h('li', {}, l))) : null,
      h('p', { class: 'small' }, view.decks.map((d) => `${d.deck === 'ereignis' ? 'Ereigniskarten' : 'Gemeinschaftskarten'}: ${d.cards} face down`).join(' · ')),
    );
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
      ['Position', p.bankrupt ? 'bankrupt' : `${squareName(ctx, p.position)}${p.in_jail ? ` (in jail, attempt ${p.jail_attempts})` : ''}`],
      ['Properties', owned.length ? owned.map((d) => `${d.name}${d.hotel ? ' (hotel)' : d.houses ? ` (${d.houses}⌂)` : ''}${d.mortgaged ? ' (mortgaged)' : ''}`).join(', ') : 'none'],
      ['Net worth', money(p.net_worth)],
    ];
    if (p.jail_cards.length) rows.push(['Jail cards', p.jail_cards.join(', ')]);
    const rents = view.rents.filter((r) => r.owner === seat || r.payer === seat);
    if (rents.length) {
      rows.push(['Rent claims', rents.map((r) => (r.owner === seat ? `may claim ${money(r.amount)} from ${ctx.name(r.payer)} (${squareName(ctx, r.square)})` : `owes ${money(r.amount)} to ${ctx.name(r.owner)} if claimed`)).join('; ')]);
    }
    const a = view.auction;
    if (a && a.bidders.includes(seat)) rows.push(['Auction', a.high?.seat === seat ? `highest bid ${money(a.high.amount)}` : 'bidding']);
    const offers = view.offers.filter((o) => o.from === seat || o.to === seat);
    if (offers.length) rows.push(['Trade offers', offers.map((o) => `#${o.offer}: ${offerText(o, ctx)}`).join('; ')]);
    const debt = view.debts.find((d) => d.debtor === seat);
    if (debt) rows.push(['Debt', debt.lines.map((l) => `${money(l.amount)} for ${REASONS[l.reason] ?? l.reason}`).join(', ')]);
    return rows;
  },

  status(ctx) {
    /** @type {View} */
    const view = ctx.view;
    if (view.outcome) return 'Game over';
    if (view.auction) return 'Auction';
    if (view.turn) return `${ctx.name(view.turn.seat)}'s turn`;
    return null;
  },

  describeValue(field, value, ctx) {
    if (field === 'to' && typeof value === 'number') return ctx.name(value);
    if (['give_properties', 'get_properties', 'lift'].includes(field) && typeof value === 'number') return squareName(ctx, value);
    if (['give_cards', 'get_cards'].includes(field) && typeof value === 'string') return `jail card ${value}`;
    if (field === 'offer' && typeof value === 'number') {
      /** @type {View | undefined} */
      const view = ctx.view;
      const o = view?.offers.find((x) => x.offer === value);
      return o ? `#${value}, ${offerText(o, ctx)}` : `#${value}`;
    }
    return null;
  },

  /** @param {Action} a */
  describeAction(a, ctx) {
    /** @type {View | undefined} */
    const view = ctx.view;
    const me = ctx.seat != null ? view?.players[ctx.seat] : undefined;
    switch (a.type) {
      case 'roll':
        return 'Roll the dice';
      case 'buy_property':
        return me ? `Buy ${squareName(ctx, me.position)}` : 'Buy the property';
      case 'decline_property':
        return me ? `Leave ${squareName(ctx, me.position)} to auction` : 'Leave it to auction';
      case 'pay_jail_fine':
        return 'Pay the jail fine and roll';
      case 'use_jail_card':
        return `Use jail card ${a.card}`;
      case 'pay_card_fine':
        return 'Pay the fine';
      case 'draw_card':
        return 'Draw an Ereigniskarte instead';
      case 'end_turn':
        return 'End the turn';
      case 'claim_rent': {
        const r = view?.rents.find((x) => x.rent === a.rent);
        return r ? `Claim ${money(r.amount)} rent from ${ctx.name(r.payer)} (${squareName(ctx, r.square)})` : `Claim rent ${a.rent}`;
      }
      case 'build':
        return `Build on ${a.squares.map((q) => squareName(ctx, q)).join(', ')}`;
      case 'sell_building':
        return `Sell a building on ${squareName(ctx, a.square)}`;
      case 'mortgage':
        return `Mortgage ${squareName(ctx, a.square)}`;
      case 'lift_mortgage':
        return `Lift the mortgage on ${squareName(ctx, a.square)}`;
      case 'accept_trade':
        return `Accept trade offer ${a.offer}`;
      case 'reject_trade':
        return `Reject trade offer ${a.offer}`;
      case 'withdraw_trade':
        return `Withdraw trade offer ${a.offer}`;
      case 'bid':
        return `Bid ${money(a.amount)}`;
      case 'pass_auction':
        return 'Leave the auction';
      case 'pay_debt':
        return 'Pay the debt';
      case 'declare_bankruptcy':
        return 'Declare bankruptcy';
      default:
        return describeFields(a, ctx);
    }
  },

  /** @param {Event} e */
  describeEvent(e, ctx) {
    const name = ctx.name;
    const sq = (/** @type {number} */ q) => squareName(ctx, q);
    switch (e.type) {
      case 'game_started':
        return `The game starts with ${e.players} players.`;
      case 'turn_started':
        return `${name(e.seat)}'s turn.`;
      case 'dice_rolled':
        return `${name(e.seat)} rolls ${e.dice.join(' and ')}.`;
      case 'moved':
        return `${name(e.seat)} moves ${e.backward ? 'back ' : ''}from ${sq(e.from)} to ${sq(e.to)}.`;
      case 'salary_paid':
        return `${name(e.seat)} collects ${money(e.amount)} salary.`;
      case 'sent_to_jail':
        return `${name(e.seat)} goes to jail.`;
      case 'left_jail':
        return `${name(e.seat)} leaves jail.`;
      case 'property_bought':
        return `${name(e.seat)} buys ${sq(e.square)} for ${money(e.price)}.`;
      case 'purchase_declined':
        return `${name(e.seat)} does not buy ${sq(e.square)}.`;
      case 'rent_owed':
        return `${name(e.payer)} owes ${name(e.owner)} ${money(e.amount)} rent for ${sq(e.square)}, if claimed.`;
      case 'rent_claimed':
        return 'The rent is claimed.';
      case 'rent_lapsed':
        return 'An unclaimed rent lapses.';
      case 'paid':
        return `${e.from != null ? name(e.from) : 'The bank'} pays ${money(e.amount)} to ${e.to != null ? name(e.to) : 'the bank'} (${REASONS[e.reason] ?? e.reason}).`;
      case 'card_drawn':
        return `${name(e.seat)} draws ${cardText(ctx, e.card)}.`;
      case 'building_bought':
        return `${name(e.seat)} builds on ${sq(e.square)} for ${money(e.price)}.`;
      case 'mortgaged':
        return `${name(e.seat)} mortgages ${sq(e.square)} for ${money(e.amount)}.`;
      case 'mortgage_lifted':
        return `${name(e.seat)} lifts the mortgage on ${sq(e.square)} for ${money(e.amount)}.`;
      case 'auction_started':
        return `An auction of ${e.lot.kind === 'property' ? sq(e.lot.square) : `a ${e.lot.building}`} begins.`;
      case 'bid_placed':
        return `${name(e.seat)} bids ${money(e.amount)}.`;
      case 'auction_passed':
        return `${name(e.seat)} leaves the auction.`;
      case 'auction_won':
        return `${name(e.seat)} wins the auction for ${money(e.amount)}.`;
      case 'trade_offered':
        return `Trade offer ${e.offer.offer}: ${offerText(e.offer, ctx)}.`;
      case 'trade_executed':
        return `Trade ${e.offer.offer} is done.`;
      case 'trade_lapsed':
        return `Trade offer ${e.offer} lapses: ${sq(e.square)} changed since it was made.`;
      case 'turn_ended':
        return `${name(e.seat)} ends the turn.`;
      case 'player_bankrupt':
        return `${name(e.seat)} is bankrupt.`;
      case 'game_ended':
        return `The game is over. ${e.outcome.winners.map((w) => name(w)).join(' and ')} ${e.outcome.winners.length > 1 ? 'win' : 'wins'}.`;
      default:
        return `${describeFields(e, ctx)}.`;
    }
  },
};
