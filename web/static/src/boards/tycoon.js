// Tycoon's board as printed: the world map of nine cities joined by their routes (a step of a
// scheduled ticket is one route), each city with its two landing fields and their hotel
// prices, its two factory fields, its hotel track (red spaces striped, the last never built,
// the space that pays at payday outlined) and its closed hotels; below the map the home
// banks, where planes start and return for loans. The face-up tickets are beside the map.
// Click a city to fly there, a ticket to buy it. The last flight is drawn as an arrow and the
// last building is marked; planes glide to where they land. City positions, ticket routes,
// prices and track payouts come from the game's data file.

import { h, s, svgButton } from '../dom.js';
import { seatLook } from '../seats.js';

/** @typedef {import('../../../types/api').components['schemas']} Schemas */
/** @typedef {Schemas['TycoonView']} View */
/** @typedef {Schemas['TycoonAction']} Action */
/** @typedef {Schemas['TycoonEvent']} Event */
/** @typedef {import('./index.js').BoardContext} BoardContext */
/** @typedef {import('./index.js').Lookup} Lookup */

/**
 * @typedef {object} Data
 * @property {{id: string, name: string, row: number, col: number, tier: string, landing_costs: number[], factory_costs: number[]}[]} cities
 * @property {Record<string, {track: number[][]}>} tiers
 * @property {{spaces: number, red_spaces: number[], unbuildable_space: number}} track
 * @property {{by_city_count: number[]}} distribution
 * @property {{id: string, dest: string, steps: number, price: number}[]} scheduled_tickets
 * @property {{id: string, cities: string[], distance: number, price: number}[]} charter_tickets
 * @property {{id: string, amount: number, repay: number, repay_extended: number}[]} loans
 */

const CARD_W = 340;
const CARD_H = 250;
const GAP = 56;
const PAD = 16;
const SPACE_W = 24;
const HOME_H = 96;
const TIER_NAMES = { E: 'expensive', M: 'middle', C: 'cheap' };

/** @param {number} n */
const money = (n) => `${n}M`;

/**
 * @param {Data} data
 * @param {string} id
 */
function cityName(data, id) {
  return data.cities.find((c) => c.id === id)?.name ?? id;
}

/**
 * A ticket in words: `S09 to Cairo, 2 steps` or `C04 New York ↔ Cairo`.
 * @param {Data} data
 * @param {string} id
 */
export function ticketText(data, id) {
  const scheduled = data.scheduled_tickets.find((t) => t.id === id);
  if (scheduled) {
    return `${id} to ${cityName(data, scheduled.dest)}, ${scheduled.steps} step${scheduled.steps === 1 ? '' : 's'}`;
  }
  const charter = data.charter_tickets.find((t) => t.id === id);
  if (charter) return `${id} ${cityName(data, charter.cities[0])} ↔ ${cityName(data, charter.cities[1])}`;
  return id;
}

/**
 * @param {Data} data
 * @param {string} id
 */
function ticketPrice(data, id) {
  return [...data.scheduled_tickets, ...data.charter_tickets].find((t) => t.id === id)?.price;
}

/**
 * @param {Data} data
 * @param {string} id
 */
function loanTerms(data, id) {
  return data.loans.find((l) => l.id === id) ?? { id, amount: 0, repay: 0, repay_extended: 0 };
}

/**
 * The top-left corner of a city's card.
 * @param {{row: number, col: number}} city
 * @returns {[number, number]}
 */
function cardAt(city) {
  return [PAD + city.col * (CARD_W + GAP), PAD + city.row * (CARD_H + GAP)];
}

/**
 * @param {Data} data
 */
function mapSize(data) {
  const rows = Math.max(...data.cities.map((c) => c.row)) + 1;
  const cols = Math.max(...data.cities.map((c) => c.col)) + 1;
  return { rows, cols, width: 2 * PAD + cols * CARD_W + (cols - 1) * GAP, height: 2 * PAD + rows * CARD_H + (rows - 1) * GAP + GAP / 2 + HOME_H };
}

/**
 * A plane: a disc in its seat's colour with its symbol and number, moved as one piece.
 * @param {number} seat
 * @param {number} x centre
 * @param {number} y centre
 * @param {number} size
 */
function plane(seat, x, y, size) {
  const look = seatLook(seat);
  return s(
    'g',
    { class: 'seat-marker plane', 'data-seat': seat, 'data-piece': `plane-${seat}` },
    s('circle', { cx: x, cy: y, r: size / 2, fill: look.colour, stroke: '#222', 'stroke-width': 2 }),
    s('text', { x, y: y + 4, 'text-anchor': 'middle', class: 'marker-label' }, `✈${look.label}`),
  );
}

/**
 * A factory or a hotel owner's square marker.
 * @param {number} seat
 * @param {number} x centre
 * @param {number} y centre
 * @param {number} size
 */
function square(seat, x, y, size) {
  const look = seatLook(seat);
  return s(
    'g',
    { class: 'seat-marker', 'data-seat': seat },
    s('rect', { x: x - size / 2, y: y - size / 2, width: size, height: size, fill: look.colour, stroke: '#222', 'stroke-width': 1.5 }),
    s('text', { x, y: y + 4, 'text-anchor': 'middle', class: 'marker-label' }, look.label),
  );
}

/**
 * The space a city's next hotel takes, and what building there closes.
 * @param {BoardContext | Lookup} ctx
 * @param {Schemas['TycoonCityView']} city
 */
function nextSpace(ctx, city) {
  /** @type {Data} */
  const data = ctx.data;
  const space = city.chain_length;
  const red = data.track.red_spaces.includes(space);
  const oldest = city.track.findIndex((o) => o != null);
  const closes = red && oldest >= 0 ? { space: oldest, owner: /** @type {number} */ (city.track[oldest]) } : null;
  return { space, red, closes };
}

/**
 * The marks of the move just shown: the city flown to (and from), hotels and factories built.
 * @param {any[]} recent
 */
function recentMarks(recent) {
  /** @type {{flights: {from: string | null, to: string, seat: number}[], cities: Set<string>, spaces: Set<string>, factories: Set<string>}} */
  const marks = { flights: [], cities: new Set(), spaces: new Set(), factories: new Set() };
  for (const e of /** @type {Event[]} */ (recent)) {
    if (e.type === 'flew') {
      marks.flights.push({ from: e.from ?? null, to: e.to, seat: e.seat });
      marks.cities.add(e.to);
    } else if (e.type === 'hotel_built' || e.type === 'hotel_renovated') {
      marks.spaces.add(`${e.city}:${e.space}`);
    } else if (e.type === 'hotel_closed') {
      marks.spaces.add(`${e.city}:${e.space}`);
    } else if (e.type === 'factory_built') {
      marks.factories.add(`${e.city}:${e.field}`);
    }
  }
  return marks;
}

/**
 * One city: name, landing fields with planes, factory fields, the hotel track.
 * @param {BoardContext} ctx
 * @param {Schemas['TycoonCityView']} city
 * @param {ReturnType<typeof recentMarks>} marks
 */
function drawCity(ctx, city, marks) {
  /** @type {Data} */
  const data = ctx.data;
  /** @type {View} */
  const view = ctx.view;
  const info = data.cities.find((c) => c.id === city.city);
  if (!info) return s('g');
  const [x0, y0] = cardAt(info);
  const track = data.tiers[info.tier]?.track ?? [];
  const planes = view.players.filter((p) => p.plane.at === 'city' && p.plane.city === city.city);
  const tier = /** @type {Record<string, string>} */ (TIER_NAMES)[info.tier] ?? info.tier;
  /** @type {string[]} */
  const said = [`${info.name}, ${tier} city`];
  const parts = [
    s('rect', { x: x0, y: y0, width: CARD_W, height: CARD_H, rx: 12, class: 'city-card' }),
    s('text', { x: x0 + 14, y: y0 + 28, class: 'city-name' }, info.name),
    s('text', { x: x0 + CARD_W - 14, y: y0 + 27, 'text-anchor': 'end', class: 'small' }, `${tier} · payday ${money(city.payout[0])}/${money(city.payout[1])}`),
  ];
  // Landing fields: a plane on its field, or the field's hotel price.
  [0, 1].forEach((field) => {
    const cx = x0 + 40 + field * 62;
    const cy = y0 + 74;
    const here = planes.find((p) => p.plane.at === 'city' && p.plane.field === field);
    parts.push(
      s('circle', { cx, cy, r: 22, class: 'field-empty' }),
      s('text', { x: cx, y: cy + 42, 'text-anchor': 'middle', class: 'small' }, `✈${field + 1} ${money(info.landing_costs[field])}`),
    );
    if (here) parts.push(plane(here.seat, cx, cy, 40));
    said.push(`landing field ${field + 1} (hotel ${money(info.landing_costs[field])}): ${here ? ctx.name(here.seat) : 'free'}`);
  });
  const stopovers = planes.filter((p) => p.plane.at === 'city' && p.plane.field == null);
  stopovers.forEach((p, i) => parts.push(plane(p.seat, x0 + 160 + (i % 2) * 34, y0 + 62 + Math.floor(i / 2) * 30, 30)));
  if (stopovers.length) {
    parts.push(s('text', { x: x0 + 176, y: y0 + 116, 'text-anchor': 'middle', class: 'small' }, 'stopover'));
    said.push(`stopping over: ${stopovers.map((p) => ctx.name(p.seat)).join(', ')}`);
  }
  // Factory fields.
  [0, 1].forEach((field) => {
    const cx = x0 + 246 + field * 58;
    const cy = y0 + 74;
    const owner = city.factories[field];
    const key = `${city.city}:${field}`;
    parts.push(
      owner === undefined ? s('rect', { x: cx - 20, y: cy - 20, width: 40, height: 40, class: 'field-empty' }) : square(owner, cx, cy, 40),
      s('text', { x: cx, y: cy + 42, 'text-anchor': 'middle', class: 'small' }, `⚙${field + 1} ${money(info.factory_costs[field])}`),
    );
    if (marks.factories.has(key)) parts.push(s('rect', { x: cx - 25, y: cy - 25, width: 50, height: 50, class: 'recent-mark' }));
    said.push(`factory field ${field + 1} (${money(info.factory_costs[field])}): ${owner === undefined ? 'free' : ctx.name(owner)}`);
  });
  // The hotel track.
  const ty = y0 + 152;
  const full = city.chain_length > data.track.unbuildable_space - 1;
  const payoutSpace = Math.min(city.chain_length, data.track.unbuildable_space);
  parts.push(s('text', { x: x0 + 14, y: ty - 8, class: 'small' }, `Hotels: ${city.chain_length} on the track${full ? ', full' : ''}`));
  for (let space = 0; space < data.track.spaces; space++) {
    const x = x0 + 14 + space * SPACE_W;
    const red = data.track.red_spaces.includes(space);
    const unbuildable = space === data.track.unbuildable_space;
    const owner = city.track[space];
    const payout = track[space] ?? [0, 0];
    const label = `space ${space + 1}${red ? ', red' : ''}${unbuildable ? ', never built on' : ''}: pays ${money(payout[0])}/${money(payout[1])}${owner == null ? '' : `, hotel of ${ctx.name(owner)}`}`;
    parts.push(
      s(
        'g',
        { class: 'space', 'data-space': space },
        s('title', {}, label),
        s('rect', { x, y: ty, width: SPACE_W - 2, height: 34, class: unbuildable ? 'space-unbuildable' : 'space-free', fill: owner == null ? null : seatLook(owner).colour }),
        red ? s('rect', { x, y: ty, width: SPACE_W - 2, height: 34, fill: 'url(#red-space)', class: 'red-space' }) : null,
        owner == null ? null : s('text', { x: x + (SPACE_W - 2) / 2, y: ty + 22, 'text-anchor': 'middle', class: 'marker-label' }, seatLook(owner).label),
        space === payoutSpace ? s('rect', { x: x - 2, y: ty - 2, width: SPACE_W + 2, height: 38, class: 'payout-mark' }) : null,
        marks.spaces.has(`${city.city}:${space}`) ? s('rect', { x: x - 3, y: ty - 3, width: SPACE_W + 4, height: 40, class: 'recent-mark' }) : null,
        s('text', { x: x + (SPACE_W - 2) / 2, y: ty + 50, 'text-anchor': 'middle', class: 'tiny' }, payout[0]),
      ),
    );
  }
  parts.push(s('text', { x: x0 + 14, y: y0 + 230, class: 'small' }, city.closed.length ? `Closed: ${city.closed.map((seat) => seatLook(seat).label).join(' ')}` : 'No closed hotels'));
  if (marks.cities.has(city.city)) {
    parts.push(s('rect', { x: x0 - 4, y: y0 - 4, width: CARD_W + 8, height: CARD_H + 8, rx: 14, class: 'recent-mark' }));
  }
  const group = s('g', { class: 'city', 'data-city': city.city }, s('title', {}, said.join('; ')), ...parts);
  const flights = ctx.legal.filter((a) => a.type === 'fly' && a.to === city.city);
  if (flights.length) {
    svgButton(group, { x: x0, y: y0, width: CARD_W, height: CARD_H, rx: 12 }, `Fly to ${info.name}`, flights, () => ctx.offer(flights, `Fly to ${info.name} with which ticket?`));
  }
  return group;
}

/**
 * The routes between neighbouring cities: one step of a scheduled ticket each.
 * @param {Data} data
 */
function routes(data) {
  const lines = [];
  for (const a of data.cities) {
    for (const b of data.cities) {
      const neighbour = (b.row === a.row && b.col === a.col + 1) || (b.col === a.col && b.row === a.row + 1);
      if (!neighbour) continue;
      const [ax, ay] = cardAt(a);
      const [bx, by] = cardAt(b);
      if (b.row === a.row) lines.push(s('line', { x1: ax + CARD_W, y1: ay + CARD_H / 2, x2: bx, y2: by + CARD_H / 2, class: 'route' }));
      else lines.push(s('line', { x1: ax + CARD_W / 2, y1: ay + CARD_H, x2: bx + CARD_W / 2, y2: by, class: 'route' }));
    }
  }
  return lines;
}

/**
 * The home banks below the map: every plane at home stands here.
 * @param {BoardContext} ctx
 * @param {number} width
 * @param {number} y
 */
function homes(ctx, width, y) {
  /** @type {View} */
  const view = ctx.view;
  const home = view.players.filter((p) => p.plane.at === 'home');
  return s(
    'g',
    { class: 'homes', 'data-city': 'home' },
    s('title', {}, `Home banks: ${home.length ? home.map((p) => ctx.name(p.seat)).join(', ') : 'no plane'} at home`),
    s('rect', { x: PAD, y, width: width - 2 * PAD, height: HOME_H, rx: 12, class: 'home-card' }),
    s('text', { x: PAD + 14, y: y + 28, class: 'city-name' }, 'Home banks'),
    s('text', { x: PAD + 14, y: y + 52, class: 'small' }, 'Planes start here and fly home for a loan.'),
    view.players.map((p, i) => {
      const cx = width - PAD - 40 - (view.players.length - 1 - i) * 56;
      const cy = y + HOME_H / 2;
      return [
        s('circle', { cx, cy, r: 22, class: 'field-empty' }),
        p.plane.at === 'home' ? plane(p.seat, cx, cy, 40) : null,
      ];
    }),
  );
}

/**
 * The centre of a city's card, or of a seat's place at home.
 * @param {Data} data
 * @param {string | null} city
 * @param {number} seat
 * @param {{width: number, height: number}} size
 * @param {number} players
 * @returns {[number, number]}
 */
function placeOf(data, city, seat, size, players) {
  const info = city ? data.cities.find((c) => c.id === city) : null;
  if (info) {
    const [x, y] = cardAt(info);
    return [x + CARD_W / 2, y + CARD_H / 2];
  }
  return [size.width - PAD - 40 - (players - 1 - seat) * 56, size.height - PAD - HOME_H / 2];
}

/**
 * The face-up tickets of both decks, each a button when it may be bought.
 * @param {BoardContext} ctx
 */
function ticketOffer(ctx) {
  /** @type {View} */
  const view = ctx.view;
  /** @type {Data} */
  const data = ctx.data;
  /**
   * @param {string} title
   * @param {Schemas['TycoonDeckView']} deck
   */
  const deck = (title, deck) =>
    h(
      'div',
      { class: 'deck' },
      h('h3', {}, title, h('small', {}, ` · ${deck.draw_pile} face down, ${deck.discard.length} used`)),
      h(
        'ul',
        { class: 'tickets' },
        deck.display.map((t) => {
          const buy = ctx.legal.filter((a) => a.type === 'buy_ticket' && a.ticket === t);
          const text = `${ticketText(data, t)} · ${money(ticketPrice(data, t) ?? 0)}`;
          return h(
            'li',
            {},
            buy.length
              ? h('button', { type: 'button', class: 'ticket', 'data-actions': JSON.stringify(buy), onclick: () => ctx.offer(buy, 'Buy which ticket?') }, `Buy ${text}`)
              : h('span', { class: 'ticket' }, text),
          );
        }),
      ),
    );
  return h(
    'section',
    { class: 'offer', 'aria-label': 'Tickets for sale' },
    deck('Scheduled tickets', view.scheduled),
    deck('Charter tickets', view.charter),
    h('p', { class: 'small' }, `Loan cards left: ${data.loans.map((l, i) => `${view.loan_cards_left[i]} × ${money(l.amount)}`).join(', ')}`),
  );
}

/**
 * Where a seat's plane is, in words.
 * @param {Data} data
 * @param {Schemas['TycoonPlayerView']} p
 */
function planeText(data, p) {
  if (p.plane.at !== 'city') return 'at home';
  const info = data.cities.find((c) => c.id === /** @type {Schemas['TycoonPlaneCity']} */ (p.plane).city);
  const field = p.plane.field;
  if (!info) return 'in a city';
  return field == null ? `in ${info.name}, stopping over` : `in ${info.name} on landing field ${field + 1} (hotel ${money(info.landing_costs[field])})`;
}

/**
 * How a flight with `ticket` to `to` goes: direct, by steps or by charter, and where it lands.
 * @param {Lookup} ctx
 * @param {Action & {type: 'fly'}} a
 */
function flightText(ctx, a) {
  /** @type {Data} */
  const data = ctx.data;
  /** @type {View | undefined} */
  const view = ctx.view;
  const to = cityName(data, a.to);
  const scheduled = data.scheduled_tickets.find((t) => t.id === a.ticket);
  const how = scheduled
    ? scheduled.dest === a.to
      ? `ticket ${a.ticket}, direct`
      : `ticket ${a.ticket}, ${scheduled.steps} step${scheduled.steps === 1 ? '' : 's'}`
    : `charter ${a.ticket}`;
  const info = data.cities.find((c) => c.id === a.to);
  const taken = new Set(
    (view?.players ?? [])
      .map((p) => (p.seat !== ctx.seat && p.plane.at === 'city' && p.plane.city === a.to ? p.plane.field : null))
      .filter((f) => f != null),
  );
  const field = [0, 1].find((f) => !taken.has(f));
  const landing = !info || !view ? '' : field === undefined ? '; both fields taken: stopover only' : `; lands on field ${field + 1}, hotel ${money(info.landing_costs[field])}`;
  return `Fly to ${to} (${how}${landing})`;
}

/**
 * @param {View} view
 * @param {(seat: number) => string} name
 */
function stageText(view, name) {
  const stage = view.stage;
  const phase = `Phase ${view.phase} of 3`;
  if (stage.stage === 'turn') {
    const last = view.phase_end_triggered_by == null ? '' : ' (last round before payday)';
    return `${phase}: ${name(stage.seat)}'s turn${last}`;
  }
  if (stage.stage === 'loan_settlement') return `${phase}: repaying or extending loans`;
  if (stage.stage === 'finished') return 'Game over';
  return phase;
}

/** @type {import('./index.js').BoardModule} */
export default {
  minWidth: 900,

  kindLabels: { fly: 'Fly', buy_ticket: 'Buy a ticket', settle_loan: 'Settle a loan' },

  rules: [
    ['Goal', ['After the third payday every loan is repaid, and the player with the most money wins. Hotels, factories and tickets are then worth nothing.']],
    [
      'Your turn',
      [
        'Fly with tickets from your hand, then build one hotel or one factory in the city where your plane stands. You may buy face-up tickets before, between and after flights.',
        'Or take a loan instead: your plane flies home for free, you take a 10M or 16M loan card, and your turn ends.',
      ],
    ],
    [
      'Flying',
      [
        'A scheduled ticket flies to the city printed on it, from any city or from home. From a city it can instead fly exactly as many steps along the routes as printed. A charter ticket flies between its two cities. Every ticket is used once; the first flight from home must be a scheduled ticket to its city.',
        'The plane lands on field 1 if it is free, else on field 2; the price on the field is what a hotel costs you there. With both fields taken the plane can only stop over and must fly on.',
      ],
    ],
    [
      'Hotels and factories',
      [
        'Hotels line up on the city’s track, whoever builds them. Building on a red space closes the city’s oldest hotel; its owner may reopen it later for free, as a turn’s action.',
        'A city has two factory fields; the first costs the lower price.',
      ],
    ],
    [
      'Payday',
      [
        'When a player builds the last hotel of the phase, the round is played to its end and payday follows: money for the number of cities you have a hotel in; for the most and second most hotels in each city (the outlined space after the last hotel shows both amounts); and for each factory, more in the city with the longest track.',
        'After paydays 1 and 2 each loan is repaid (10M → 12M, 16M → 20M) or extended once (16M or 30M after the next payday), and everyone receives 6 more hotels.',
      ],
    ],
  ],

  render(ctx) {
    /** @type {View} */
    const view = ctx.view;
    /** @type {Data} */
    const data = ctx.data;
    const size = mapSize(data);
    const marks = recentMarks(ctx.recent);
    const flights = marks.flights.map((f) => {
      const [x1, y1] = placeOf(data, f.from, f.seat, size, view.players.length);
      const [x2, y2] = placeOf(data, f.to, f.seat, size, view.players.length);
      return s('line', { x1, y1, x2, y2, class: 'route-flown' });
    });
    const drawing = s(
      'svg',
      { class: 'board tycoon', viewBox: `0 0 ${size.width} ${size.height}`, role: 'group', 'aria-label': 'World map with the home banks' },
      s(
        'defs',
        {},
        s(
          'pattern',
          { id: 'red-space', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
          s('rect', { width: 3, height: 6, fill: '#c0392b', opacity: 0.55 }),
        ),
        s('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' }, s('path', { d: 'M0 0 L10 5 L0 10 z', fill: '#d55e00' })),
      ),
      s('rect', { x: 0, y: 0, width: size.width, height: size.height, class: 'sea' }),
      routes(data),
      view.cities.map((c) => drawCity(ctx, c, marks)),
      homes(ctx, size.width, size.height - PAD - HOME_H),
      flights,
    );
    return { drawing, panels: [ticketOffer(ctx)] };
  },

  playerRows(ctx, seat) {
    /** @type {View} */
    const view = ctx.view;
    /** @type {Data} */
    const data = ctx.data;
    const p = view.players[seat];
    if (!p) return [];
    return [
      ['Cash', money(p.cash)],
      ['Net worth', `${money(p.net_worth)} (cash less loans)`],
      ['Hotels', `${p.hotels_in_supply} to build, ${p.hotels_in_reserve} for later phases`],
      ['Factories', `${p.factories_left} left`],
      ['Plane', planeText(data, p)],
      ['Tickets', p.tickets.length ? h('ul', { class: 'plain' }, p.tickets.map((t) => h('li', {}, ticketText(data, t)))) : 'none'],
      [
        'Loans',
        p.loans.length
          ? p.loans
              .map((l) => {
                const terms = loanTerms(data, l.loan);
                return `${money(terms.amount)} (repay ${money(l.extended ? terms.repay_extended : terms.repay)}${l.extended ? ', extended' : ''})`;
              })
              .join(', ')
          : 'none',
      ],
    ];
  },

  status: (ctx) => stageText(ctx.view, ctx.name),

  prompt(ctx) {
    /** @type {View} */
    const view = ctx.view;
    /** @type {Data} */
    const data = ctx.data;
    const stage = view.stage;
    const mine = ctx.seat == null ? null : view.players[ctx.seat];
    if (stage.stage === 'finished') return null;
    if (stage.stage === 'loan_settlement') {
      const details = view.players
        .filter((p) => p.loans.some((l) => !l.extended))
        .map((p) => `${ctx.name(p.seat)}: ${p.loans.map((l) => `${money(loanTerms(data, l.loan).amount)}${l.extended ? ' (extended, must be repaid)' : ''}`).join(', ')}; cash ${money(p.cash)}`);
      return {
        title: ctx.legal.length ? 'Payday is over: repay each loan now, or extend it once and repay more after the next payday.' : 'Players are repaying or extending their loans.',
        details,
      };
    }
    if (stage.stage !== 'turn') return null;
    const p = view.players[stage.seat];
    if (!p) return null;
    const yours = stage.seat === ctx.seat && ctx.legal.length > 0;
    /** @type {string[]} */
    const details = [`Plane ${planeText(data, p)}.`, `Cash ${money(p.cash)}; ${p.hotels_in_supply} hotels and ${p.factories_left} factories left.`];
    if (p.tickets.length) details.push(`Tickets: ${p.tickets.map((t) => ticketText(data, t)).join('; ')}.`);
    if (view.phase_end_triggered_by != null) details.push(`${ctx.name(view.phase_end_triggered_by)} has built every hotel of the phase: payday after this round.`);
    let title;
    if (!yours) title = `${ctx.name(stage.seat)}'s turn.`;
    else if (stage.main_action_done) title = 'You have built. Buy tickets for later turns, or end your turn.';
    else if (p.plane.at !== 'city') title = stage.purchased ? 'Your plane is at home: fly with a ticket, or buy another.' : 'Your turn: fly from home with a ticket, or buy one.';
    else if (stage.flown || stage.purchased) title = 'Fly on, or build a hotel or a factory where your plane stands.';
    else title = 'Your turn: fly and build a hotel or a factory, or take a loan.';
    if (mine && yours && mine.plane.at === 'city') {
      const city = view.cities.find((c) => mine.plane.at === 'city' && c.city === mine.plane.city);
      if (city) {
        const next = nextSpace(ctx, city);
        details.push(`A hotel here goes on space ${next.space + 1}${next.red ? ', a red space' : ''}${next.closes ? `, and closes ${ctx.name(next.closes.owner)}'s hotel on space ${next.closes.space + 1}` : ''}.`);
      }
    }
    return { title, details };
  },

  /** @param {Action} a */
  describeAction(a, ctx) {
    /** @type {Data} */
    const data = ctx.data;
    /** @type {View | undefined} */
    const view = ctx.view;
    const me = ctx.seat == null ? undefined : view?.players[ctx.seat];
    const plane = me?.plane.at === 'city' ? /** @type {Schemas['TycoonPlaneCity']} */ (me.plane) : null;
    const info = plane ? data.cities.find((c) => c.id === plane.city) : undefined;
    const city = plane ? view?.cities.find((c) => c.city === plane.city) : undefined;
    const home = !plane;
    switch (a.type) {
      case 'buy_ticket':
        return `Buy ${ticketText(data, a.ticket)} for ${money(ticketPrice(data, a.ticket) ?? 0)}`;
      case 'fly':
        return flightText(ctx, a);
      case 'build_hotel': {
        if (!info || !city || plane?.field == null) return 'Build a hotel here';
        const next = nextSpace(ctx, city);
        const closes = next.closes ? `; closes ${ctx.name(next.closes.owner)}'s hotel on space ${next.closes.space + 1}` : '';
        return `Build a hotel in ${info.name} for ${money(info.landing_costs[plane.field])} (space ${next.space + 1}${closes})`;
      }
      case 'renovate_hotel': {
        if (!info || !city) return 'Reopen a closed hotel here for free';
        const next = nextSpace(ctx, city);
        return `Reopen your closed hotel in ${info.name} for free (space ${next.space + 1}${next.closes ? `; closes ${ctx.name(next.closes.owner)}'s hotel` : ''})`;
      }
      case 'build_factory': {
        if (!info || !city) return 'Build a factory here';
        const field = city.factories.length;
        return `Build a factory in ${info.name} for ${money(info.factory_costs[field] ?? 0)} (field ${field + 1})`;
      }
      case 'take_loan': {
        const terms = loanTerms(data, a.loan);
        return `${home ? 'Borrow' : 'Fly home and borrow'} ${money(terms.amount)}: repay ${money(terms.repay)} after the next payday; ends your turn`;
      }
      case 'pass':
        return home ? 'Pass: no loan card is left; ends your turn' : 'Fly home and pass: no loan card is left; ends your turn';
      case 'end_turn':
        return 'End your turn';
      case 'settle_loan': {
        const terms = loanTerms(data, a.loan);
        return a.decision === 'repay'
          ? `Repay a ${money(terms.amount)} loan: pay ${money(terms.repay)} now`
          : `Extend a ${money(terms.amount)} loan: repay ${money(terms.repay_extended)} after the next payday`;
      }
    }
  },

  /** @param {Event} e */
  describeEvent(e, ctx) {
    /** @type {Data} */
    const data = ctx.data;
    const name = ctx.name;
    switch (e.type) {
      case 'game_started':
        return `The game starts with ${e.players} players, each with 15M, 6 hotels, 5 factories and a plane at home.`;
      case 'deck_shuffled':
        return `The ${e.deck} tickets are shuffled (${e.cards} cards).`;
      case 'tickets_revealed':
        return `Turned face up: ${e.tickets.map((t) => ticketText(data, t)).join('; ')}.`;
      case 'turn_started':
        return `${name(e.seat)}'s turn.`;
      case 'ticket_bought':
        return `${name(e.seat)} buys ${ticketText(data, e.ticket)} for ${money(e.price)}.`;
      case 'flew': {
        const from = e.from ? `from ${cityName(data, e.from)} ` : 'from home ';
        const landing = e.field == null ? ', stopping over (both landing fields are taken)' : `, landing on field ${e.field + 1}`;
        return `${name(e.seat)} flies ${from}to ${cityName(data, e.to)} with ticket ${e.ticket}${landing}.`;
      }
      case 'hotel_built':
        return `${name(e.seat)} builds a hotel in ${cityName(data, e.city)} on space ${e.space + 1} for ${money(e.cost)}.`;
      case 'hotel_closed':
        return `${name(e.owner)}'s hotel on space ${e.space + 1} in ${cityName(data, e.city)} closes: a red space was built.`;
      case 'hotel_renovated':
        return `${name(e.seat)} reopens a closed hotel in ${cityName(data, e.city)}, now on space ${e.space + 1}.`;
      case 'factory_built':
        return `${name(e.seat)} builds a factory in ${cityName(data, e.city)} on field ${e.field + 1} for ${money(e.cost)}.`;
      case 'loan_taken':
        return `${name(e.seat)} flies home and borrows ${money(e.amount)}.`;
      case 'passed':
        return `${name(e.seat)} flies home and passes: no loan card is left.`;
      case 'phase_end_triggered':
        return `${name(e.seat)} has built every hotel of the phase: payday comes at the end of this round.`;
      case 'turn_ended':
        return `${name(e.seat)} ends the turn.`;
      case 'payday_held':
        return `Payday ${e.phase}: ${e.incomes
          .map((i) => `${name(i.seat)} earns ${money(i.total)} (${money(i.distribution)} for cities, ${money(i.majority)} for majorities, ${money(i.factories)} for factories)`)
          .join('; ')}.`;
      case 'loan_repaid':
        return `${name(e.seat)} repays a ${money(loanTerms(data, e.loan).amount)} loan${e.extended ? ' that was extended' : ''} with ${money(e.amount)}.`;
      case 'loan_extended':
        return `${name(e.seat)} extends a ${money(loanTerms(data, e.loan).amount)} loan: ${money(loanTerms(data, e.loan).repay_extended)} after the next payday.`;
      case 'loan_settlement_started':
        return 'Each loan must now be repaid or extended.';
      case 'phase_started':
        return `Phase ${e.phase} begins with ${e.hotels_per_player} more hotels each. Net worth (cash less loans): ${e.net_worths.map((n, seat) => `${name(seat)} ${money(n)}`).join(', ')}.`;
      case 'game_ended':
        return `The game is over after the last payday and every loan repaid. ${e.outcome.winners.map((w) => name(w)).join(' and ')} ${e.outcome.winners.length > 1 ? 'win' : 'wins'} with ${money(Math.max(...e.outcome.scores))}.`;
    }
  },

  scoreSheet(ctx) {
    const events = ctx.events.map((e) => /** @type {Event} */ (e.event));
    const lastPayday = [...events].reverse().find((e) => e.type === 'payday_held');
    const paydayAt = lastPayday ? events.lastIndexOf(lastPayday) : -1;
    /** @type {View} */
    const view = ctx.view;
    const repaid = view.players.map((p) =>
      events
        .slice(paydayAt + 1)
        .filter((e) => e.type === 'loan_repaid' && e.seat === p.seat)
        .reduce((sum, e) => sum + (e.type === 'loan_repaid' ? e.amount : 0), 0),
    );
    const income = view.players.map((p) => (lastPayday && lastPayday.type === 'payday_held' ? lastPayday.incomes.find((i) => i.seat === p.seat) : undefined));
    return {
      caption: 'Money at the end',
      columns: ['Last payday', 'Cash before repaying', 'Loans repaid'],
      rows: view.players.map((p, seat) => [
        income[seat] ? `${money(income[seat].total)}` : '–',
        money(p.cash + repaid[seat]),
        repaid[seat] ? `−${money(repaid[seat])}` : '–',
      ]),
      note: 'The score is the money left after every loan is repaid (in M); hotels, factories and tickets count for nothing.',
    };
  },
};
