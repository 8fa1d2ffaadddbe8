"""A Python client built only on the package openapi-python-client generates from
openapi/openapi.json (imported as `bgs_client`). The client-contract test
(tests/tests/api/clients.rs) runs it against a server: create a Tycoon game, read the
document, narrow it by the game type, post a legal action."""

import json
import sys

from bgs_client import AuthenticatedClient, Client
from bgs_client.api.games import create_game
from bgs_client.api.play import get_game, post_action
from bgs_client.models import (
    ActionRequest,
    Problem,
    SeatRequest,
    TakenSeat,
    TycoonActionResponse,
    TycoonCreateGameRequest,
    TycoonGameDocument,
    TycoonView,
)


def main(base: str) -> None:
    anonymous = Client(base_url=base, raise_on_unexpected_status=True)
    created = create_game.sync(
        client=anonymous,
        body=TycoonCreateGameRequest(
            type_="tycoon", seats=[SeatRequest(name="Ann"), SeatRequest(name="Bob")]
        ),
    )
    assert not isinstance(created, Problem) and created is not None, created
    seat = created.seats[0]
    assert isinstance(seat, TakenSeat), seat
    ann = AuthenticatedClient(base_url=base, token=seat.token, raise_on_unexpected_status=True)

    doc = get_game.sync(id=created.game_id, client=ann)
    # The document is one class per game: narrowing by class gives Tycoon's view and actions.
    assert isinstance(doc, TycoonGameDocument), type(doc)
    assert isinstance(doc.view, TycoonView), type(doc.view)
    cash = doc.view.players[0].cash
    action = doc.legal_actions[0]

    answer = post_action.sync(
        id=created.game_id,
        client=ann,
        body=ActionRequest(action=action, expected_version=doc.version),
    )
    assert isinstance(answer, TycoonActionResponse), answer
    refused = post_action.sync(
        id=created.game_id, client=ann, body=ActionRequest(action=action, expected_version=0)
    )
    assert isinstance(refused, Problem), refused
    print(
        json.dumps(
            {
                "language": "python",
                "cash": cash,
                "action": action.type_,
                "version": answer.game.version,
                "events": [e.event.type_ for e in answer.events],
                "refused": refused.code,
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1])
