# The computer opponent for Don Cornelson's TRIAD, shaped as Nehren's:
# tables.py (geometry-derived tables, written out as data), evaluate.py (the
# evaluation and the static values of placements and step sets), search.py
# (the Engine: iterative deepening negamax over a selective move list). The
# board's player imports them one at a time (the face's ENGINE_MODULES), so
# its scan loop ticks between them.
#
#   from triad.games.cornelson.engine.search import Engine
#   eng = Engine(level=5)
#   m = eng.choose(pos, budget_ms, now_ms, keys, max_nodes)  # a turn, 0 if over
#   eng.depth, eng.nodes, eng.score                          # the last search
