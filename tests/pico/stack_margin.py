"""The C stack's deepest use on the emulated RP2040 while the engine
searches and ticks run from inside the search, for one game (run by
tests/pico/test_stack_margin.py and bench/pico_suite.py):

    .venv-pico/bin/python tests/pico/stack_margin.py GAME

Two phases, in this order (as tests/pico/device_thinking.py stirs the
board: the board's move first, from the start position at rest), each
measured from the stack painted again between two ticks before it:

  move_knock  the board's own move (level 5, THINK_BUDGET_MS) with a piece of
              another side knocked over 400 ms into the search and put back
              500 ms later: the missing piece is seen, told and shown from
              ticks inside the search;
  hint_lift   the hint (level 5, HINT_BUDGET_MS) with a piece of the side to
              move lifted 100 ms into its search, its destinations animating
              from the ticks inside the search, then put back (the board plays
              nobody now).

prints "stack_idle <bytes>" (in use between two ticks, where the stack is
painted again), "stack_used_<phase> <bytes>" (the deepest in that phase),
"stack_used <bytes>" (the deepest of all), "stack_limit <bytes>" and
"stack_left <bytes>" (left before MicroPython's "maximum recursion depth
exceeded"), "knock_told" (the board's "evt fault" lines in move_knock) and
"board_moved" (its "evt think" lines: the board's move was found)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

# Per game: the start position, its side to move (the seat the board plays in
# move_knock), a piece of that side to lift while the hint is searched and a
# piece of another side to knock over while the board searches its move.
SCENARIOS = {
    "nehren": ("w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0", "b", "c1", "c6"),
    "browne": ("R:C1,D1,D2,E1,E2,E3,F2,F3,G3 G:A3,A4,A5,B4,B5,B6,C5,C6,C7 "
               "B:G7,G8,G9,H7,H8,H9,I7,I8,I9 r", "r", "E3", "B5"),
    "cornelson": ("..../...../....../......./....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0", "s", "S1", "N1"),
}


def main(game):
    from simulator.choice import board_for_game

    os.environ["TRIAD_SIM_BOARD"] = board_for_game(game)
    from simulator.game import DESC
    from simulator.pico import STACK_LIMIT_BYTES, PicoSimulation, uf2_for_board

    position, side, piece, other = SCENARIOS[game]
    sim = PicoSimulation(uf2_for_board(DESC.NAME))
    used = {}
    try:
        sim.boot()
        sim.set_position(position)
        # -- move_knock
        for line in ("set level 5", "set opponent " + side):
            reply = sim.send(line)
            if not reply.startswith("ok"):
                raise SystemExit("the board refused %r: %s" % (line, reply))
        idle_sp = sim.repaint_stack()  # the deepest use from here on, not since the boot
        before = len(sim.lines)
        sim.run(400)  # the board's search began at the tick after the setting
        sim.knock(other)
        sim.run(500)  # a fault is told once the board rests in it for PASS_MS (0.3 s)
        sim.place(other)
        sim.run(2200)  # past the end of the search (THINK_BUDGET_MS) and the move shown
        used["move_knock"] = sim.stack_used()
        told = sim.lines[before:]
        knock_told = sum(1 for ln in told if ln.startswith("evt fault"))
        board_moved = sum(1 for ln in told if ln.startswith("evt think"))
        # -- hint_lift
        reply = sim.send("set opponent off")  # the board's move is dropped, as device_thinking does
        if not reply.startswith("ok"):
            raise SystemExit("the board refused 'set opponent off': %s" % reply)
        sim.run(300)
        sim.repaint_stack()
        sim.press("hint")  # the search starts at the press's tick
        sim.run(100)
        sim.lift(piece)
        sim.run(1400)  # the search goes on; the lift's ticks render from inside it
        lit = sum(1 for c in sim.leds() if any(c))
        sim.place(piece)
        sim.run(200)
        used["hint_lift"] = sim.stack_used()
        errors = [ln for ln in sim.lines if ln.startswith("evt error")]
    finally:
        sim.shutdown()
    deepest = max(used.values())
    print("stack_idle %d" % idle_sp)
    for k, v in used.items():
        print("stack_used_%s %d" % (k, v))
    print("stack_used %d" % deepest)
    print("stack_limit %d" % STACK_LIMIT_BYTES)
    print("stack_left %d" % (STACK_LIMIT_BYTES - deepest))
    print("deepest_phase %s" % max(used, key=used.get))
    print("lit_while_lifted %d" % lit)
    print("knock_told %d" % knock_told)
    print("board_moved %d" % board_moved)
    print("errors %d" % len(errors))
    for e in errors:
        print(e)


if __name__ == "__main__":
    main(sys.argv[1])
