"""The board stays alive while it thinks (issue 15), on the emulated Pico:
the board's UF2 (firmware frozen, real drivers) plays Nehren's side to move
at level 5 with a think budget of 1 s (the whole budget is searched; `make
bench BENCH_ARGS=--pico-engine` runs the board's own 2.5 s), then gives a
hint, and tests/pico/device_thinking.py measures in EMULATED time
(time.ticks_us of the emulated chip) what a player would notice: scans go on during the search, a die knocked over meanwhile is
shown at once, lifting one of the mover's own dice cancels the hint, and
the search stops soon after its budget and after a cancel.

The emulated board has no dice on its switches: the script reads the real
pins and then puts the game's occupancy (with the knocked or lifted die
missing) into the raw scan, as bench/pico_suite.py does. One run serves
every test here (about 2 minutes of wall time: the emulator runs about 30
million cycles a second), started at collection beside the other emulated
runs (conftest.py)."""
import os
import subprocess
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UF2 = os.environ.get("TRIAD_UF2", os.path.join(ROOT, "build", "triad-board.uf2"))
SCRIPT = os.path.join(ROOT, "tests", "pico", "device_thinking.py")
TIMEOUT = 1500.0  # wall-clock seconds, generous for a busy machine
# The think budget given to the board for this run: shorter than its own
# (board/controller.py THINK_BUDGET_MS, 2500 ms) so that make test stays
# bounded (issue 34); the same search, loop and cancel, only stopped
# sooner. `make bench BENCH_ARGS=--pico-engine` runs device_thinking.py
# with the board's own budget for every game (bench/bench.py).
BUDGET_MS = 1000
SCAN_MS = 10  # pico_v1.SCAN_HZ = 100
DEBOUNCE = 3  # pico_v1.DEBOUNCE: scans before a change is believed


def _think():
    """The emulated run every test here reads: (its output, its status). A
    process of its own (host_tools.emulator), so that it runs on the other
    core beside this process's emulated tests."""
    with tempfile.TemporaryDirectory() as lfs:
        r = subprocess.run([sys.executable, "-m", "host_tools.emulator", "--uf2", UF2, "--littlefs", lfs,
                            "--timeout", str(TIMEOUT), SCRIPT, "nehren", "5", str(BUDGET_MS)],
                           cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT + 60)
    return r.stdout + r.stderr, r.returncode


# Started at collection (conftest.py), beside the other emulated runs: about
# two minutes of one core, the longest of make test-pico's runs but the stack's.
BACKGROUND = (90000, _think)


@pytest.fixture(scope="module")
def run(module_background):
    out, status = module_background
    assert status == 0, out
    figs = {}
    for ln in out.splitlines():
        if ln.startswith("think_nehren_") and ": " in ln:
            name, rest = ln[len("think_nehren_"):].split(": ", 1)
            figs[name] = rest.split(" ", 1)[0]
    assert figs.get("done") == "1", out
    assert figs["in_play"] == "1", out
    figs["_out"] = out
    return figs


def num(figs, name):
    return float(figs[name])


def test_scans_go_on_while_the_board_searches_its_move_and_a_hint(run, figures):
    f = run
    figures["thinking: longest scan gap, board's move / hint (emulated ms)"] = "%s / %s" % (
        f["move_gap_ms"], f["hint_gap_ms"])
    figures["thinking: nodes, nodes/s with the loop (search alone)"] = "%s, %s (%s)" % (
        f["move_nodes"], f["move_rate"], f["move_search_rate"])
    figures["thinking: free heap while searching (bytes)"] = f["heap_searching"]
    assert f["move_found"] == "1", f["_out"]
    figures["thinking: longest gap between tick starts, board's move / hint (emulated ms)"] = "%s / %s" % (
        f["move_tick_gap_ms"], f["hint_tick_gap_ms"])
    # Ticks ran inside the search at about the scan period all along, with
    # the switches read at least once a period ...
    assert num(f, "move_ticks") >= 0.8 * BUDGET_MS / SCAN_MS, f["_out"]
    assert num(f, "move_reads") >= BUDGET_MS / SCAN_MS, f["_out"]
    # ... and no reading of the grid was missed, from the request (the
    # engine loaded on its first use) to the answer: no two readings two
    # periods apart. (From the start position, the search's first steps
    # leave gaps of 10 to 13.5 ms in this harness; the bench's board figures,
    # bench/pico_board.py, hold the 10 ms target: docs/performance.md.)
    assert num(f, "move_gap_ms") < 2 * SCAN_MS, f["_out"]
    assert num(f, "hint_gap_ms") < 2 * SCAN_MS, f["_out"]


def test_a_die_knocked_over_during_the_search_is_shown_at_once(run, figures):
    f = run
    figures["thinking: knock -> shown (emulated ms)"] = f["knock_shown_ms"]
    assert f["knock_done"] == "1", f["_out"]
    # The LED frame showed the missing die in the tick whose debounced scan
    # first missed it, while the search went on (it delivered its move
    # afterwards).
    # (The fault is counted for the protocol once the board has rested in
    # it for PASS_MS; whether that fell inside the half second the die was
    # off is reported, not asserted: the lights are what the player sees.)
    figures["thinking: knock -> fault counted (emulated ms, -1: not within 0.5 s)"] = f["knock_seen_ms"]
    assert f["knock_stable_to_shown_ticks"] == "0", f["_out"]
    assert 0 < num(f, "knock_shown_ms") <= (DEBOUNCE + 1) * SCAN_MS + 10, f["_out"]
    assert f["knock_in_search"] == "1" and f["move_found"] == "1", f["_out"]
    # Put back, the error is gone.
    assert f["knock_errors_after"] == "0", f["_out"]


def test_lifting_an_own_die_during_a_hint_cancels_it(run, figures):
    f = run
    figures["thinking: lift -> hint cancelled / lifted die shown (emulated ms)"] = "%s / %s" % (
        f["hint_lift_to_cancel_ms"], f["hint_shown_ms"])
    assert f["hint_asked"] == "1" and f["hint_lifted"] == "1", f["_out"]
    assert f["hint_cancelled"] == "1", f["_out"]  # no hint lit afterwards
    assert num(f, "hint_lift_to_cancel_ms") <= (DEBOUNCE + 1) * SCAN_MS + 10, f["_out"]
    # The lifted die shows where it came from and where it may go, in the
    # tick that saw it.
    assert f["hint_dest_lit"] == "1", f["_out"]
    assert f["hint_stable_to_shown_ticks"] == "0", f["_out"]


def test_the_search_stops_within_20_ms_of_its_budget_and_of_a_cancel(run, figures):
    f = run
    figures["thinking: past the budget / cancel -> stopped (emulated ms)"] = "%s / %s" % (
        f["move_overrun_ms"], f["hint_cancel_latency_ms"])
    # From the request to the answer: the whole budget, and at most 20 ms more.
    # (The deadline is taken on the ms clock (thinker.run: ticks_ms() + the
    # budget), the figure in us from run()'s call: a run begun 0.7 ms into
    # a ms has its deadline 999.3 ms on, and a search that ends at its
    # first clock read past the deadline shows -0.3 ms: on time.)
    assert -1 < num(f, "move_overrun_ms") <= 20, f["_out"]
    assert 0 <= num(f, "hint_cancel_latency_ms") <= 20, f["_out"]
    assert 0 <= num(f, "heap_cancel_latency_ms") <= 20, f["_out"]
