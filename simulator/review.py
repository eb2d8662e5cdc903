# The page's review of a game (issue 46): the board's own analysis
# (triad/board/review.py) of the game the simulated board holds, with the
# host's effort, as the page draws it: each move with its side and the
# position before it, the marks and their words (triad/games/review_text.py,
# the terminal's too), and one evaluation point a turn for the graph. The
# effort is the board's (its review mode's), so the page and the board's
# lights mark the same moves.
from simulator.game import GAME
from triad.board import review as R
from triad.games import DRAW
from triad.games.text import read_turns
from triad.board.review_mode import BOARD_NODES, ENGINE_TT
from triad.games import review_text

GRAPH_CAP = 2000  # a won game's point sits at the graph's edge


def analyse(start, moves, settings=None, nodes=BOARD_NODES):
    """{moves: [{ply, text, side, before, mark}], evals: [...], marks: n}
    for the game from `start` (a position text) through `moves` (texts)
    under `settings` ({wire name: word}, the board's `get` of the game's)."""
    g = GAME
    pos = g.parse_position(start)
    _apply(pos, settings)
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
    the first side's view in a game of two; in a game of three (a search's
    score is one seat's) the next player's score, negated where the mover
    is not the next player: how well the turn left its mover against the
    seat that follows. Capped for the graph."""
    two = len(GAME.SIDES) == 2
    out = []
    for k in range(1, len(rv.value)):
        v = rv.value[k]
        view = 0 if two else rv.side[k - 1]
        if rv.side[k] != view:
            v = -v
        out.append(max(-GRAPH_CAP, min(GRAPH_CAP, v)))
    return out


# -- records (docs/records.md) on the page --------------------------------------
# The page saves the board's game as a record and opens one to review. The
# simulator sits below the host tools (it never imports host_tools.records),
# so it reads and writes the format's few lines here; tests/host/
# test_review_page_records.py holds both to host_tools.records.


class RecordError(ValueError):
    pass


def record_text(start, moves, settings=None, date=""):
    """The board's game (start, move texts, the board's game settings
    {wire name: word}) as a record file of this game."""
    g = GAME
    pos = g.parse_position(start)
    rules = _apply(pos, settings)
    first = g.format_position(pos)
    for text in moves:
        pos.make(g.parse_move(pos, text))
    w = g.outcome(pos)
    result = "*" if w < 0 else ("draw" if w == DRAW else g.SIDES[w])
    lines = ["# triad-record 1", "Game: " + g.NAME]
    if date:
        lines.append("Date: " + date)
    lines += ["%s: ?" % name for name in g.SIDE_NAMES]
    lines.append("Setup: -")
    if rules:
        lines.append("Settings: " + " ".join("%s=%s" % kv for kv in rules))
    lines += ["Start: " + first, "Result: " + result, "Final: " + g.format_position(pos), ""]
    for i, text in enumerate(moves):
        lines.append("%d. %s" % (i + 1, text))
    return "\n".join(lines) + "\n"


def read_record(text):
    """(start, move texts, settings) of a record of this game; RecordError
    with what is wrong, in one line."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "# triad-record 1":
        raise RecordError("not a Triad record (its first line is not '# triad-record 1')")
    head = {}
    i = 1
    while i < len(lines) and lines[i].strip():
        key, sep, value = lines[i].partition(":")
        if not lines[i].startswith("#") and sep:
            head[key.strip()] = value.strip()
        i += 1
    game = head.get("Game", "nehren")
    if game != GAME.NAME:
        raise RecordError("a record of %s: this page's board plays %s" % (game, GAME.NAME))
    if "Start" not in head:
        raise RecordError("the record has no Start: header")
    settings = dict(kv.split("=", 1) for kv in head.get("Settings", "").split() if "=" in kv)
    words = []
    for line in lines[i:]:
        for tok in line.split("#", 1)[0].split():
            if not (tok.endswith(".") and tok[:-1].isdigit()) and tok not in ("1-0", "0-1", "*"):
                words.append(tok)
    try:
        pos = GAME.parse_position(head["Start"])
    except ValueError as e:
        raise RecordError("Start: %s" % e)
    _apply(pos, settings)
    moves, used = read_turns(GAME, pos, words, canonical=True)
    if used < len(words):
        raise RecordError("move %d (%s) is not a legal move" % (len(moves) + 1, words[used]))
    return head["Start"], moves, settings


def _apply(pos, settings):
    """The game's settings of a record or the board ({wire name: word}) on
    pos; the (wire, word) pairs that differ from the defaults."""
    out = []
    for key, default in GAME.SETTINGS.items():
        wire = key.replace("_", "-")
        word = (settings or {}).get(wire)
        words = GAME.SETTING_CHOICES.get(key)
        if word is None or not words or word not in words:
            continue
        GAME.apply_setting(pos, key, words.index(word))
        if words.index(word) != default:
            out.append((wire, word))
    return out
