# The whole main-loop tick (App.tick: scan, debounce, buttons, controller,
# render, LEDs, serial) stays allocation-free in steady play, while a die is
# lifted (destinations computed and drawn) and when it is put back, over fake
# pins. heap_lock makes any allocation raise MemoryError on MicroPython; on
# CPython the same code just runs.
import os

from triad.compat import micropython
from triad.board import controller as C
from test_scan import Desc, World, fresh_rp2, forget_rp2


class Serial:
    def read(self, limit=64):
        return b""

    def write(self, text):
        pass


def tmp_dir():
    # A folder of this process's own: the clock alone is not unique (the
    # tests run on a simulated clock, so two test processes side by side,
    # make test-cpython's workers, read the same time), nor is it after a
    # run that stopped before removing its folder.
    import time

    stamp = time.ticks_us() if hasattr(time, "ticks_us") else int(time.time() * 1e6)
    pid = os.getpid() if hasattr(os, "getpid") else 0
    k = 0
    while True:
        base = "/tmp/triad-apptick-%d-%d-%d" % (pid, stamp, k)
        try:
            os.mkdir(base)
            return base
        except OSError:
            k += 1
            if k > 999:
                raise


def rm_tree(path):
    for name in os.listdir(path):
        try:
            os.remove(path + "/" + name)
        except OSError:
            rm_tree(path + "/" + name)
    os.rmdir(path)


def test_app_tick_allocates_nothing_in_steady_play_and_with_a_die_lifted():
    from triad.app import App

    d = Desc()
    w = World(d)
    root = tmp_dir()
    try:
        rp2 = fresh_rp2(w)
        app = App(d, rp2.Hardware(d), Serial(), 7, root)
        ctl = app.ctl
        ctl.start_position("w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0")
        cmap = d.MATRIX_CELL

        def put(occ):
            for m in range(36):
                w.closed[m] = 1 if occ[cmap[m]] else 0

        put(ctl.expected)
        now = 1000
        for _ in range(150):
            now += 10
            app.tick(now)
        assert ctl.state == C.PLAY
        c1 = 2  # cell c1: a black 2
        lifted = bytearray(ctl.expected)
        lifted[c1] = 0
        micropython.heap_lock()
        try:
            for k in range(300):
                if k == 100:
                    put(lifted)
                if k == 200:
                    put(ctl.expected)
                now += 10
                app.tick(now)
                if k == 150:
                    # The die is in the hand: its destinations are lit.
                    assert ctl.matcher.lifted == c1 and ctl.matcher.dest_from == c1
        finally:
            micropython.heap_unlock()
        assert ctl.state == C.PLAY and ctl.record.moves_text() == ""
        assert app.hw.leds._np.writes > 0
    finally:
        forget_rp2()
        rm_tree(root)
