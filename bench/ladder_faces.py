# A level against the one below through the game face, for any game with an
# engine (issue 26: Browne's and Cornelson's ladders at the chip's node
# budget). Runs on the MicroPython unix port (the viper paths, as the board)
# and on CPython:
#
#   micropython bench/ladder_faces.py GAME A B GAMES NODES [SEED [OPENING]]
#
# Every game starts from the game's start position with OPENING random turns
# (default 2) drawn from SEED, so the levels do not replay the same games;
# each opening is played twice with the seats exchanged (two-player games)
# or once per seat of A (Browne: A alone against two engines of level B).
# Every search is capped at NODES nodes (no clock: the board's budget in
# nodes, docs/performance.md). A game longer than MAX_PLIES is a draw.
# Prints "ladder: GAME LA vs LB: W wins, L losses, D draws of N (P% wins)".
import sys

_here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
for _p in (_here + "/../firmware",):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from array import array  # noqa: E402

from triad import games  # noqa: E402
from triad.games.engine_kit import Rng  # noqa: E402

MAX_PLIES = 300
BIG_BUDGET_MS = 1 << 28  # the node cap decides, never the clock


def no_clock():
    return 0


def play(g, seats, engines, opening, rng, buf):
    """One game: seats[side] is the index into engines of the engine that
    plays side. Returns the outcome (a side, games.DRAW) or DRAW for a game
    cut at MAX_PLIES."""
    pos = g.parse_position(g.START)
    for _ in range(opening):
        n = g.gen(pos, buf, 0)
        if n == 0 or g.outcome(pos) != -1:
            break
        pos.make(buf[rng.below(n)])
    for ply in range(MAX_PLIES):
        if g.outcome(pos) != -1 or g.gen(pos, buf, 0) == 0:
            break
        eng, nodes = engines[seats[pos.side]]
        m = eng.choose(pos, BIG_BUDGET_MS, no_clock, None, nodes)
        pos.make(m)
    r = g.outcome(pos)
    return games.DRAW if r == -1 else r


def ladder(name, a, b, n_games, nodes, seed=1, opening=2):
    """Level a against level b of game name: (wins, losses, draws) of a."""
    g = games.load(name)
    sides = len(g.SIDES)
    buf = array("i", bytes(4 * g.MAX_MOVES))
    ea = g.new_engine(a, 0)
    eb = g.new_engine(b, 0)
    engines = ((ea, nodes), (eb, nodes))
    rng = Rng(seed)
    w = l = d = 0
    for i in range(n_games):
        seat_a = i % sides
        seats = [1] * sides
        seats[seat_a] = 0
        # the same opening for each seat of A: one draw of the rng per round
        if seat_a == 0:
            orng = Rng(rng.next())
            ostate = orng.x
        orng.x = ostate
        ea.seed(seed * 7919 + i * 2 + 1)
        eb.seed(seed * 7919 + i * 2 + 2)
        r = play(g, seats, engines, opening, orng, buf)
        if r == seat_a:
            w += 1
        elif r == games.DRAW:
            d += 1
        else:
            l += 1
    return w, l, d


def main(argv):
    name = argv[0]
    a = int(argv[1])
    b = int(argv[2])
    n_games = int(argv[3])
    nodes = int(argv[4])
    seed = int(argv[5]) if len(argv) > 5 else 1
    opening = int(argv[6]) if len(argv) > 6 else 2
    w, l, d = ladder(name, a, b, n_games, nodes, seed, opening)
    print("ladder: %s L%d vs L%d: %d wins, %d losses, %d draws of %d (%.1f%% wins), %d nodes, opening %d, seed %d"
          % (name, a, b, w, l, d, n_games, 100.0 * w / n_games, nodes, opening, seed))


# (tests/fw/test_engine_levels.py imports ladder from here)
if __name__ == "__main__":
    main(sys.argv[1:])
