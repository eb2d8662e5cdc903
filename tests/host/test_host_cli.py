# The host command line: perft, moves and show over the board's rules core.
import os
import subprocess
import sys

import reference_nehren as ref

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "host_tools", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_perft_and_divide():
    r = cli("perft", START, "2")
    assert r.returncode == 0 and r.stdout.split() == ["708"]
    r = cli("perft", START, "2", "--divide")
    lines = r.stdout.splitlines()
    assert lines[0] == "708" and len(lines) == 28


def test_moves_lists_the_legal_moves():
    r = cli("moves", START)
    assert sorted(r.stdout.split()) == sorted(ref.legal_moves(START))
    r = cli("moves", START, "--cell", "c1")
    assert sorted(r.stdout.split()) == sorted(m for m in ref.legal_moves(START) if m.startswith("c1"))


def test_show_draws_the_board_and_marks_a_move():
    r = cli("show", START, "--move", "c1c4", "--color", "never")
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert lines[0].startswith("6") and "W3" in lines[0]
    assert "[b3]" in lines[2]  # rank 4, the die that moved
    assert "White to move" in r.stdout
    assert lines[-1] == ref.apply(START, "c1c4")


def test_bad_input_is_a_clear_error():
    for args in (("show", "nonsense"), ("perft", START, "x"), ("moves", START, "--cell", "z9"), ("show", START, "--move", "c1c3")):
        r = cli(*args)
        assert r.returncode != 0
        assert "Traceback" not in r.stderr
        assert r.stderr.strip()
