// Tycoon's board as printed: the world map with the nine cities and the routes between them
// (a step of a scheduled ticket is one route; the planes at each city and the last flight are
// marked there too), and below it each city as a panel, laid out as the cities lie on the map:
// its two landing fields and their hotel prices, its two factory fields, its hotel track (red
// spaces striped, the last never built, the space that pays at payday outlined) and its
// closed hotels; below the panels the home banks, where planes start and return for loans.
// The face-up tickets are beside the board. Click a city's panel to fly there, a ticket to buy
// it. The last building is marked; planes glide to where they land. Prices, track payouts and
// the routes come from the game's data file; where the cities lie on the world, and the map's
// frame, from its layout file (engine/rules/tycoon-layout.json); the coastline is Natural Earth
// land (web/static/src/boards/maps/world.js, made by web/tools/make-maps.mjs).

import { h, s, svgButton } from '../dom.js';
import { list, money as formatMoney, t, tn } from '../i18n/index.js';
import { seatLook } from '../seats.js';
import { preview } from './preview-tycoon.js';
import world from './maps/world.js';

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

/**
 * The layout file: the map's frame (degrees) and each city's place on the world.
 * @typedef {object} Layout
 * @property {{west: number, east: number, north: number, south: number}} map
 * @property {Record<string, {lon: number, lat: number}>} cities
 */

/**
 * Where things are drawn: the map band (none without a layout file) and the panels below it.
 * @typedef {object} Geometry
 * @property {{x: number, y: number, width: number, height: number} | null} map
 * @property {number} top the top of the first row of panels
 * @property {number} rows
 * @property {number} cols
 * @property {number} width
 * @property {number} height
 */

const CARD_W = 340;
const CARD_H = 250;
const GAP = 56;
const PAD = 16;
const SPACE_W = 24;
const HOME_H = 96;
const TIER_NAMES = { E: t('ty.tier.E'), M: t('ty.tier.M'), C: t('ty.tier.C') };

/** @param {number} n */
const money = (n) => formatMoney('tycoon', n);

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
    return tn('ty.ticket.scheduled', scheduled.steps, { id, city: cityName(data, scheduled.dest) });
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
 * @param {Geometry} geo
 * @returns {[number, number]}
 */
function cardAt(city, geo) {
  return [PAD + city.col * (CARD_W + GAP), geo.top + city.row * (CARD_H + GAP)];
}

/**
 * The board's size: the map band as wide as the panels, as high as its frame makes it (one
 * scale for longitude and latitude, equirectangular), then the panels, then the home banks.
 * @param {Data} data
 * @param {Layout | null} layout
 * @returns {Geometry}
 */
function geometry(data, layout) {
  const rows = Math.max(...data.cities.map((c) => c.row)) + 1;
  const cols = Math.max(...data.cities.map((c) => c.col)) + 1;
  const width = 2 * PAD + cols * CARD_W + (cols - 1) * GAP;
  const frame = layout?.map;
  const map = frame ? { x: PAD, y: PAD, width: width - 2 * PAD, height: Math.round(((width - 2 * PAD) * (frame.north - frame.south)) / (frame.east - frame.west)) } : null;
  const top = map ? map.y + map.height + GAP / 2 : PAD;
  return { map, top, rows, cols, width, height: top + PAD + rows * CARD_H + (rows - 1) * GAP + GAP / 2 + HOME_H };
}

/**
 * A place on the world (degrees) on the map band.
 * @param {Geometry} geo
 * @param {Layout} layout
 * @param {{lon: number, lat: number}} at
 * @returns {[number, number]}
 */
function project(geo, layout, at) {
  const box = /** @type {NonNullable<Geometry['map']>} */ (geo.map);
  const f = layout.map;
  return [box.x + ((at.lon - f.west) / (f.east - f.west)) * box.width, box.y + ((f.north - at.lat) / (f.north - f.south)) * box.height];
}

/**
 * Pairs of cities joined by a route: neighbours on the board's grid (the data file's
 * `grid.adjacency` is orthogonal), each pair once, west to east and north to south.
 * @param {Data} data
 */
export function routePairs(data) {
  /** @type {[Data['cities'][number], Data['cities'][number]][]} */
  const pairs = [];
  for (const a of data.cities) {
    for (const b of data.cities) {
      if ((b.row === a.row && b.col === a.col + 1) || (b.col === a.col && b.row === a.row + 1)) pairs.push([a, b]);
    }
  }
  return pairs;
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
 * @param {Geometry} geo
 */
function drawCity(ctx, city, marks, geo) {
  /** @type {Data} */
  const data = ctx.data;
  /** @type {View} */
  const view = ctx.view;
  const info = data.cities.find((c) => c.id === city.city);
  if (!info) return s('g');
  const [x0, y0] = cardAt(info, geo);
  const track = data.tiers[info.tier]?.track ?? [];
  const planes = view.players.filter((p) => p.plane.at === 'city' && p.plane.city === city.city);
  const tier = /** @type {Record<string, string>} */ (TIER_NAMES)[info.tier] ?? info.tier;
  /** @type {string[]} */
  const said = [t('ty.city.said', { city: info.name, tier })];
  const parts = [
    s('rect', { x: x0, y: y0, width: CARD_W, height: CARD_H, rx: 12, class: 'city-card' }),
    s('text', { x: x0 + 14, y: y0 + 28, class: 'city-name' }, info.name),
    s('text', { x: x0 + CARD_W - 14, y: y0 + 27, 'text-anchor': 'end', class: 'small' }, `${tier} · ${t('ty.city.payday', { first: money(city.payout[0]), second: money(city.payout[1]) })}`),
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
    said.push(t('ty.city.landing', { n: field + 1, cost: money(info.landing_costs[field]), who: here ? ctx.name(here.seat) : t('ty.free') }));
  });
  const stopovers = planes.filter((p) => p.plane.at === 'city' && p.plane.field == null);
  stopovers.forEach((p, i) => parts.push(plane(p.seat, x0 + 160 + (i % 2) * 34, y0 + 62 + Math.floor(i / 2) * 30, 30)));
  if (stopovers.length) {
    parts.push(s('text', { x: x0 + 176, y: y0 + 116, 'text-anchor': 'middle', class: 'small' }, 'stopover'));
    said.push(t('ty.city.stopover', { names: stopovers.map((p) => ctx.name(p.seat)).join(', ') }));
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
    said.push(t('ty.city.factory', { n: field + 1, cost: money(info.factory_costs[field]), who: owner === undefined ? t('ty.free') : ctx.name(owner) }));
  });
  // The hotel track.
  const ty = y0 + 152;
  const full = city.chain_length > data.track.unbuildable_space - 1;
  const payoutSpace = Math.min(city.chain_length, data.track.unbuildable_space);
  parts.push(s('text', { x: x0 + 14, y: ty - 8, class: 'small' }, t(full ? 'ty.city.trackFull' : 'ty.city.track', { n: city.chain_length })));
  for (let space = 0; space < data.track.spaces; space++) {
    const x = x0 + 14 + space * SPACE_W;
    const red = data.track.red_spaces.includes(space);
    const unbuildable = space === data.track.unbuildable_space;
    const owner = city.track[space];
    const payout = track[space] ?? [0, 0];
    const label = `${t('ty.space', { n: space + 1 })}${red ? `, ${t('ty.space.red')}` : ''}${unbuildable ? `, ${t('ty.space.never')}` : ''}: ${t('ty.space.pays', { first: money(payout[0]), second: money(payout[1]) })}${owner == null ? '' : `, ${t('ty.space.hotelOf', { name: ctx.name(owner) })}`}`;
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
  parts.push(s('text', { x: x0 + 14, y: y0 + 230, class: 'small' }, city.closed.length ? t('ty.closed', { marks: city.closed.map((seat) => seatLook(seat).label).join(' ') }) : t('ty.noClosed')));
  if (marks.cities.has(city.city)) {
    parts.push(s('rect', { x: x0 - 4, y: y0 - 4, width: CARD_W + 8, height: CARD_H + 8, rx: 14, class: 'recent-mark' }));
  }
  const group = s('g', { class: 'city', 'data-city': city.city }, s('title', {}, said.join('; ')), ...parts);
  const flights = ctx.legal.filter((a) => a.type === 'fly' && a.to === city.city);
  if (flights.length) {
    svgButton(group, { x: x0, y: y0, width: CARD_W, height: CARD_H, rx: 12 }, t('ty.flyTo', { city: info.name }), flights, () => ctx.offer(flights, t('ty.flyWhich', { city: info.name })));
  }
  return group;
}

/**
 * The routes between neighbouring panels, as on the map: one step of a scheduled ticket each.
 * @param {Data} data
 * @param {Geometry} geo
 */
function routes(data, geo) {
  return routePairs(data).map(([a, b]) => {
    const [ax, ay] = cardAt(a, geo);
    const [bx, by] = cardAt(b, geo);
    return b.row === a.row
      ? s('line', { x1: ax + CARD_W, y1: ay + CARD_H / 2, x2: bx, y2: by + CARD_H / 2, class: 'route' })
      : s('line', { x1: ax + CARD_W / 2, y1: ay + CARD_H, x2: bx + CARD_W / 2, y2: by, class: 'route' });
  });
}

/**
 * The world map above the panels: land and sea, every route between the cities' real places,
 * each city's marker with its name and the planes standing there, and the last flight as an
 * arrow (from the map's lower edge when it left the home banks below). It repeats what the panels say (their names, their planes), so it is one image to a
 * screen reader, named in words.
 * @param {BoardContext} ctx
 * @param {Geometry} geo
 * @param {Layout} layout
 * @param {ReturnType<typeof recentMarks>} marks
 */
function worldMap(ctx, geo, layout, marks) {
  /** @type {Data} */
  const data = ctx.data;
  /** @type {View} */
  const view = ctx.view;
  const box = /** @type {NonNullable<Geometry['map']>} */ (geo.map);
  const f = layout.map;
  const k = world.scale;
  // The land's path is in degrees × scale, north up: one transform puts the frame on the band.
  const sx = box.width / ((f.east - f.west) * k);
  const sy = box.height / ((f.north - f.south) * k);
  /** @param {string} id */
  const at = (id) => (layout.cities[id] ? project(geo, layout, layout.cities[id]) : null);
  const lines = routePairs(data).map(([a, b]) => {
    const pa = at(a.id);
    const pb = at(b.id);
    return pa && pb ? s('line', { x1: pa[0], y1: pa[1], x2: pb[0], y2: pb[1], class: 'map-route', 'data-route': `${a.id} ${b.id}` }) : null;
  });
  const cities = data.cities.map((c) => {
    const p = at(c.id);
    if (!p) return null;
    const [x, y] = p;
    // Names east of their marker, but west of it near the map's east edge.
    const east = x + 140 < box.x + box.width;
    const here = view.players.filter((pl) => pl.plane.at === 'city' && pl.plane.city === c.id);
    return s(
      'g',
      { class: 'map-city', 'data-city-marker': c.id },
      s('circle', { cx: x, cy: y, r: 9, class: marks.cities.has(c.id) ? 'map-marker map-marker-recent' : 'map-marker' }),
      s('text', { x: east ? x + 14 : x - 14, y: y + 6, 'text-anchor': east ? 'start' : 'end', class: 'map-name' }, c.name),
      here.map((pl, i) => {
        const look = seatLook(pl.seat);
        const px = (east ? x + 22 : x - 22) + (east ? 1 : -1) * i * 24;
        return s(
          'g',
          { class: 'map-plane', 'data-seat': pl.seat },
          s('circle', { cx: px, cy: y + 24, r: 11, fill: look.colour, stroke: '#222', 'stroke-width': 1.5 }),
          s('text', { x: px, y: y + 28, 'text-anchor': 'middle', class: 'marker-label' }, look.label),
        );
      }),
    );
  });
  // A flight from home comes up from the map's lower edge: the home banks lie below the map.
  const flights = marks.flights.map((fl) => {
    const to = at(fl.to);
    if (!to) return null;
    const from = fl.from ? at(fl.from) : [to[0], box.y + box.height];
    if (!from) return null;
    return s('line', { x1: from[0], y1: from[1], x2: to[0], y2: to[1], class: 'route-flown', 'data-flight': `${fl.from ?? 'home'} ${fl.to}` });
  });
  return s(
    'g',
    { class: 'world-map', role: 'img', 'aria-label': t('ty.worldMap') },
    s('rect', { ...box, class: 'map-sea' }),
    s('svg', { x: box.x, y: box.y, width: box.width, height: box.height, viewBox: `0 0 ${box.width} ${box.height}`, class: 'map-clip' },
      s('path', { d: world.land, class: 'land', transform: `scale(${sx} ${sy}) translate(${-f.west * k} ${f.north * k})` })),
    s('rect', { ...box, class: 'map-frame' }),
    lines,
    flights,
    cities,
  );
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
    s('title', {}, home.length ? t('ty.home.title', { names: home.map((p) => ctx.name(p.seat)).join(', ') }) : t('ty.home.none')),
    s('rect', { x: PAD, y, width: width - 2 * PAD, height: HOME_H, rx: 12, class: 'home-card' }),
    s('text', { x: PAD + 14, y: y + 28, class: 'city-name' }, t('ty.home')),
    s('text', { x: PAD + 14, y: y + 52, class: 'small' }, t('ty.home.hint')),
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
      h('h3', {}, title, h('small', {}, ` · ${t('ty.deck.counts', { down: deck.draw_pile, used: deck.discard.length })}`)),
      h(
        'ul',
        { class: 'tickets' },
        deck.display.map((ticket) => {
          const buy = ctx.legal.filter((a) => a.type === 'buy_ticket' && a.ticket === ticket);
          const text = `${ticketText(data, ticket)} · ${money(ticketPrice(data, ticket) ?? 0)}`;
          return h(
            'li',
            {},
            buy.length
              ? h('button', { type: 'button', class: 'ticket', 'data-actions': JSON.stringify(buy), onclick: () => ctx.offer(buy, t('ty.buyWhich')) }, t('ty.buy', { ticket: text }))
              : h('span', { class: 'ticket' }, text),
          );
        }),
      ),
    );
  return h(
    'section',
    { class: 'offer', 'aria-label': t('ty.forSale') },
    deck(t('ty.deck.scheduled'), view.scheduled),
    deck(t('ty.deck.charter'), view.charter),
    h('p', { class: 'small' }, t('ty.loansLeft', { list: data.loans.map((l, i) => `${view.loan_cards_left[i]} × ${money(l.amount)}`).join(', ') })),
  );
}

/**
 * Where a seat's plane is, in words.
 * @param {Data} data
 * @param {Schemas['TycoonPlayerView']} p
 */
function planeText(data, p) {
  if (p.plane.at !== 'city') return t('ty.plane.home');
  const info = data.cities.find((c) => c.id === /** @type {Schemas['TycoonPlaneCity']} */ (p.plane).city);
  const field = p.plane.field;
  if (!info) return t('ty.plane.city');
  return field == null ? t('ty.plane.stopover', { city: info.name }) : t('ty.plane.field', { city: info.name, n: field + 1, cost: money(info.landing_costs[field]) });
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
      ? t('ty.how.direct', { id: a.ticket })
      : tn('ty.how.steps', scheduled.steps, { id: a.ticket })
    : t('ty.how.charter', { id: a.ticket });
  const info = data.cities.find((c) => c.id === a.to);
  const taken = new Set(
    (view?.players ?? [])
      .map((p) => (p.seat !== ctx.seat && p.plane.at === 'city' && p.plane.city === a.to ? p.plane.field : null))
      .filter((f) => f != null),
  );
  const field = [0, 1].find((f) => !taken.has(f));
  const landing = !info || !view ? '' : field === undefined ? t('ty.land.none') : t('ty.land.field', { n: field + 1, cost: money(info.landing_costs[field]) });
  return `${t('ty.flyTo', { city: to })} (${how}${landing})`;
}

/**
 * @param {View} view
 * @param {(seat: number) => string} name
 */
function stageText(view, name) {
  const stage = view.stage;
  const phase = t('ty.phase', { n: view.phase });
  if (stage.stage === 'turn') {
    const last = view.phase_end_triggered_by == null ? '' : ` ${t('ty.lastRound')}`;
    return `${phase}: ${t('status.turn', { name: name(stage.seat) })}${last}`;
  }
  if (stage.stage === 'loan_settlement') return `${phase}: ${t('ty.settling')}`;
  if (stage.stage === 'finished') return t('status.over');

  return phase;
}

/** @type {import('./index.js').BoardModule} */
export default {
  preview,
  minWidth: 900,
  layout: true,
  spaces: '.city, .city .space, .homes',

  kindLabels: { fly: t('ty.kind.fly'), buy_ticket: t('ty.kind.buy'), settle_loan: t('ty.kind.settle') },

  rules: [
    [t('rules.goal'), [t('ty.rules.goal')]],
    [t('rules.turn'), [t('ty.rules.turn1'), t('ty.rules.turn2')]],
    [t('ty.rules.flying'), [t('ty.rules.flying1'), t('ty.rules.flying2')]],
    [t('ty.rules.building'), [t('ty.rules.building1'), t('ty.rules.building2')]],
    [t('ty.rules.payday'), [t('ty.rules.payday1'), t('ty.rules.payday2')]],
  ],

  render(ctx) {
    /** @type {View} */
    const view = ctx.view;
    /** @type {Data} */
    const data = ctx.data;
    /** @type {Layout | null} */
    const layout = ctx.layout ?? null;
    const geo = geometry(data, layout);
    const marks = recentMarks(ctx.recent);
    const drawing = s(
      'svg',
      { class: 'board tycoon', viewBox: `0 0 ${geo.width} ${geo.height}`, role: 'group', 'aria-label': t('ty.map') },
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
      s('rect', { x: 0, y: 0, width: geo.width, height: geo.height, class: 'sea' }),
      layout && geo.map ? worldMap(ctx, geo, layout, marks) : null,
      routes(data, geo),
      view.cities.map((c) => drawCity(ctx, c, marks, geo)),
      homes(ctx, geo.width, geo.height - PAD - HOME_H),
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
      [t('ty.row.cash'), money(p.cash)],
      [t('ty.row.netWorth'), t('ty.row.netWorthValue', { amount: money(p.net_worth) })],
      [t('ty.row.hotels'), t('ty.row.hotelsValue', { supply: p.hotels_in_supply, reserve: p.hotels_in_reserve })],
      [t('ty.row.factories'), t('ty.row.factoriesValue', { n: p.factories_left })],
      [t('ty.row.plane'), planeText(data, p)],
      [t('ty.row.tickets'), p.tickets.length ? h('ul', { class: 'plain' }, p.tickets.map((ticket) => h('li', {}, ticketText(data, ticket)))) : t('common.none')],
      [
        t('ty.row.loans'),
        p.loans.length
          ? p.loans
              .map((l) => {
                const terms = loanTerms(data, l.loan);
                return t(l.extended ? 'ty.loan.extended' : 'ty.loan', { amount: money(terms.amount), repay: money(l.extended ? terms.repay_extended : terms.repay) });
              })
              .join(', ')
          : t('common.none'),
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
        .map((p) => `${ctx.name(p.seat)}: ${p.loans.map((l) => `${money(loanTerms(data, l.loan).amount)}${l.extended ? ` ${t('ty.loan.mustRepay')}` : ''}`).join(', ')}; ${t('ty.cash', { cash: money(p.cash) })}`);
      return {
        title: ctx.legal.length ? t('ty.prompt.settle') : t('ty.prompt.settling'),
        details,
      };
    }
    if (stage.stage !== 'turn') return null;
    const p = view.players[stage.seat];
    if (!p) return null;
    const yours = stage.seat === ctx.seat && ctx.legal.length > 0;
    /** @type {string[]} */
    const details = [t('ty.prompt.plane', { plane: planeText(data, p) }), t('ty.prompt.stock', { cash: money(p.cash), hotels: p.hotels_in_supply, factories: p.factories_left })];
    if (p.tickets.length) details.push(t('ty.prompt.tickets', { tickets: p.tickets.map((ticket) => ticketText(data, ticket)).join('; ') }));
    if (view.phase_end_triggered_by != null) details.push(t('ty.prompt.lastRound', { name: ctx.name(view.phase_end_triggered_by) }));
    let title;
    if (!yours) title = t('ev.turn', { name: ctx.name(stage.seat) });
    else if (stage.main_action_done) title = t('ty.prompt.built');
    else if (p.plane.at !== 'city') title = stage.purchased ? t('ty.prompt.homeBought') : t('ty.prompt.home');
    else if (stage.flown || stage.purchased) title = t('ty.prompt.flyOn');
    else title = t('ty.prompt.turn');
    if (mine && yours && mine.plane.at === 'city') {
      const city = view.cities.find((c) => mine.plane.at === 'city' && c.city === mine.plane.city);
      if (city) {
        const next = nextSpace(ctx, city);
        const closes = next.closes ? t('ty.closes', { name: ctx.name(next.closes.owner), n: next.closes.space + 1 }) : '';
        details.push(t(next.red ? 'ty.prompt.nextRed' : 'ty.prompt.next', { n: next.space + 1, closes }));
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
        return t('ty.act.buy', { ticket: ticketText(data, a.ticket), price: money(ticketPrice(data, a.ticket) ?? 0) });
      case 'fly':
        return flightText(ctx, a);
      case 'build_hotel': {
        if (!info || !city || plane?.field == null) return t('ty.act.hotelHere');
        const next = nextSpace(ctx, city);
        const closes = next.closes ? t('ty.closes', { name: ctx.name(next.closes.owner), n: next.closes.space + 1 }) : '';
        return t('ty.act.hotel', { city: info.name, cost: money(info.landing_costs[plane.field]), n: next.space + 1, closes });
      }
      case 'renovate_hotel': {
        if (!info || !city) return t('ty.act.reopenHere');
        const next = nextSpace(ctx, city);
        const closes = next.closes ? t('ty.closes', { name: ctx.name(next.closes.owner), n: next.closes.space + 1 }) : '';
        return t('ty.act.reopen', { city: info.name, n: next.space + 1, closes });
      }
      case 'build_factory': {
        if (!info || !city) return t('ty.act.factoryHere');
        const field = city.factories.length;
        return t('ty.act.factory', { city: info.name, cost: money(info.factory_costs[field] ?? 0), n: field + 1 });
      }
      case 'take_loan': {
        const terms = loanTerms(data, a.loan);
        return t(home ? 'ty.act.borrow' : 'ty.act.flyBorrow', { amount: money(terms.amount), repay: money(terms.repay) });
      }
      case 'pass':
        return home ? t('ty.act.pass') : t('ty.act.flyPass');
      case 'end_turn':
        return t('ty.act.endTurn');
      case 'settle_loan': {
        const terms = loanTerms(data, a.loan);
        return a.decision === 'repay'
          ? t('ty.act.repay', { amount: money(terms.amount), repay: money(terms.repay) })
          : t('ty.act.extend', { amount: money(terms.amount), repay: money(terms.repay_extended) });
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
        return t('ty.ev.started', { n: e.players, cash: money(15) });
      case 'deck_shuffled':
        return t(e.deck === 'scheduled' ? 'ty.ev.shuffledScheduled' : 'ty.ev.shuffledCharter', { n: e.cards });
      case 'tickets_revealed':
        return t('ty.ev.revealed', { tickets: e.tickets.map((ticket) => ticketText(data, ticket)).join('; ') });
      case 'turn_started':
        return t('ev.turn', { name: name(e.seat) });
      case 'ticket_bought':
        return t('ty.ev.bought', { name: name(e.seat), ticket: ticketText(data, e.ticket), price: money(e.price) });
      case 'flew': {
        const params = { name: name(e.seat), from: e.from ? cityName(data, e.from) : '', to: cityName(data, e.to), ticket: e.ticket, n: (e.field ?? 0) + 1 };
        const key = e.from ? (e.field == null ? 'ty.ev.flewStop' : 'ty.ev.flew') : e.field == null ? 'ty.ev.flewHomeStop' : 'ty.ev.flewHome';
        return t(key, params);
      }
      case 'hotel_built':
        return t('ty.ev.hotel', { name: name(e.seat), city: cityName(data, e.city), n: e.space + 1, cost: money(e.cost) });
      case 'hotel_closed':
        return t('ty.ev.closed', { name: name(e.owner), n: e.space + 1, city: cityName(data, e.city) });
      case 'hotel_renovated':
        return t('ty.ev.reopened', { name: name(e.seat), city: cityName(data, e.city), n: e.space + 1 });
      case 'factory_built':
        return t('ty.ev.factory', { name: name(e.seat), city: cityName(data, e.city), n: e.field + 1, cost: money(e.cost) });
      case 'loan_taken':
        return t('ty.ev.loan', { name: name(e.seat), amount: money(e.amount) });
      case 'passed':
        return t('ty.ev.passed', { name: name(e.seat) });
      case 'phase_end_triggered':
        return t('ty.ev.phaseEnd', { name: name(e.seat) });
      case 'turn_ended':
        return t('ev.turnEnded', { name: name(e.seat) });
      case 'payday_held':
        return t('ty.ev.payday', {
          n: e.phase,
          incomes: e.incomes
            .map((i) => t('ty.ev.income', { name: name(i.seat), total: money(i.total), cities: money(i.distribution), majority: money(i.majority), factories: money(i.factories) }))
            .join('; '),
        });
      case 'loan_repaid':
        return t(e.extended ? 'ty.ev.repaidExtended' : 'ty.ev.repaid', { name: name(e.seat), loan: money(loanTerms(data, e.loan).amount), amount: money(e.amount) });
      case 'loan_extended':
        return t('ty.ev.extended', { name: name(e.seat), loan: money(loanTerms(data, e.loan).amount), repay: money(loanTerms(data, e.loan).repay_extended) });
      case 'loan_settlement_started':
        return t('ty.ev.settlement');
      case 'phase_started':
        return t('ty.ev.phase', { n: e.phase, hotels: e.hotels_per_player, worths: e.net_worths.map((n, seat) => `${name(seat)} ${money(n)}`).join(', ') });
      case 'game_ended': {
        const winners = list(e.outcome.winners.map((w) => name(w)));
        return t(e.outcome.winners.length > 1 ? 'ty.ev.overMany' : 'ty.ev.overOne', { winners, amount: money(Math.max(...e.outcome.scores)) });
      }
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
      caption: t('aq.sheet.caption'),
      columns: [t('ty.sheet.payday'), t('ty.sheet.before'), t('ty.sheet.repaid')],
      rows: view.players.map((p, seat) => [
        income[seat] ? `${money(income[seat].total)}` : '–',
        money(p.cash + repaid[seat]),
        repaid[seat] ? `−${money(repaid[seat])}` : '–',
      ]),
      note: t('ty.sheet.note'),
    };
  },
};
