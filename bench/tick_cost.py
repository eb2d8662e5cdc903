# Host instruction counts of the board's tick paths (deterministic, unlike
# wall-clock time on a shared machine): run one path N times under
# callgrind, and once with N = 0, and divide the difference by N.
#
#   MICROPYPATH=firmware valgrind --tool=callgrind --callgrind-out-file=/dev/null \
#       .venv/bin/micropython bench/tick_cost.py <path> <N>
#
# Paths: update_steady, render_steady (the board equals the game), lift (the
# update that sees a die lifted, matching its moves, and the one that sees it
# put back), render_lift (the frame with the die in the hand). Nehren's
# middle-game position, c4 lifted: the figures of docs/performance.md.
import sys

from triad import games
from triad.boards import pico_v1 as desc
from triad.board import controller as C

g = games.load("nehren")
MIDGAME = "...b3../....w3w2/w2.w2w1../...b1b2./.b1b1..b1/...w2.. w 0 0"
ctl = C.Controller(g, desc)
ctl.start_position(MIDGAME)
ctl.settle_ms = 0
exp = bytearray(ctl.expected)
for i in range(3):
    ctl.update(1000 + i * 10, exp, 5000)
occ = bytearray(exp)
occ[g.site_index("c4")] = 0
frame = bytearray(3 * (desc.N_SITES + desc.N_STATUS))
ctl.update(1990, exp, 5000, -1)


def update_steady():
    ctl.update(2000, exp, 5000, -1)


def render_steady():
    ctl.render(frame, 2000, exp)


def lift():
    ctl.matcher.dest_from = -1  # as on a fresh lift: nothing kept from the last one
    ctl.matcher.c_site = -1
    ctl.update(2000, occ, 5000, -1)
    ctl.update(2000, exp, 5000, -1)


def render_lift():
    ctl.render(frame, 2000, occ)


path = sys.argv[1]
if path == "render_lift":
    ctl.update(2000, occ, 5000, -1)
fn = {"update_steady": update_steady, "render_steady": render_steady, "lift": lift,
      "render_lift": render_lift}[path]
for _ in range(int(sys.argv[2])):
    fn()
