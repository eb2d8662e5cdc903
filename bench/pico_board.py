"""Figures of the real image on the modelled board (bench/bench.py, runner
pico_board; `make bench`): the board's UF2 on the emulated RP2040 with its
pieces really standing on their switches (simulator/pico.py), for one game:

    .venv-pico/bin/python bench/pico_board.py GAME

- lift_latency_ms: a piece's switch opens (the lift, on emulated time) ->
  the first LED frame latched after it that differs from the frame before
  (the lifted piece's destinations), emulated ms;
- think_scan_gap_ms: the longest gap between two scans (row 0 driven) while
  the engine searches the board's own move (level 3, THINK_BUDGET_MS), and
  think_scans, the number of scans in that window.
Prints "name: value unit" lines (bench.py prefixes them with "pico.board_<game>_")."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

# Per game: the start position, a piece to lift, the other side's letter
# (the board plays it) and the hand's first move (lines of a script).
SCENARIOS = {
    "nehren": ("w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0", "c1", "w",
               ["lift c1", "place c4"]),
    "browne": ("R:C1,D1,D2,E1,E2,E3,F2,F3,G3 G:A3,A4,A5,B4,B5,B6,C5,C6,C7 "
               "B:G7,G8,G9,H7,H8,H9,I7,I8,I9 r", "E3", "g",
               ["lift E3", "place B3", "wait 300", "lift A3", "lift B4", "wait 300", "place C3"]),
    "cornelson": ("..../...../....../......./....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0", "S1", "n",
                  ["place D4", "wait 300", "lift S1", "place a2", "lift S2", "place a4", "lift S3", "place a6"]),
}


def fig(name, value, unit):
    print("%s: %s %s" % (name, value, unit))


def main(game):
    from simulator.choice import board_for_game

    os.environ["TRIAD_SIM_BOARD"] = board_for_game(game)
    from simulator.game import DESC
    from simulator.pico import PicoSimulation, uf2_for_board
    from simulator.script import parse, run

    position, piece, other, move = SCENARIOS[game]
    sim = PicoSimulation(uf2_for_board(DESC.NAME))
    try:
        sim.boot()
        sim.set_position(position)
        sim.run(200)
        model = sim.model
        before = model.frame
        t_lift = sim._do(lambda: model.mcu.clock.nanos)  # the switch opens here, 1 ms before a tick
        sim.lift(piece)
        sim.run(200)
        after = [(t, f) for t, f in model.frame_log if t >= t_lift and f != before]
        fig("lift_latency_ms", "%.1f" % ((after[0][0] - t_lift) / 1e6) if after else "nan", "ms")
        sim.place(piece)
        sim.run(300)
        sim.send("set opponent " + other)
        run(sim, parse("\n".join(move)), out=lambda line: None)
        # The move commits once the pieces settle; the board then searches.
        n0 = len(sim.lines)
        waited = 0
        while waited < 3000 and not any(ln.startswith("evt move") for ln in sim.lines[n0:]):
            sim.run(50)
            waited += 50
        t0 = sim._do(lambda: model.mcu.clock.nanos)
        n1 = len(sim.lines)
        while waited < 8000 and not any(ln.startswith("evt think") for ln in sim.lines[n1:]):
            sim.run(50)
            waited += 50
        t1 = sim._do(lambda: model.mcu.clock.nanos)
        scans = [t for t in model.scan_log if t0 <= t <= t1]
        gap = max((b - a for a, b in zip(scans, scans[1:])), default=0)
        fig("think_ms", "%.0f" % ((t1 - t0) / 1e6), "ms")
        fig("think_scans", len(scans), "scans")
        fig("think_scan_gap_ms", "%.1f" % (gap / 1e6), "ms")
    finally:
        sim.shutdown()


if __name__ == "__main__":
    main(sys.argv[1])
