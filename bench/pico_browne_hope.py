# Runs ON the emulated Pico (the board's UF2, firmware frozen, emulated
# time): does Browne's level 5 finish ranking its safe turns (_hope) in the
# time the board gives it? bench/uct.py runs the engine without a clock, so
# the ranking always ends there; on the board the search stops at seven
# eighths of the budget and the ranking at the budget, keeping the best turn
# ranked when the time is up (docs/performance.md, "Ninth session").
#
#   python -m host_tools.emulator --uf2 build/triad-board-hex_v1.uf2 \
#       bench/pico_browne_hope.py [GAMES [BUDGET_MS [SEED]]]
#
# Level 5 plays every seat of GAMES games from two random turns, each turn
# with the board's think budget (BUDGET_MS, default the controller's) on
# the chip's clock, the engine alone (no scan loop: its ticks would take the
# same share of both parts). The engine is not changed: its _deepen and
# _hope are wrapped on the instance to take their times. Prints one line
# per turn that ranked and "hope: ..." totals.
import sys
import time
from array import array

from triad import games
from triad.board import controller as C
from triad.games.engine_kit import Rng

ARGS = getattr(sys, "argv", [])[1:]
GAMES = int(ARGS[0]) if ARGS else 2
BUDGET = int(ARGS[1]) if len(ARGS) > 1 else C.THINK_BUDGET_MS
SEED = int(ARGS[2]) if len(ARGS) > 2 else 1

g = games.load("browne")
eng = g.new_engine(5, 0)
took = [0, 0, 0]  # search ms, ranking ms, the ranking cut (1) or ended (0)
deepen = eng._deepen
hope = eng._hope


def timed_deepen(depth, end):
    t = time.ticks_ms()
    r = deepen(depth, end)
    took[0] = time.ticks_diff(time.ticks_ms(), t)
    return r


def timed_hope(first, end, floor):
    t = time.ticks_ms()
    r = hope(first, end, floor)
    took[1] = time.ticks_diff(time.ticks_ms(), t)
    took[2] = 1 if eng.stop else 0  # _hope stops at the budget only
    return r


eng._deepen = timed_deepen
eng._hope = timed_hope
buf = array("i", bytes(4 * g.MAX_MOVES))
rng = Rng(SEED)
turns = ranked = cut = 0
search_ms = hope_ms = 0
for gi in range(GAMES):
    pos = g.parse_position(g.START)
    for _ in range(2):
        n = g.gen(pos, buf, 0)
        pos.make(buf[rng.below(n)])
    for ply in range(60):
        if g.outcome(pos) != -1 or g.gen(pos, buf, 0) == 0:
            break
        took[0] = took[2] = 0
        took[1] = -1  # (stays -1 when the turn ranked nothing)
        m = eng.choose(pos, BUDGET, time.ticks_ms)
        turns += 1
        if took[1] >= 0:
            ranked += 1
            cut += took[2]
            search_ms += took[0]
            hope_ms += took[1]
            print("turn %d.%d: search %d ms (%d nodes, depth %d), ranking %d ms, %s"
                  % (gi, ply, took[0], eng.nodes, eng.depth, took[1], "cut" if took[2] else "ended"))
        pos.make(m)
print("hope: %d turns, %d ranked, %d of them cut at the budget; search %d ms, ranking %d ms in all (budget %d ms)"
      % (turns, ranked, cut, search_ms, hope_ms, BUDGET))
