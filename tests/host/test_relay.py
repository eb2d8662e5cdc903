"""The relay (issue 38, docs/relay.md): real `python -m host_tools serve`
processes on loopback, played by host_tools.relay.client as a page, a
terminal or a board's bridge would. Every message of the contract is
checked as a client sees it."""
import json
import os
import random
import subprocess
import sys
import time

import pytest

from host_tools.relay import rules
from host_tools.relay.client import Client, RelayError
from relay_kit import ROOT, Relay

GAMES = rules.NAMES


@pytest.fixture
def relay(tmp_path):
    r = Relay(store=str(tmp_path / "relay.sqlite"))
    yield r
    alive = r.alive()
    r.stop()
    assert alive, "the relay died during the test"


def quiet(client, wait=0.3):
    """True if the relay sends this client nothing within `wait` seconds."""
    try:
        msg = client.next(timeout=wait)
    except TimeoutError:
        return True
    raise AssertionError("unexpected message %r" % (msg,))


def seat_clients(url, made):
    """One client joined to each seat of a created room, by side letter."""
    out = {}
    for side, token in made["seats"].items():
        c = Client(url)
        st = c.join(made["room"], token)
        assert st["seat"] == side
        out[side] = c
    return out


def play_out(clients, watcher, name, seed, start=None, mode=None, max_plies=rules.MAX_PLIES):
    """Play random legal moves (the game's own, from a local mirror) between
    the seat clients until the relay says the game is over; check that every
    client and the watcher get every move, in order, with its ply and seat."""
    mirror = rules.Game(name, start, mode)
    rng = random.Random(seed)
    ply = 0
    while not mirror.over() and ply < max_plies:
        side = mirror.to_move()
        text = rng.choice(mirror.legal())
        ply += 1
        ev = clients[side].move(text)
        assert ev == {"op": "move", "ply": ply, "seat": side, "move": mirror.play(text)}
        for other, c in clients.items():
            if other != side:
                assert c.next() == ev
        assert watcher.next() == ev
    return mirror


@pytest.mark.parametrize("name", GAMES)
def test_full_game_through_the_relay(relay, name):
    # Every seat its own connection (Browne's three), a watcher besides; the
    # relay's over message names the winner the rules core names.
    with Client(relay.url) as host:
        made = host.create(name)
    assert made["op"] == "created" and set(made["seats"]) == set(rules.load_game(name).SIDES)
    assert len(set(made["seats"].values())) == len(made["seats"])  # one secret per seat
    clients = seat_clients(relay.url, made)
    watcher = Client(relay.url)
    st = watcher.watch(made["room"])
    assert st["seat"] is None and st["moves"] == [] and st["to_move"] == rules.load_game(name).SIDES[0]
    mirror = play_out(clients, watcher, name, seed=38)
    assert mirror.over(), "the random game did not end"
    over = {"op": "over", "room": made["room"], "ply": len(mirror.moves), "result": mirror.result(),
            "reason": mirror.reason()}
    for c in list(clients.values()) + [watcher]:
        assert c.next() == over
    # After the end: the state says so; a move is refused.
    final = Client(relay.url).watch(made["room"])
    assert final["moves"] == mirror.moves and final["to_move"] is None and final["result"] == mirror.result()
    side = mirror.seats[-1]
    with pytest.raises(RelayError, match="over"):
        clients[side].move(mirror.moves[-1])


def test_first_line_names_the_real_port(tmp_path):
    with Relay(store=":memory:") as r:
        assert r.line == "serving ws://127.0.0.1:%d/play" % r.port and r.port > 0
        with Client(r.url) as c:
            assert c.create("nehren")["op"] == "created"


def test_refusals_go_to_the_sender_only_and_change_nothing(relay):
    c0 = Client(relay.url)
    made = c0.create("nehren")
    room = made["room"]
    clients = seat_clients(relay.url, made)
    b, w = clients["b"], clients["w"]
    watcher = Client(relay.url)
    watcher.watch(room)
    b.move("a1a3")
    assert w.next()["move"] == "a1a3" and watcher.next()["move"] == "a1a3"
    before = watcher.state()

    def refused(client, raw, words):
        client.ws.send(raw)
        msg = json.loads(client.ws.recv(timeout=5))
        assert msg["op"] == "error" and words in msg["reason"], msg
        assert set(msg) == {"op", "reason"}

    refused(w, "this is not json", "not JSON")
    refused(w, "[1, 2]", "JSON object")
    refused(w, json.dumps({"op": "dance"}), "unknown op")
    refused(w, json.dumps({"move": "f6f4"}), "unknown op")
    refused(w, json.dumps({"op": "move", "move": "f6f5"}), "illegal move")  # a die moves its new value
    refused(w, json.dumps({"op": "move", "move": "zz9"}), "illegal move")
    refused(w, json.dumps({"op": "move", "move": 42}), "move must be")
    refused(w, json.dumps({"op": "move", "move": "f6f4", "ply": 5}), "not the next move")
    refused(b, json.dumps({"op": "move", "move": "b1b3"}), "not your turn")
    refused(watcher, json.dumps({"op": "move", "move": "f6f4"}), "watchers cannot move")
    refused(w, json.dumps({"op": "join", "room": room, "token": "x" * 24}), "wrong token")
    refused(w, json.dumps({"op": "join", "room": room, "token": made["seats"]["b"][:-1]}), "wrong token")
    refused(w, json.dumps({"op": "join", "room": "nosuchroom", "token": "x"}), "no room")
    refused(w, json.dumps({"op": "create", "game": "chess"}), "unknown game")
    refused(w, json.dumps({"op": "create", "game": "nehren", "position": "b1 nonsense"}), "bad position")
    refused(w, json.dumps({"op": "create", "game": "nehren", "mode": "capture"}), "no modes")
    refused(w, json.dumps({"op": "move", "move": "f6f4", "pad": "x" * 5000}), "too long")
    w.ws.send(b"\x00binary")
    assert "JSON text" in json.loads(w.ws.recv(timeout=5))["reason"]
    for c in (b, watcher):
        assert quiet(c)  # nobody else heard of any of it
    assert watcher.state() == before  # the room is as it was
    # ... and the seat whose turn it is still plays (its join survived the
    # wrong-token join attempts).
    assert w.move("f6f4")["ply"] == 2
    assert b.next()["move"] == "f6f4"


def test_a_fresh_connection_cannot_move_or_reach_a_room(relay):
    made = Client(relay.url).create("browne")
    c = Client(relay.url)
    for msg in ({"op": "move", "move": "D2-D7@D2"}, {"op": "state"}, {"op": "board"}):
        with pytest.raises(RelayError, match="join or watch a room first"):
            c.request(msg, ("move", "state", "board"))
    st = Client(relay.url).watch(made["room"])
    assert st["moves"] == []


def test_tokens_reach_only_their_creator(relay):
    # Every message any other connection gets, raw, over a whole short game:
    # no seat's token appears in any of them.
    with Client(relay.url) as host:
        made = host.create("browne")
    tokens = list(made["seats"].values())
    assert all(len(t) >= 24 for t in tokens)  # 18 random bytes each (secrets)
    clients = seat_clients(relay.url, made)
    watcher = Client(relay.url)
    raw = [json.dumps(watcher.watch(made["room"]))]
    mirror = rules.Game("browne")
    rng = random.Random(5)
    for _ in range(9):
        side = mirror.to_move()
        text = rng.choice(mirror.legal())
        raw.append(json.dumps(clients[side].move(mirror.play(text))))
    for c in clients.values():
        raw.append(json.dumps(c.state()))
        raw.append(json.dumps(c.board()))
    raw.append(json.dumps(watcher.state()))
    seen = "\n".join(raw)
    for t in tokens:
        assert t not in seen


def test_mode_sets_the_rules(relay):
    # Cornelson's Capture uses no jewels: its first turn is a post alone, which
    # the standard game (jewels to move too) refuses.
    c = Client(relay.url)
    made = c.create("cornelson", mode="capture")
    st = c.join(made["room"], made["seats"]["s"])
    assert st["mode"] == "capture" and st["seat"] == "s"
    assert c.move("A1")["move"] == "A1"
    made2 = c.create("cornelson")
    c.join(made2["room"], made2["seats"]["s"])
    with pytest.raises(RelayError, match="illegal move"):
        c.move("A1")
    with pytest.raises(RelayError, match="mode must be one of standard, breach, trap, capture, tourney"):
        c.create("cornelson", mode="chess")


def test_create_from_a_position(relay):
    g = rules.load_game("nehren")
    from host_tools.games import new_start

    start, _ = new_start(g, 7)
    c = Client(relay.url)
    made = c.create("nehren", position=start)
    st = c.watch(made["room"])
    assert st["position"] == g.format_position(g.parse_position(start)) and st["position"] != g.START


def test_disconnect_and_rejoin(relay):
    made = Client(relay.url).create("nehren")
    clients = seat_clients(relay.url, made)
    mirror = rules.Game("nehren")
    rng = random.Random(3)

    def step(client_of):
        side = mirror.to_move()
        text = mirror.play(rng.choice(mirror.legal()))
        assert client_of[side].move(text)["move"] == text

    for _ in range(4):
        step(clients)
        clients[mirror.to_move()].next()
    clients["w"].ws.close()  # White's connection drops ...
    step(clients)  # Black cannot move twice, so White is to move now
    assert mirror.to_move() == "w"
    again = clients["w"]
    st = again.rejoin()  # ... and comes back
    assert st["moves"] == mirror.moves and st["to_move"] == "w" and st["seat"] == "w"
    clients["w"] = again
    assert quiet(clients["b"])  # a rejoin tells the others nothing
    for _ in range(4):
        step(clients)
        clients[mirror.to_move()].next()


def test_relay_restart_loses_nothing(tmp_path):
    store = str(tmp_path / "rooms.sqlite")
    first = Relay(store=store)
    made = Client(first.url).create("cornelson")
    clients = seat_clients(first.url, made)
    mirror = rules.Game("cornelson")
    rng = random.Random(11)
    for _ in range(7):
        side = mirror.to_move()
        clients[side].move(mirror.play(rng.choice(mirror.legal())))
    first.kill()  # a crash mid-game, not a clean stop
    first.stop()
    second = Relay(store=store)
    try:
        clients = seat_clients(second.url, made)  # the same tokens still hold the seats
        watcher = Client(second.url)
        st = watcher.watch(made["room"])
        assert st["moves"] == mirror.moves and st["to_move"] == mirror.to_move()
        for _ in range(6):
            side = mirror.to_move()
            ev = clients[side].move(mirror.play(rng.choice(mirror.legal())))
            assert ev["ply"] == len(mirror.moves)
            assert watcher.next() == ev
    finally:
        second.stop()


def test_flood_is_refused_and_the_relay_serves_on(relay):
    from websockets.exceptions import ConnectionClosed

    made = Client(relay.url).create("nehren")
    c = Client(relay.url)
    for _ in range(300):
        c.ws.send(json.dumps({"op": "state"}))
    replies = []
    closed = False
    try:
        while len(replies) < 300:
            replies.append(json.loads(c.ws.recv(timeout=30)))
    except ConnectionClosed:
        closed = True  # 200 refused in a row: the relay closes the connection
    limited = [m for m in replies if m.get("op") == "error" and "too many messages" in m["reason"]]
    served = [m for m in replies if m.get("op") == "error" and "join or watch" in m["reason"]]
    assert limited, "300 messages at once were all served: %d replies %r" % (len(replies), replies[-3:])
    assert len(served) >= 40  # the burst allowance was served
    assert closed or len(replies) == 300
    other = Client(relay.url)
    assert other.watch(made["room"])["moves"] == []


def read_until(p, words, timeout=30):
    """The process's output up to the line holding `words` (read in a thread,
    given up after `timeout` s)."""
    import threading

    got = []

    def read():
        for line in p.stdout:
            got.append(line)
            if words in line:
                return

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(timeout)
    return "".join(got)


def test_terminal_client_plays_a_room(relay):
    # `python -m host_tools play --server URL --room R --token T`: moves typed
    # on stdin, the opponent's moves printed as they come.
    made = Client(relay.url).create("nehren")
    white = Client(relay.url)
    white.join(made["room"], made["seats"]["w"])
    cmd = [sys.executable, "-m", "host_tools", "play", "--server", relay.url, "--room", made["room"],
           "--token", made["seats"]["b"], "--color", "never"]
    p = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    p.stdin.write("zz\na1a3\n")
    p.stdin.flush()
    assert white.next()["move"] == "a1a3"
    white.move("f6f4")
    shown = read_until(p, "2. White f6f4")  # (quit is read at any time: once the move is shown)
    p.stdin.write("quit\n")
    p.stdin.flush()
    out, err = p.communicate(timeout=20)
    out = shown + out
    assert p.returncode == 0, err
    assert "you play Black" in out
    assert "refused: illegal move 'zz'" in out
    assert "1. Black a1a3" in out and "2. White f6f4" in out
    assert "b2" in out  # the board, with the moved die showing its new value


def test_terminal_client_watches(relay):
    made = Client(relay.url).create("nehren")
    clients = seat_clients(relay.url, made)
    clients["b"].move("a1a3")
    cmd = [sys.executable, "-m", "host_tools", "play", "--server", relay.url, "--room", made["room"], "--watch",
           "--color", "never", "--until-ply", "2"]
    p = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    time.sleep(1.5)
    clients["w"].move("f6f4")
    out, err = p.communicate(timeout=20)
    assert p.returncode == 0, err
    assert "watching" in out and "1. Black a1a3" in out and "2. White f6f4" in out


def test_the_page_is_served(relay):
    import urllib.request

    base = relay.url.replace("ws://", "http://").rsplit("/", 1)[0]
    with urllib.request.urlopen(base + "/") as r:
        assert r.headers["Content-Type"].startswith("text/html")
        page = r.read().decode()
    assert "/play" in page and "WebSocket" in page
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(base + "/nothing-here")


def test_the_relay_doc_names_every_op_and_limit():
    # docs/relay.md is the contract's page: every request op the relay
    # serves, every event, and the limits it enforces are written there.
    from host_tools.relay import server

    with open(os.path.join(ROOT, "docs", "relay.md"), encoding="utf-8") as f:
        doc = f.read()
    for op in list(server.OPS) + ["created", "error", "over"]:
        assert '{"op":"%s"' % op in doc, op
    for figure in (server.MAX_MESSAGE, server.RATE, server.BURST, server.FLOOD_CLOSE, server.MAX_CREATES,
                   server.MAX_QUEUE):
        assert ("%d" % figure) in doc.replace(" ", ""), figure
    # Each of serve's limits: its option and its default, and what a client meets.
    limits = server.Limits()
    for option, default in (("--max-per-address", limits.max_per_address), ("--rooms-per-hour", limits.rooms_per_hour),
                            ("--room-days", limits.room_days), ("--watchers-per-room", limits.watchers_per_room)):
        rows = [line for line in doc.splitlines() if line.startswith("|") and "`%s " % option in line]
        assert len(rows) == 1 and "%g" % default in rows[0].split("|")[2], option
    for words in ("429", "403", "too many rooms", "--allow-origin", "--redis-volatile", "/healthz", "/metrics",
                  '{"op":"gone"', "0600", "#token="):
        assert words in doc, words


def test_a_frame_over_the_protocol_cap_closes_only_that_connection(relay):
    from websockets.exceptions import ConnectionClosed

    made = Client(relay.url).create("nehren")
    watcher = Client(relay.url)
    watcher.watch(made["room"])
    big = Client(relay.url)
    big.ws.send(json.dumps({"op": "state", "pad": "x" * 70000}))  # over websockets' 64 KiB: 1009
    with pytest.raises(ConnectionClosed) as e:
        big.ws.recv(timeout=10)
    assert e.value.rcvd is not None and e.value.rcvd.code == 1009
    assert watcher.state()["moves"] == []  # the others are served on
    b = Client(relay.url)
    b.join(made["room"], made["seats"]["b"])
    assert b.move("a1a3")["ply"] == 1
    assert watcher.next()["move"] == "a1a3"


def test_serves_on_ipv6_loopback():
    import socket

    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback on this machine")
    with Relay(store=":memory:", host="::1") as r:
        assert r.line == "serving ws://[::1]:%d/play" % r.port
        with Client(r.url) as c:
            assert c.create("browne")["op"] == "created"


def test_the_boards_bridge_lives_beside_the_relay_and_main_is_not_imported_back():
    # Issue 45.15: the board's bridge to a relay (online.py) is in the
    # remote-play package with the relay; host_tools' __main__ imports it
    # from there, and it imports nothing of __main__ (it called back into
    # __main__.main, a cycle).
    import ast

    tools = os.path.join(ROOT, "host_tools")
    assert os.path.exists(os.path.join(tools, "relay", "online.py"))
    assert not os.path.exists(os.path.join(tools, "online.py"))

    def imported(path):
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        out = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                out.update("%s.%s" % (node.module, a.name) for a in node.names)
                out.add(node.module)
        return out

    bridge = imported(os.path.join(tools, "relay", "online.py"))
    assert not [m for m in bridge if "__main__" in m], bridge
    main = imported(os.path.join(tools, "__main__.py"))
    assert "host_tools.relay.online" in main
    assert "host_tools.online" not in main
    p = subprocess.run([sys.executable, "-c", "import sys, host_tools.relay.online as o; "
                        "print('host_tools.__main__' in sys.modules, hasattr(o, 'main'))"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.stdout.split() == ["False", "False"], (p.stdout, p.stderr)
