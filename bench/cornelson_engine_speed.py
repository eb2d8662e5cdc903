# Node rate of Cornelson's engine at fixed node budgets (issue 26: cheaper
# nodes), from several positions, level 5, no clock: the node cap decides,
# so two engines that search the same tree report the same nodes, depth and
# turn. With the package `cornelsonbefore` importable (a copy of
# firmware/triad/games/cornelson/ from an older commit with its imports
# renamed: bench/cornelson_engine_speed_run.py makes one) the old engine is
# timed in the same run on the same searches.
#
#   micropython bench/cornelson_engine_speed.py [quick]
#
# Prints "name: value unit" lines:
#   cornelson_engine_<budget>_rate: N nodes/s (turn/nodes/depth ...)
#   cornelson_engine_<budget>_before_rate, _speedup (with cornelsonbefore)
import gc
import sys

_here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
for _p in (_here + "/../firmware",):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import time  # noqa: E402

if hasattr(time, "ticks_us"):

    def now_us():
        return time.ticks_us()

    def since_us(t0):
        return time.ticks_diff(time.ticks_us(), t0)

else:

    def now_us():
        return time.perf_counter()

    def since_us(t0):
        return int((time.perf_counter() - t0) * 1e6)


from triad.games.cornelson import notation  # noqa: E402
from triad.games.cornelson.engine.search import Engine  # noqa: E402

try:
    from cornelsonbefore import notation as notation_before
    from cornelsonbefore.engine.search import Engine as EngineBefore
except ImportError:
    EngineBefore = None

QUICK = "quick" in sys.argv[1:]

# The board's first move (the emulated Pico's thinking test plays it) and
# three positions of level-4 games after 8, 16 and 24 turns (two random
# turns first).
POSITIONS = (
    notation.START,
    ".n../...nn/..s.../..ss.../.....n/...../.ss. S:b2,c6,c8 N:e1,e9,f7 n 0 0",
    "nnnn/...../..s.../...ss.s/..ss../.sns./snnn S:c2,c10,d5 N:c8,d1,d11 n 2 2",
    "nnnn/...ss/..ssss/...snns/..snns/.snn./snnn S:e1,e7,P3 N:a6,c4,d9 n 5 6",
)
BUDGETS = (300,) if QUICK else (300, 1000)


def no_clock():
    return 0


def run(cls, parse, budget):
    """(nodes, us, the searches' turn/nodes/depth) of one pass over the
    positions."""
    eng = cls(5)
    total = 0
    nodes = 0
    out = []
    for text in POSITIONS:
        pos = parse(text)
        eng.seed(1)
        gc.collect()
        t0 = now_us()
        m = eng.choose(pos, 1 << 28, no_clock, None, budget)
        total += since_us(t0)
        nodes += eng.nodes
        out.append("%d/%d/d%d" % (m, eng.nodes, eng.depth))
    return nodes, total, " ".join(out)


def best(a, b):
    return b if a is None or b[1] < a[1] else a


def fig(name, value, unit):
    print("%s: %s %s" % (name, value, unit))


def main():
    # The two engines take turns, best of reps each: the machine is shared,
    # and a slow spell then hits both.
    reps = 1 if QUICK else 7
    for budget in BUDGETS:
        tag = "cornelson_engine_n%d" % budget
        before = None
        after = None
        for _ in range(reps):
            if EngineBefore is not None:
                before = best(before, run(EngineBefore, notation_before.parse_position, budget))
            after = best(after, run(Engine, notation.parse_position, budget))
        fig(tag + "_rate", int(after[0] * 1e6 / after[1]), "nodes/s (%s)" % after[2])
        fig(tag + "_us_per_node", "%.1f" % (after[1] / after[0]), "us")
        if before is not None:
            fig(tag + "_before_rate", int(before[0] * 1e6 / before[1]), "nodes/s (%s)" % before[2])
            same = "yes" if before[0] == after[0] and before[2] == after[2] else "NO"
            fig(tag + "_speedup", "%.2f" % (before[1] * after[0] / (after[1] * before[0])),
                "x nodes/s (same trees: %s)" % same)


main()
