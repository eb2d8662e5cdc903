"""The relay's room offers its finished game's review (issue 46): the
`review` op answers `python -m host_tools review`'s lines for the room's
game, refused while the game goes on."""
import pytest

from host_tools import games, records
from host_tools.relay import rules
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


def test_a_room_is_reviewed_once_however_many_ask_at_once(monkeypatch):
    # Every seat's page asks at the game's end, and a page may click again
    # before the answer: the relay works the review out once a room, the
    # other asks awaiting it (its CPU is the relay's, shared by all rooms).
    import asyncio
    import json

    from host_tools.relay import server
    from host_tools.relay.store import SqliteStore

    calls = []
    real = server._review_lines

    def counted(g):
        calls.append(len(g.moves))
        return real(g)

    monkeypatch.setattr(server, "_review_lines", counted)

    async def go():
        relay = server.Relay(SqliteStore(":memory:"))
        made, seats = await _a_finished_room(relay)
        askers = [seats["w"], seats["b"]] + [server.Conn(None) for _ in range(4)]
        for c in askers[2:]:
            await relay.on_message(c, json.dumps({"op": "watch", "room": made["room"]}))
        for c in askers:
            while not c.out.empty():
                c.out.get_nowait()
        await asyncio.gather(*(relay.on_message(c, json.dumps({"op": "review"})) for c in askers))
        got = [json.loads(c.out.get_nowait()) for c in askers]
        await relay.store.close()
        return got

    got = asyncio.run(go())
    assert calls == [2]  # one analysis for six asks
    for msg in got:
        assert msg["op"] == "review" and msg["room"]
        assert msg["lines"][0].startswith("mark 1 c3b3xb2 better b2b5: allows win, ")
        assert msg["lines"][-1] == "review: 1 marks"


def test_reviews_take_turns_and_a_long_queue_is_refused(monkeypatch):
    # A stranger who finishes many rooms and asks each for its review gets
    # one analysis at a time on the relay (never several threads fighting
    # the players for its CPU) and, past MAX_REVIEWS_QUEUED waiting, a
    # clear refusal; the queue's reviews all come back once worked out.
    import asyncio
    import json
    import threading

    from host_tools.relay import server
    from host_tools.relay.store import SqliteStore

    running, most, release = [0], [0], threading.Event()
    lock = threading.Lock()

    def slow(g):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        release.wait(10)
        with lock:
            running[0] -= 1
        return ["review: 0 marks"]

    monkeypatch.setattr(server, "_review_lines", slow)
    n = server.MAX_REVIEWS_QUEUED + 2

    async def go():
        relay = server.Relay(SqliteStore(":memory:"))
        askers = []
        for _ in range(n):
            _, seats = await _a_finished_room(relay)
            while not seats["b"].out.empty():
                seats["b"].out.get_nowait()
            askers.append(seats["b"])
        tasks = [asyncio.ensure_future(relay.on_message(c, json.dumps({"op": "review"}))) for c in askers]
        await asyncio.sleep(0.3)
        early = [t.exception() if t.done() else None for t in tasks[server.MAX_REVIEWS_QUEUED:]]
        release.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        late = [json.loads(c.out.get_nowait()) for c in askers[:server.MAX_REVIEWS_QUEUED]]
        metrics = relay.metrics_text()
        await relay.store.close()
        return early, late, metrics

    early, late, metrics = asyncio.run(go())
    assert most[0] == 1  # one analysis at a time
    for e in early:  # (the connection's loop says a Refused as {"op":"error","reason":...})
        assert isinstance(e, rules.Refused) and "busy looking back" in str(e), e
    for msg in late:
        assert msg == {"op": "review", "room": msg["room"], "lines": ["review: 0 marks"]}
    assert 'triad_relay_refusals_total{reason="reviews_queued"} 2' in metrics


async def _a_finished_room(relay):
    """A room of an in-process relay (server.Relay) whose game is over:
    White's c3b3xb2 lets Black's a3b2xb1 make the third Triad. Returns the
    `created` reply and the seats' connections."""
    import json

    from host_tools.relay import server

    maker = server.Conn(None)
    await relay.on_message(maker, json.dumps({"op": "create", "game": "nehren", "position": START}))
    made = json.loads(maker.out.get_nowait())
    seats = {}
    for side in ("w", "b"):
        seats[side] = server.Conn(None)
        await relay.on_message(seats[side], json.dumps({"op": "join", "room": made["room"],
                                                        "token": made["seats"][side]}))
    await relay.on_message(seats["w"], json.dumps({"op": "move", "move": "c3b3xb2"}))
    await relay.on_message(seats["b"], json.dumps({"op": "move", "move": "a3b2xb1"}))
    return made, seats
