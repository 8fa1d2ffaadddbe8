// A strict-mode TypeScript client built only on the types openapi-typescript generates from
// openapi/openapi.json (into generated/api.d.ts) and on openapi-fetch. The client-contract
// test (tests/tests/api/clients.rs) type-checks it with tsc and runs it against a server:
// create a Tycoon game, read the document, narrow it by the game type, post a legal action.
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/api.js";

type Schemas = components["schemas"];

function fail(message: string): never {
  throw new Error(message);
}

const base = process.argv[2] ?? fail("usage: node out/client.js BASE_URL");
const client = createClient<paths>({ baseUrl: base });

const created = await client.POST("/v1/games", {
  body: { type: "tycoon", seats: [{ name: "Ann" }, { name: "Bob" }] },
});
const game = created.data ?? fail(`create: ${JSON.stringify(created.error)}`);
const first = game.seats[0] ?? fail("no seats");
// A created seat is taken by a person (with its token), played by a bot, or open: the
// `token` property narrows it to a person's seat.
if (!("token" in first)) fail("seat 0 is not a person's");
const token: string = first.token;
// Ann's client sends her seat token with every request.
const ann = createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${token}` } });
const path = { id: game.game_id };

const read = await ann.GET("/v1/games/{id}", { params: { path } });
const doc = read.data ?? fail(`read: ${JSON.stringify(read.error)}`);
// The document is one shape per game: narrowing by `type` gives Tycoon's view and actions.
if (doc.type !== "tycoon") fail(`expected a tycoon document, got ${doc.type}`);
const view: Schemas["TycoonView"] = doc.view ?? fail("a started game has a view");
const cash: number = view.players[0]?.cash ?? fail("no player");
const action: Schemas["TycoonAction"] = doc.legal_actions[0] ?? fail("no legal action");
if (action.type === "buy_ticket") {
  const ticket: Schemas["TycoonTicket"] = action.ticket;
  void ticket;
}

const posted = await ann.POST("/v1/games/{id}/actions", {
  params: { path },
  body: { action, expected_version: doc.version },
});
const answer = posted.data ?? fail(`act: ${JSON.stringify(posted.error)}`);
if (answer.type !== "tycoon") fail("expected a tycoon answer");
// The log holds the game's events and lifecycle events (a clock ran out, a seat resigned).
const events: (Schemas["TycoonEvent"] | Schemas["LifecycleEvent"])[] = answer.events.map(
  (e) => e.event,
);

// A Problem is typed too.
const refused = await ann.POST("/v1/games/{id}/actions", {
  params: { path },
  body: { action, expected_version: 0 },
});
const problem: Schemas["Problem"] = refused.error ?? fail("a stale version must be refused");

console.log(
  JSON.stringify({
    language: "typescript",
    cash,
    action: action.type,
    version: answer.game.version,
    events: events.map((e) => e.type),
    refused: problem.code,
  }),
);
