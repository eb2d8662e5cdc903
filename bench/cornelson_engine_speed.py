# Node rate of Cornelson's engine at fixed node budgets (issue 26: cheaper
# nodes), from several positions, level 5, no clock: the node cap decides,
# so two engines that search the same tree report the same nodes, depth and
# turn. With `before` the engine timed is the package `cornelsonbefore` (a
# copy of firmware/triad/games/cornelson/ from an older commit with its
# imports renamed: bench/cornelson_engine_speed_run.py makes one and runs
# both, each in a process of its own: in one process the second engine's
# frames are allocated on a heap the first one filled, which slowed the old
# engine by up to 3x).
#
#   micropython bench/cornelson_engine_speed.py [quick] [before]
#
# Prints "name: value unit" lines:
#   cornelson_engine_n<budget>_rate: N nodes/s (turn/nodes/depth ...)
#   cornelson_engine_n<budget>_us_per_node: U us
import gc
import sys

_here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
for _p in (_here + "/../firmware",):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import time  # noqa: E402

from triad.games.engine_kit import no_clock  # noqa: E402

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


if "before" in sys.argv[1:]:
    from cornelsonbefore import notation  # noqa: E402
    from cornelsonbefore.engine.search import Engine  # noqa: E402
else:
    from triad.games.cornelson import notation  # noqa: E402
    from triad.games.cornelson.engine.search import Engine  # noqa: E402

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


def run(budget):
    """(nodes, us, the searches' turn/nodes/depth) of one pass over the
    positions."""
    eng = Engine(5)
    total = 0
    nodes = 0
    out = []
    for text in POSITIONS:
        pos = notation.parse_position(text)
        eng.seed(1)
        gc.collect()
        t0 = now_us()
        m = eng.choose(pos, 1 << 28, no_clock, None, budget)
        total += since_us(t0)
        nodes += eng.nodes
        out.append("%d/%d/d%d" % (m, eng.nodes, eng.depth))
    return nodes, total, " ".join(out)


def main():
    reps = 1 if QUICK else 7  # (best of reps: the machine is shared)
    for budget in BUDGETS:
        best = None
        for _ in range(reps):
            r = run(budget)
            if best is None or r[1] < best[1]:
                best = r
        tag = "cornelson_engine_n%d" % budget
        print("%s_rate: %d nodes/s (%s)" % (tag, int(best[0] * 1e6 / best[1]), best[2]))
        print("%s_us_per_node: %.1f us" % (tag, best[1] / best[0]))


main()
