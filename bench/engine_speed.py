# Engine node rate before and after the speed work of issue 15, in one run:
# the same searches (fixed node budgets, so both engines search the same
# tree: tests/fw/test_engine_golden.py) by the engine of commit 75261cf
# ("before", importable as the package `enginebefore`, which
# bench/engine_speed_run.py extracts from git) and by firmware/triad/games/nehren/engine
# ("after"). Runs on the MicroPython unix port and on the emulated Pico
# (where enginebefore sits on the board's filesystem).
#
#   micropython bench/engine_speed.py [pico]      (via engine_speed_run.py)
#
# Prints "name: value unit" lines.
import gc
import sys
import time

PICO = "pico" in getattr(sys, "argv", [])[1:]
START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"
OPENING = "w3...w1w1/..w1.../...w2../.w2.b1.b1/....b1./b1..b2b3. b 0 0"
MIDGAME = "...b3../....w3w2/w2.w2w1../...b1b2./.b1b1..b1/...w2.. w 0 0"
# The node budgets the Pico reached in 3 s before (docs/performance.md,
# issue 8), and a deeper search for the host.
BUDGETS = ((320, 320, 384),) if PICO else ((320, 320, 384), (3000, 3000, 3000))

from triad.games.nehren import notation  # noqa: E402
from triad.games.nehren.engine.search import Engine  # noqa: E402

try:
    from enginebefore.search import Engine as EngineBefore
except ImportError:
    EngineBefore = None


def fig(name, value, unit):
    if isinstance(value, float):
        value = "%d" % int(value + 0.5) if value >= 100 else "%.2f" % value
    print("%s: %s %s" % (name, value, unit))


def no_clock():
    return 0


def run(cls, budgets):
    """(nodes, us, moves) over the three positions."""
    eng = cls(5, 512)
    nodes = 0
    total = 0
    moves = []
    for text, nmax in zip((START, OPENING, MIDGAME), budgets):
        pos = notation.parse_position(text)
        eng.clear()
        gc.collect()
        t0 = time.ticks_us()
        m = eng.choose(pos, 1000000, no_clock, None, nmax)
        total += time.ticks_diff(time.ticks_us(), t0)
        nodes += eng.nodes
        moves.append("%s/%d/d%d" % (notation.format_move(m), eng.nodes, eng.depth))
    return nodes, total, " ".join(moves)


for budgets in BUDGETS:
    tag = "n%d" % budgets[0]
    reps = 1 if PICO else 3
    after = None
    before = None
    for _ in range(reps):
        if EngineBefore is not None:
            b = run(EngineBefore, budgets)
            if before is None or b[1] < before[1]:
                before = b
        a = run(Engine, budgets)
        if after is None or a[1] < after[1]:
            after = a
    fig("engine_%s_after_rate" % tag, after[0] * 1e6 / after[1], "nodes/s (%s)" % after[2])
    if before is not None:
        fig("engine_%s_before_rate" % tag, before[0] * 1e6 / before[1], "nodes/s (%s)" % before[2])
        fig("engine_%s_speedup" % tag, before[1] / after[1], "x (same trees: %s)" % ("yes" if (before[0], before[2]) == (after[0], after[2]) else "NO"))
