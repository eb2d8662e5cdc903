# Runs ON the emulated Pico: where one tick of the main loop spends its
# time while the board thinks (docs/performance.md, "The tick while the
# board thinks"), in emulated microseconds.
#
#   .venv-pico/bin/python -m host_tools.emulator --uf2 build/triad-board-<board>.uf2 \
#       bench/pico_tick_parts.py GAME [BUDGET_MS]
#
# The App over the real drivers (build/triad-board-<board>.uf2 for GAME's
# board), the game's start position sensed (the real matrix is read, then
# the occupancy put into the raw scan, as tests/pico/device_thinking.py
# does: its cost is the `overlay` line, not the board's), then the board
# plays the side to move at level 5 for BUDGET_MS (default 1 500). While it
# searches every tick runs App.tick's steps one by one with the clock read
# between them; printed: each step's mean time per tick, for 50 quiet ticks
# before the search and for the ticks inside it.
import sys
import time

from triad.app import App, _copy_if_changed
from triad.board import controller as C
from triad.drivers import entropy, rp2, usb_serial
from triad import games

ARGS = getattr(sys, "argv", [])[1:]
GAME = ARGS[0] if ARGS else "nehren"
BUDGET = int(ARGS[1]) if len(ARGS) > 1 else 1500
if GAME == "nehren":
    from triad.boards import pico_v1 as desc
elif GAME == "browne":
    from triad.boards import hex_v1 as desc
else:
    from triad.boards import tri_v1 as desc
us = time.ticks_us
ms = time.ticks_ms
diff = time.ticks_diff
game = games.load(GAME)
N = game.N_SITES

hw = rp2.Hardware(desc)
app = App(desc, hw, usb_serial.UsbSerial(), entropy.seed())
ctl = app.ctl
matrix = hw.matrix
# The occupancy in matrix order (raw's: MATRIX_CELL maps each matrix
# position to its site; the positions without a switch read open).
sensed = bytearray(len(desc.MATRIX_CELL))
AT = bytearray(N)  # site -> its matrix position
for _p in range(len(desc.MATRIX_CELL)):
    if desc.MATRIX_CELL[_p] < N:
        AT[desc.MATRIX_CELL[_p]] = _p

NAMES = ("matrix", "overlay", "scan", "btnread", "btnupd", "ctlupd", "render", "compare", "show", "poll", "serial", "tick")
T = [0] * len(NAMES)
CNT = [0]
SHOWS = [0]
ON = [0]


def tick(now):
    # App.tick's steps (the lessons are never asked for here, the piezo off)
    t0 = us()
    raw = app.raw
    matrix.read_into(raw)
    t1 = us()
    _copy_if_changed(sensed, raw)
    t2 = us()
    app.scanner.update(raw, now)
    t3 = us()
    hw.buttons.read_into(app.levels)
    t4 = us()
    app.buttons.update(app.levels, now)
    ev = app.buttons.pop()
    t5 = us()
    stable = app.scanner.stable
    ctl.update(now, stable, app.scanner.stable_for(now), ev)
    t6 = us()
    ctl.render(app.frame, now, stable)
    t7 = us()
    changed = _copy_if_changed(app.frame, app.shown)
    t8 = us()
    if changed:
        hw.leds.show(app.frame)
        SHOWS[0] += ON[0]
    t9 = us()
    app.protocol.poll()
    t10 = us()
    data = app.serial.read()
    t11 = us()
    if data:
        app.protocol.feed(data)
    if not ON[0]:
        return
    t = T
    t[0] += diff(t1, t0)
    t[1] += diff(t2, t1)
    t[2] += diff(t3, t2)
    t[3] += diff(t4, t3)
    t[4] += diff(t5, t4)
    t[5] += diff(t6, t5)
    t[6] += diff(t7, t6)
    t[7] += diff(t8, t7)
    t[8] += diff(t9, t8)
    t[9] += diff(t10, t9)
    t[10] += diff(t11, t10)
    t[11] += diff(us(), t0)
    CNT[0] += 1


app.tick = tick


def steps_until(cond, limit_ms):
    t0 = ms()
    while not cond():
        app.step()
        if diff(ms(), t0) > limit_ms:
            return False
    return True


def report(what):
    n = CNT[0] or 1
    print("%s: %d ticks, %d LED frames written" % (what, CNT[0], SHOWS[0]))
    for k in range(len(NAMES)):
        print("  %-8s %7.1f us" % (NAMES[k], T[k] / n))
    for k in range(len(T)):
        T[k] = 0
    CNT[0] = SHOWS[0] = 0


ctl.seats.set(0)
ctl.start_position(game.START)
ctl.settle_ms = 0
for i in range(N):
    sensed[AT[i]] = ctl.expected[i]
app.next_tick = ms()
print("in_play", steps_until(lambda: ctl.state == C.PLAY, 2000))
ctl.settle_ms = C.SETTLE_MS
ON[0] = 1
for _ in range(50):
    app.step()
report("quiet, not thinking")
ctl.seats.level = 5
ctl.seats.think_ms = BUDGET
ctl.seats.opponent = ctl.pos.side
t0 = ms()
steps_until(lambda: ctl.engine_move != 0, BUDGET + 8000)
eng = ctl.seats.player.engine
print("search: %d ms, %d nodes, %d clock reads" % (diff(ms(), t0), eng.nodes if eng else -1, app.thinker.checks))
report("while the board thinks")
