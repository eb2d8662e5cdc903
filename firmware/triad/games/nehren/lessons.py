# Nehren's lessons: the board's teaching mode (a tutorial in light). Data
# only; the generic runner (triad/board/lessons.py) plays them through the
# face's `LESSONS()`. Loaded on first use: nothing here costs RAM in a game.
#
# A lesson is (goal, position, lit, solved, show):
#   goal      one line for people (serial line, page)
#   position  the lesson's position (the side to move is the learner)
#   lit       cells the board lights while the learner thinks (names, spaces)
#   solved    the accepted moves as texts, or a predicate f(pos, m) -> bool
#             over the position before the move and the move played
#   show      a right move (text): lit after two wrong tries, or on hint
from array import array

from triad.games.nehren import core


def _shows(v):
    # The die moved (not turned in place) and now shows v.
    return lambda pos, m: core.m_from(m) != core.m_to(m) and core.m_new(m) == v


def _diagonal(pos, m):
    fr = core.m_from(m)
    to = core.m_to(m)
    df = core.file_of(to) - core.file_of(fr)
    dr = core.rank_of(to) - core.rank_of(fr)
    return df != 0 and (df == dr or df == -dr)


def _triad(pos, m):
    # A move that forms a Triad carries its removal.
    return core.m_removed(m) != 0


def _turned_in_place(v):
    return lambda pos, m: core.m_from(m) == core.m_to(m) and core.m_new(m) == v


def _moved_unturned(pos, m):
    return core.m_from(m) != core.m_to(m) and core.m_new(m) == core.m_old(m)


def _stops_triad(pos, m):
    # After the move the opponent has no move that forms a Triad.
    q = pos.copy()
    q.make(m)
    buf = array("i", bytes(4 * core.MAX_MOVES))
    n = q.gen(buf, 0, 0)
    for k in range(n):
        if core.m_removed(buf[k]):
            return False
    return True


LESSONS = (
    ("Move the lit die so that it shows 2 (a die's new value is the distance it moves).",
     "w1....w1/....../....../..b1.../....../...... b 0 0", "c3", _shows(2), "c3e3"),
    ("Move the lit die along a diagonal.",
     "w1....w2/....../....../....../...b3../...... b 0 0", "d2", _diagonal, "d2f4"),
    ("A die never jumps over another: move the lit die 3 cells.",
     "....w3./w1.w1.w1./....../w3.b2.../....../b3.b3.b3. b 0 0", "c3", ("c3f3",), "c3f3"),
    ("Make a Triad in one move: three dice in a line, both colours, all showing the same value.",
     "w1...../.....b3/....../.w2b2.../....../.....w3 b 0 0", "b3 c3", _triad, "f5d3xd3"),
    ("Make a Triad of three different values (1, 2 and 3).",
     "w3..b1../....../....../.w1b2.../....../.....w3 b 0 0", "b3 c3", _triad, "d6d3xd3"),
    ("Three of one colour are no Triad: make a Triad with both colours.",
     ".....w3/b1...../..w2.../.b2b2..b1/....../...... b 0 0", "c4", _triad, "a5c5xc5"),
    ("Which die would you remove? Move c4 to c2 for a Triad, then take off the die that leaves White no Triad.",
     ".....w3/....../.w1b1.../....../w2b2..../...... b 0 0", "c4", ("c4c2xc2",), "c4c2xc2"),
    ("White threatens a Triad (f5 to f3, with your d3): stop it.",
     "b1w3..../.....w1/....../...b2w2./....../b3..... b 0 0", "f5 d3", _stops_triad, "d3c3"),
    ("Find the Note 2 move: no die can move, so turn the lit die in place to show 3 "
     "(lift it, put it back, menu to pick 3, confirm).",
     "....../....../....../w1w1..../.w1..../b1w1.... b 0 0", "a1", _turned_in_place(3), "a1=3"),
    ("Note 2 again: move the lit die its current value without turning it.",
     "....../....../....../w1w1..../.w1..../b1w1.... b 0 0", "a1", _moved_unturned, "a1a2"),
    ("Win the game: you have two Triads, make the third.",
     "....b1./....../....../.w1..../w3...../...b2.. b 2 2", "a2 b3", _triad, "e6c4xc4"),
)
