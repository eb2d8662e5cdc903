# The level ladder's games on the MicroPython unix port (issue 15): the
# worker of bench/ladder.py, which makes the set-ups (CPython's random, as
# host_tools/match.py does) and runs one or two of these under `nice`.
#
#   MICROPYPATH=firmware micropython bench/ladder_mp.py A B NODES TT JOBFILE
#
# A, B: engine levels 1..5. JOBFILE: one game a line, "i seat seed_a seed_b
# start-text" (seat: the side A plays; the seeds of each engine's random
# choices). Each game is played exactly as host_tools/match.py plays it
# (play_game): the same engines, seeds, node cap (and an hour of clock, so
# the node cap alone bounds a search), history keys and draw rule, so the
# results equal `python -m host_tools match --nodes NODES` game for game,
# only ~20x faster than CPython, which runs the viper code as plain Python.
# Prints one line a game: "i result plies a_moves a_depths a_nodes b_moves
# b_depths b_nodes" (result w/l/d for A).
import sys
import time

from triad import games
from triad.games.nehren.engine import search
from triad.games.nehren.engine.search import Rng

# (experiments) LADDER_LEVELS="d,s,n,b;d,s,n,b;..." replaces levels 1..5
_lv = None
try:
    import os

    _lv = os.getenv("LADDER_LEVELS")
except ImportError:
    pass
if _lv:
    search.LEVELS = (search.LEVELS[0],) + tuple(tuple(int(x) for x in t.split(",")) for t in _lv.split(";"))

NODES_MS = 3600000  # as host_tools/match.py: the node cap bounds the search
MAX_PLIES = 2000


def now_ms():
    return time.ticks_ms()


def play(game, engines, start_text):
    start = game.parse_position(start_text)
    pos = start.copy()
    watch = game.draw_watch(start.copy())
    history = []
    stats = [[0, 0, 0], [0, 0, 0]]  # moves, sum of depths, sum of nodes
    plies = 0
    while game.outcome(pos) < 0 and plies < MAX_PLIES:
        side = pos.side
        eng = engines[side]
        keys = eng.history_keys(start, history)
        m = eng.choose(pos, NODES_MS, now_ms, keys, NODES)
        st = stats[side]
        st[0] += 1
        st[1] += eng.depth
        st[2] += eng.nodes
        if not m:
            break
        pos.make(m)
        history.append(m)
        plies += 1
        if watch.push(pos, m):
            return games.DRAW, plies, stats
    w = game.outcome(pos)
    return (w if w >= 0 else games.DRAW), plies, stats


def main(a, b, tt, jobfile):
    game = games.load("nehren")
    with open(jobfile) as f:
        lines = f.read().split("\n")
    for line in lines:
        if not line.strip():
            continue
        parts = line.split(" ", 4)
        i = int(parts[0])
        seat = int(parts[1])
        ea = game.new_engine(a, tt)
        ea.rng = Rng(int(parts[2]))
        eb = game.new_engine(b, tt)
        eb.rng = Rng(int(parts[3]))
        engines = [ea, eb] if seat == 0 else [eb, ea]
        res, plies, st = play(game, engines, parts[4])
        r = "d" if res == games.DRAW else ("w" if res == seat else "l")
        sa = st[seat]
        sb = st[1 - seat]
        print("%d %s %d %d %d %d %d %d %d" % (i, r, plies, sa[0], sa[1], sa[2], sb[0], sb[1], sb[2]))


A = int(sys.argv[1])
B = int(sys.argv[2])
NODES = int(sys.argv[3])
main(A, B, int(sys.argv[4]), sys.argv[5])
