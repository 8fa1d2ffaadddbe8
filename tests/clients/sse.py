"""A small typed reader of the server's event stream (`GET /v1/games/{id}/stream`), as a
Python client would write one next to the generated package: the generated operation cannot
stream, and no SSE library is needed. The body is read line by line with httpx (the
generated client's own HTTP library); each block of `event:`, `id:` and `data:` lines is one
message, read into the document's `GameEventMessage` or `VersionMessage` by their generated
`from_dict`; their `data` is JSON text (the document's `contentSchema` names its type), read
into the generated `StreamVersion` or the game's `…LoggedEvent` (the one its `type` names).
`Last-Event-ID` resumes after a reconnect."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field

import httpx

from bgs_client.models import (
    AcquireLoggedEvent,
    GameEventMessage,
    MonopolyLoggedEvent,
    StreamVersion,
    TycoonLoggedEvent,
    TyrosLoggedEvent,
    VersionMessage,
)

LoggedEvent = AcquireLoggedEvent | MonopolyLoggedEvent | TycoonLoggedEvent | TyrosLoggedEvent


def logged_event(text: str) -> LoggedEvent:
    """A `game_event` message's `data`: the game's `…LoggedEvent`, the one its `type` names
    (the document's `LoggedEvent` union, told apart by that discriminator)."""
    wire = json.loads(text)
    kind = wire["type"]
    if kind == "acquire":
        return AcquireLoggedEvent.from_dict(wire)
    if kind == "monopoly":
        return MonopolyLoggedEvent.from_dict(wire)
    if kind == "tycoon":
        return TycoonLoggedEvent.from_dict(wire)
    if kind == "tyros":
        return TyrosLoggedEvent.from_dict(wire)
    raise ValueError(f"not a game type of the document: {kind}")


@dataclass
class EventMessage:
    """A `game_event` message with its `data` read."""

    message: GameEventMessage
    data: LoggedEvent

    @property
    def id(self) -> str:
        return self.message.id


@dataclass
class Version:
    """A `version` message with its `data` read."""

    message: VersionMessage
    data: StreamVersion

    @property
    def id(self) -> str:
        return self.message.id


Message = EventMessage | Version


def messages(lines: Iterator[str]) -> Iterator[Message]:
    """The messages of a stream's lines (comments, such as heartbeats, skipped)."""
    fields: dict[str, str] = {}
    for line in lines:
        if line == "":
            if {"event", "id", "data"} <= fields.keys():
                wire = {"event": fields["event"], "id": fields["id"], "data": fields["data"]}
                if fields["event"] == "game_event":
                    yield EventMessage(GameEventMessage.from_dict(wire), logged_event(fields["data"]))
                elif fields["event"] == "version":
                    version = StreamVersion.from_dict(json.loads(fields["data"]))
                    yield Version(VersionMessage.from_dict(wire), version)
                else:
                    raise ValueError(f"not a message of the document: {fields}")
            fields = {}
        elif not line.startswith(":") and ":" in line:
            name, _, value = line.partition(":")
            fields[name] = value.lstrip()


@dataclass
class Followed:
    """What following a game told: the seqs of its events in order, the last version and
    status seen, and how many times the reader reconnected."""

    seqs: list[int] = field(default_factory=list)
    last_version: int = 0
    last_status: str = ""
    game_type: str = ""
    reconnects: int = 0


def follow_stream(base: str, game_id: str) -> Followed:
    """Follows game `game_id` as a spectator until it is finished, dropping the connection
    after 10 events and resuming with `Last-Event-ID`, as a client does after a network
    failure."""
    seen = Followed()
    last: str | None = None
    with httpx.Client(base_url=base, timeout=httpx.Timeout(60.0)) as http:
        while True:
            headers = {"accept": "text/event-stream"}
            if last is not None:
                headers["last-event-id"] = last
            drop_after = 10 if seen.reconnects == 0 else None
            fresh = 0
            with http.stream("GET", f"/v1/games/{game_id}/stream", headers=headers) as res:
                if res.status_code == 204:
                    return seen
                res.raise_for_status()
                for message in messages(res.iter_lines()):
                    last = message.id
                    if isinstance(message, EventMessage):
                        seen.seqs.append(message.data.seq)
                        seen.game_type = message.data.type_
                        fresh += 1
                    else:
                        seen.last_version = message.data.version
                        seen.last_status = str(message.data.status)
                    if drop_after is not None and fresh >= drop_after:
                        break
                else:
                    return seen
            seen.reconnects += 1
