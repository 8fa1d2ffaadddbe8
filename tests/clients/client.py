"""A Python client built only on the package openapi-python-client generates from
openapi/openapi.json (imported as `bgs_client`) and checked with `mypy --strict`, with no
cast, no type-ignore comment and no raw dictionaries. The client-contract test
(tests/tests/api/clients.rs) runs it against a server: it plays a complete game of every
hosted type with several seats, acts off turn where a game allows it, fills every kind of
template domain into the game's typed action, reads a refused action as a typed problem,
and follows one game through the event stream with a reconnect while it is played. It
prints one JSON report line."""

from __future__ import annotations

import json
import random
import sys
import threading
from dataclasses import dataclass, field
from typing import Callable, Generic, TypeVar

from bgs_client import AuthenticatedClient, Client
from bgs_client.api.games import create_game
from bgs_client.api.play import get_game, post_action
from bgs_client.models import (
    AcquireCreateGameRequest,
    AcquireGameDocument,
    ActionRequest,
    CreatedGame,
    MonopolyActionAcceptTrade,
    MonopolyActionBid,
    MonopolyActionOfferTrade,
    MonopolyActionSettleInheritance,
    MonopolyCard,
    MonopolyCardSubset,
    MonopolyConfig,
    MonopolyCreateGameRequest,
    MonopolyGameDocument,
    MonopolyTemplateAcceptTrade,
    MonopolyTemplateBid,
    MonopolyTemplateOfferTrade,
    MonopolyTemplateSettleInheritance,
    Problem,
    SeatRequest,
    TakenSeat,
    TemplateDomainInteger,
    TemplateDomainIntegerSubset,
    TemplateDomainSeatOneOf,
    TycoonCreateGameRequest,
    TycoonGameDocument,
    TyrosActionBankPick,
    TyrosActionBankSwap,
    TyrosActionKeep,
    TyrosActionLayFightCards,
    TyrosActionOfferTrade,
    TyrosActionPay,
    TyrosCardCounts,
    TyrosCards,
    TyrosCreateGameRequest,
    TyrosGameDocument,
    TyrosTemplateBankPick,
    TyrosTemplateBankSwap,
    TyrosTemplateKeep,
    TyrosTemplateLayFightCards,
    TyrosTemplateOfferTrade,
    TyrosTemplatePay,
)
from bgs_client.types import UNSET, Unset

from sse import Followed, follow_stream

rng = random.Random(23)
kinds: set[str] = set()

# ---- Template domains, filled typed. ----

V = TypeVar("V")


def fill_integer(d: TemplateDomainInteger) -> int:
    kinds.add(d.kind)
    return rng.randint(d.min_, d.max_)


def fill_one_of(kind: str, values: list[V]) -> V:
    kinds.add(kind)
    return rng.choice(values)


def fill_subset(kind: str, values: list[V], min_items: int, max_items: int) -> list[V]:
    kinds.add(kind)
    n = rng.randint(min_items, min(max_items, len(values)))
    chosen = sorted(rng.sample(range(len(values)), n))
    return [values[i] for i in chosen]


def squares(d: TemplateDomainIntegerSubset) -> list[int]:
    return fill_subset(d.kind, d.values, d.min_items, d.max_items)


def seat_of(d: TemplateDomainSeatOneOf) -> int:
    return fill_one_of(d.kind, d.values)


def limit(cards: TyrosCards, colour: str) -> int:
    counts = {
        "orange": cards.orange,
        "yellow": cards.yellow,
        "green": cards.green,
        "violet": cards.violet,
        "joker": cards.joker,
    }
    n = counts[colour]
    return 0 if isinstance(n, Unset) else n


COLOURS = ["orange", "yellow", "green", "violet", "joker"]


def fill_counts(d: TyrosCardCounts) -> TyrosCards:
    kinds.add(d.kind)
    room = sum(limit(d.limits, c) for c in COLOURS)
    left = rng.randint(d.min_total, min(d.max_total, room))
    chosen = {c: 0 for c in COLOURS}
    while left > 0:
        c = rng.choice([c for c in COLOURS if chosen[c] < limit(d.limits, c)])
        chosen[c] += 1
        left -= 1

    def count(c: str) -> int | Unset:
        return chosen[c] if chosen[c] > 0 else UNSET

    return TyrosCards(
        orange=count("orange"),
        yellow=count("yellow"),
        green=count("green"),
        violet=count("violet"),
        joker=count("joker"),
    )


MonopolyTemplate = (
    MonopolyTemplateBid
    | MonopolyTemplateAcceptTrade
    | MonopolyTemplateOfferTrade
    | MonopolyTemplateSettleInheritance
)
MonopolyFilled = (
    MonopolyActionBid
    | MonopolyActionAcceptTrade
    | MonopolyActionOfferTrade
    | MonopolyActionSettleInheritance
)


def cards(d: MonopolyCardSubset) -> list[MonopolyCard]:
    return fill_subset(d.kind, d.values, d.min_items, d.max_items)


def monopoly_action(t: MonopolyTemplate) -> MonopolyFilled:
    if isinstance(t, MonopolyTemplateBid):
        return MonopolyActionBid(type_="bid", amount=fill_integer(t.params.amount))
    if isinstance(t, MonopolyTemplateAcceptTrade):
        return MonopolyActionAcceptTrade(
            type_="accept_trade", offer=t.fixed.offer, lift=squares(t.params.lift)
        )
    if isinstance(t, MonopolyTemplateSettleInheritance):
        return MonopolyActionSettleInheritance(
            type_="settle_inheritance", lift=squares(t.params.lift)
        )
    p = t.params
    offer = MonopolyActionOfferTrade(type_="offer_trade", to=t.fixed.to)
    if not isinstance(p.give_cash, Unset):
        offer.give_cash = fill_integer(p.give_cash)
    if not isinstance(p.get_cash, Unset):
        offer.get_cash = fill_integer(p.get_cash)
    if not isinstance(p.give_properties, Unset):
        offer.give_properties = squares(p.give_properties)
    if not isinstance(p.get_properties, Unset):
        offer.get_properties = squares(p.get_properties)
    if not isinstance(p.give_cards, Unset):
        offer.give_cards = cards(p.give_cards)
    if not isinstance(p.get_cards, Unset):
        offer.get_cards = cards(p.get_cards)
    return offer


TyrosTemplate = (
    TyrosTemplatePay
    | TyrosTemplateLayFightCards
    | TyrosTemplateKeep
    | TyrosTemplateBankSwap
    | TyrosTemplateBankPick
    | TyrosTemplateOfferTrade
)
TyrosFilled = (
    TyrosActionPay
    | TyrosActionLayFightCards
    | TyrosActionKeep
    | TyrosActionBankSwap
    | TyrosActionBankPick
    | TyrosActionOfferTrade
)


def tyros_action(t: TyrosTemplate) -> TyrosFilled:
    if isinstance(t, TyrosTemplatePay):
        return TyrosActionPay(type_="pay", cards=fill_counts(t.params.cards))
    if isinstance(t, TyrosTemplateLayFightCards):
        return TyrosActionLayFightCards(type_="lay_fight_cards", cards=fill_counts(t.params.cards))
    if isinstance(t, TyrosTemplateKeep):
        return TyrosActionKeep(type_="keep", cards=fill_counts(t.params.cards))
    if isinstance(t, TyrosTemplateBankSwap):
        return TyrosActionBankSwap(type_="bank_swap", cards=fill_counts(t.params.cards))
    if isinstance(t, TyrosTemplateBankPick):
        colour = fill_one_of(t.params.colour.kind, t.params.colour.values)
        return TyrosActionBankPick(
            type_="bank_pick", colour=colour, cards=fill_counts(t.params.cards)
        )
    if not isinstance(t.params.give, Unset):
        give = fill_counts(t.params.give)
    elif not isinstance(t.fixed, Unset):
        give = t.fixed.give
    else:
        give = TyrosCards()
    return TyrosActionOfferTrade(
        type_="offer_trade", to=seat_of(t.params.to), give=give, get=fill_counts(t.params.get)
    )


# ---- The games: how to create one that ends soon, and how a seat chooses. ----

Doc = TypeVar("Doc", TycoonGameDocument, AcquireGameDocument, MonopolyGameDocument, TyrosGameDocument)
Action = TypeVar("Action")
Request = (
    TycoonCreateGameRequest
    | AcquireCreateGameRequest
    | MonopolyCreateGameRequest
    | TyrosCreateGameRequest
)


# What a seat may do: each action as a request, its `type`, and whether a template made it.
Options = list[tuple[ActionRequest, str, bool]]


@dataclass
class GameSpec(Generic[Doc]):
    name: str
    seats: int
    create: Request
    doc_type: type[Doc]
    options: Callable[[Doc], Options]
    weight: dict[str, int]
    template_weight: int
    peek: float


def people(n: int) -> list[SeatRequest]:
    return [SeatRequest(name=f"P{i}") for i in range(n)]


def tycoon_options(doc: TycoonGameDocument) -> Options:
    listed: Options = [(ActionRequest(action=a), a.type_, False) for a in doc.legal_actions]
    return listed


def acquire_options(doc: AcquireGameDocument) -> Options:
    listed: Options = [(ActionRequest(action=a), a.type_, False) for a in doc.legal_actions]
    return listed


def monopoly_options(doc: MonopolyGameDocument) -> Options:
    listed: Options = [(ActionRequest(action=a), a.type_, False) for a in doc.legal_actions]
    filled = [monopoly_action(t) for t in doc.action_templates]
    made: Options = [(ActionRequest(action=a), a.type_, True) for a in filled]
    return listed + made


def tyros_options(doc: TyrosGameDocument) -> Options:
    listed: Options = [(ActionRequest(action=a), a.type_, False) for a in doc.legal_actions]
    filled = [tyros_action(t) for t in doc.action_templates]
    made: Options = [(ActionRequest(action=a), a.type_, True) for a in filled]
    return listed + made


TYCOON = GameSpec(
    "tycoon",
    3,
    TycoonCreateGameRequest(type_="tycoon", seats=people(3), seed=23),
    TycoonGameDocument,
    tycoon_options,
    {"build_hotel": 60, "renovate_hotel": 60, "build_factory": 15, "fly": 8, "buy_ticket": 2},
    0,
    0.0,
)
ACQUIRE = GameSpec(
    "acquire",
    3,
    AcquireCreateGameRequest(type_="acquire", seats=people(3), seed=23),
    AcquireGameDocument,
    acquire_options,
    {"place_tile": 6, "announce_end": 50},
    0,
    0.0,
)
MONOPOLY = GameSpec(
    "monopoly",
    3,
    MonopolyCreateGameRequest(
        type_="monopoly", seats=people(3), seed=23, config=MonopolyConfig(round_limit=6)
    ),
    MonopolyGameDocument,
    monopoly_options,
    {
        "roll": 40,
        "end_turn": 40,
        "buy_property": 20,
        "decline_property": 20,
        "pay_debt": 40,
        "pass_auction": 10,
        "claim_rent": 200,
        "reject_trade": 10,
        "pay_jail_fine": 10,
        "declare_bankruptcy": 40,
    },
    4,
    0.5,
)
TYROS = GameSpec(
    "tyros",
    3,
    TyrosCreateGameRequest(type_="tyros", seats=people(3), seed=23),
    TyrosGameDocument,
    tyros_options,
    {"pass": 2, "place_tile": 20, "reject_trade": 5},
    3,
    0.2,
)


def choose(spec: GameSpec[Doc], options: Options) -> ActionRequest | None:
    weighted = [
        (request, spec.template_weight if filled else spec.weight.get(kind, 1))
        for request, kind, filled in options
    ]
    weighted = [(r, w) for r, w in weighted if w > 0]
    if not weighted:
        return None
    return rng.choices([r for r, _ in weighted], weights=[w for _, w in weighted])[0]


@dataclass
class Played:
    type: str
    version: int
    moves: int
    off_turn: int
    winners: list[int]
    stream: Followed | None = field(default=None)


def play(base: str, anonymous: Client, spec: GameSpec[Doc], watch: bool) -> Played:
    created = create_game.sync(client=anonymous, body=spec.create)
    assert isinstance(created, CreatedGame), created
    seats: list[AuthenticatedClient] = []
    for created_seat in created.seats:
        # A created seat is a person's (with its token), a bot's or open.
        assert isinstance(created_seat, TakenSeat), created_seat
        seats.append(AuthenticatedClient(base_url=base, token=created_seat.token))
    game_id = created.game_id
    followed: list[Followed] = []
    follower = threading.Thread(
        target=lambda: followed.append(follow_stream(base, str(game_id)))
    )
    if watch:
        follower.start()

    def read(seat: int) -> Doc:
        doc = get_game.sync(id=game_id, client=seats[seat])
        assert isinstance(doc, spec.doc_type), doc
        return doc

    doc = read(0)
    moves = off_turn = 0
    while doc.status == "active":
        assert moves < 5000, f"{spec.name} did not end"
        waiting = doc.active_seats[0]
        seat = waiting
        if rng.random() < spec.peek:
            seat = rng.randrange(spec.seats)
        mine = doc if doc.seat == seat else read(seat)
        request = choose(spec, spec.options(mine))
        if request is None:
            doc = mine if mine.seat == waiting else read(waiting)
            continue
        if seat not in mine.active_seats:
            off_turn += 1
        request.expected_version = mine.version
        answer = post_action.sync(id=game_id, client=seats[seat], body=request)
        assert answer is not None and not isinstance(answer, Problem), (request, answer)
        game = answer.game
        assert isinstance(game, spec.doc_type), game
        doc = game
        moves += 1
    assert doc.outcome is not None
    if watch:
        follower.join()
    return Played(
        spec.name,
        doc.version,
        moves,
        off_turn,
        doc.outcome.winners,
        followed[0] if followed else None,
    )


def refusal(base: str, anonymous: Client) -> str:
    created = create_game.sync(
        client=anonymous,
        body=TycoonCreateGameRequest(
            type_="tycoon", seats=[SeatRequest(name="Ann"), SeatRequest(name="Bob")]
        ),
    )
    assert isinstance(created, CreatedGame), created
    seat = created.seats[0]
    assert isinstance(seat, TakenSeat), seat
    ann = AuthenticatedClient(base_url=base, token=seat.token)
    doc = get_game.sync(id=created.game_id, client=ann)
    assert isinstance(doc, TycoonGameDocument), doc
    request = ActionRequest(action=doc.legal_actions[0], expected_version=doc.version + 7)
    refused = post_action.sync(id=created.game_id, client=ann, body=request)
    assert isinstance(refused, Problem), refused
    return refused.code


def main(base: str) -> None:
    anonymous = Client(base_url=base, raise_on_unexpected_status=True)
    games = [
        play(base, anonymous, TYCOON, True),
        play(base, anonymous, ACQUIRE, False),
        play(base, anonymous, MONOPOLY, False),
        play(base, anonymous, TYROS, False),
    ]
    stream = games[0].stream
    assert stream is not None
    print(
        json.dumps(
            {
                "language": "python",
                "games": [
                    {
                        "type": g.type,
                        "version": g.version,
                        "moves": g.moves,
                        "offTurn": g.off_turn,
                        "winners": g.winners,
                    }
                    for g in games
                ],
                "stream": {
                    "seqs": stream.seqs,
                    "last_version": stream.last_version,
                    "last_status": stream.last_status,
                    "game_type": stream.game_type,
                    "reconnects": stream.reconnects,
                },
                "template_kinds": sorted(kinds),
                "refused": refusal(base, anonymous),
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1])
