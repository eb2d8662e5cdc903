"""Boards at a relay's room (issue 38: `python -m host_tools online`,
docs/protocol.md "Remote seats"): simulated boards, one process each
(tests/host/online_board.py: the bridge and a simulated person carrying out
what the board lights), playing whole games through a real relay process;
power cuts, a lost cable and a lost connection mid-game; the board's move
list and the room's must come out the same, every move once."""
import os
import subprocess
import sys
import time

import pytest

from host_tools.relay.client import Client
from relay_kit import ROOT, Relay

HARNESS = os.path.join(ROOT, "tests", "host", "online_board.py")
GAME_TIMEOUT = int(os.environ.get("TRIAD_ONLINE_TIMEOUT", "240"))  # s: a whole game of simulated boards takes 5-20 s on the shared machine


@pytest.fixture
def relay(tmp_path):
    r = Relay(store=str(tmp_path / "relay.sqlite"))
    yield r
    alive = r.alive()
    r.stop()
    assert alive, "the relay died during the test"


def start_board(url, room, token, sim_seed, hand_seed, game, *faults):
    cmd = [sys.executable, HARNESS, "--port", "sim:%d" % sim_seed, "--server", url, "--room", room,
           "--token=" + token, "--seed", str(hand_seed), "--game", game] + list(faults)
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def finish(procs):
    outs = []
    for p in procs:
        try:
            out, _ = p.communicate(timeout=GAME_TIMEOUT)
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            said = [q.communicate()[0] for q in procs]
            raise AssertionError("a board did not finish its game:\n" + "\n----\n".join(o[-3000:] for o in said))
        assert p.returncode == 0, out[-3000:]
        outs.append(out)
    return outs


def field(out, name):
    for line in out.splitlines():
        if line.startswith(name + ": "):
            return line[len(name) + 2:]
        if line == name + ":":
            return ""
    raise AssertionError("no %r line in:\n%s" % (name, out[-3000:]))


def room_state(url, room):
    with Client(url) as c:
        return c.watch(room)


def check_game(url, room, outs):
    st = room_state(url, room)
    assert st["moves"], "no move was played"
    from host_tools.relay.rules import Game

    g = Game(st["game"], st["position"], st.get("mode"))
    positions = [g.game.format_position(g.pos)]
    for text in st["moves"]:
        g.play(text)
        positions.append(g.game.format_position(g.pos))
    for out in outs:
        # The board's own game (its `start` and `moves` replies) is the
        # room's: nothing lost, nothing twice. Its start is the room's, or
        # (a board that joined after the first move) the room's position
        # after that move. (Words: a Cornelson turn has several.)
        start = field(out, "board start")
        assert start in positions[:2], (start, positions[:2])
        k = positions.index(start)
        assert field(out, "board moves").split() == " ".join(st["moves"][k:]).split(), out[-2000:]
        assert field(out, "room moves").split() == " ".join(st["moves"]).split()
        # The game over, the board's seats are the table's again.
        assert field(out, "board remote") == "ok remote off -", out[-2000:]
    assert st.get("to_move") is None, "the game did not end: %r" % (st,)
    said = "online: game over: %s (%s)" % (result_words(st), st["reason"])
    for out in outs:
        # The board knows it is over, and the tool said the result in words.
        assert field(out, "board state").startswith("ok state over "), out[-2000:]
        assert said in out.splitlines(), (said, out[-2000:])
    return st


def result_words(st):
    """The room's result as a person reads it ("Black wins", "a draw")."""
    from host_tools.relay.rules import load_game

    if st["result"] == "draw":
        return "a draw"
    g = load_game(st["game"])
    return "%s wins" % g.SIDE_NAMES[g.SIDES.index(st["result"])]


@pytest.mark.parametrize("game", ["nehren", "browne", "cornelson"])
def test_a_whole_game_between_simulated_boards_through_the_relay(relay, game):
    with Client(relay.url) as c:
        made = c.create(game)
    room = made["room"]
    procs = [start_board(relay.url, room, tok, 10 + i, 1 + i, game) for i, tok in enumerate(made["seats"].values())]
    outs = finish(procs)
    st = check_game(relay.url, room, outs)
    # Every remote move was lit on the board that did not make it, and carried out there.
    for out, side in zip(outs, made["seats"]):
        lit = [ln for ln in out.splitlines() if " lit on the board: " in ln]
        theirs = [m for m, s in zip(st["moves"], _movers(st)) if s != side]
        assert len(lit) >= len(theirs) - 1, (side, len(lit), len(theirs))
        # Each is said in words too, the words the relay's page says of it
        # (issue 43.5): "Black's move, from afar: lift c1, put it on c4 showing 3".
        lines = out.splitlines()
        for k, ln in enumerate(lines):
            if " lit on the board: " in ln:
                ply = int(ln.split("move ", 1)[1].split(" ", 1)[0])
                assert lines[k + 1] == "online: " + _page_says(relay.url, room, st, ply), lines[k:k + 2]


def _page_says(url, room, st, ply):
    """What the relay's page says of the room's move `ply` (from 1) to the
    seats that did not make it (host_tools/relay/view.py, relay.js)."""
    import types

    from host_tools.relay import view
    from host_tools.relay.rules import Game

    g = Game(st["game"], st["position"], st.get("mode"), st["moves"][:ply])
    last = view.room_view(types.SimpleNamespace(id=room, game=g, conns=[]))["last"]
    return "%s's move, from afar: %s" % (g.game.SIDE_NAMES[g.game.SIDES.index(last["seat"])], last["words"])


def _movers(st):
    from host_tools.relay.rules import Game

    return Game(st["game"], st["position"], st.get("mode"), st["moves"]).seats


def test_power_cuts_a_lost_cable_and_a_lost_connection_lose_nothing(relay):
    with Client(relay.url) as c:
        made = c.create("nehren")
    room = made["room"]
    tb, tw = made["seats"]["b"], made["seats"]["w"]
    # Black's board: the power goes while White's 4th move is lit (never
    # carried out), and again right after its own 7th move with the cable
    # out (the host never hears of that commit). White's: its relay
    # connection is cut once the room has 10 moves, for 3 s while Black
    # plays on, and a power cut with the cable out after its 14th move.
    pb = start_board(relay.url, room, tb, 1, 1, "nehren", "--powercut-lit", "4", "--powercut-commit", "7")
    pw = start_board(relay.url, room, tw, 2, 2, "nehren", "--drop-at", "10", "--powercut-commit", "14")
    outs = finish([pb, pw])
    check_game(relay.url, room, outs)
    assert field(outs[0], "faults") == "powercuts 2 drops 0", outs[0][-2000:]
    assert field(outs[1], "faults") == "powercuts 1 drops 1", outs[1][-2000:]
    # The commit the host never heard of reached the room from the board's own list.
    assert "never heard" in outs[0] and "never heard" in outs[1]
    assert "connection was lost" in outs[1]


def test_a_relay_restart_mid_game_loses_nothing(tmp_path):
    store = str(tmp_path / "relay.sqlite")
    r = Relay(store=store)
    port = r.port
    with Client(r.url) as c:
        made = c.create("nehren")
    room = made["room"]
    procs = [start_board(r.url, room, tok, 20 + i, 5 + i, "nehren") for i, tok in enumerate(made["seats"].values())]
    try:
        deadline = time.monotonic() + GAME_TIMEOUT
        while len(room_state(r.url, room)["moves"]) < 8:
            assert time.monotonic() < deadline, "the game did not get going"
            time.sleep(0.05)
        r.kill()  # (a crash: nothing flushed by the relay itself)
        time.sleep(1.5)
        r = Relay(store=store, port=port)
        outs = finish(procs)
        check_game(r.url, room, outs)
        assert all("connection was lost" in out for out in outs)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        r.stop()


def test_a_refused_token_says_so_and_stops(relay):
    with Client(relay.url) as c:
        made = c.create("nehren")
    p = subprocess.run([sys.executable, "-m", "host_tools", "online", "--port", "sim:1", "--server", relay.url,
                        "--room", made["room"], "--token", "not-a-token"], cwd=ROOT, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 1
    assert "the relay refused to let us in" in p.stdout
    assert room_state(relay.url, made["room"])["moves"] == []


# Nehren, both players at two Triads (tests/pico/test_online_pico.py's start)
# and a line that ends it: Black's Triad at ply 7.
NEAR_END = "....../....../..b1b2../b2..w2w1./.w2.b3.w3/w1..... b 2 2"
TO_THE_END = ["a3b3", "b2b1", "d4d5", "e3e5", "c4c2", "f2f3", "c2c5xd5"]


def test_a_room_already_over_is_said_and_the_tool_ends(relay):
    """`host_tools online` joining a room whose game is over (a player who
    comes back after the end): it says the result in words, the board gets
    the room's final position (lit to set up: state `sync`, which turns
    `over` once the pieces stand), and it ends by itself."""
    with Client(relay.url) as c:
        made = c.create("nehren", position=NEAR_END)
        c.join(made["room"], made["seats"]["b"])
        with Client(relay.url) as w:
            w.join(made["room"], made["seats"]["w"])
            for i, m in enumerate(TO_THE_END):
                (c if i % 2 == 0 else w).move(m, ply=i + 1)
    assert room_state(relay.url, made["room"])["result"] == "b"
    [out] = finish([start_board(relay.url, made["room"], made["seats"]["w"], 3, 3, "nehren")])
    assert "online: game over: Black wins (b)" in out.splitlines(), out[-2000:]
    from host_tools.relay.rules import Game

    final = Game("nehren", NEAR_END, None, TO_THE_END)
    state = field(out, "board state").split(None, 3)
    assert state[2] in ("sync", "over") and state[3] == final.game.format_position(final.pos), out[-2000:]
    assert field(out, "board remote") == "ok remote off -", out[-2000:]
