# Browne's lessons: the board's teaching mode (a tutorial in light). Data
# only; the generic runner (triad/board/lessons.py) plays them through the
# face's `LESSONS()`. Loaded on first use: nothing here costs RAM in a game.
#
# A lesson is (goal, position, lit, solved, show), as Nehren's
# (triad/games/nehren/lessons.py): solved is the accepted turns as texts or
# a predicate f(pos, m) over the position before the turn and the turn
# (drop included); show is a right turn, lit after two wrong tries.
from array import array

from triad.games.browne import core


def _landing(colour):
    # The slide lands on a cell of that colour (0 Red, 1 Green, 2 Blue).
    return lambda pos, m: core.CELL_COLOUR[core.CELLS[core.m_to(m)]] == colour


def _captured(m):
    # The sites the turn's slide captures.
    to = core.CELLS[core.m_to(m)]
    mask = core.m_mask(m)
    return [core.SITE_OF_SQ[to + core.DIRECTIONS[k]] for k in range(6) if mask & (1 << k)]


def _captures_side(side, n):
    # The slide captures n pieces, all of that side's.
    def f(pos, m):
        c = _captured(m)
        return len(c) == n and all(pos.owner(s) == side for s in c)
    return f


def _captures(name):
    def f(pos, m):
        from triad.games.browne import notation

        return notation.site_index(name) in _captured(m)
    return f


def _bunny_capturable(pos, m):
    # Lands on a Blue cell, and Blue's next slide can capture the dropped
    # (Green) bunny piece.
    if core.CELL_COLOUR[core.CELLS[core.m_to(m)]] != core.BLUE:
        return False
    q = pos.copy()
    q.make(m)
    d = core.m_drop(m)
    buf = array("i", bytes(4 * core.MAX_SLIDES))
    for k in range(q.gen_slides(buf, 0)):
        if d in _captured(buf[k]):
            return True
    return False


def _wins(pos, m):
    # The turn ends the game, won by the side that played it.
    side = pos.side
    q = pos.copy()
    q.make(m)
    return core.outcome(q) == side


def _goes_on(pos, m):
    q = pos.copy()
    q.make(m)
    return core.outcome(q) == -1


LESSONS = (
    ("Slide the lit Red piece in a straight line onto a Blue cell: Blue moves next "
     "(then put a Green piece on any empty cell).",
     "R:E5 G:B6,H9,I9 B:A5,E1,G3 r", "E5", _landing(core.BLUE), "E5-E7@B3"),
    ("A piece never lands on its own colour: land the lit Red piece on a Green cell: "
     "Green moves next, Blue is the bunny (put a Blue piece on any empty cell).",
     "R:D4 G:D7,F9,G4 B:B4,B5,C7 r", "D4", _landing(core.GREEN), "D4-G7@E2"),
    ("Land next to an opponent's piece to capture it: capture the lit Green piece on A2.",
     "R:E5 G:A2,A3 B:A4,F5,G5 r", "E5 A2", _captures("A2"), "E5-A1@E3"),
    ("A slide must capture the most any slide can (two here): capture two Green pieces.",
     "R:E5,H4 G:A1,D1,E4,G6 B:C5,H6,I7 r", "E5", _captures_side(core.GREEN, 2), "E5-F5@C3"),
    ("The drop: land on a Blue cell (Blue moves next), then drop the Green bunny piece "
     "where Blue can capture it.",
     "R:F6 G:B5,C5,E6 B:B6,F8 r", "F6", _bunny_capturable, "F6-I9@G8"),
    ("Eliminate Blue: capture its last piece (D1). No drop follows; the game ends and "
     "Red, with more pieces than Green, wins.",
     "R:B4,E5,F5,I6 G:A5,H5,H8 B:D1 r", "E5 D1", _wins, "E5-E1"),
    ("Capturing Blue's last piece would end the game with Green ahead (5 to 3): "
     "capture a Green piece instead.",
     "R:A4,E5,I8 G:B4,C1,D1,E1,F2 B:E4 r", "E4", _goes_on, "E5-C5@H6"),
    ("The end: land on a Green cell, then drop the Blue bunny piece so Green's last "
     "piece (A1) cannot slide: Red wins with most pieces.",
     "R:A5,F8,F9,G9 G:A1 B:A2,B1 r", "A1", _wins, "A5-B6@B2"),
)
