# The computer opponent for Cameron Browne's three-player Triad, shaped as
# Nehren's and Cornelson's: tables.py (tables written out as data),
# evaluate.py (the scores of counts and finished games), search.py (the
# Engine: paranoid alpha-beta over slides with a few chosen drops). The
# board's player imports them one at a time (the face's ENGINE_MODULES), so
# its scan loop ticks between them.
#
#   from triad.games.browne.engine.search import Engine
#   eng = Engine(level=5)
#   m = eng.choose(pos, budget_ms, now_ms, keys=None, max_nodes=0)
#   eng.depth, eng.nodes, eng.score
