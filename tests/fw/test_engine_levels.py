# The levels mean something: a bounded, seeded part of the level ladder
# (the full ladders are bench/ladder_faces.py in `make bench`, hundreds of
# games at the chip's node budget, docs/performance.md), played by the same
# code, through the game face as the board plays; under CPython and
# MicroPython (mp_run). No clock: every search is capped in nodes, so the
# games are the same on every run.
import sys

_bench = __file__.rsplit("/", 2)[0] + "/../bench"  # tests/fw/this.py -> bench/
if _bench not in sys.path:
    sys.path.append(_bench)

from ladder_faces import ladder  # noqa: E402


def test_cornelson_level_5_beats_level_1():
    # 5 of 10 would be a fair share; the ladder's 58-66% a step comes to far more.
    w, l, d = ladder("cornelson", 5, 1, 10, 60, 3)
    assert w >= 8, (w, l, d)


def test_browne_level_5_alone_beats_two_level_1_seats():
    # 3 of 9 would be a fair share (ties aside).
    w, l, d = ladder("browne", 5, 1, 9, 40, 3)
    assert w >= 6, (w, l, d)
