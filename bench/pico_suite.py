# The emulated-Pico figures of `make bench` (issue 7, engine budget of
# issue 8). Runs ON the board's UF2 in rp2040py (bench/bench.py sends it
# with host_tools.emulator), with the firmware frozen and the real drivers:
# real machine.Pin reads with the SETTLE_US waits, the real bitstream of the
# 44 LEDs, the real USB console. Times are time.ticks_us()/ticks_ms(), i.e.
# EMULATED RP2040 time (docs/performance.md says what that does and does not
# tell about a real Pico).
#
#   python -m host_tools.emulator bench/pico_suite.py [quick] [engine]
#
# "engine": the engine figures of issue 8 -- three positions at 3 s of
# emulated time each (otherwise one position at 1 s: the node rate only;
# the emulator runs far slower than a real Pico, see bench.py).
# Prints "name: value unit" lines (bench.py prefixes them with "pico.").
# The emulated board has no dice on its switches, so the steady-play figures
# read the real pins and then put the game's occupancy into the raw scan
# (see Overlay): the pin reads cost what they cost, the controller sees a
# board that matches the game.
import gc
import sys
import time

import micropython

ARGS = getattr(sys, "argv", [])[1:]  # a real board run by `mpremote run` has none
QUICK = "quick" in ARGS
ENGINE = "engine" in ARGS
START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"
MIDGAME = "...b3../....w3w2/w2.w2w1../...b1b2./.b1b1..b1/...w2.. w 0 0"
OPENING = "w3...w1w1/..w1.../...w2../.w2.b1.b1/....b1./b1..b2b3. b 0 0"

us = time.ticks_us
diff = time.ticks_diff


def fig(name, value, unit):
    if isinstance(value, float):
        value = "%d" % int(value + 0.5) if value >= 100 else "%.2f" % value
    print("%s: %s %s" % (name, value, unit))


def timed(n, fn):
    """(mean, worst) us of n calls of fn()."""
    total = 0
    worst = 0
    for _ in range(n):
        t0 = us()
        fn()
        dt = diff(us(), t0)
        total += dt
        if dt > worst:
            worst = dt
    return total / n, worst


gc.collect()
fig("heap_total", gc.mem_free() + gc.mem_alloc(), "B")


def empty_loop(n):
    for _ in range(n):
        pass


# Calibration: the same script on a real Pico (`mpremote run
# bench/pico_suite.py`) gives the real figure to scale the emulated ones by.
t0 = us()
empty_loop(1000)
fig("empty_loop_us", diff(us(), t0) / 1000, "us per iteration of `for _ in range(n): pass`")
fig("heap_free_after_boot", gc.mem_free(), "B (frozen main.py stopped)")
# The stopped main.py imported the firmware: forget it, so its import is
# measured here as the board pays it at power-up.
for _m in list(sys.modules):
    if _m == "triad" or _m.startswith("triad."):
        del sys.modules[_m]
gc.collect()
_free_boot = gc.mem_free()

from triad import boards  # noqa: E402
from triad.app import App, _copy_if_changed  # noqa: E402
from triad.drivers import rp2 as _rp2  # noqa: E402,F401

# What importing the firmware takes with its bytecode and names frozen in
# flash (module dicts and classes only): the figure beside mp's and mp32's
# heap_firmware_import (bench/boot_heap.py), which load it into RAM.
gc.collect()
fig("heap_firmware_import", _free_boot - gc.mem_free(), "B (triad.app and the drivers, frozen)")
from triad.board import controller as C  # noqa: E402
from triad.board.player import ENGINE_TT  # noqa: E402
from triad.drivers import entropy, rp2, usb_serial  # noqa: E402
from triad.games import engine_kit  # noqa: E402
from triad.games.nehren import core, notation, site_of_square  # noqa: E402

desc = boards.ACTIVE
hw = rp2.Hardware(desc)
app = App(desc, hw, usb_serial.UsbSerial(), entropy.seed())
ctl = app.ctl


def run_ticks(n, period=True):
    """App.tick n times at the scan period, as App.run does: (mean, worst) us."""
    total = 0
    worst = 0
    nxt = time.ticks_ms()
    for _ in range(n):
        t0 = us()
        app.tick(time.ticks_ms())
        dt = diff(us(), t0)
        total += dt
        if dt > worst:
            worst = dt
        nxt = time.ticks_add(nxt, app.period_ms)
        w = time.ticks_diff(nxt, time.ticks_ms())
        if period and w > 0:
            time.sleep_ms(w)
    return total / n, worst


# Start-up: the App over the real drivers, as main.py builds it, then ticks
# on the empty board (a fresh set-up waiting for its dice).
m, w = run_ticks(20 if QUICK else 30)
gc.collect()
fig("heap_free_after_startup", gc.mem_free(), "B (App built, %s ticks)" % (20 if QUICK else 30))
fig("app_tick_empty_board_mean", m, "us")
fig("app_tick_empty_board_worst", w, "us")


class Overlay:
    """The real matrix read, then the game's occupancy put into raw."""

    def __init__(self, matrix, ctl):
        self.m = matrix
        self.ctl = ctl

    def read_into(self, raw):
        self.m.read_into(raw)
        _copy_if_changed(self.ctl.expected, raw)  # pico_v1: matrix order is cell order


matrix = hw.matrix
hw.matrix = Overlay(matrix, ctl)
ctl.start_position(MIDGAME)
# The dice settle (DEBOUNCE scans; the 800 ms rest is waived here to save
# emulator time: nothing measured depends on it).
ctl.settle_ms = 0
run_ticks(10)
ctl.settle_ms = C.SETTLE_MS
assert ctl.state == C.PLAY, ctl.state_name()

n = 30 if QUICK else 100
m, w = run_ticks(n)
fig("app_tick_mean", m, "us (steady play, 10 ms scan period)")
fig("app_tick_worst", w, "us")

# Allocations in steady play: bytes over 50 ticks (in a function: module
# level code here stores globals, which allocates), and ticks under heap_lock.
def alloc_bytes(n):
    tick = app.tick
    ticks_ms = time.ticks_ms
    gc.collect()
    a0 = gc.mem_alloc()
    for _ in range(n):
        tick(ticks_ms())
    return gc.mem_alloc() - a0


fig("alloc_bytes_per_tick", alloc_bytes(50) / 50, "B/tick")
bad = 0
for _ in range(50):
    micropython.heap_lock()
    try:
        app.tick(time.ticks_ms())
    except MemoryError:
        bad += 1
    finally:
        micropython.heap_unlock()
fig("alloc_ticks_steady", bad, "of 50 ticks allocating")

# The parts of a tick.
raw = app.raw
scanner = app.scanner
t = [time.ticks_ms()]


def scan():
    t[0] += 10
    matrix.read_into(raw)
    scanner.update(raw, t[0])


k = 20 if QUICK else 50
scan_m, scan_w = timed(k, scan)
fig("scan_us", scan_m, "us (matrix read with %d x %d us settle + debounce)" % (len(desc.ROW_PINS), desc.SETTLE_US))
fig("scan_worst", scan_w, "us")
occ = bytearray(ctl.expected)
now = time.ticks_ms()
ctl_m, ctl_w = timed(k, lambda: ctl.update(now, occ, 5000, -1))
fig("ctl_update_us", ctl_m, "us (steady play)")
fig("ctl_update_worst", ctl_w, "us")
fig("scan_plus_ctl_worst", scan_w + ctl_w, "us")
levels = app.levels
bts = app.buttons
m, w = timed(k, lambda: (hw.buttons.read_into(levels), bts.update(levels, now)))
fig("buttons_us", m, "us (4 pins + debounce)")
frame = app.frame
leds = hw.leds
m, w = timed(k, lambda: ctl.render(frame, now, occ))
fig("render_us", m, "us (steady play)")
m, w = timed(k, lambda: leds.show(frame))
fig("led_show_us", m, "us (scale + bitstream of %d LEDs)" % leds.n)
m, w = timed(k, lambda: leds._np.write())
fig("led_bitstream_us", m, "us")
m, w = timed(k, lambda: app.protocol.poll())
fig("protocol_poll_us", m, "us")
m, w = timed(k, lambda: app.serial.read())
fig("serial_read_us", m, "us")

# A die lifted: the tick that sees it computes the destinations and draws
# them (controller update + render + LED frame), per die of the side to move.
pos = ctl.pos
own = [s for s in core.CELLS if pos.board[s] and (pos.board[s] >> 2) == pos.side]
total = 0
worst = 0
for s in own:
    cell = site_of_square(s)
    ctl.matcher.dest_from = -1  # as on a fresh lift
    occ2 = bytearray(ctl.expected)
    occ2[cell] = 0
    now += 10
    gc.collect()
    t0 = us()
    ctl.update(now, occ2, 5000, -1)
    ctl.render(frame, now, occ2)
    leds.show(frame)
    dt = diff(us(), t0)
    total += dt
    if dt > worst:
        worst = dt
    ctl.update(now, ctl.expected, 5000, -1)
fig("lifted_tick_mean", total / len(own), "us (%d dice)" % len(own))
fig("lifted_tick_worst", worst, "us")
hw.matrix = matrix

# Rules core: perft from the start position.
pos = notation.parse_position(START)
d = 2 if QUICK else 3
stack = core.MoveStack(d + 1)
gc.collect()
t0 = time.ticks_ms()
nodes = engine_kit.perft(pos, d, stack.buf)
ms = time.ticks_diff(time.ticks_ms(), t0)
fig("perft_start_d%d" % d, nodes, "nodes")
fig("perft_start_rate", nodes * 1000 / ms, "nodes/s")
stack = None

# The engine as the board makes it (player.ENGINE_TT entries) while the
# App runs, its RAM, and what it reaches in 3 s of emulated time per move.
own = occ2 = pos = None
gc.collect()
free0 = gc.mem_free()
from triad.games.nehren.engine.search import Engine  # noqa: E402

gc.collect()
free1 = gc.mem_free()
eng = Engine(5, ENGINE_TT)
gc.collect()
free2 = gc.mem_free()
fig("engine_import_bytes", free0 - free1, "B")
fig("engine_object_bytes", free1 - free2, "B (Engine(5, %d))" % ENGINE_TT)
fig("heap_free_with_engine", free2, "B (App running, engine imported and made)")
budget = 3000 if ENGINE else 1000
positions = (("start", START), ("opening", OPENING), ("midgame", MIDGAME)) if ENGINE else (("midgame", MIDGAME),)
tot_nodes = 0
tot_ms = 0
for label, text in positions:
    pos = notation.parse_position(text)
    t0 = time.ticks_ms()
    mv = eng.choose(pos, budget, time.ticks_ms, [], 0)
    ms = time.ticks_diff(time.ticks_ms(), t0)
    tot_nodes += eng.nodes
    tot_ms += ms
    fig("engine_%s_nodes" % label, eng.nodes, "nodes in %d ms (depth %d, %s)" % (ms, eng.depth, notation.format_move(mv)))
    fig("engine_%s_depth" % label, eng.depth, "plies")
fig("engine_rate", tot_nodes * 1000 / tot_ms, "nodes/s")
fig("engine_nodes_per_move", tot_nodes // len(positions), "nodes (mean over %d positions, %d ms budget)" % (len(positions), budget))
