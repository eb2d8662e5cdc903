# The benchmark suite of issue 7. Runs unchanged under the MicroPython unix
# port and CPython; bench/bench.py runs it under both and labels the lines.
#
#   micropython -X heapsize=192K bench/suite.py [quick]
#
# Prints one line per figure, "name: value unit". Lines starting "@" are
# for bench.py: "@meminfo <where>" is followed by micropython.mem_info()'s
# own output (its "max blk sz" is the largest live allocation then).
# Firmware figures run over bench/fakehw.py's stand-in pins, with the
# matrix settle delay switched off (see scan_us in docs/performance.md).
import gc
import sys

try:
    import micropython

    MP = True
except ImportError:
    MP = False

    class micropython:
        @staticmethod
        def heap_lock():
            pass

        @staticmethod
        def heap_unlock():
            return 0


# fw=DIR: the firmware from DIR (e.g. the .mpy build) instead of firmware/.
_here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
_fw = _here + "/../firmware"
for _a in sys.argv[1:]:
    if _a.startswith("fw="):
        _fw = _a[3:]
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


START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"
# 12 dice, 34 legal moves, 11 of them with removal choices (random play).
MIDGAME = "...b3../....w3w2/w2.w2w1../...b1b2./.b1b1..b1/...w2.. w 0 0"

QUICK = "quick" in sys.argv[1:]


def fig(name, value, unit):
    if isinstance(value, float):
        if value >= 100:
            value = "%d" % int(value + 0.5)
        elif value >= 1:
            value = "%.2f" % value
        else:
            value = "%.3f" % value
    print("%s: %s %s" % (name, value, unit))


def meminfo(where):
    if MP:
        gc.collect()
        print("@meminfo " + where)
        micropython.mem_info()


def best_of(n, fn):
    """Smallest time in us of n calls of fn() (and fn's last result)."""
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


# -- rules core ----------------------------------------------------------------


def bench_core():
    from triad.games import engine_kit
    from triad.games.nehren import core, notation
    import plain_nehren as plain

    reps = 1 if QUICK else 3
    out = {}
    for label, text, d_fast, d_plain in (
        ("start", START, 4, 3),
        ("midgame", MIDGAME, 3, 2),
    ):
        if QUICK:
            d_fast = d_plain
        # The plain one first, on a heap with nothing of the fast one in it.
        ppos = plain.parse(text)
        us, pnodes = best_of(reps, lambda: plain.perft(ppos, d_plain))
        plain_rate = pnodes * 1e6 / us
        ppos = None
        gc.collect()
        pos = notation.parse_position(text)
        stack = core.MoveStack(d_fast + 1)
        us, nodes = best_of(reps, lambda: engine_kit.perft(pos, d_fast, stack.buf))
        fast_rate = nodes * 1e6 / us
        fig("perft_%s_d%d" % (label, d_fast), nodes, "nodes")
        fig("perft_%s_rate" % label, fast_rate, "nodes/s")
        # Both implementations must agree on the count the plain one made.
        check = engine_kit.perft(pos, d_plain, stack.buf)
        if check != pnodes:
            raise AssertionError("perft mismatch %d != %d" % (check, pnodes))
        stack = None
        fig("perft_%s_plain_rate" % label, plain_rate, "nodes/s")
        fig("perft_%s_speedup" % label, fast_rate / plain_rate, "x")
        out[label] = fast_rate / plain_rate

    # Legal destinations of a lifted die: Position.gen for one die, as the
    # controller does on a lift, for every die of the side to move.
    pos = notation.parse_position(MIDGAME)
    buf = core.MoveStack(1).buf
    own = [sq for sq in core.CELLS if pos.board[sq] and (pos.board[sq] >> 2) == pos.side]
    worst = 0
    total = 0
    n = 0
    for sq in own:
        def dests():
            for _ in range(100):
                pos.gen(buf, 0, sq)

        t, _ = best_of(3, dests)
        t /= 100
        total += t
        n += 1
        if t > worst:
            worst = t
    fig("lifted_dests_mean", total / n, "us")
    fig("lifted_dests_worst", worst, "us")
    return out


# -- firmware over fake pins ---------------------------------------------------


class Board:
    """The whole firmware (App) over fakehw pins, a clock in ms, and a hand
    that plays moves on the switches as a player would."""

    def __init__(self, root):
        import fakehw
        from triad.boards import pico_v1

        self.world = fakehw.World(pico_v1)
        fakehw.install(self.world)
        from triad.drivers import rp2

        # The settle delay is a sleep on the board (6 x SETTLE_US per scan);
        # on the unix port a syscall would swamp the figure, so it is off here.
        rp2.sleep_us = _no_sleep
        from triad.app import App

        self.serial = fakehw.Serial()
        self.app = App(pico_v1, rp2.Hardware(pico_v1), self.serial, 1234, root)
        self.now = 1000
        self.sync()

    def tick(self):
        self.now += 10
        self.app.tick(self.now)

    def wait(self, ms):
        for _ in range(ms // 10):
            self.tick()

    def sync(self):
        """Put the dice where the game expects them and let them settle."""
        self.world.set_cells(self.app.ctl.expected)
        self.wait(1000)

    def set_cell(self, cell, v):
        occ = bytearray(36)
        cmap = self.world.desc.MATRIX_CELL
        for m in range(36):
            occ[cmap[m]] = self.world.closed[m]
        occ[cell] = v
        self.world.set_cells(occ)

    def play(self, m):
        """Lift, place (and remove) as the move says; True once committed."""
        from triad.games.nehren import site_of_square as cell_of_sq

        ctl = self.app.ctl
        before = len(ctl.record.history)
        fr = cell_of_sq(m & 127)
        to = cell_of_sq((m >> 7) & 127)
        rem = (m >> 18) & 127
        self.set_cell(fr, 0)
        self.wait(100)
        self.set_cell(to, 1)
        self.wait(900)
        if rem:
            self.set_cell(cell_of_sq(rem), 0)
            self.wait(900)
        return len(ctl.record.history) == before + 1


def _no_sleep(us):
    pass


def tmp_root():
    import os

    base = "/tmp/triad-bench-%d" % (time.time_ns() if hasattr(time, "time_ns") else int(time.time() * 1e9))
    os.mkdir(base)
    return base


def rm_tree(path):
    import os

    for name in os.listdir(path):
        p = path + "/" + name
        try:
            os.remove(p)
        except OSError:
            rm_tree(p)
    os.rmdir(path)


class Lcg:
    def __init__(self, seed):
        self.s = seed

    def next(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 8) % n


def placeable_moves(pos, buf):
    """Moves a hand can make by lifting and placing (not a Note 2 turn in
    place, which needs the buttons)."""
    n = pos.gen(buf, 0)
    return [buf[i] for i in range(n) if (buf[i] & 127) != ((buf[i] >> 7) & 127)]


def bench_firmware(root):
    from triad.games.nehren import core, notation
    from triad.board import controller as C
    from triad.games.nehren import site_of_square

    b = Board(root)
    app = b.app
    ctl = app.ctl
    meminfo("after start-up")
    gc.collect()
    if MP:
        fig("heap_free_after_startup_in_bench", gc.mem_free(), "B")

    # Steady state: a game in PLAY, nothing touched.
    ctl.start_position(MIDGAME)
    b.sync()
    assert ctl.state == C.PLAY, ctl.state_name()
    n = 200 if not QUICK else 50
    scanner = app.scanner
    raw = app.raw
    matrix = app.hw.matrix

    def scans():
        t = b.now
        for _ in range(n):
            t += 10
            matrix.read_into(raw)
            scanner.update(raw, t)

    us, _ = best_of(3, scans)
    fig("scan_us", us / n, "us")

    def ticks():
        for _ in range(n):
            b.tick()

    us, _ = best_of(3, ticks)
    fig("app_tick_us", us / n, "us")

    occ = scanner.stable
    frame = app.frame

    def updates():
        t = b.now
        for _ in range(n):
            t += 10
            ctl.update(t, occ, 5000, -1)

    us, _ = best_of(3, updates)
    fig("ctl_update_us", us / n, "us")
    leds = app.hw.leds

    def frames():
        t = b.now
        for _ in range(n):
            t += 10
            ctl.render(frame, t, occ)
            leds.show(frame)

    us, _ = best_of(3, frames)
    fig("led_frame_us", us / n, "us")

    # Allocations per steady tick (App.tick: scan, buttons, controller,
    # render, LEDs, serial): each tick alone under heap_lock, so a tick that
    # allocates raises MemoryError and is counted; and the bytes allocated
    # with the collector off.
    def count_alloc_ticks(fn, k):
        bad = 0
        for _ in range(k):
            micropython.heap_lock()
            try:
                fn()
            except MemoryError:
                bad += 1
            finally:
                micropython.heap_unlock()
        return bad

    def alloc_bytes(fn, k):
        if not MP:
            return 0
        gc.collect()
        gc.disable()
        a0 = gc.mem_alloc()
        for _ in range(k):
            fn()
        a1 = gc.mem_alloc()
        gc.enable()
        return (a1 - a0) / k

    def one_scan():
        b.now += 10
        matrix.read_into(raw)
        scanner.update(raw, b.now)

    if MP:
        fig("alloc_ticks_steady", count_alloc_ticks(b.tick, 100), "of 100 ticks allocating")
        fig("alloc_bytes_per_tick", alloc_bytes(b.tick, 100), "B/tick")
        fig("alloc_scans", count_alloc_ticks(one_scan, 100), "of 100 scans allocating")
        fig("alloc_bytes_per_scan", alloc_bytes(one_scan, 100), "B/scan")
        b.wait(100)
        # A die held in the hand (destinations computed on the first tick).
        sq = [s for s in core.CELLS if ctl.pos.board[s] and (ctl.pos.board[s] >> 2) == ctl.pos.side][0]
        b.set_cell(site_of_square(sq), 0)
        b.wait(100)
        fig("alloc_ticks_lifted", count_alloc_ticks(b.tick, 100), "of 100 ticks allocating")
        b.set_cell(site_of_square(sq), 1)
        b.wait(1000)

    # Worst tick with a die lifted: the tick that sees the lift computes the
    # destinations and draws them (update + render + LED frame), per own die.
    # A die's figure is the best of its 3 repetitions: what the code costs,
    # not a moment the host's scheduler gave the CPU to another process (a
    # fresh-clone `make test` with the emulated tests beside it measured one
    # repetition at 4 055 us and the mean at 273, against 58 and 49 idle).
    worst = 0
    total = 0
    k = 0
    own = [s for s in core.CELLS if ctl.pos.board[s] and (ctl.pos.board[s] >> 2) == ctl.pos.side]
    t = b.now
    for s in own:
        cell = site_of_square(s)
        best = -1
        for rep in range(3):
            ctl.matcher.dest_from = -1  # as on a fresh lift
            occ2 = bytearray(ctl.expected)
            occ2[cell] = 0
            t += 10
            gc.collect()
            t0 = now_us()
            ctl.update(t, occ2, 5000, -1)
            ctl.render(frame, t, occ2)
            leds.show(frame)
            dt = since_us(t0)
            total += dt
            k += 1
            if best < 0 or dt < best:
                best = dt
            ctl.update(t, ctl.expected, 5000, -1)
        if best > worst:
            worst = best
    fig("lifted_tick_mean", total / k, "us")
    fig("lifted_tick_worst", worst, "us (the worst die, each its best of 3)")
    meminfo("steady play")

    # A long game: moves played on the switches through App.tick; new games
    # when one ends. Free heap (after a collection) is sampled every move.
    rng = Lcg(99)
    buf = core.MoveStack(1).buf
    moves = 0
    games = 0
    low = None
    target = 300 if not QUICK else 40
    ctl.start_position(START)
    b.sync()
    while moves < target:
        if ctl.state == C.OVER or ctl.state != C.PLAY:
            games += 1
            ctl.start_position(START)
            b.sync()
            continue
        cand = placeable_moves(ctl.pos, buf)
        if not cand:
            games += 1
            ctl.start_position(START)
            b.sync()
            continue
        m = cand[rng.next(len(cand))]
        if not b.play(m):
            raise AssertionError("move %s was not taken" % notation.format_move(m))
        moves += 1
        if MP:
            gc.collect()
            f = gc.mem_free()
            if low is None or f < low:
                low = f
            if moves % 100 == 0:
                meminfo("long game, move %d" % moves)
    fig("long_game_moves", moves, "moves in %d games" % (games + 1))
    if MP:
        fig("heap_free_long_game_min", low, "B")
    fig("long_game_errors", app.errors, "exceptions")


def main():
    if MP:
        fig("heap_total", gc.mem_free() + gc.mem_alloc(), "B")
    bench_core()
    root = tmp_root()
    try:
        bench_firmware(root)
    finally:
        rm_tree(root)


main()
