// Tycoon's board: the world map of nine cities, each with its two landing fields, two factory
// fields, its hotel track (red spaces striped, the last space unbuildable) and closed hotels;
// the planes; the face-up tickets. Click a city to fly there, a ticket to buy it. City
// positions, ticket routes, prices and track payouts come from the game's data file.

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
 * @property {{id: string, dest: string, steps: number, price: number}[]} scheduled_tickets
 * @property {{id: string, cities: string[], distance: number, price: number}[]} charter_tickets
 * @property {{id: string, amount: number, repay: number, repay_extended: number}[]} loans
 */

const CELL_W = 320;
const CELL_H = 226;
const SPACE_W = 22;

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
function loanAmount(data, id) {
  return data.loans.find((l) => l.id === id)?.amount ?? 0;
}

/**
 * A seat's marker: a circle or square in its colour with its symbol and number.
 * @param {number} seat
 * @param {number} x centre
 * @param {number} y centre
 * @param {number} size
 * @param {string} shape `circle` or `rect`
 */
function marker(seat, x, y, size, shape) {
  const look = seatLook(seat);
  const body =
    shape === 'circle'
      ? s('circle', { cx: x, cy: y, r: size / 2, fill: look.colour, stroke: '#222', 'stroke-width': 1.5 })
      : s('rect', { x: x - size / 2, y: y - size / 2, width: size, height: size, fill: look.colour, stroke: '#222', 'stroke-width': 1.5 });
  return s(
    'g',
    { class: 'seat-marker', 'data-seat': seat },
    body,
    s('text', { x, y: y + 4, 'text-anchor': 'middle', class: 'marker-label' }, look.label),
  );
}

/**
 * One city: name, landing fields with planes, factory fields, the hotel track.
 * @param {BoardContext} ctx
 * @param {Schemas['TycoonCityView']} city
 */
function drawCity(ctx, city) {
  /** @type {Data} */
  const data = ctx.data;
  /** @type {View} */
  const view = ctx.view;
  const info = data.cities.find((c) => c.id === city.city);
  if (!info) return s('g');
  const x0 = info.col * CELL_W + 6;
  const y0 = info.row * CELL_H + 6;
  const track = data.tiers[info.tier]?.track ?? [];
  const planes = view.players.filter((p) => p.plane.at === 'city' && p.plane.city === city.city);
  const parts = [
    s('rect', { x: x0, y: y0, width: CELL_W - 12, height: CELL_H - 12, rx: 10, class: 'city-card' }),
    s('text', { x: x0 + 12, y: y0 + 24, class: 'city-name' }, info.name),
    s('text', { x: x0 + CELL_W - 24, y: y0 + 24, 'text-anchor': 'end', class: 'small' }, `tier ${info.tier} · payday ${money(city.payout[0])}/${money(city.payout[1])}`),
  ];
  // Landing fields: a plane on its field, or the field's hotel cost.
  [0, 1].forEach((field) => {
    const cx = x0 + 30 + field * 52;
    const cy = y0 + 54;
    const plane = planes.find((p) => p.plane.at === 'city' && p.plane.field === field);
    parts.push(
      plane
        ? marker(plane.seat, cx, cy, 30, 'circle')
        : s('circle', { cx, cy, r: 15, class: 'field-empty' }),
      s('text', { x: cx, y: cy + 30, 'text-anchor': 'middle', class: 'small' }, `✈${field + 1}: ${money(info.landing_costs[field])}`),
    );
  });
  const stopovers = planes.filter((p) => p.plane.at === 'city' && p.plane.field == null);
  stopovers.forEach((p, i) => parts.push(marker(p.seat, x0 + 124 + i * 26, y0 + 54, 22, 'circle')));
  if (stopovers.length) {
    parts.push(s('text', { x: x0 + 112, y: y0 + 84, class: 'small' }, 'stopover'));
  }
  // Factory fields.
  [0, 1].forEach((field) => {
    const cx = x0 + 196 + field * 58;
    const cy = y0 + 54;
    const owner = city.factories[field];
    parts.push(
      owner === undefined
        ? s('rect', { x: cx - 15, y: cy - 15, width: 30, height: 30, class: 'field-empty' })
        : marker(owner, cx, cy, 30, 'rect'),
      s('text', { x: cx, y: cy + 30, 'text-anchor': 'middle', class: 'small' }, `⚙${field + 1}: ${money(info.factory_costs[field])}`),
    );
  });
  // The hotel track.
  const ty = y0 + 116;
  parts.push(s('text', { x: x0 + 12, y: ty - 6, class: 'small' }, `Hotels (${city.chain_length} built)`));
  for (let space = 0; space < data.track.spaces; space++) {
    const x = x0 + 12 + space * SPACE_W;
    const red = data.track.red_spaces.includes(space);
    const unbuildable = space === data.track.unbuildable_space;
    const owner = city.track[space];
    const payout = track[space] ?? [0, 0];
    const label = `space ${space + 1}${red ? ', red' : ''}${unbuildable ? ', never built on' : ''}: pays ${money(payout[0])}/${money(payout[1])}${owner == null ? '' : `, hotel of ${ctx.name(owner)}`}`;
    parts.push(
      s(
        'g',
        { class: 'space' },
        s('title', {}, label),
        s('rect', {
          x,
          y: ty,
          width: SPACE_W - 2,
          height: 30,
          class: unbuildable ? 'space-unbuildable' : 'space-free',
          fill: owner == null ? null : seatLook(owner).colour,
        }),
        red ? s('rect', { x, y: ty, width: SPACE_W - 2, height: 30, fill: 'url(#red-space)', class: 'red-space' }) : null,
        owner == null ? null : s('text', { x: x + (SPACE_W - 2) / 2, y: ty + 19, 'text-anchor': 'middle', class: 'marker-label' }, seatLook(owner).label),
        s('text', { x: x + (SPACE_W - 2) / 2, y: ty + 44, 'text-anchor': 'middle', class: 'tiny' }, payout[0]),
      ),
    );
  }
  if (city.closed.length) {
    parts.push(
      s('text', { x: x0 + 12, y: y0 + 184, class: 'small' }, `Closed: ${city.closed.map((seat) => seatLook(seat).label).join(' ')}`),
    );
  }
  const group = s('g', { class: 'city', 'data-city': city.city }, s('title', {}, info.name), ...parts);
  const flights = ctx.legal.filter((a) => a.type === 'fly' && a.to === city.city);
  if (flights.length) {
    group.setAttribute('data-actions', JSON.stringify(flights));
    svgButton(group, `Fly to ${info.name}`, () => ctx.offer(flights, `Fly to ${info.name} with which ticket?`));
  }
  return group;
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
      h('h3', {}, title, h('small', {}, ` · ${deck.draw_pile} face down, ${deck.discard.length} discarded`)),
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
    'div',
    { class: 'offer' },
    deck('Scheduled tickets', view.scheduled),
    deck('Charter tickets', view.charter),
    h('p', { class: 'small' }, `Loan cards left: ${data.loans.map((l, i) => `${view.loan_cards_left[i]} × ${money(l.amount)}`).join(', ')}`),
  );
}

/**
 * @param {View} view
 * @param {(seat: number) => string} name
 */
function stageText(view, name) {
  const stage = view.stage;
  const phase = `Phase ${view.phase}`;
  if (stage.stage === 'turn') {
    const last = view.phase_end_triggered_by == null ? '' : ' (last round of the phase)';
    return `${phase}: ${name(stage.seat)}'s turn${last}`;
  }
  if (stage.stage === 'loan_settlement') return `${phase}: repaying or extending loans`;
  if (stage.stage === 'finished') return 'Game over';
  return phase;
}

/** @type {import('./index.js').BoardModule} */
export default {
  render(ctx) {
    /** @type {View} */
    const view = ctx.view;
    const rows = Math.max(...ctx.data.cities.map((/** @type {{row: number}} */ c) => c.row)) + 1;
    const cols = Math.max(...ctx.data.cities.map((/** @type {{col: number}} */ c) => c.col)) + 1;
    const svg = s(
      'svg',
      {
        class: 'board tycoon',
        viewBox: `0 0 ${cols * CELL_W} ${rows * CELL_H}`,
        role: 'group',
        'aria-label': 'World map',
      },
      s(
        'defs',
        {},
        s(
          'pattern',
          { id: 'red-space', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
          s('rect', { width: 3, height: 6, fill: '#c0392b', opacity: 0.55 }),
        ),
      ),
      view.cities.map((c) => drawCity(ctx, c)),
    );
    return h('div', { class: 'tycoon-board' }, svg, ticketOffer(ctx));
  },

  playerRows(ctx, seat) {
    /** @type {View} */
    const view = ctx.view;
    /** @type {Data} */
    const data = ctx.data;
    const p = view.players[seat];
    if (!p) return [];
    const plane =
      p.plane.at === 'city'
        ? `${cityName(data, p.plane.city)}${p.plane.field == null ? ' (stopover)' : `, field ${p.plane.field + 1}`}`
        : 'home';
    return [
      ['Cash', money(p.cash)],
      ['Net worth', money(p.net_worth)],
      ['Hotels', `${p.hotels_in_supply} to build, ${p.hotels_in_reserve} in reserve`],
      ['Factories', `${p.factories_left} left`],
      ['Plane', plane],
      ['Tickets', p.tickets.length ? h('ul', { class: 'plain' }, p.tickets.map((t) => h('li', {}, ticketText(data, t)))) : 'none'],
      [
        'Loans',
        p.loans.length
          ? p.loans
              .map((l) => {
                const terms = data.loans.find((x) => x.id === l.loan);
                return `${money(terms?.amount ?? 0)} (due ${money((l.extended ? terms?.repay_extended : terms?.repay) ?? 0)}${l.extended ? ', extended' : ''})`;
              })
              .join(', ')
          : 'none',
      ],
    ];
  },

  status: (ctx) => stageText(ctx.view, ctx.name),

  /** @param {Action} a */
  describeAction(a, ctx) {
    /** @type {Data} */
    const data = ctx.data;
    switch (a.type) {
      case 'buy_ticket':
        return `Buy ${ticketText(data, a.ticket)} (${money(ticketPrice(data, a.ticket) ?? 0)})`;
      case 'fly':
        return `Fly to ${cityName(data, a.to)} with ${ticketText(data, a.ticket)}`;
      case 'build_hotel':
        return 'Build a hotel here';
      case 'renovate_hotel':
        return 'Reopen a closed hotel here';
      case 'build_factory':
        return 'Build a factory here';
      case 'take_loan':
        return `Take a ${money(loanAmount(data, a.loan))} loan and fly home`;
      case 'pass':
        return 'Pass and fly home';
      case 'end_turn':
        return 'End the turn';
      case 'settle_loan':
        return `${a.decision === 'repay' ? 'Repay' : 'Extend'} a ${money(loanAmount(data, a.loan))} loan`;
    }
  },

  /** @param {Event} e */
  describeEvent(e, ctx) {
    /** @type {Data} */
    const data = ctx.data;
    const name = ctx.name;
    switch (e.type) {
      case 'game_started':
        return `The game starts with ${e.players} players.`;
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
        const landing = e.field == null ? ', a stopover without a landing field' : `, landing on field ${e.field + 1}`;
        return `${name(e.seat)} flies ${from}to ${cityName(data, e.to)} with ${e.ticket}${landing}.`;
      }
      case 'hotel_built':
        return `${name(e.seat)} builds a hotel in ${cityName(data, e.city)} on space ${e.space + 1} for ${money(e.cost)}.`;
      case 'hotel_closed':
        return `${name(e.owner)}'s hotel on space ${e.space + 1} in ${cityName(data, e.city)} closes: a red space was built.`;
      case 'hotel_renovated':
        return `${name(e.seat)} reopens a hotel in ${cityName(data, e.city)} on space ${e.space + 1}.`;
      case 'factory_built':
        return `${name(e.seat)} builds a factory in ${cityName(data, e.city)} on field ${e.field + 1} for ${money(e.cost)}.`;
      case 'loan_taken':
        return `${name(e.seat)} takes a loan of ${money(e.amount)} and flies home.`;
      case 'passed':
        return `${name(e.seat)} passes and flies home.`;
      case 'phase_end_triggered':
        return `${name(e.seat)} has built every hotel of the phase: this round is the last.`;
      case 'turn_ended':
        return `${name(e.seat)} ends the turn.`;
      case 'payday_held':
        return `Payday of phase ${e.phase}: ${e.incomes
          .map((i) => `${name(i.seat)} earns ${money(i.total)} (distribution ${money(i.distribution)}, majorities ${money(i.majority)}, factories ${money(i.factories)})`)
          .join('; ')}.`;
      case 'loan_repaid':
        return `${name(e.seat)} repays a ${money(loanAmount(data, e.loan))} loan${e.extended ? ' (extended)' : ''}: ${money(e.amount)}.`;
      case 'loan_extended':
        return `${name(e.seat)} extends a ${money(loanAmount(data, e.loan))} loan.`;
      case 'loan_settlement_started':
        return 'Every unextended loan must now be repaid or extended.';
      case 'phase_started':
        return `Phase ${e.phase} begins: ${e.hotels_per_player} new hotels each; net worths ${e.net_worths.map((n, seat) => `${name(seat)} ${money(n)}`).join(', ')}.`;
      case 'game_ended':
        return `The game is over. ${e.outcome.winners.map((w) => name(w)).join(' and ')} ${e.outcome.winners.length > 1 ? 'win' : 'wins'}.`;
    }
  },
};
