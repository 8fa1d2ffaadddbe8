#!/usr/bin/env python3
"""Recomputes the chance of a game record from docs/fairness.md alone (standard library only).

    python3 tests/fairness/verify_chance.py record.json [record.json ...]

For each record of a finished version 2 game: checks the revealed seed against the commitment,
derives the chance key, and recomputes from the ChaCha20 keystream every chance outcome of the setup (every
shuffle, Monopoly's starting rolls, Tyros' start player), every later Tycoon reshuffle of a
deck's discards, and every pair of dice a Monopoly move rolls (its move, a utility's rent),
comparing each with the record. Tyros's later draws (rebuilt piles, tile swaps, pirates) depend
on hands and piles this script does not follow; the engine's verifier checks them. Prints one
line per record and exits 1 on the first mismatch. Written from the page, not from the
server's code: it is the page's test.
"""

import hashlib
import json
import struct
import sys

MASK = 0xFFFFFFFF


def rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & MASK


def quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & MASK; s[d] = rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & MASK; s[b] = rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & MASK; s[d] = rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & MASK; s[b] = rotl(s[b] ^ s[c], 7)


class Stream:
    """The words of the ChaCha20 keystream of `key` with 64-bit nonce `version` (fairness.md §2)."""

    def __init__(self, key, version):
        self.key = list(struct.unpack("<8I", key))
        self.nonce = version
        self.counter = 0
        self.buffer = []

    def block(self):
        init = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574] + self.key + [
            self.counter & MASK, self.counter >> 32, self.nonce & MASK, self.nonce >> 32]
        s = init[:]
        for _ in range(10):
            quarter(s, 0, 4, 8, 12); quarter(s, 1, 5, 9, 13)
            quarter(s, 2, 6, 10, 14); quarter(s, 3, 7, 11, 15)
            quarter(s, 0, 5, 10, 15); quarter(s, 1, 6, 11, 12)
            quarter(s, 2, 7, 8, 13); quarter(s, 3, 4, 9, 14)
        self.counter += 1
        return [(s[i] + init[i]) & MASK for i in range(16)]

    def word(self):
        if not self.buffer:
            self.buffer = self.block()
        return self.buffer.pop(0)

    def below(self, n):
        """A uniform integer in [0, n) (fairness.md §3)."""
        limit = MASK - MASK % n
        while True:
            w = self.word()
            if w < limit:
                return w % n

    def permutation(self, n):
        """Fisher–Yates from the end over positions (fairness.md §4): position i of the shuffled
        pile holds the item that was at index[i]."""
        index = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            index[i], index[j] = index[j], index[i]
        return index

    def die(self):
        return self.below(6) + 1


def fail(message):
    raise AssertionError(message)


def chance_key(record):
    """fairness.md §1: the commitment, then the key."""
    chance = record["chance"]
    if chance["version"] != 2 or not chance.get("reveal"):
        fail("not a revealed version 2 record")
    reveal = chance["reveal"]
    seed = bytes.fromhex(reveal["server_seed"])
    if hashlib.sha256(seed).hexdigest() != chance["commitment"]:
        fail("the server seed does not match the commitment")
    h = hashlib.sha256(b"chance-v2" + seed)
    if chance["seeded"]:
        h.update(bytes(16))
        entropies = [None] * record["seat_count"]
    else:
        h.update(bytes.fromhex(record["game_id"].replace("-", "")))
        entropies = reveal["entropies"]
    for entropy in entropies:
        data = (entropy or "").encode("utf-8")
        h.update(struct.pack(">I", len(data)) + data)
    key = h.digest()
    if key.hex() != reveal["key"]:
        fail("the revealed key is not the derived one")
    return key


def shuffled(stream, order, initial=None):
    """Checks that `order` is a shuffle by the stream of `initial` (when known); returns the
    initial order the record implies."""
    index = stream.permutation(len(order))
    implied = [None] * len(order)
    for i, source in enumerate(index):
        implied[source] = order[i]
    if initial is not None and implied != initial:
        fail(f"shuffle mismatch: {order[:5]}... is not the stream's shuffle of {initial[:5]}...")
    return implied


def by_number(ids):
    return sorted(ids, key=lambda c: int(c[1:]))


def events_of(events, kind):
    return [e for e in events if e["type"] == kind]


def moves_at_versions(record):
    """Each move with the version its action was applied at (its stream's nonce, §2): the
    setup's events, then every earlier move's events and lifecycle events, count."""
    version = len(record["setup"])
    for index, move in enumerate(record["moves"]):
        yield index, move, version
        version += len(move["events"]) + len(move["lifecycle"])


def tycoon(record, key):
    stream = Stream(key, 0)
    for event in events_of(record["setup"], "deck_shuffled"):
        shuffled(stream, event["order"], by_number(event["order"]))
    # A deck's discards, in the order flown, are its next shuffle's pile (§5).
    deck_of = {"S": "scheduled", "C": "charter"}
    discards = {"scheduled": [], "charter": []}
    for index, move, version in moves_at_versions(record):
        stream = Stream(key, version)
        for event in move["events"]:
            if event["type"] == "flew":
                discards[deck_of[event["ticket"][0]]].append(event["ticket"])
            elif event["type"] == "deck_shuffled":
                pile = discards[event["deck"]]
                try:
                    shuffled(stream, event["order"], pile)
                except AssertionError as e:
                    fail(f"move {index}: {e}")
                discards[event["deck"]] = []


def acquire(record, key):
    stream = Stream(key, 0)
    tiles = events_of(record["setup"], "tiles_shuffled")[0]["order"]
    shuffled(stream, tiles, sorted(tiles, key=lambda t: (int(t[:-1]), t[-1])))


def monopoly(record, key):
    stream = Stream(key, 0)
    for event in events_of(record["setup"], "deck_shuffled"):
        shuffled(stream, event["order"], by_number(event["order"]))
    for event in events_of(record["setup"], "starting_rolled"):
        for roll in event["rolls"]:
            dice = [stream.die(), stream.die()]
            if dice != roll["dice"]:
                fail(f"starting roll of seat {roll['seat']}: {roll['dice']}, stream {dice}")
    # A move's dice come from its own stream in the order its events show (§5): each roll,
    # and a utility's rent rolled afresh (always under `utility_rent_dice: roll`; under `move`
    # only when the token arrived by a card rather than by the dice).
    fresh_rent = record["config"].get("utility_rent_dice", "roll") == "roll"
    for index, move, version in moves_at_versions(record):
        stream = Stream(key, version)
        by_card = False
        for event in move["events"]:
            if event["type"] == "dice_rolled":
                rolled, by_card = event["dice"], False
            elif event["type"] == "card_drawn":
                by_card = True
                continue
            elif event["type"] == "rent_owed" and event.get("dice") and (fresh_rent or by_card):
                rolled = event["dice"]
            else:
                continue
            dice = [stream.die(), stream.die()]
            if dice != rolled:
                fail(f"move {index}: rolled {rolled}, stream {dice}")


def tyros(record, key):
    stream = Stream(key, 0)
    setup = record["setup"]
    piles = events_of(setup, "tile_pile_shuffled")
    first = piles[0]["order"]
    shuffled(stream, first, sorted(first))
    # The empires are founded (no chance): each founding tile leaves the pile, and the tiles
    # set aside go to its bottom (the front of the list). That pile is shuffled again.
    pile = list(first)
    for founded in events_of(setup, "empire_founded"):
        aside = founded["set_aside"]
        tile = int(founded["field"])  # the field's id, "1" to "32": its tile's number
        pile = aside + [t for t in pile if t != tile and t not in aside]
    shuffled(stream, piles[1]["order"], pile)
    shuffled(stream, events_of(setup, "draw_pile_shuffled")[0]["order"])
    start = events_of(setup, "start_player_chosen")[0]["seat"]
    if stream.below(record["seat_count"]) != start:
        fail("start player mismatch")


GAMES = {"tycoon": tycoon, "acquire": acquire, "monopoly": monopoly, "tyros": tyros}


def verify(record):
    GAMES[record["type"]](record, chance_key(record))


def main(paths):
    status = 0
    for path in paths:
        with open(path) as f:
            record = json.load(f)
        try:
            verify(record)
            print(f"{path}: {record['type']} chance verified")
        except AssertionError as e:
            print(f"{path}: {record['type']} chance NOT verified: {e}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
