// A strict TypeScript client built only on the types openapi-typescript generates from
// openapi/openapi.json (generated/api.d.ts) and on openapi-fetch, type-checked by tsc with
// `strict`, `exactOptionalPropertyTypes` and `noUncheckedIndexedAccess`, and without a single
// cast. The client-contract test (tests/tests/api/clients.rs) runs it against a server: it
// plays a complete game of every hosted type with several seats, acts off turn where a game
// allows it, fills every kind of template domain into the game's typed action, reads a
// refused action as a typed problem, and follows one game through the event stream with a
// reconnect (`Last-Event-ID`) while it is played. It prints one JSON report line.
import createClient from "openapi-fetch";
import type { Client } from "openapi-fetch";
import type { components, paths } from "./generated/api.js";
import { followStream } from "./stream.js";

type S = components["schemas"];

function fail(message: string): never {
  throw new Error(message);
}

const base = process.argv[2] ?? fail("usage: node out/client.js BASE_URL");
const anonymous = createClient<paths>({ baseUrl: base });

// ---- Chance: a seeded generator, so a run is reproducible. ----

let state = 0x2545f491;
function random(): number {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
function between(min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
function oneOf<T>(values: readonly T[]): T {
  return values[Math.floor(random() * values.length)] ?? fail("nothing to choose from");
}

// ---- Template domains, filled typed: what a client does with a template. ----

const kinds = new Set<string>();

function fillInteger(d: S["TemplateDomainInteger"]): number {
  kinds.add(d.kind);
  return between(d.min, d.max);
}
function fillOneOf<T>(d: { kind: "one_of"; values: T[] }): T {
  kinds.add(d.kind);
  return oneOf(d.values);
}
function fillSubset<T>(d: { kind: "subset"; values: T[]; min_items: number; max_items: number }): T[] {
  kinds.add(d.kind);
  const n = between(d.min_items, Math.min(d.max_items, d.values.length));
  const chosen = d.values.map((v, i) => ({ v, i, r: random() }));
  chosen.sort((a, b) => a.r - b.r);
  return chosen
    .slice(0, n)
    .sort((a, b) => a.i - b.i)
    .map((c) => c.v);
}
const colours: (keyof S["TyrosCards"])[] = ["orange", "yellow", "green", "violet", "joker"];
function fillCounts(d: S["TyrosCardCounts"]): S["TyrosCards"] {
  kinds.add(d.kind);
  const room = colours.reduce((sum, c) => sum + (d.limits[c] ?? 0), 0);
  let left = between(d.min_total, Math.min(d.max_total, room));
  const counts: S["TyrosCards"] = {};
  while (left > 0) {
    const open = colours.filter((c) => (counts[c] ?? 0) < (d.limits[c] ?? 0));
    const c = oneOf(open);
    counts[c] = (counts[c] ?? 0) + 1;
    left -= 1;
  }
  return counts;
}

function monopolyAction(t: S["MonopolyTemplate"]): S["MonopolyAction"] {
  switch (t.type) {
    case "bid":
      return { type: "bid", amount: fillInteger(t.params.amount) };
    case "accept_trade":
      return { type: "accept_trade", offer: t.fixed.offer, lift: fillSubset(t.params.lift) };
    case "settle_inheritance":
      return { type: "settle_inheritance", lift: fillSubset(t.params.lift) };
    case "offer_trade": {
      const p = t.params;
      const offer: S["MonopolyActionOfferTrade"] = { type: "offer_trade", to: t.fixed.to };
      if (p.give_cash) offer.give_cash = fillInteger(p.give_cash);
      if (p.get_cash) offer.get_cash = fillInteger(p.get_cash);
      if (p.give_properties) offer.give_properties = fillSubset(p.give_properties);
      if (p.get_properties) offer.get_properties = fillSubset(p.get_properties);
      if (p.give_cards) offer.give_cards = fillSubset(p.give_cards);
      if (p.get_cards) offer.get_cards = fillSubset(p.get_cards);
      return offer;
    }
  }
}

function tyrosAction(t: S["TyrosTemplate"]): S["TyrosAction"] {
  switch (t.type) {
    case "pay":
      return { type: "pay", cards: fillCounts(t.params.cards) };
    case "lay_fight_cards":
      return { type: "lay_fight_cards", cards: fillCounts(t.params.cards) };
    case "keep":
      return { type: "keep", cards: fillCounts(t.params.cards) };
    case "bank_swap":
      return { type: "bank_swap", cards: fillCounts(t.params.cards) };
    case "bank_pick":
      return { type: "bank_pick", colour: fillOneOf(t.params.colour), cards: fillCounts(t.params.cards) };
    case "offer_trade": {
      const give = t.params.give ? fillCounts(t.params.give) : (t.fixed?.give ?? {});
      return { type: "offer_trade", to: fillOneOf(t.params.to), give, get: fillCounts(t.params.get) };
    }
  }
}

// ---- The games: how to create one that ends soon, and how a seat chooses. ----

/** What a seat may do, already typed as the game's actions (templates filled in). */
interface Options<A> {
  listed: A[];
  filled: A[];
}

interface Game<D, A extends S["ActionRequest"]["action"]> {
  type: string;
  seats: number;
  /** A game that ends soon. */
  create: S["CreateGameRequest"];
  /** The game's document, or `undefined` for another game's. */
  narrow(doc: S["GameDocument"]): D | undefined;
  options(doc: D): Options<A>;
  /** How much a listed action is liked (templates weigh `templateWeight`). */
  weight: Record<string, number>;
  templateWeight: number;
  /** How often a seat the game is not waiting for is asked whether it wants to act. */
  peek: number;
}

/** `n` seats for people. */
function people(n: number): S["SeatRequest"][] {
  return Array.from({ length: n }, (_, i) => ({ name: `P${i}` }));
}

const tycoon: Game<S["TycoonGameDocument"], S["TycoonAction"]> = {
  type: "tycoon",
  seats: 3,
  create: { type: "tycoon", seats: people(3), seed: 23 },
  narrow: (doc) => (doc.type === "tycoon" ? doc : undefined),
  options: (doc) => ({ listed: doc.legal_actions, filled: [] }),
  weight: { build_hotel: 60, renovate_hotel: 60, build_factory: 15, fly: 8, buy_ticket: 2 },
  templateWeight: 0,
  peek: 0,
};

const acquire: Game<S["AcquireGameDocument"], S["AcquireAction"]> = {
  type: "acquire",
  seats: 3,
  create: { type: "acquire", seats: people(3), seed: 23 },
  narrow: (doc) => (doc.type === "acquire" ? doc : undefined),
  options: (doc) => ({ listed: doc.legal_actions, filled: [] }),
  weight: { place_tile: 6, announce_end: 50 },
  templateWeight: 0,
  peek: 0,
};

const monopoly: Game<S["MonopolyGameDocument"], S["MonopolyAction"]> = {
  type: "monopoly",
  seats: 3,
  create: { type: "monopoly", seats: people(3), seed: 23, config: { round_limit: 6 } },
  narrow: (doc) => (doc.type === "monopoly" ? doc : undefined),
  options: (doc) => ({ listed: doc.legal_actions, filled: doc.action_templates.map(monopolyAction) }),
  weight: {
    roll: 40,
    end_turn: 40,
    buy_property: 20,
    decline_property: 20,
    pay_debt: 40,
    pass_auction: 10,
    claim_rent: 200,
    reject_trade: 10,
    pay_jail_fine: 10,
    declare_bankruptcy: 40,
  },
  templateWeight: 4,
  peek: 0.5,
};

const tyros: Game<S["TyrosGameDocument"], S["TyrosAction"]> = {
  type: "tyros",
  seats: 3,
  create: { type: "tyros", seats: people(3), seed: 23 },
  narrow: (doc) => (doc.type === "tyros" ? doc : undefined),
  options: (doc) => ({ listed: doc.legal_actions, filled: doc.action_templates.map(tyrosAction) }),
  weight: { pass: 2, place_tile: 20, reject_trade: 5 },
  templateWeight: 3,
  peek: 0.2,
};

function choose<A extends S["ActionRequest"]["action"]>(game: Game<unknown, A>, o: Options<A>): A | undefined {
  const weighted = [
    ...o.listed.map((a) => ({ a, w: game.weight[a.type] ?? 1 })),
    ...o.filled.map((a) => ({ a, w: game.templateWeight })),
  ].filter((c) => c.w > 0);
  const total = weighted.reduce((sum, c) => sum + c.w, 0);
  let roll = random() * total;
  for (const c of weighted) {
    roll -= c.w;
    if (roll < 0) return c.a;
  }
  return weighted.at(-1)?.a;
}

// ---- Playing. ----

type Api = Client<paths>;

interface Played {
  type: string;
  version: number;
  moves: number;
  offTurn: number;
  winners: number[];
}

async function play<D extends S["GameDocument"], A extends S["ActionRequest"]["action"]>(
  game: Game<D, A>,
  watch: boolean,
): Promise<Played & { streamed?: Awaited<ReturnType<typeof followStream>> }> {
  const created = await anonymous.POST("/v1/games", { body: game.create });
  const table = created.data ?? fail(`create ${game.type}: ${JSON.stringify(created.error)}`);
  // A created seat is a person's (with its token), a bot's or open: `token` tells them apart.
  const seats: Api[] = table.seats.map((seat) =>
    "token" in seat
      ? createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${seat.token}` } })
      : fail("every seat is a person's"),
  );
  const path = { id: table.game_id };
  const stream = watch ? followStream(base, table.game_id) : undefined;

  async function read(seat: number): Promise<D> {
    const res = await (seats[seat] ?? fail("no such seat")).GET("/v1/games/{id}", { params: { path } });
    const doc = res.data ?? fail(`read: ${JSON.stringify(res.error)}`);
    return game.narrow(doc) ?? fail(`expected a ${game.type} document, got ${doc.type}`);
  }

  let doc = await read(0);
  let moves = 0;
  let offTurn = 0;
  while (doc.status === "active") {
    if (moves > 5000) fail(`${game.type} did not end`);
    const waiting = doc.active_seats[0] ?? fail("an active game waits for a seat");
    let seat = waiting;
    if (random() < game.peek) {
      seat = between(0, game.seats - 1);
    }
    const mine = doc.seat === seat ? doc : await read(seat);
    const action = choose(game, game.options(mine));
    if (action === undefined) {
      doc = mine.seat === waiting ? mine : await read(waiting);
      continue;
    }
    if (!mine.active_seats.includes(seat)) offTurn += 1;
    const posted = await (seats[seat] ?? fail("no seat")).POST("/v1/games/{id}/actions", {
      params: { path },
      body: { action, expected_version: mine.version },
    });
    const answer = posted.data ?? fail(`${game.type} ${JSON.stringify(action)}: ${JSON.stringify(posted.error)}`);
    doc = game.narrow(answer.game) ?? fail("the answer is another game's");
    moves += 1;
  }
  const result: Played = {
    type: game.type,
    version: doc.version,
    moves,
    offTurn,
    winners: doc.outcome?.winners ?? fail("a finished game has an outcome"),
  };
  return stream === undefined ? result : { ...result, streamed: await stream };
}

// ---- A refused action, read as a typed problem. ----

async function refusal(): Promise<string> {
  const created = await anonymous.POST("/v1/games", {
    body: { type: "tycoon", seats: [{ name: "Ann" }, { name: "Bob" }] },
  });
  const table = created.data ?? fail("create");
  const first = table.seats[0] ?? fail("no seat");
  if (!("token" in first)) fail("seat 0 is not a person's");
  const ann = createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${first.token}` } });
  const read = await ann.GET("/v1/games/{id}", { params: { path: { id: table.game_id } } });
  const doc = read.data ?? fail("read");
  if (doc.type !== "tycoon") fail("not tycoon");
  const action = doc.legal_actions[0] ?? fail("no legal action");
  const refused = await ann.POST("/v1/games/{id}/actions", {
    params: { path: { id: table.game_id } },
    body: { action, expected_version: doc.version + 7 },
  });
  const problem: S["Problem"] = refused.error ?? fail("a wrong version must be refused");
  return problem.code;
}

const games = [
  await play(tycoon, true),
  await play(acquire, false),
  await play(monopoly, false),
  await play(tyros, false),
];
const refused = await refusal();
console.log(
  JSON.stringify({
    language: "typescript",
    games: games.map(({ streamed: _, ...g }) => g),
    stream: games[0]?.streamed,
    template_kinds: [...kinds].sort(),
    refused,
  }),
);
