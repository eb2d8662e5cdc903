# Rules-core checks of Browne's Triad that run under CPython (pytest) and
# MicroPython (mp_run). Expected values are worked out by hand from the rules
# (cell colour (row + number) % 3: 0 Red, 1 Green, 2 Blue; neighbours of
# (r, n): (r, n+-1), (r+1, n), (r+1, n+1), (r-1, n), (r-1, n-1)); the perft
# numbers are the ones tests/reference_browne.py counts.
from array import array

from fwtest import raises
from triad.compat import MICROPYTHON
from triad import games
from triad.games import DRAW
from triad.games.browne import core, notation

P = notation.parse_position
perft = games.load("browne").perft  # engine_kit's, bulk counting with the core's count
F = notation.format_position
NotationError = notation.NotationError
# One turn buffer for the module (53 KB; fresh ones fragment small heaps).
BUF = array("i", bytes(4 * core.MAX_MOVES))


def turns(pos):
    if isinstance(pos, str):
        pos = P(pos)
    return sorted(notation.format_move(pos, m) for m in pos.legal_moves())


def slides(pos):
    """The distinct slides (turn text without the drop)."""
    out = []
    for t in turns(pos):
        s = t.split("@")[0]
        if s not in out:
            out.append(s)
    return out


def play(text, turn):
    pos = P(text)
    pos.make(notation.parse_move(pos, turn))
    return pos


# -- the board -------------------------------------------------------------------


def test_board_has_61_named_cells_in_three_colours():
    names = notation.SITE_NAMES
    assert len(names) == 61 and len(core.CELLS) == 61
    assert names[:6] == ("A1", "A2", "A3", "A4", "A5", "B1")
    assert names[-5:] == ("I5", "I6", "I7", "I8", "I9")
    assert "F1" not in names and "F2" in names and "A6" not in names
    colours = [core.CELL_COLOUR[sq] for sq in core.CELLS]
    assert (colours.count(0), colours.count(1), colours.count(2)) == (19, 21, 21)
    assert core.CELL_COLOUR[core.CELLS[notation.site_index("E5")]] == core.RED
    # No two neighbours share a colour, and every cell has 3..6 neighbours.
    for sq in core.CELLS:
        k = 0
        for d in core.DIRECTIONS:
            if core.CELL_COLOUR[sq + d] < 3:
                k += 1
                assert core.CELL_COLOUR[sq + d] != core.CELL_COLOUR[sq]
        assert 3 <= k <= 6


def test_site_index():
    assert notation.site_index("A1") == 0
    assert notation.site_index("I9") == 60
    assert notation.site_index("E5") == 30
    for bad in ("", "A", "A0", "A6", "F1", "J5", "a1", "E10", "E5 ", 5):
        assert notation.site_index(bad) == -1


# -- the rules, one hand-made position each ------------------------------------------


def test_start_position_round_trips_and_red_has_four_slides():
    pos = P(notation.START)
    assert F(pos) == notation.START
    assert pos.side == core.RED
    assert (pos.counts[0], pos.counts[1], pos.counts[2]) == (9, 9, 9)
    # Each of these captures two pieces (E3-H6 takes H7 and I7); nothing
    # captures more; 34 empty cells + 2 captured = 36 drops each.
    assert slides(pos) == ["D2-D7", "E3-B3", "E3-H6", "F3-F8"]
    assert len(pos.legal_moves()) == 4 * 36
    assert core.outcome(pos) == -1


def test_slides_stop_at_pieces_and_never_land_on_own_colour():
    # Red A1 alone: A2 (blue) yes, A3 (red) no, A4 holds Green; B1 (blue),
    # C1 passed over (red), D1 (green), E1 (blue); diagonal B2 (red) passed,
    # C3 holds Blue. Nothing captures, so every slide is legal.
    pos = P("R:A1 G:A4 B:C3 r")
    assert slides(pos) == ["A1-A2", "A1-B1", "A1-D1", "A1-E1"]
    assert len(pos.legal_moves()) == 4 * 58


def test_captures_both_opponents_bunny_drop_and_candidate_moves_next():
    # E3-E6 lands on a green cell next to Green E7 and Blue F7: both go, the
    # bunny (Blue, the opponent not owning E6) is dropped, Green moves next.
    text = "R:E3 G:A5,E7 B:F7,I9 r"
    assert slides(text) == ["E3-E6"]
    # 56 empty cells, E3 emptied, E6 filled, E7 and F7 emptied.
    assert len(turns(text)) == 58
    pos = play(text, "E3-E6@A1")
    assert F(pos) == "R:E6 G:A5 B:A1,I9 g"
    assert pos.side == core.GREEN


def test_landing_cell_owner_is_candidate_other_is_bunny():
    # A1-A2 lands on a blue cell: Blue moves next, Green is the bunny.
    assert F(play("R:A1 G:A4 B:C3 r", "A1-A2@A1")) == "R:A2 G:A1,A4 B:C3 b"
    # A1-D1 lands on a green cell: Green moves next, Blue is the bunny.
    assert F(play("R:A1 G:A4 B:C3 r", "A1-D1@I9")) == "R:D1 G:A4 B:C3,I9 g"


def test_max_capture_rule_forces_the_bigger_capture():
    # E3-E4 would capture Blue D4 (one piece) but E3-E6 captures two.
    text = "R:E3 G:A5,E7 B:D4,F7,I9 r"
    assert slides(text) == ["E3-E6"]
    e = raises(NotationError, notation.parse_move, P(text), "E3-E4@A1")
    assert "max-capture" in str(e)


def test_free_choice_among_equal_captures():
    # Start: four slides by three pieces, each capturing two: all legal.
    pos = P(notation.START)
    for t in ("D2-D7@A1", "E3-B3@A1", "E3-H6@A1", "F3-F8@A1"):
        assert notation.parse_move(pos, t) >= 0


def test_non_capturing_slides_only_when_nothing_captures():
    # Nothing captures: all four slides of Red A1 are legal.
    quiet = "R:A1 G:A4 B:C3 r"
    assert len(slides(quiet)) == 4
    # Blue on B3 is next to A2 (A2's neighbours: A1, A3, B2, B3), so A1-A2
    # captures one and is now the only legal slide.
    assert slides("R:A1 G:A4 B:B3,C3 r") == ["A1-A2"]


def test_drop_goes_on_any_empty_cell_including_from_and_captured_cells():
    pos = P("R:E3 G:A5,E7 B:F7,I9 r")
    ts = turns(pos)
    for cell in ("E3", "E7", "F7", "A1", "I8"):
        assert "E3-E6@" + cell in ts
    for cell in ("E6", "A5", "I9"):
        assert "E3-E6@" + cell not in ts
    assert F(play("R:E3 G:A5,E7 B:F7,I9 r", "E3-E6@E7")) == "R:E6 G:A5 B:E7,I9 g"


def test_elimination_by_capture_no_drop_and_winner_by_count():
    # E3-E6 takes Green's last piece: no drop follows, the game ends, Red
    # (two pieces) beats Blue (one).
    text = "R:A1,E3 G:E7 B:F7,I9 r"
    assert turns(text) == ["E3-E6"]
    pos = play(text, "E3-E6")
    assert F(pos) == "R:A1,E6 G: B:I9 g"
    assert core.outcome(pos) == core.RED
    assert pos.legal_moves() == []
    assert perft(pos, 1) == 0 and perft(pos, 2) == 0


def test_elimination_with_equal_counts_is_a_tie():
    pos = play("R:E3 G:E7 B:F7,I9 r", "E3-E6")
    assert F(pos) == "R:E6 G: B:I9 g"
    assert core.outcome(pos) == DRAW


def test_eliminating_both_opponents_at_once_wins_outright():
    pos = play("R:E3 G:E7 B:F7 r", "E3-E6")
    assert F(pos) == "R:E6 G: B: g"
    assert core.outcome(pos) == core.RED


def test_elimination_by_having_no_legal_move():
    # Green A5 is walled in by A4, B5 and B6: Green is out, Red (2) beats
    # Blue (1).
    pos = P("R:A4,B5 G:A5 B:B6 g")
    assert pos.legal_moves() == [] and not pos.has_move()
    assert core.outcome(pos) == core.RED
    assert perft(pos, 1) == 0
    # Blue A1 can reach only A2 and B1, both blue cells: no legal move
    # although the cells next to it are empty.
    pos = P("R:A3,B2,C1 G:I9 B:A1 b")
    assert pos.legal_moves() == [] and core.outcome(pos) == core.RED
    # Same, Red and Green three pieces each: a tie of the two.
    assert core.outcome(P("R:A3,B2,C1 G:I7,I8,I9 B:A1 b")) == DRAW
    # With Red to move the game goes on.
    assert core.outcome(P("R:A3,B2,C1 G:I9 B:A1 r")) == -1


def test_outcome_of_set_up_positions_with_players_out():
    assert core.outcome(P("R:A1 G: B: g")) == core.RED
    assert core.outcome(P("R: G:A1,A2 B:A3 r")) == core.GREEN
    assert core.outcome(P("R: G:A1 B:A3 r")) == DRAW


# -- notation --------------------------------------------------------------------------


def test_position_lists_in_any_order_are_written_in_board_order():
    pos = P("R:G3,C1,F3,D1,E3,D2,E2,F2,E1 G:C7,A3,B4,A4,A5,B5,B6,C5,C6 B:I9,I8,I7,H9,H8,H7,G9,G8,G7 r")
    assert F(pos) == notation.START
    assert F(P("R: G:E5 B:I9 b")) == "R: G:E5 B:I9 b"


def test_turns_round_trip():
    for text in (notation.START, "R:E3 G:A5,E7 B:F7,I9 r", "R:A1,E3 G:E7 B:F7,I9 r"):
        pos = P(text)
        for m in pos.legal_moves():
            t = notation.format_move(pos, m)
            assert notation.parse_move(pos, t) == m
            assert notation.parse_move(pos, " " + t + " ") == m
        assert F(pos) == text


def test_malformed_positions_raise_notation_error():
    bad = [
        "",
        "R:A1 G:A2 B:A3",
        "R:A1 G:A2 B:A3 r x",
        "G:A2 R:A1 B:A3 r",
        "r:A1 G:A2 B:A3 r",
        "R A1 G:A2 B:A3 r",
        "R:A1 G:A2 B:A3 x",
        "R:A1 G:A2 B:A3 R",
        "R:A1 G:A2 B:A3 rg",
        "R:A6 G:A2 B:A3 r",
        "R:F1 G:A2 B:A3 r",
        "R:J1 G:A2 B:A3 r",
        "R:a1 G:A2 B:A3 r",
        "R:A1,A1 G:A2 B:A3 r",
        "R:A1 G:A1 B:A3 r",
        "R:A1,,A4 G:A2 B:A3 r",
        "R:A1, G:A2 B:A3 r",
        "R:,A1 G:A2 B:A3 r",
        "R:A10 G:A2 B:A3 r",
        "R:A1;A4 G:A2 B:A3 r",
        "R: G: B: r",
        None,
        5,
    ]
    for text in bad:
        raises(NotationError, P, text)


def test_malformed_and_illegal_turns_raise_notation_error():
    pos = P(notation.START)
    bad = [
        "",
        "E3",
        "E3-",
        "-H6",
        "E3H6@C4",
        "E3-H6@",
        "E3-Z9@C4",
        "E3-H6@C8",
        "e3-h6@c4",
        "E3-H6-C4",
        "A3-A2@C4",  # a green piece on Red's turn
        "E4-E5@C4",  # no piece on E4
        "E3-E1@C4",  # E1 holds a piece
        "E3-E5@C4",  # E5 is a red cell
        "E3-I7@C4",  # occupied
        "E3-E8@C4",  # E8 is a red cell, though the way there is free
        "E3-E4@C4",  # E4 captures nothing, others capture two
        "C1-C2@A1",  # likewise
        "E3-H6",  # a drop must follow
        "E3-H6@E1",  # drop cell holds a piece
        "E3-H6@H6",  # drop on the landing cell
        "D1-D7@C4",  # D2 is in the way
        "E3-F5@C4",  # not a straight line
    ]
    for text in bad:
        raises(NotationError, notation.parse_move, pos, text)
    raises(NotationError, notation.parse_move, pos, None)
    assert F(pos) == notation.START
    # No drop after an elimination.
    pos = P("R:A1,E3 G:E7 B:F7,I9 r")
    e = raises(NotationError, notation.parse_move, pos, "E3-E6@A2")
    assert "no drop" in str(e)
    # A finished game has no turns.
    e = raises(NotationError, notation.parse_move, P("R:A4,B5 G:A5 B:B6 g"), "A5-A3@C4")
    assert "over" in str(e)


def test_drop_on_the_vacated_and_captured_cells_parses():
    pos = P(notation.START)
    m = notation.parse_move(pos, "E3-H6@E3")
    assert core.m_drop(m) == notation.site_index("E3")
    # H6 is green, so Blue is the bunny: its piece taken from I7 comes back
    # there as the drop, and H7 stays empty.
    m = notation.parse_move(pos, "E3-H6@I7")
    pos.make(m)
    assert F(pos) == "R:C1,D1,D2,E1,E2,F2,F3,G3,H6 G:A3,A4,A5,B4,B5,B6,C5,C6,C7 B:G7,G8,G9,H8,H9,I7,I8,I9 g"


# -- make / unmake, perft ------------------------------------------------------------------


class Lcg:
    """Deterministic and identical on both runtimes (no `random` needed)."""

    def __init__(self, seed):
        self.s = seed

    def next(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 8) % n


def test_make_unmake_restore_exactly_over_random_games():
    rng = Lcg(2024)
    buf = BUF
    plies = 0
    for g in range(12):
        pos = P(notation.START)
        history = []
        while True:
            n = pos.gen(buf, 0)
            if n == 0:
                break
            before = pos.copy()
            for i in range(0, n, 7):
                pos.make(buf[i])
                pos.unmake(buf[i])
                assert pos == before
            m = buf[rng.next(n)]
            history.append((F(pos), m))
            pos.make(m)
            plies += 1
        assert core.outcome(pos) != -1
        for text, m in reversed(history):
            pos.unmake(m)
            assert F(pos) == text
    assert plies > 30


def test_move_fits_in_30_bits():
    pos = P(notation.START)
    for m in pos.legal_moves():
        assert 0 <= m < (1 << 30)
    m = notation.parse_move(P("R:E3 G:E7 B:F7 r"), "E3-E6")
    assert 0 <= m < (1 << 30) and core.m_drop(m) == core.NO_DROP


def test_perft_start_position():
    pos = P(notation.START)
    assert perft(pos, 0) == 1
    assert perft(pos, 1) == 144
    assert perft(pos, 2) == 14161
    if MICROPYTHON:
        assert perft(pos, 3) == 1060824
    assert F(pos) == notation.START


def test_perft_small_positions():
    assert perft(P("R:A1 G:A4 B:C3 r"), 1) == 232
    assert perft(P("R:A1,E3 G:E7 B:F7,I9 r"), 1) == 1
    assert perft(P("R:A1,E3 G:E7 B:F7,I9 r"), 2) == 0
