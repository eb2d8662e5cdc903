# The page's review of a game (issue 46): the board's own analysis
# (triad/board/review.py) of the game the simulated board holds, with the
# host's effort, as the page draws it: each move with its side and the
# position before it, the marks and their words (triad/games/review_text.py,
# the terminal's too), and one evaluation point a turn for the graph. The
# effort is the board's (its review mode's), so the page and the board's
# lights mark the same moves.
from simulator.game import GAME
from triad.board import review as R
from triad.board.review_mode import BOARD_NODES, ENGINE_TT
from triad.games import review_text

GRAPH_CAP = 2000  # a won game's point sits at the graph's edge


def analyse(start, moves, settings=None, nodes=BOARD_NODES):
    """{moves: [{ply, text, side, before, mark}], evals: [...], marks: n}
    for the game from `start` (a position text) through `moves` (texts)
    under `settings` ({wire name: word}, the board's `get` of the game's)."""
    g = GAME
    pos = g.parse_position(start)
    for key in g.SETTINGS:
        word = (settings or {}).get(key.replace("_", "-"))
        words = g.SETTING_CHOICES.get(key)
        if word is not None and words and word in words:
            g.apply_setting(pos, key, words.index(word))
    first = pos.copy()
    ints = []
    befores = []
    for text in moves:
        m = g.parse_move(pos, text)
        befores.append(pos.copy())
        ints.append(m)
        pos.make(m)
    # The board's effort and a fresh engine as the board's review makes one:
    # the page marks exactly the moves the board's lights mark.
    eng = g.new_engine(R.LEVEL, ENGINE_TT) if g.new_engine is not None and nodes else None
    rv = R.Review(g, first, ints, nodes=nodes, engine=eng).run()
    out = []
    for k, m in enumerate(ints):
        before = befores[k]
        mk = rv.mark_at(k + 1)
        mark = None
        if mk is not None:
            mark = {"kind": rv.kind_text(mk[1]), "best": g.format_move(before, mk[3]),
                    "words": review_text.mark_words(g, before, mk, rv)}
        out.append({"ply": k + 1, "text": g.format_move(before, m), "side": before.side,
                    "before": g.format_position(before), "mark": mark})
    return {"moves": out, "evals": evals(rv), "marks": len(rv.marks), "sides": len(g.SIDES)}


def evals(rv):
    """One point a turn (after move k, k = 1..n): the engine's value, from
    the first side's view in a game of two, else from the mover's (a
    search's score of three seats is one side's), capped for the graph."""
    two = len(GAME.SIDES) == 2
    out = []
    for k in range(1, len(rv.value)):
        v = rv.value[k]
        view = 0 if two else rv.side[k - 1]
        if rv.side[k] != view:
            v = -v
        out.append(max(-GRAPH_CAP, min(GRAPH_CAP, v)))
    return out
