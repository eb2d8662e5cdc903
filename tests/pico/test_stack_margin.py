"""The C stack's margin on the real image: for each game, the deepest C-stack
use (the stack painted again between two ticks, the lowest word written read
back) while ticks run from inside the engine's search, on the emulated RP2040
(tests/pico/stack_margin.py): the hint's search with a lifted piece's
destinations animating, and the board's own move (its thinking light
animating) with a piece of the other side knocked over and put back. Fails
when fewer than FLOOR_BYTES are left before MicroPython's "maximum recursion
depth exceeded" (docs/performance.md, "C stack margin")."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# A Python call costs the C stack about 200-350 bytes on the RP2040. The
# deepest point is where a tick happens to run under the search's deepest
# ply, so it moves by a few hundred bytes with the search's timing (the
# board's own move went 650 B deeper than the hint). Main 8cc0ee7 left 408 B
# here and its tick overflowed ("maximum recursion depth exceeded") under
# tests/pico/device_thinking.py, whose measuring wrappers put about 1 KB
# more under the tick. Branch stack (329b4bf) left 1 792 B and set the floor
# at 1 536 B. The merged firmware (99374ae) left 712 B: a piece knocked over
# under the board's search is read from the tick by listing its site's moves,
# and Nehren's gen went three frames deeper for a site with no move (through
# has_regular_move and _gen_regular) under the matcher's own two. Those
# frames are gone (gen calls its kernels and returns at once for a site
# without a die of the side to move; first_site_moves lists the site's moves
# itself): 1 800 B left (the knock 400 ms into the search; 1 936 B with it
# at 250, 700, 1 100 or 1 600 ms), Browne 2 288 B, Cornelson 2 208 B
# (docs/performance.md, "C stack margin").
FLOOR_BYTES = 1536


# make test (make test-pico) measures Nehren, whose tick once overflowed
# under a search; make test-hil-full (TRIAD_HIL_FULL=1) every game.
GAMES = ["nehren", "browne", "cornelson"] if os.environ.get("TRIAD_HIL_FULL") else ["nehren"]


def measure(game):
    return subprocess.run([sys.executable, os.path.join(ROOT, "tests", "pico", "stack_margin.py"), game],
                          cwd=ROOT, capture_output=True, text=True, timeout=3600)


@pytest.mark.parametrize("game", GAMES)
def test_stack_left_while_the_board_searches_and_ticks(game, figures, background_result):
    r = background_result()
    assert r.returncode == 0, r.stderr
    kv = dict(ln.split(" ", 1) for ln in r.stdout.splitlines() if " " in ln)
    figures["C stack left, %s (bytes)" % game] = "%s of %s (deepest: %s; used hint_lift %s, move_knock %s)" % (
        kv["stack_left"], kv["stack_limit"], kv["deepest_phase"], kv["stack_used_hint_lift"],
        kv["stack_used_move_knock"])
    assert kv["errors"] == "0", r.stdout  # the tick guard caught nothing
    assert int(kv["lit_while_lifted"]) > 0, r.stdout  # the lifted piece's lights were drawn
    assert int(kv["knock_told"]) > 0, r.stdout  # the knocked piece was seen under the board's search
    assert int(kv["board_moved"]) > 0, r.stdout  # ... and the board's move still came
    assert int(kv["stack_used"]) > 0, r.stdout  # the paint was read (a stack was used at all)
    assert int(kv["stack_left"]) >= FLOOR_BYTES, r.stdout


# Started in the background at collection (conftest.py), before the HIL
# scripts: its search keeps the chip busy for most of its emulated time.
test_stack_left_while_the_board_searches_and_ticks.background = lambda game: (
    100000, lambda: measure(game))


# The review's search (issue 46) runs from the App's loop through the review
# mode and the analysis's generator, a few frames deeper than the thinker's,
# with the player's steps as ticks under it (tests/pico/stack_review.py).
# make test-hil-full only (5 to 7 minutes of wall time, 2.5 of one core,
# beside other work, 2026-12-07: 1 872 B left, 6 064 B the deepest; the
# longest scan gap in the analysis and steps 20.0 ms, at the entry 67.6 ms).
@pytest.mark.skipif(not os.environ.get("TRIAD_HIL_FULL"), reason="make test-hil-full (TRIAD_HIL_FULL=1) only")
def test_stack_left_while_the_review_searches_and_the_player_steps(figures, background_result):
    r = background_result()
    assert r.returncode == 0, r.stderr
    kv = dict(ln.split(" ", 1) for ln in r.stdout.splitlines() if " " in ln)
    figures["C stack left, review (bytes)"] = "%s of %s (used %s)" % (
        kv["stack_left"], kv["stack_limit"], kv["stack_used"])
    figures["review: longest scan gap (emulated ms)"] = "%s in the analysis and steps, %s at the entry (%s scans; %s)" % (
        kv["review_scan_gap_ms"], kv["review_entry_gap_ms"], kv["review_scans"], kv["review_gaps"])
    assert kv["errors"] == "0", r.stdout  # the tick guard caught nothing
    assert int(kv["stepped_while_analysing"]) > 1, r.stdout  # the presses were ticks under the analysis
    assert kv["analysed_all"] == "1", r.stdout  # ... which still finished, its mark the rules'
    assert int(kv["stack_used"]) > 0, r.stdout
    assert int(kv["stack_left"]) >= FLOOR_BYTES, r.stdout
    # The analysis never stalls the scan (issue 46): no gap between two
    # scans longer than issue 15's bound for a search's ticks (emulated time).
    # (The press that enters the review is a longer tick, once: its code
    # imported, its engine made; 67.6 ms on 2026-12-07, reported, not held.)
    assert int(kv["review_scans"]) > 300 and float(kv["review_scan_gap_ms"]) < REVIEW_SCAN_GAP_MS, r.stdout


REVIEW_SCAN_GAP_MS = 25


def _measure_review():
    return subprocess.run([sys.executable, os.path.join(ROOT, "tests", "pico", "stack_review.py")],
                          cwd=ROOT, capture_output=True, text=True, timeout=3600)


# (Started at collection even when skipped: outside make test-hil-full the
# job does nothing.)
test_stack_left_while_the_review_searches_and_the_player_steps.background = lambda: (
    50000, _measure_review if os.environ.get("TRIAD_HIL_FULL") else (lambda: None))
