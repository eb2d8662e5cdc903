# The board's draw rule for endless games (under CPython and MicroPython).
from triad.games.nehren import core, notation, repetition as rep

P = notation.parse_position

# One die each: Black's b2 and White's e5 can each go round a three-move
# cycle, so the position comes back every six moves.
START = "....../....w1./....../....../.b1..../...... b 0 0"
CYCLE = ["b2d2", "e5c5", "d2a2", "c5f5", "a2b2", "f5e5"]


def moves_of(start, texts):
    pos = P(start)
    out = []
    for t in texts:
        m = notation.parse_move(pos, t)
        pos.make(m)
        out.append(m)
    return out


def test_third_occurrence_is_a_draw():
    texts = CYCLE + CYCLE
    ms = moves_of(START, texts)
    start = P(START)
    for n in range(len(ms)):
        assert rep.draw_reason(start, ms[:n]) == rep.NONE, n
    assert rep.draw_reason(start, ms) == rep.REPETITION
    assert notation.format_position(start) == START  # unchanged
    # With a higher threshold it is not yet a draw.
    assert rep.draw_reason(start, ms, repeats=4) == rep.NONE


def test_moves_without_triad():
    ms = moves_of(START, CYCLE + CYCLE)
    start = P(START)
    assert rep.draw_reason(start, ms[:5], repeats=99, quiet_plies=6) == rep.NONE
    assert rep.draw_reason(start, ms[:6], repeats=99, quiet_plies=6) == rep.NO_TRIAD
    assert rep.QUIET_PLIES >= 100


def test_a_triad_resets_both_counts():
    # Black's b3b4 makes a Triad: the positions before it can never come back.
    text = "....../..w3.../....../b2b2..../....../b1...w1w1 b 0 0"
    pos = P(text)
    m = notation.parse_move(pos, "b3b4xa3")
    assert rep.draw_reason(P(text), [m], quiet_plies=1) == rep.NONE


def test_won_game_is_not_a_draw():
    text = ".....w3/....../....../w2w2..../....../b1.b3..b1 b 2 1"
    pos = P(text)
    m = notation.parse_move(pos, "c1c3xc3")
    assert rep.draw_reason(P(text), [m], quiet_plies=0) == rep.NONE


def test_watch_agrees_with_the_pure_function():
    ms = moves_of(START, CYCLE + CYCLE)
    for qp in (4, 7, 200):
        pos = P(START)
        w = rep.DrawWatch(pos, quiet_plies=qp)
        for n in range(len(ms)):
            pos.make(ms[n])
            got = w.push(pos, ms[n])
            assert got == rep.draw_reason(P(START), ms[: n + 1], quiet_plies=qp), (qp, n)


def test_position_key_is_exact():
    a = P(START)
    b = P(START)
    assert rep.position_key(a) == rep.position_key(b)
    b.side = core.WHITE
    assert rep.position_key(a) != rep.position_key(b)
    c = P("....../....w1./....../....../.b2..../...... b 0 0")
    assert rep.position_key(a) != rep.position_key(c)
