"""`python -m host_tools review RECORD [--nodes N]` by its contract (issue
46): one line a mark in order, `mark PLY MOVE better BEST: KIND, WORDS`, then
`review: N marks`, exit 0; every missed win and every win allowed (with a
safe move there) marked, a winning move never; a bad record one clear line
and a non-zero exit."""
import os
import re
import subprocess
import sys

import pytest

from host_tools import games, records
from test_review_marks import random_game, reference_marks, wins

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINE = re.compile(r"^mark (\d+) (.+) better (.+?): (missed win|allows win|[a-z]+), (.+)$")
KINDS = {"missed win": 0, "allows win": 1}


def cli(*args):
    return subprocess.run([sys.executable, "-m", "host_tools", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def record_of(g, seed, path):
    start, moves = random_game(g, seed)
    pos = start.copy()
    texts = []
    for m in moves:
        texts.append(g.format_move(pos, m))
        pos.make(m)
    rec = records.Record(start=g.format_position(start), moves=texts, game=g,
                         result=records.result_of(g, pos))
    rec.save(str(path))
    return start, moves


@pytest.mark.parametrize("name", games.NAMES)
def test_review_prints_the_contract(tmp_path, name):
    g = games.load(name)
    path = tmp_path / ("%s.triad" % name)
    start, moves = record_of(g, 1, path)
    r = cli("review", str(path), "--nodes", "150" if name == "nehren" else "0")  # (the engine: test_review_marks)
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[-1] == "review: %d marks" % (len(out) - 1)
    positions = [start.copy()]
    for m in moves:
        p = positions[-1].copy()
        p.make(m)
        positions.append(p)
    got = {}
    last = 0
    for line in out[:-1]:
        mt = LINE.match(line)
        assert mt, line
        ply, move, best, kind = int(mt.group(1)), mt.group(2), mt.group(3), mt.group(4)
        assert ply > last  # in order, one a turn
        last = ply
        pos = positions[ply - 1]
        # MOVE is the move played there and BEST a legal move, in notation
        assert g.parse_move(pos, move) == moves[ply - 1]
        b = g.parse_move(pos, best)
        assert not wins(g, pos, moves[ply - 1])
        if kind == "missed win":
            assert wins(g, pos, b)
        if kind in KINDS:
            got[ply] = KINDS[kind]
        else:
            assert len(g.SIDES) == 2 and kind == "mistake"
    assert got == reference_marks(g, start, moves)
    assert got  # the seeded game has marks to print


def test_a_bad_record_is_one_clear_line(tmp_path):
    bad = tmp_path / "bad.triad"
    bad.write_text("not a record\n")
    r = cli("review", str(bad))
    assert r.returncode != 0 and r.stdout == ""
    assert r.stderr.strip().splitlines() == [
        "host_tools review: %s: line 1: not a Triad record (expected '# triad-record 1')" % bad]
    illegal = tmp_path / "illegal.triad"
    illegal.write_text("# triad-record 1\nGame: nehren\nStart: w3w3w2w2w1w1/....../....../....../....../"
                       "b1b1b2b2b3b3 b 0 0\n\n1. a1a6\n")
    r = cli("review", str(illegal))
    assert r.returncode != 0 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
    assert "move 1 (a1a6)" in r.stderr
    r = cli("review", str(tmp_path / "missing.triad"))
    assert r.returncode != 0 and len(r.stderr.strip().splitlines()) == 1 and "missing.triad" in r.stderr
    r = cli("review", str(illegal), "--nodes", "-1")
    assert r.returncode != 0 and "--nodes" in r.stderr and len(r.stderr.strip().splitlines()) == 1
