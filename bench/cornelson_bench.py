# Speed of Cornelson's TRIAD rules core against a plain implementation that
# is not wasteful (bench/plain_cornelson_phase.py: the jewel phase once per
# set of captured posts at the last ply, issue 26) on the same interpreter,
# same positions:
#   micropython bench/cornelson_bench.py [quick]
#   python3 bench/cornelson_bench.py
# Prints "name: value unit" lines, ending with
#   cornelson_perft_ratio: <x> x
# the geometric mean over the positions of the fast core's speed over the
# plain one's on the same perft tree (the plain one's depth).
import gc
import sys

_here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
for _p in (_here + "/../firmware", _here):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import time

if hasattr(time, "ticks_us"):

    def now_us():
        return time.ticks_us()

    def since_us(t0):
        return time.ticks_diff(time.ticks_us(), t0)

else:

    def now_us():
        return time.perf_counter()

    def since_us(t0):
        return (time.perf_counter() - t0) * 1e6


from triad.games import engine_kit  # noqa: E402
from triad.games.cornelson import core, notation  # noqa: E402

import plain_cornelson_phase as plain  # noqa: E402

QUICK = "quick" in sys.argv[1:]

# label, position, depth for the fast core, depth for the plain one
POSITIONS = (
    ("start", plain.START, 3, 2),
    (
        "midgame",
        "..s./.n.s./..ns../..ssn../.nns../..s../.... S:b6,c4,P1 N:c8,e5,P9! s 2 1",
        2,
        2,
    ),
    (
        "crowded",
        "n.s./sn.ns/.nsns./ns.s.ns/.snns./ns.n./s.n. S:a4,c5,d2 N:d7,e4,c9 n 3 4",
        2,
        2,
    ),
)


def best_of(n, fn):
    best = None
    res = None
    for _ in range(n):
        gc.collect()
        t0 = now_us()
        res = fn()
        us = since_us(t0)
        if best is None or us < best:
            best = us
    return best, res


def main():
    reps = 1 if QUICK else 3
    product = 1.0
    k = 0
    for label, text, d_fast, d_plain in POSITIONS:
        if QUICK:
            d_plain = 1
            d_fast = 2
        # The plain one once (it takes seconds: timer noise is small), first,
        # on a heap with nothing of the fast one in it.
        st = plain.parse(text)
        us, pnodes = best_of(1, lambda: plain.perft(st, d_plain))
        plain_rate = pnodes * 1e6 / us
        st = None
        gc.collect()
        pos = notation.parse_position(text)
        stack = core.MoveStack(d_fast + 1)
        us, nodes = best_of(reps, lambda: engine_kit.perft(pos, d_fast, stack.buf))
        fast_rate = nodes * 1e6 / us
        # The ratio compares the two at the plain one's depth: the same tree.
        us, check = best_of(reps, lambda: engine_kit.perft(pos, d_plain, stack.buf))
        if check != pnodes:
            raise AssertionError("perft mismatch at %s: %d != %d" % (label, check, pnodes))
        stack = None
        ratio = check * 1e6 / us / plain_rate
        print("cornelson_perft_%s_d%d: %d nodes" % (label, d_fast, nodes))
        print("cornelson_perft_%s_rate: %d nodes/s" % (label, fast_rate))
        print("cornelson_perft_%s_plain_rate: %d nodes/s" % (label, plain_rate))
        print("cornelson_perft_%s_speedup_d%d: %.1f x" % (label, d_plain, ratio))
        product *= ratio
        k += 1
    print("cornelson_perft_ratio: %.1f x" % (product ** (1.0 / k)))


main()
