"""What the relay serves its page besides the WebSocket (issue 43): the
board's one drawing, each game's layout, a room as the page draws it (no
token in it), and the rematch (each person gets their own new seat only)."""
import json
import urllib.error
import urllib.request

import pytest

from host_tools.relay import rules
from host_tools.relay.client import Client, RelayError
from relay_kit import Relay


@pytest.fixture(scope="module")
def relay():
    r = Relay(store=":memory:")
    yield r
    r.stop()


def get(relay, path):
    base = relay.url.replace("ws://", "http://").rsplit("/", 1)[0]
    try:
        with urllib.request.urlopen(base + path, timeout=10) as r:
            return r.status, r.headers.get("Content-Type"), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type"), e.read()


def test_the_drawing_and_the_layouts(relay):
    # The relay serves the simulator's own drawing, not a copy of it.
    import os

    code, ctype, body = get(relay, "/static/board_draw.js")
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(here, "simulator", "static", "board_draw.js"), "rb") as f:
        assert (code, body) == (200, f.read()) and ctype.startswith("text/javascript")
    for name in ("../server.py", "page.html", "nothing.js"):
        assert get(relay, "/static/" + name)[0] == 404
    for game in rules.NAMES:
        code, _, body = get(relay, "/api/layout?game=" + game)
        lay = json.loads(body)
        face = rules.load_game(game)
        assert code == 200 and [s["name"] for s in lay["sites"]] == list(face.SITE_NAMES)
    code, _, body = get(relay, "/api/layout?game=chess")
    assert code == 404 and "unknown game" in json.loads(body)["error"]


def test_a_room_as_the_page_draws_it(relay):
    made = Client(relay.url).create("nehren")
    room, seats = made["room"], made["seats"]
    black = Client(relay.url)
    black.join(room, seats["b"])
    watcher = Client(relay.url)
    watcher.watch(room)
    black.move("a1a3")
    code, _, body = get(relay, "/api/room?room=" + room)
    v = json.loads(body)
    assert code == 200 and v["ply"] == 1 and v["moves"] == ["a1a3"]
    face = rules.load_game("nehren")
    pieces = {face.SITE_NAMES[i]: p for i, p in enumerate(v["pieces"]) if p}
    assert pieces["a3"] == {"colour": "b", "value": 2} and "a1" not in pieces
    assert v["last"]["spots"] == ["a1", "a3"] and v["last"]["words"] == "lift a1, put it on a3 showing 2"
    assert [(s["side"], s["connected"]) for s in v["seats"]] == [("b", True), ("w", False)]
    assert v["watchers"] == 1
    assert all(t not in body.decode() for t in seats.values())  # no token, ever
    assert get(relay, "/api/room?room=nosuchroom")[0] == 404
    assert get(relay, "/api/room?room=")[0] == 400


def test_rematch_rotates_the_sides(relay):
    start = "....../....../..b1.../....../w2b2..../.....w1 b 2 2"
    game = rules.Game("nehren", start)
    win = next(m for m in game.legal() if rules.Game("nehren", start, None, [m]).result() == "b")
    made = Client(relay.url).create("nehren", position=start)
    room, seats = made["room"], made["seats"]
    b, w, watcher = Client(relay.url), Client(relay.url), Client(relay.url)
    b.join(room, seats["b"])
    w.join(room, seats["w"])
    watcher.watch(room)
    with pytest.raises(RelayError, match="a rematch comes after the game"):
        b.request({"op": "rematch"})
    b.move(win)
    with pytest.raises(RelayError, match="watchers cannot"):
        watcher.request({"op": "rematch"})
    got = b.request({"op": "rematch"}, ("rematch",))
    assert got["was"] == "b" and got["seat"] == "w" and set(got["seats"]) == {"b", "w"}
    # White's player gets Black's new seat, and only that token; the watcher none.
    for c in (w, watcher):
        while True:
            ev = c.next(timeout=10)
            if ev["op"] == "rematch":
                break
        if c is w:
            assert (ev["seat"], ev["was"], ev["token"]) == ("b", "w", got["seats"]["b"]) and "seats" not in ev
        else:
            assert ev == {"op": "rematch", "room": got["room"]}
    new = Client(relay.url)
    st = new.join(got["room"], got["token"])
    assert st["seat"] == "w" and st["moves"] == [] and st["position"] == game.start
    # Asked again: the same new room.
    assert w.request({"op": "rematch"}, ("rematch",))["room"] == got["room"]


def test_online_says_a_remote_move_in_words():
    # The bridge of a board (`host_tools online`) says a move from afar in
    # the same words as the pages: step by step, as its lights show it.
    from host_tools.relay.online import Bridge

    b = Bridge("sim", "ws://unused", "R", "T")
    b.game = rules.Game("nehren", None, None, ["a1a3", "a6a4"])
    assert b.words(0) == "lift a1, put it on a3 showing 2"
    assert b.words(1) == "lift a6, put it on a4 showing 2"
    assert b.words(2) == ""  # (no such move)


def test_a_rematch_counts_against_its_askers_rooms_an_hour():
    # A rematch makes a room: were it free, two people could chain won games
    # and rematches past --rooms-per-hour. With 1 room an hour, the room made
    # by `create` uses the hour, and the rematch is refused with the create's
    # reason; the room's game and the connections are unchanged.
    r = Relay(extra=["--rooms-per-hour", "1"])
    try:
        start = "....../....../..b1.../....../w2b2..../.....w1 b 2 2"
        game = rules.Game("nehren", start)
        win = next(m for m in game.legal() if rules.Game("nehren", start, None, [m]).result() == "b")
        made = Client(r.url).create("nehren", position=start)
        b = Client(r.url)
        b.join(made["room"], made["seats"]["b"])
        b.move(win)
        with pytest.raises(RelayError, match="too many rooms"):
            b.request({"op": "rematch"})
        assert Client(r.url).watch(made["room"])["moves"] == [win]
    finally:
        r.stop()
