"""A board running the real UF2 on the emulated RP2040 at a relay's room
(issue 38): `host_tools online`'s bridge (tests/host/online_board.py) in
front of the chip, the room's other seat a simulated board on CPython,
through a real relay process. The game's first PLIES moves (the emulated
chip runs about a tenth of a real one's speed: a whole game would take
half an hour); every move the other board makes is lit on the chip and
carried out there, every move made on the chip reaches the room, and the
chip's own move list (its `moves` reply) comes out as the room's."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "host"))

from relay_kit import Relay  # noqa: E402

HARNESS = os.path.join(ROOT, "tests", "host", "online_board.py")
PLIES = 6


def _field(out, name):
    for line in out.splitlines():
        if line.startswith(name + ": "):
            return line[len(name) + 2:]
    raise AssertionError("no %r line in:\n%s" % (name, out[-3000:]))


def test_a_board_on_the_emulated_chip_plays_a_room(tmp_path):
    pytest.importorskip("websockets")
    from host_tools.relay.client import Client

    r = Relay(store=str(tmp_path / "relay.sqlite"))
    procs = []
    try:
        with Client(r.url) as c:
            made = c.create("nehren")
        common = ["--server", r.url, "--room", made["room"], "--game", "nehren", "--plies", str(PLIES)]
        # Black on the chip (it moves first), White a CPython simulated board.
        procs.append(subprocess.Popen([sys.executable, HARNESS, "--port", "pico", "--token=" + made["seats"]["b"],
                                       "--seed", "3"] + common, cwd=ROOT, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True))
        procs.append(subprocess.Popen([sys.executable, HARNESS, "--port", "sim:4", "--token=" + made["seats"]["w"],
                                       "--seed", "4"] + common, cwd=ROOT, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True))
        outs = [p.communicate(timeout=1800)[0] for p in procs]
        for p, out in zip(procs, outs):
            assert p.returncode == 0, out[-3000:]
        with Client(r.url) as c:
            st = c.watch(made["room"])
        assert len(st["moves"]) >= PLIES
        chip = outs[0]
        assert _field(chip, "board start") == st["position"], chip[-3000:]
        board = _field(chip, "board moves").split()
        room = st["moves"]
        # The same game as far as both go; either may be one move ahead
        # where the run stopped (the chip's person moving on as the bridge
        # left: that move would go to the room at the next join).
        n = min(len(board), len(room))
        assert n >= PLIES and board[:n] == room[:n], (board, room)
        assert abs(len(board) - len(room)) <= 1, (board, room)
        # The other board's moves were lit on the chip and carried out there.
        lit = [ln for ln in chip.splitlines() if " lit on the board: " in ln]
        assert len(lit) >= PLIES // 2, chip[-3000:]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        r.stop()
