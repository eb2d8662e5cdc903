# The words of a game review's marks (triad/board/review.py, issue 46) for
# the host side: `python -m host_tools review`, the simulator's page and the
# monitor say a mark with these, from the face alone. Never imported by the
# board (its review mode sends a mark as numbers: `evt review ...`).
from triad.games import face
from triad.games.engine_kit import WIN_BOUND  # scores beyond it: won or lost games

ORDINALS = ("", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def _ordinal(n):
    if 0 < n < len(ORDINALS):
        return ORDINALS[n]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return "%d%s" % (n, suffix)


def mark_words(game, pos, mark, review):
    """Plain words for a mark (ply, kind, move, best, reply) whose position
    before the move is pos (not changed): why it is marked and what the
    better move does."""
    from triad.board import review as R

    ply, kind, m, best, reply = mark
    me = pos.side
    mover = game.SIDE_NAMES[me]
    mt = game.format_move(pos, m)
    bt = game.format_move(pos, best)
    if kind == R.MISSED:
        before = game.score(pos, me)
        after = pos.copy()
        after.make(best)
        now = game.score(after, me)
        if game.SCORE_WORD != face.DEFAULTS["SCORE_WORD"] and now > before:
            # (a game that names what its score counts: Nehren's Triads)
            return "%s makes your %s %s and wins the game" % (bt, _ordinal(now), game.SCORE_WORD)
        return "%s wins the game at once for %s" % (bt, mover)
    if kind == R.ALLOWS:
        after = pos.copy()
        after.make(m)
        nxt = game.SIDE_NAMES[after.side]
        return "after %s %s wins at once with %s; %s leaves no such win" % (
            mt, nxt, game.format_move(after, reply), bt)
    k = ply - 1
    after = review.value[k + 1]
    played = after if review.side[k + 1] == me else -after
    lost = review.value[k] - played
    if review.value[k] >= WIN_BOUND:
        return "%s wins by force; after %s the board's engine no longer sees a win" % (bt, mt)
    if played <= -WIN_BOUND:
        return "after %s the board's engine sees the game lost by force; %s holds it" % (mt, bt)
    return "%s was better: the board's engine rates %s %d points below it" % (bt, mt, lost)


def mark_line(game, pos, mark, review):
    """The contract's line: `mark PLY MOVE better BEST: KIND, WORDS`."""
    ply, kind, m, best, reply = mark
    return "mark %d %s better %s: %s, %s" % (
        ply, game.format_move(pos, m), game.format_move(pos, best), review.kind_text(kind),
        mark_words(game, pos, mark, review))
