"""The C stack's deepest use on the emulated RP2040 while the review's
analysis searches (issue 46) and the player steps through the game, ticks
running from inside that search (run by tests/pico/test_stack_margin.py
under make test-hil-full):

    .venv-pico/bin/python tests/pico/stack_review.py

Nehren's short game of tests/scripts/hil/nehren/10_review_try_again.txt is
played with the pieces (White's c3b3xb2 lets Black's a3b2xb1 win), the stack
painted again between two ticks, then a short hint enters the review and
the buttons step back and forth at once: the review's search runs from the
App's loop (ReviewMode.work -> Review.step -> the analysis's generator ->
the engine), a frame or three deeper than the thinker's, and each press is
a tick under it that shows a move in light (ReviewMode.go, render, the
game's footprint).

prints "stack_idle <bytes>", "stack_used_review_step <bytes>" (the deepest
since the repaint), "stack_used", "stack_limit", "stack_left" (as
stack_margin.py), "stepped_while_analysing" (the moves shown while the
analysis ran: the presses fell under its search), "analysed_all" (1: the
analysis finished, its mark told), "review_entry_gap_ms" (the longest gap
between two scans, emulated, at the review's start: the press's tick),
"review_scan_gap_ms" (the longest after it, through the analysis and the
steps, to 3 s later; "review_scans" the scans of the whole window),
"review_gaps" (the four longest, each @ its start in ms after the press)
and "errors" (evt error lines)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

START = "w3..w2../....../.....b3/b2.w3.../.w1..w2b1/.b1.... w 2 1"
# (lift, place) as tests/scripts/hil/nehren/10 plays them: c3b3xb2 (b2 taken
# off), a3b2xb1 (b1 taken off).
# The press's tick, which enters the review (imports its code, makes its
# engine), begins about 120 ms after the press began (100 ms held, then the
# debounce): gaps that begin before ENTRY_NS are the entry's, the later ones
# the analysis's and the steps'.
ENTRY_NS = 150 * 1000 * 1000
PLAY = (("c3", "b3"), ("b2", None), ("a3", "b2"), ("b1", None))


def main():
    from simulator.choice import board_for_game

    os.environ["TRIAD_SIM_BOARD"] = board_for_game("nehren")
    from simulator.game import DESC
    from simulator.pico import STACK_LIMIT_BYTES, PicoSimulation, uf2_for_board

    sim = PicoSimulation(uf2_for_board(DESC.NAME))
    try:
        sim.boot()
        sim.set_position(START)
        for lift, place in PLAY:
            sim.lift(lift)
            if place:
                sim.place(place)
            sim.run(1000)
        idle_sp = sim.repaint_stack()
        before = len(sim.lines)
        model = sim.model
        t0 = sim._do(lambda: model.mcu.clock.nanos)
        sim.press("hint")  # the game is over: the review starts, its analysis after this tick
        for button in ("hint", "menu", "hint", "menu", "hint"):
            sim.run(40)
            sim.press(button)
        status_then = sim.send("review")
        sim.run(3000)
        used = sim.stack_used()
        t1 = sim._do(lambda: model.mcu.clock.nanos)
        scans = [t for t in model.scan_log if t0 <= t <= t1]
        status = sim.send("review")
        said = sim.lines[before:]
        errors = [ln for ln in sim.lines if ln.startswith("evt error")]
    finally:
        sim.shutdown()
    stepped = sum(1 for ln in said if ln.startswith("evt review move"))
    analysing = " analysed all" not in status_then
    print("stack_idle %d" % idle_sp)
    print("stack_used_review_step %d" % used)
    print("stack_used %d" % used)
    print("stack_limit %d" % STACK_LIMIT_BYTES)
    print("stack_left %d" % (STACK_LIMIT_BYTES - used))
    print("status_then %s" % status_then)
    print("status %s" % status)
    print("stepped_while_analysing %d" % (stepped if analysing else 0))
    print("analysed_all %d" % (1 if " analysed all mark 1 allows win better b2b5" in status else 0))
    gaps = [(b - a, a - t0) for a, b in zip(scans, scans[1:])]
    print("review_scans %d" % len(scans))
    print("review_entry_gap_ms %.1f" % (max((g for g, at in gaps if at < ENTRY_NS), default=0) / 1e6))
    print("review_scan_gap_ms %.1f" % (max((g for g, at in gaps if at >= ENTRY_NS), default=0) / 1e6))
    print("review_gaps %s" % " ".join("%.1f@%.0f" % (g / 1e6, at / 1e6) for g, at in sorted(gaps, reverse=True)[:4]))
    print("errors %d" % len(errors))
    for e in errors:
        print(e)


if __name__ == "__main__":
    main()
