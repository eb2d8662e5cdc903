# A short match of Cornelson's engine against the random player, bounded by
# nodes (not time) so that it is the same on any machine.
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from host_tools import match  # noqa: E402


def test_engine_beats_random_clearly():
    r = match.run_match("5", "random", games=12, nodes=1200, game="cornelson")
    assert r["games"] == 12
    assert r["w"] >= 11, r


def test_engine_beats_greedy_and_quick():
    for other in ("greedy", "quick"):
        r = match.run_match("4", other, games=4, nodes=800, game="cornelson")
        assert r["w"] >= 3, (other, r)


def test_quick_player_runs_for_cornelson():
    r = match.run_match("quick", "random", games=2, game="cornelson")
    assert r["w"] + r["l"] + r["d"] == 2
