// A small typed reader of the server's event stream (`GET /v1/games/{id}/stream`), as a
// TypeScript client would write one: openapi-fetch has no Server-Sent Events helper, and
// none is needed. The body is split at blank lines; each block's `event:`, `id:` and `data:`
// lines make one message; `data` is one line of JSON (the document's `contentSchema` of the
// message's `data`), checked against the message kind it claims before it is used as the
// document's `LoggedEvent` or `StreamVersion` (no cast). `Last-Event-ID` resumes after a
// reconnect.
import type { components } from "./generated/api.js";

type S = components["schemas"];
/** A `ServerSentEvent` of the document with its `data` text parsed. */
export type Message =
  | (Omit<S["GameEventMessage"], "data"> & { data: S["LoggedEvent"] })
  | (Omit<S["VersionMessage"], "data"> & { data: S["StreamVersion"] });

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isLoggedEvent(v: unknown): v is S["LoggedEvent"] {
  return (
    isRecord(v) &&
    typeof v.type === "string" &&
    typeof v.seq === "number" &&
    isRecord(v.event) &&
    typeof v.event.type === "string" &&
    typeof v.created_at === "string"
  );
}

function isStreamVersion(v: unknown): v is S["StreamVersion"] {
  return (
    isRecord(v) &&
    typeof v.type === "string" &&
    typeof v.version === "number" &&
    typeof v.status === "string" &&
    Array.isArray(v.active_seats)
  );
}

/** One message from one block of the stream; `undefined` for a comment (heartbeat). */
export function parseBlock(block: string): Message | undefined {
  const fields = new Map<string, string>();
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
  }
  const event = fields.get("event");
  const id = fields.get("id");
  const text = fields.get("data");
  if (event === undefined || id === undefined || text === undefined) return undefined;
  const data: unknown = JSON.parse(text);
  if (event === "game_event" && isLoggedEvent(data)) return { event, id, data };
  if (event === "version" && isStreamVersion(data)) return { event, id, data };
  throw new Error(`not a message of the document: ${block}`);
}

/** Reads `res`'s body message by message until `stop` says so or the stream ends. */
export async function read(
  res: Response,
  onMessage: (m: Message) => boolean,
): Promise<"stopped" | "ended"> {
  const body = res.body;
  if (body === null) return "ended";
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) return "ended";
    buffer += decoder.decode(chunk.value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const message = parseBlock(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (message !== undefined && !onMessage(message)) {
        await reader.cancel();
        return "stopped";
      }
      end = buffer.indexOf("\n\n");
    }
  }
}

/** What following a game told: the seqs of its events in order, the last version and
 * status seen, and how many times the reader reconnected. */
export interface Followed {
  seqs: number[];
  last_version: number;
  last_status: string;
  game_type: string;
  reconnects: number;
}

/** Follows game `id` as a spectator until it is finished, dropping the connection after
 * 10 events and resuming with `Last-Event-ID`, as a client does after a network failure. */
export async function followStream(base: string, id: string): Promise<Followed> {
  const seen: Followed = { seqs: [], last_version: 0, last_status: "", game_type: "", reconnects: 0 };
  let last: string | undefined;
  for (;;) {
    const headers: Record<string, string> = { accept: "text/event-stream" };
    if (last !== undefined) headers["last-event-id"] = last;
    const res = await fetch(`${base}/v1/games/${id}/stream`, { headers });
    if (res.status === 204) return seen;
    if (res.status !== 200) throw new Error(`stream: ${res.status}`);
    const dropAfter = seen.reconnects === 0 ? 10 : Infinity;
    let fresh = 0;
    const how = await read(res, (m) => {
      last = m.id;
      if (m.event === "game_event") {
        seen.seqs.push(m.data.seq);
        seen.game_type = m.data.type;
        fresh += 1;
      } else {
        seen.last_version = m.data.version;
        seen.last_status = m.data.status;
      }
      return fresh < dropAfter;
    });
    if (how === "ended") return seen;
    seen.reconnects += 1;
  }
}
