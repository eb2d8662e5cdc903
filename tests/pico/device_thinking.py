# Runs ON the emulated Pico (tests/pico/test_emulated_thinking.py and
# `make bench` send it with host_tools.emulator): the board thinks while
# its main loop goes on (issue 15), with the firmware frozen in the UF2 and
# the real drivers (machine.Pin reads with their settle waits, the LED
# bitstream, the USB console), in EMULATED time (time.ticks_us/ticks_ms of
# the emulated chip).
#
#   argv: [game [level [budget_ms]]]   game: nehren (pico_v1, the UF2's own
#   board), browne (hex_v1's pins), cornelson (tri_v1's pins); the level of
#   the board's own move (default 5: the whole budget is searched), its
#   budget (default the controller's THINK_BUDGET_MS).
#
# What it does, as App.run would (App.step: a tick, the search the
# controller asked for, sleep to the next tick):
#   1. The board plays the side to move in the game's start position; while
#      it searches, a piece of another side is knocked over (and put back
#      300 ms later). The search goes on and its move arrives.
#   2. The board plays nobody; the hint button is pressed; 150 ms into the
#      hint's search one of the mover's own pieces is lifted: the hint is
#      cancelled and the lifted piece's destinations show.
#   3. The hint again; 100 ms into its search the heap is collected and its
#      free size read (the engine made, a search under way); then a lift
#      cancels it.
# The emulated board has no pieces on its switches: as in bench/pico_suite.py
# the real matrix is read (the pin reads and settle waits cost what they
# cost) and then the sensed occupancy is put into the raw scan (Overlay);
# the hint button is put into the button levels the same way. The firmware
# is not changed: the App's tick, the thinker's run / cancel and the LED
# driver's show are wrapped on their instances to take the times.
#
# Prints "name: value unit" lines (bench.py prefixes them with "pico."),
# every name starting with "think_<game>_".
import gc
import sys
import time
from array import array

from triad.app import App, _copy_if_changed
from triad.board import controller as C
from triad.board import palette as pal
from triad.board import thinker as T
from triad.drivers import entropy, rp2, usb_serial
from triad import games

ARGS = getattr(sys, "argv", [])[1:]
GAME = ARGS[0] if ARGS else "nehren"
LEVEL = int(ARGS[1]) if len(ARGS) > 1 else 5
BUDGET = int(ARGS[2]) if len(ARGS) > 2 else C.THINK_BUDGET_MS
if GAME == "nehren":
    from triad.boards import pico_v1 as desc
elif GAME == "browne":
    from triad.boards import hex_v1 as desc
else:
    from triad.boards import tri_v1 as desc

us = time.ticks_us
ms = time.ticks_ms
diff = time.ticks_diff
P = "think_%s_" % GAME


def fig(name, value, unit=""):
    if isinstance(value, float):
        value = "%.1f" % value
    print("%s%s: %s %s" % (P, name, value, unit))


game = games.load(GAME)
N = game.N_SITES


class Overlay:
    """The real matrix read, then the board's occupancy in raw: `board` is
    it in matrix order (raw's: MATRIX_CELL maps each matrix position to its
    site; the positions without a switch read open), put(site, v) sets a
    site's."""

    def __init__(self, matrix):
        self.m = matrix
        cmap = desc.MATRIX_CELL
        self.board = bytearray(len(cmap))
        self.at = bytearray(N)  # site -> its matrix position
        for p in range(len(cmap)):
            if cmap[p] < N:
                self.at[cmap[p]] = p

    def put(self, site, v):
        self.board[self.at[site]] = v

    def read_into(self, raw):
        # Every reading of the switches, a tick's or one between ticks
        # (App._read_between: halfway while a switch changes, in the search's
        # clock reads): the gap the player's hand meets is between these.
        t = us()
        s = S
        if s[ACTIVE] or s[RPENDING]:
            g = diff(t, s[RPREV])
            if g > s[RGAP]:
                s[RGAP] = g
                s[RGAP_AT] = diff(t, s[RUN0]) // 100
            if s[ACTIVE]:
                s[NREADS] += 1
            s[RPENDING] = 0
        s[RPREV] = t
        self.m.read_into(raw)
        _copy_if_changed(self.board, raw)


class ButtonOverlay:
    """The real button pins read, then `held` (1 = the hint button down)."""

    def __init__(self, pins):
        self.p = pins
        self.held = 0

    def read_into(self, levels):
        self.p.read_into(levels)
        if self.held:
            levels[C.BTN_HINT] = 1


gc.collect()
hw = rp2.Hardware(desc)
app = App(desc, hw, usb_serial.UsbSerial(), entropy.seed())
ctl = app.ctl
th = app.thinker
board = Overlay(hw.matrix)
hw.matrix = board
btn = ButtonOverlay(hw.buttons)
hw.buttons = btn
gc.collect()
fig("heap_free_with_app", gc.mem_free(), "B (App running, no engine yet)")

# -- the measuring wrappers -----------------------------------------------------
# S: small ints only (stored without allocating).
ACTIVE = 0  # a search runs
PENDING = 1  # a search began or ended since the last tick: measure that gap too
PREV = 2  # the last tick's start (us)
GAP = 3  # the longest gap between two tick starts around / inside the search (us)
GAP_AT = 4  # the number of the tick ending that gap (1: the first tick after run() began)
NTICKS = 5  # ticks inside the search
TICK_US = 6  # time spent in those ticks
TICK_MAX = 7
RUN0 = 8  # run() began (us)
RUN1 = 9  # run() ended (us)
CANCEL = 10  # the thinker's cancel() while a search ran (us), 0: none
# (gc.mem_free() walks the heap: 8.7 ms on the emulated chip, so the heap
# is read once, in a search of its own: step 3.)
ACTION = 11  # what the tick hook does (below)
FIRST_GAP = 12  # run() began -> the first tick inside the search (us)
TICKNO = 13  # ticks since reset_marks()
RPENDING = 14  # as PENDING, for the readings of the switches
RPREV = 15  # the last reading's start (us)
RGAP = 16  # the longest gap between two readings around / inside the search (us)
NREADS = 17  # readings inside the search
RGAP_AT = 18  # where that gap ended, in 0.1 ms after run() began
S = [0] * 19
HOOK_NONE = 0
HOOK_KNOCK = 1
HOOK_LIFT = 2
HOOK_HEAP = 3

_tick = app.tick


def tick(now):
    t = us()
    s = S
    if s[ACTIVE] or s[PENDING]:
        g = diff(t, s[PREV])
        if s[ACTIVE]:
            s[NTICKS] += 1
            if s[NTICKS] == 1:
                s[FIRST_GAP] = diff(t, s[RUN0])
        if g > s[GAP]:
            s[GAP] = g
            s[GAP_AT] = s[NTICKS]
        s[PENDING] = 0
    s[PREV] = t
    s[TICKNO] += 1
    if s[ACTION]:
        hook(t)
    _tick(now)
    w = WATCH[0]
    if w >= 0 and not app.scanner.stable[w] and "stable" not in EV:
        EV["stable"] = s[TICKNO]  # this tick's debounced snapshot misses it
    if s[ACTIVE]:
        d = diff(us(), t)
        s[TICK_US] += d
        if d > s[TICK_MAX]:
            s[TICK_MAX] = d


app.tick = tick
_run = th.run


def run():
    s = S
    s[RUN0] = us()
    s[ACTIVE] = 1
    s[PENDING] = 1
    s[RPENDING] = 1
    _run()
    s[RUN1] = us()
    s[ACTIVE] = 0
    s[PENDING] = 1
    s[RPENDING] = 1


th.run = run
_cancel = th.cancel


def cancel():
    if th.state == T.BUSY and not S[CANCEL]:
        S[CANCEL] = us()
    _cancel()


th.cancel = cancel

# The first clock reads of a search (profile: what runs before the first node).
CLK = []
_clock = th.clock


def clock(ahead=0):
    if len(CLK) < 8:
        CLK.append(diff(us(), S[RUN0]))
    return _clock(ahead)


th.clock = clock

# The LED frames written: when the watched site first shows the watched colour.
WATCH = [-1, None, 0, 0]  # site, rgb, time (us) and tick number it was first shown
_show = hw.leds.show


def show(frame):
    w = WATCH
    i = w[0]
    if i >= 0 and not w[2]:
        rgb = w[1]
        j = 3 * i
        if frame[j] == rgb[0] and frame[j + 1] == rgb[1] and frame[j + 2] == rgb[2]:
            w[2] = us()
            w[3] = S[TICKNO]
    _show(frame)


hw.leds.show = show


def reset_marks():
    for k in range(len(S)):
        S[k] = 0
        WATCH[0] = -1
    WATCH[2] = 0
    WATCH[3] = 0


def steps_until(cond, limit_ms):
    t0 = ms()
    while not cond():
        app.step()
        if diff(ms(), t0) > limit_ms:
            return False
    return True


# -- the events a tick's hook causes ------------------------------------------
EV = {}  # name -> emulated us


def hook(t):
    a = S[ACTION]
    if not S[ACTIVE]:
        return
    since = diff(t, S[RUN0]) // 1000
    if a == HOOK_KNOCK:
        k = EV.get("knock")
        if k is None:
            # In the slow blink's lit half (a missing piece blinks), with room
            # for the scan's debounce before it turns dark.
            now = ms()
            if since >= 400 and (now // pal.SLOW_BLINK_MS) & 1 and now % pal.SLOW_BLINK_MS < 300:
                board.put(KNOCK, 0)
                EV["knock"] = t
                EV["errors0"] = ctl.errors
                WATCH[0] = KNOCK
                WATCH[1] = pal.MISSING
        else:
            if "seen" not in EV and ctl.errors > EV["errors0"]:
                EV["seen"] = t  # (the tick before this one counted the error)
            # Put back after 0.5 s: a fault is told once the board has rested
            # in it for the controller's PASS_MS (0.3 s).
            if "back" not in EV and diff(t, k) >= 500000:
                board.put(KNOCK, 1)
                EV["back"] = t
    elif a == HOOK_LIFT or a == HOOK_HEAP:
        if "lift" not in EV and since >= (150 if a == HOOK_LIFT else 100):
            if a == HOOK_HEAP:
                gc.collect()
                EV["heap"] = gc.mem_free()
            board.put(LIFT, 0)
            EV["lift"] = us()
            WATCH[0] = LIFT
            WATCH[1] = pal.SOURCE


def other_piece(side):
    """A site holding a piece of a side other than `side`."""
    exp = ctl.expected
    for i in range(N):
        o = game.owner(ctl.pos, i)
        if exp[i] and o >= 0 and o != side:
            return i
    return -1


def own_piece_that_moves():
    """A site holding a piece of the side to move that has a legal move."""
    buf = array("i", bytes(4 * game.MAX_SEL_MOVES))
    exp = ctl.expected
    pos = ctl.pos
    for i in range(N):
        if exp[i] and game.owner(pos, i) == pos.side and game.gen(pos, buf, 0, i) > 0:
            return i
    for i in range(N):  # (Cornelson's turn begins with a gem: any own piece)
        if exp[i] and game.owner(pos, i) == pos.side:
            return i
    return -1


def ms_of(a, b):
    return diff(b, a) / 1000


# -- set-up: the start position, the pieces in place -------------------------
ctl.seats.set(0)
ctl.start_position(game.START)
ctl.settle_ms = 0  # (the 800 ms rest is waived to save emulator time)
for i in range(N):
    board.put(i, ctl.expected[i])
app.next_tick = ms()
ok = steps_until(lambda: ctl.state == C.PLAY, 2000)
ctl.settle_ms = C.SETTLE_MS
fig("in_play", int(ok), "(1: the board matched the start position)")

# -- 1. the board's own move, a piece knocked over meanwhile -----------------
side = ctl.pos.side
KNOCK = other_piece(side)
reset_marks()
EV.clear()
S[ACTION] = HOOK_KNOCK if KNOCK >= 0 else HOOK_NONE
ctl.seats.level = LEVEL
ctl.seats.think_ms = BUDGET
ctl.seats.opponent = side  # the board plays the side to move (not saved)
gc.collect()
free0 = gc.mem_free()
ok = steps_until(lambda: ctl.engine_move != 0, BUDGET + 8000)
S[ACTION] = HOOK_NONE
app.step()  # the tick after the search (its gap)
eng = ctl.seats.player.engine
think_ms = ms_of(S[RUN0], S[RUN1])
fig("move_found", int(ok and ctl.engine_move != 0), "(1: the board's move arrived)")
fig("move", ctl.record.move_text(ctl.engine_move) if ctl.engine_move else "-", "")
fig("level", LEVEL, "")
fig("budget_ms", BUDGET, "ms")
fig("move_think_ms", think_ms, "ms emulated (run() began -> ended; engine imported and made on this first use)")
fig("move_overrun_ms", think_ms - BUDGET, "ms past the budget")
fig("move_gap_ms", S[RGAP] / 1000, "ms, the longest gap between two readings of the switches during the search")
fig("move_reads", S[NREADS], "readings of the switches inside the search")
fig("move_gap_end_ms", S[RGAP_AT] / 10, "ms after run() began, where that gap ended")
fig("move_tick_gap_ms", S[GAP] / 1000, "ms, the longest gap between two tick starts (readings between ticks fill it)")
fig("move_gap_at", S[GAP_AT], "(tick number inside the search ending the longest gap between ticks; 1: the first)")
print("clock reads (us after run):", CLK)
fig("move_first_gap_ms", S[FIRST_GAP] / 1000, "ms from run() to the first tick inside the search")
fig("move_ticks", S[NTICKS], "ticks inside the search")
fig("move_tick_ms", S[TICK_US] / 1000, "ms of the search's time spent in ticks")
fig("move_tick_max_ms", S[TICK_MAX] / 1000, "ms, the longest tick inside the search")
nodes = eng.nodes if eng is not None else 0
fig("move_nodes", nodes, "nodes (depth %d)" % (eng.depth if eng is not None else 0))
fig("move_rate", int(nodes * 1000 / think_ms) if think_ms > 0 else 0, "nodes/s with the loop ticking")
search_ms = think_ms - S[TICK_US] / 1000
fig("move_search_rate", int(nodes * 1000 / search_ms) if search_ms > 0 else 0, "nodes/s of the search's own time")
fig("move_heap_before", free0, "B free before the search (collected)")
if KNOCK >= 0:
    k = EV.get("knock")
    fig("knock_done", int(k is not None), "(1: a piece was knocked during the search)")
    if k is not None:
        fig("knock_site", KNOCK, "")
        fig("knock_seen_ms", ms_of(k, EV["seen"]) if "seen" in EV else -1, "ms knock -> the controller counted the error")
        fig("knock_shown_ms", ms_of(k, WATCH[2]) if WATCH[2] else -1, "ms knock -> LED frame shows the missing piece")
        fig("knock_stable_to_shown_ticks", WATCH[3] - EV["stable"] if WATCH[3] and "stable" in EV else -1,
            "ticks from the debounced snapshot's change to the LED frame (0: the same tick)")
        fig("knock_in_search", int(diff(WATCH[2], S[RUN1]) < 0 if WATCH[2] else 0), "(1: shown before the search ended)")
        fig("knock_errors_after", int(ctl.in_error), "(0: back in place, no error standing)")
    board.put(KNOCK, 1)

# -- 2. a hint, cancelled by lifting one of the mover's pieces ---------------
# (this script's own reference to the engine dropped: the board gives its
# engine back when it plays nobody, and a heap still holding it made the
# hint's new engine force a collection, 27 ms between two readings)
eng = None
ctl.seats.set(0)  # the board plays nobody now: its move is dropped
app.step()
LIFT = own_piece_that_moves()


def hint(action, what):
    reset_marks()
    EV.clear()
    S[ACTION] = action
    btn.held = 1  # press the hint button ...
    for _ in range(desc.BUTTON_DEBOUNCE + 2):
        app.step()
    btn.held = 0  # ... and release it (a short press counts on release)
    # The search runs inside one App.step (ticking from inside it).
    ok = steps_until(lambda: S[RUN0] != 0 and th.state != T.BUSY, C.HINT_BUDGET_MS + 4000)
    fig(what + "_asked", int(ok), "(1: the hint's search ran)")
    S[ACTION] = HOOK_NONE
    app.step()
    lift = EV.get("lift")
    fig(what + "_gap_ms", S[RGAP] / 1000, "ms, the longest gap between two readings of the switches during the hint's search")
    fig(what + "_reads", S[NREADS], "readings of the switches inside the search")
    fig(what + "_gap_end_ms", S[RGAP_AT] / 10, "ms after run() began, where that gap ended")
    fig(what + "_tick_gap_ms", S[GAP] / 1000, "ms, the longest gap between two tick starts (readings between ticks fill it)")
    fig(what + "_gap_at", S[GAP_AT], "(tick number inside the search ending the longest gap between ticks; 1: the first)")
    fig(what + "_first_gap_ms", S[FIRST_GAP] / 1000, "ms from run() to the first tick inside the search")
    fig(what + "_ticks", S[NTICKS], "ticks inside the search")
    fig(what + "_tick_max_ms", S[TICK_MAX] / 1000, "ms, the longest tick inside the search")
    fig(what + "_lifted", int(lift is not None), "(1: an own piece was lifted during the search)")
    if lift is not None and S[CANCEL]:
        fig(what + "_lift_to_cancel_ms", ms_of(lift, S[CANCEL]), "ms lift -> hint cancelled (the scan's debounce)")
        fig(what + "_cancel_latency_ms", ms_of(S[CANCEL], S[RUN1]), "ms cancel -> the search stopped")
        fig(what + "_shown_ms", ms_of(lift, WATCH[2]) if WATCH[2] else -1, "ms lift -> LED frame shows the lifted piece")
        fig(what + "_stable_to_shown_ticks", WATCH[3] - EV["stable"] if WATCH[3] and "stable" in EV else -1,
            "ticks from the debounced snapshot's change to the LED frame (0: the same tick)")
    fig(what + "_cancelled", int(bool(S[CANCEL]) and ctl.seats.hint_move == 0 and not ctl.seats.hinting), "(1: no hint came)")
    fig(what + "_dest_lit", int(ctl.matcher.lifted == LIFT and sum(ctl.matcher.dest) > 0), "(1: the lifted piece's destinations show)")
    board.put(LIFT, 1)
    steps_until(lambda: ctl.matcher.lifted < 0 and not ctl.in_error, 500)


fig("lift_site", LIFT, "")
if LIFT >= 0:
    hint(HOOK_LIFT, "hint")
    # -- 3. free heap while searching -----------------------------------------
    hint(HOOK_HEAP, "heap")
fig("heap_searching", EV.get("heap", -1), "B free while the engine searches (collected, App running)")
fig("done", 1, "")
