# The levels mean something: a bounded, seeded part of the level ladder
# (the full ladders are bench/ladder_faces.py in `make bench`, hundreds of
# games at the chip's node budget, docs/performance.md). Through the game
# face, as the board plays; under CPython and MicroPython (mp_run). No clock:
# every search is capped in nodes, so the games are the same on every run.
from array import array

from triad import games
from triad.games.engine_kit import Rng

BIG_BUDGET_MS = 1 << 28  # the node cap decides, never the clock


def no_clock():
    return 0


def _play(g, seats, engines, nodes, opening, rng, buf):
    """One game from the start with `opening` random turns first; seats[side]
    is the index of the engine that plays side. The outcome (a side or
    games.DRAW; a game longer than 200 plies counts as a draw)."""
    pos = g.parse_position(g.START)
    for _ in range(opening):
        n = g.gen(pos, buf, 0)
        if n == 0 or g.outcome(pos) != -1:
            break
        pos.make(buf[rng.below(n)])
    for _ in range(200):
        if g.outcome(pos) != -1 or g.gen(pos, buf, 0) == 0:
            break
        m = engines[seats[pos.side]].choose(pos, BIG_BUDGET_MS, no_clock, None, nodes)
        assert m, "no turn from the engine in a game that goes on"
        pos.make(m)
    r = g.outcome(pos)
    return games.DRAW if r == -1 else r


def _wins(name, hi, lo, n_games, nodes):
    """Games level hi wins against level lo (alone against the others in a
    three-player game), each opening once per seat of hi."""
    g = games.load(name)
    sides = len(g.SIDES)
    buf = array("i", bytes(4 * g.MAX_MOVES))
    engines = (g.new_engine(hi, 0), g.new_engine(lo, 0))
    rng = Rng(3)
    wins = 0
    for i in range(n_games):
        seat = i % sides
        if seat == 0:
            state = Rng(rng.next()).x
        orng = Rng(1)
        orng.x = state
        engines[0].seed(2 * i + 1)
        engines[1].seed(2 * i + 2)
        seats = [1] * sides
        seats[seat] = 0
        if _play(g, seats, engines, nodes, 2, orng, buf) == seat:
            wins += 1
    return wins


def test_cornelson_level_5_beats_level_1():
    # 5 of 10 would be a fair share; the ladder's 66% a step comes to far more.
    assert _wins("cornelson", 5, 1, 10, 60) >= 8


def test_browne_level_5_alone_beats_two_level_1_seats():
    # 3 of 9 would be a fair share (ties aside).
    assert _wins("browne", 5, 1, 9, 40) >= 6
