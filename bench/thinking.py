# Issue 15 figures with a real clock: the longest gap between two scans
# while the engine searches, the budget overrun, the cancel latency.
# Runs on the MicroPython unix port or CPython over the fake pins of
# tests/fw (MICROPYPATH=firmware:tests/fw micropython bench/thinking.py),
# and its core (measure()) on the emulated Pico with the board's own App.
import time

from triad.board import controller as C
from triad.board import thinker as T

try:
    ticks_us = time.ticks_us
    ticks_ms = time.ticks_ms
    sleep_ms = time.sleep_ms
except AttributeError:  # CPython
    def ticks_us():
        return int(time.monotonic() * 1e6) & 0x3FFFFFFF

    def ticks_ms():
        return int(time.monotonic() * 1e3) & 0x3FFFFFFF

    def sleep_ms(ms):
        time.sleep(ms / 1000)
from triad.compat import ticks_diff

START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"


def measure(app, put, budget_ms=1000, hint_after_ms=100):
    """app: a running App (board matches START). Returns a dict of figures."""
    ctl = app.ctl
    th = app.thinker
    marks = {"gap": 0, "last": None, "busy_ticks": 0}
    orig = ctl.update

    def update(now, occ, stable_ms, button=-1):
        t = ticks_us()
        if th.state == T.BUSY:
            marks["busy_ticks"] += 1
            if marks["last"] is not None:
                g = ticks_diff(t, marks["last"])
                if g > marks["gap"]:
                    marks["gap"] = g
            hook = marks.get("hook")
            if hook:
                hook(now)
        marks["last"] = t
        orig(now, occ, stable_ms, button)

    ctl.update = update
    orig_run = th.run

    def run():
        marks["t0"] = ticks_us()
        orig_run()
        marks["t1"] = ticks_us()

    th.run = run
    orig_cancel = th.cancel

    def cancel():
        if th.state == T.BUSY and "cancel" not in marks:
            marks["cancel"] = ticks_us()
        orig_cancel()

    th.cancel = cancel
    ctl.seats.level = 5
    ctl.seats.think_ms = budget_ms
    ctl.seats.opponent = 0  # the board plays black, to move
    while not ctl.engine_move:
        app.step()
    out = {"search_gap_ms": marks["gap"] / 1000, "busy_ticks": marks["busy_ticks"],
           "think_ms": ticks_diff(marks["t1"], marks["t0"]) / 1000, "budget_ms": budget_ms,
           "nodes": ctl.seats.player.engine.nodes, "depth": ctl.seats.player.engine.depth}
    # A hint, cancelled by lifting one of the mover's pieces after hint_after_ms.
    ctl.seats.opponent = C.OPPONENT_OFF
    ctl.matcher.engine_move = 0
    ctl.seats.thinking = False
    marks["gap"] = 0
    marks["last"] = None
    src = -1
    for i in range(ctl.n):
        if ctl.game.owner(ctl.pos, i) == ctl.pos.side:
            src = i
            break
    occ = bytearray(ctl.expected)
    occ[src] = 0

    def hook(now):
        if "lift" not in marks and ticks_diff(ticks_us(), marks["t0"]) >= hint_after_ms * 1000:
            marks["lift"] = ticks_us()
            put(occ)

    marks["hook"] = hook
    for k in ("t1", "lift", "cancel"):
        marks.pop(k, None)
    ctl._button(C.BTN_HINT << 1, ticks_ms())
    while "t1" not in marks:
        app.step()
    out["hint_gap_ms"] = marks["gap"] / 1000
    if "cancel" in marks:
        out["lift_to_cancel_ms"] = ticks_diff(marks["cancel"], marks["lift"]) / 1000
        out["cancel_latency_ms"] = ticks_diff(marks["t1"], marks["cancel"]) / 1000
    put(ctl.expected)
    return out


def main():
    import os
    from test_scan import Desc, World, fresh_rp2, forget_rp2
    from triad.app import App

    d = Desc()
    w = World(d)
    root = "/tmp/triad-thinkbench-%d" % ticks_us()
    os.mkdir(root)
    rp2 = fresh_rp2(w)

    class Serial:
        def read(self, limit=64):
            return b""

        def write(self, text):
            pass

    app = App(d, rp2.Hardware(d), Serial(), 7, root, ticks_ms=ticks_ms, sleep_ms=sleep_ms)
    ctl = app.ctl
    ctl.seats.set_opponent(C.OPPONENT_OFF)
    ctl.start_position(START)
    cmap = d.MATRIX_CELL

    def put(occ):
        for m in range(36):
            w.closed[m] = 1 if occ[cmap[m]] else 0

    put(ctl.expected)
    app.next_tick = ticks_ms()
    while ctl.state != C.PLAY:
        app.step()
    r = measure(app, put)
    for k in sorted(r):
        print("%s: %s" % (k, r[k]))
    forget_rp2()


main()
