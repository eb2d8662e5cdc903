"""The relay's room offers its finished game's review (issue 46): the
`review` op answers `python -m host_tools review`'s lines for the room's
game, refused while the game goes on."""
import pytest

from host_tools import games, records
from host_tools.relay.client import Client, RelayError
from host_tools.review import lines as review_lines
from triad.board.review_mode import BOARD_NODES
from relay_kit import Relay

# White's c3b3xb2 lets Black's a3b2xb1 make the third Triad; b2b5 does not.
START = "w3..w2../....../.....b3/b2.w3.../.w1..w2b1/.b1.... w 2 1"


@pytest.fixture
def relay(tmp_path):
    r = Relay(store=str(tmp_path / "relay.sqlite"))
    yield r
    r.stop()


def test_a_finished_room_is_reviewed(relay):
    with Client(relay.url) as maker:
        made = maker.create("nehren", position=START)
    with Client(relay.url) as w, Client(relay.url) as b:
        w.join(made["room"], made["seats"]["w"])
        b.join(made["room"], made["seats"]["b"])
        w.move("c3b3xb2")
        with pytest.raises(RelayError) as e:
            b.request({"op": "review"})
        assert "once it is over" in str(e.value)
        b.move("a3b2xb1")
        got = b.request({"op": "review"}, ("review",))
    rec = records.Record(start=START, moves=["c3b3xb2", "a3b2xb1"], game=games.load("nehren"))
    assert got["lines"] == review_lines(rec, BOARD_NODES)
    assert got["lines"][0].startswith("mark 1 c3b3xb2 better b2b5: allows win, ")
    assert got["lines"][-1] == "review: 1 marks"
