# firmware/perft.py is a contract: same counts under CPython and the real
# MicroPython unix port, matching the reference rules in the tests.
import os
import shutil
import subprocess
import sys

import pytest

import reference_nehren as ref

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PERFT = os.path.join(ROOT, "firmware", "perft.py")
START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"
MID = "w3.w2..w1/..b2w1../.b3..w2./w2..b1../..b1.../b2...b3. w 1 0"


def micropython():
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else shutil.which("micropython")


INTERPRETERS = [pytest.param([sys.executable], id="cpython"), pytest.param("mp", id="micropython")]


def run(interp, *args, cwd=None):
    cmd = [micropython()] if interp == "mp" else interp
    # Run from elsewhere: the script must find its package beside itself.
    return subprocess.run(cmd + [PERFT, *args], capture_output=True, text=True, timeout=300, cwd=cwd or "/")


@pytest.mark.parametrize("interp", INTERPRETERS)
@pytest.mark.parametrize("pos, depth", [(START, 1), (START, 2), (START, 3), (MID, 2), (MID, 3)])
def test_counts_match_reference(interp, pos, depth):
    r = run(interp, pos, str(depth))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [str(ref.perft(pos, depth))]


@pytest.mark.parametrize("interp", INTERPRETERS)
def test_divide_lists_every_root_move(interp):
    r = run(interp, MID, "2", "divide")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == str(ref.perft(MID, 2))
    rows = dict(line.split(" ") for line in lines[1:])
    assert sorted(rows) == sorted(ref.legal_moves(MID))
    for move, n in rows.items():
        assert int(n) == len(ref.legal_moves(ref.apply(MID, move)))
    assert sum(int(n) for n in rows.values()) == int(lines[0])


@pytest.mark.parametrize("interp", INTERPRETERS)
@pytest.mark.parametrize(
    "args",
    [[], [START], [START, "x"], [START, "-1"], ["w3w3 b 0 0", "2"], [START, "2", "divid"], [START, "2", "divide", "x"]],
)
def test_bad_arguments_one_line_error(interp, args):
    r = run(interp, *args)
    assert r.returncode != 0
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.stderr
