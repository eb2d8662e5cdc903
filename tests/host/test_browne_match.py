# Browne's engine in the match harness: three seats, the engine alone
# against two seats of another player. A short match at a small node budget
# (deterministic: the players are seeded and the search is bounded by nodes);
# the 200-game table of docs/browne.md is measured with the same harness.
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from host_tools import games, match  # noqa: E402


def test_engine_beats_two_random_seats():
    r = match.run_match("5", "random", games=12, nodes=150, game="browne")
    assert r["games"] == 12 and r["w"] + r["l"] + r["d"] == 12
    # a fair share is 4 of 12
    assert r["w"] >= 10, r


def test_engine_beats_two_greedy_seats():
    r = match.run_match("5", "greedy", games=9, nodes=150, game="browne")
    assert r["w"] >= 7, r


def test_seat_results_of_three_sides():
    g = games.load("browne")
    won = g.parse_position("R:A1,B2 G: B:I9 b")  # Red 2, Blue 1: Red wins
    assert match.seat_result(g, won, g.outcome(won), 0) == "w"
    assert match.seat_result(g, won, g.outcome(won), 2) == "l"
    tie = g.parse_position("R:A1 G: B:I9 r")
    assert g.outcome(tie) == games.DRAW
    assert match.seat_result(g, tie, games.DRAW, 0) == "d"
    assert match.seat_result(g, tie, games.DRAW, 2) == "d"
    assert match.seat_result(g, tie, games.DRAW, 1) == "l"  # eliminated


def test_greedy_and_quick_seats_play_legal_turns():
    g = games.load("browne")
    pos = g.parse_position(g.START)
    legal = pos.legal_moves()
    for spec in ("greedy", "quick", "random"):
        p = match.Player(spec, 10, game=g)
        assert p.choose(pos, []) in legal
    # every legal turn captures as much (max-capture rule): greedy keeps all
    assert len(match.most_taken(g, pos, legal)) == len(legal)


def test_match_cli_for_browne():
    import subprocess

    r = subprocess.run(
        [sys.executable, "-m", "host_tools", "match", "5", "random", "--game", "browne",
         "--games", "3", "--nodes", "64"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert r.returncode == 0, r.stderr
    row = r.stdout.splitlines()[2].split()
    assert row[:3] == ["L5", "random", "3"]
    assert int(row[3]) + int(row[4]) + int(row[5]) == 3
