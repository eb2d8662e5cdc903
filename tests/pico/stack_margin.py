"""The C stack's deepest use on the emulated RP2040 while the engine runs its
deepest search (the hint: level 5, HINT_BUDGET_MS) with a piece lifted and
its destinations animating, for one game (run by tests/pico/test_stack_margin.py
and bench/pico_suite.py):

    .venv-pico/bin/python tests/pico/stack_margin.py GAME

prints "stack_idle <bytes>" (in use between two ticks, where the stack is
painted again after the set-up), "stack_used <bytes>" (the deepest since),
"stack_limit <bytes>" and "stack_left <bytes>" (left before MicroPython's
"maximum recursion depth exceeded")."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

# Per game: the start position and a piece of the side to move to lift while
# the hint is searched.
SCENARIOS = {
    "nehren": ("w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0", "c1"),
    "browne": ("R:C1,D1,D2,E1,E2,E3,F2,F3,G3 G:A3,A4,A5,B4,B5,B6,C5,C6,C7 "
               "B:G7,G8,G9,H7,H8,H9,I7,I8,I9 r", "E3"),
    "cornelson": ("..../...../....../......./....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0", "S1"),
}


def main(game):
    from simulator.choice import board_for_game

    os.environ["TRIAD_SIM_BOARD"] = board_for_game(game)
    from simulator.game import DESC
    from simulator.pico import STACK_LIMIT_BYTES, PicoSimulation, uf2_for_board

    position, piece = SCENARIOS[game]
    sim = PicoSimulation(uf2_for_board(DESC.NAME))
    try:
        sim.boot()
        sim.set_position(position)
        idle_sp = sim.repaint_stack()  # the deepest use from here on, not since the boot
        sim.press("hint")  # the search starts at the press's tick
        sim.run(100)
        sim.lift(piece)
        sim.run(1400)  # the search goes on; the lift's ticks render from inside it
        lit = sum(1 for c in sim.leds() if any(c))
        sim.place(piece)
        sim.run(200)
        used = sim.stack_used()
        errors = [ln for ln in sim.lines if ln.startswith("evt error")]
    finally:
        sim.shutdown()
    print("stack_idle %d" % idle_sp)
    print("stack_used %d" % used)
    print("stack_limit %d" % STACK_LIMIT_BYTES)
    print("stack_left %d" % (STACK_LIMIT_BYTES - used))
    print("lit_while_lifted %d" % lit)
    print("errors %d" % len(errors))
    for e in errors:
        print(e)


if __name__ == "__main__":
    main(sys.argv[1])
