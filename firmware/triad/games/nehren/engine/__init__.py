# The computer opponent (play against the board, and the hint button).
#
# Import it only when it is used: `from triad.games.nehren.engine.search import Engine`
# costs about 20 KB of code and tables, and an Engine 15 KB plus 12 bytes per
# transposition-table entry (Engine(5, 1024): about 28 KB; measured with
# gc.mem_free on the MicroPython unix port).
#
#   eng = Engine(level, tt_entries=1024)        # level 1 (beginner) .. 5
#   keys = eng.history_keys(start_pos, moves)   # once per engine move
#   m = eng.choose(pos, budget_ms, time.ticks_ms, keys)
#
# m is a legal move int of the rules core (Note 2 and removals included), 0
# only when the game is over. The board's draw rule lives with the rules:
# triad.games.nehren.repetition.
