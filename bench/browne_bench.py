# Speed of Browne's Triad rules core: its perft against bench/plain_browne.py
# in the same interpreter. Runs unchanged under the MicroPython unix port and
# CPython:
#
#   micropython bench/browne_bench.py [quick]
#
# Prints "name: value unit" lines; the last is browne_perft_ratio, the fast
# core's leaf rate over the plain one's (geometric mean over the positions).
import gc
import sys

_here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
_fw = _here + "/../firmware"
for _p in (_fw, _here):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import time

if hasattr(time, "ticks_us"):

    def now_us():
        return time.ticks_us()

    def since_us(t0):
        return time.ticks_diff(time.ticks_us(), t0)

else:
    _pc = time.perf_counter

    def now_us():
        return _pc()

    def since_us(t0):
        return (_pc() - t0) * 1e6


START = (
    "R:C1,D1,D2,E1,E2,E3,F2,F3,G3 G:A3,A4,A5,B4,B5,B6,C5,C6,C7 "
    "B:G7,G8,G9,H7,H8,H9,I7,I8,I9 r"
)
# Ten plies of random play: 13 pieces, 98 turns for Blue.
MIDGAME = "R:B4,C1,D1,D2,E1,E2,G3 G:B5,H8,I7 B:D8,G4,I6 b"
QUICK = "quick" in sys.argv[1:]


def fig(name, value, unit):
    if isinstance(value, float):
        value = "%d" % int(value + 0.5) if value >= 100 else "%.2f" % value
    print("%s: %s %s" % (name, value, unit))


def best_of(n, fn):
    best = None
    r = None
    for _ in range(n):
        gc.collect()
        t0 = now_us()
        r = fn()
        dt = since_us(t0)
        if best is None or dt < best:
            best = dt
    return best, r


def main():
    from triad.games import engine_kit
    from triad.games.browne import core, notation
    import plain_browne as plain

    reps = 1 if QUICK else 3
    product = 1.0
    k = 0
    for label, text, d_fast, d_plain in (("start", START, 3, 2), ("midgame", MIDGAME, 3, 2)):
        if QUICK:
            d_fast = d_plain
        ppos = plain.parse(text)
        us, pnodes = best_of(reps, lambda: plain.perft(ppos, d_plain))
        plain_rate = pnodes * 1e6 / us
        ppos = None
        gc.collect()
        pos = notation.parse_position(text)
        # engine_kit's perft counts the last ply (core count), so d - 1
        # plies of whole turn lists
        stack = engine_kit.MoveStack(core.MAX_MOVES, max(1, d_fast - 1))
        us, nodes = best_of(reps, lambda: engine_kit.perft(pos, d_fast, stack.buf))
        fast_rate = nodes * 1e6 / us
        check = engine_kit.perft(pos, d_plain, stack.buf)
        if check != pnodes:
            raise AssertionError("perft mismatch %d != %d" % (check, pnodes))
        stack = None
        fig("browne_perft_%s_d%d" % (label, d_fast), nodes, "turns")
        fig("browne_perft_%s_rate" % label, fast_rate, "turns/s")
        fig("browne_perft_%s_plain_rate" % label, plain_rate, "turns/s")
        fig("browne_perft_%s_speedup" % label, fast_rate / plain_rate, "x")
        product *= fast_rate / plain_rate
        k += 1
    fig("browne_perft_ratio", product ** (1.0 / k), "x")


main()
