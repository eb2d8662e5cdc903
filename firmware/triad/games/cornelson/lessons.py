# Cornelson's lessons: the board's teaching mode (a tutorial in light). Data
# only; the generic runner (triad/board/lessons.py) plays them through the
# face's `LESSONS()`. Loaded on first use: nothing here costs RAM in a game.
#
# A lesson is (goal, position, lit, solved, show[, settings]), as Nehren's
# (triad/games/nehren/lessons.py): solved is the accepted turns as texts or
# a predicate f(pos, m) over the position before the turn and the turn; show
# is a right turn, lit after two wrong tries; settings, when given, are the
# (name, value) pairs the lesson is played under (mode 3: a game of Capture, 2: of Trap),
# otherwise the game's defaults (a standard game).
from triad.games.cornelson import core, notation
from triad.games.cornelson import geometry as g


def _post(name):
    # The turn's gem goes on that post.
    return lambda pos, m: core.post_of(m) == g.post_index(name)


def _gains(n):
    # The turn captures at least n gems (a forfeit turn keeps fewer).
    def f(pos, m):
        side = pos.side
        q = pos.copy()
        before = q.tally[side]
        q.make(m)
        return q.tally[side] - before >= n
    return f


def _steps(text):
    # The turn has that jewel step (e.g. "b5-c6").
    return lambda pos, m: (" " + text) in notation.format_move(pos, m)


def _wins(pos, m):
    # The turn wins the game for the side that played it.
    q = pos.copy()
    q.make(m)
    return q.result == pos.side


LESSONS = (
    ("Each turn begins with a gem: place a South gem on D4, the centre post, "
     "then step your jewel across one border.",
     "..../...../....../......./....../...../.... S:a4 N:f4 s 0 0", "a4", _post("D4"), "D4 a4-a5"),
    ("Capture: place a gem so North's gem on C4 lies between two of yours in a line, "
     "then swap it for a South gem.",
     "..../...../....../......./..sn../...../.... S:a4 N:f4 s 0 0", "C3 C4", _gains(1), "C5 a4-a5"),
    ("Chain capture: a swapped-in gem captures again. Capture both North gems C4 and D4 "
     "with one gem.",
     "..../...../..s.nn/...n.../..sn../...../.... S:a4 N:f4 s 0 0", "C4 D4", _gains(2), "C5 a4-a5"),
    ("Jewels cross one border a turn, never a post: place a gem, then step your jewel "
     "from b5 across the border C3-C4 onto c6.",
     "..../...../....../......./....../...../.... S:b5 N:f4 s 0 0", "b5", _steps("b5-c6"), "D4 b5-c6"),
    ("Breach: place a gem, then step a jewel onto a North dock to win. N1 is shut by a "
     "Barrier (North gems on G1 and G2).",
     "nn../...../....../......./....../...../.... S:f2,f4 N:a4 s 0 0", "f2 f4", _wins, "D4 f4-N2"),
    ("Trap: North's jewel on d6 has one way out left; place the gem that closes it "
     "with a Barrier (two South gems on a border).",
     "..../...../..s.../...s.../....../...../.... S:a4 N:d6 s 0 0", "d6 D4 E3", _wins, "E4 a4-a5"),
    ("Portals: a jewel on a portal may transfer to the portal across the board: place "
     "a gem, then move your jewel from P1 to P9.",
     "..../...../....../......./....../...../.... S:P1 N:f4 s 0 0", "P1", _steps("P1-P9"), "D4 P1-P9"),
    ("Rule 3.1: capture North's C4 and swap it BEFORE you lift your jewel; a jewel "
     "lifted first forfeits the capture.",
     "..../...../....../......./..sn../...../.... S:b2 N:f4 s 0 0", "C3 C4", _gains(1), "C5 b2-b1"),
    ("A game of Capture has no jewels and ten captures win: you have 9, capture "
     "North's B3 for the tenth.",
     "..../...../....../......./....../.sn../.... S:- N:- s 9 0", "B2 B3", _wins, "B4", (("mode", 3),)),
    ("A game of Trap: only a Trap wins and North's docks are shut, so no Breach on N2. "
     "Trap North's jewel on d6.",
     "..../...../..s.../...s.../....../...../.... S:f4 N:d6 s 0 0", "d6 D4 E3", _wins, "E4 f4-f5",
     (("mode", 2),)),
)
