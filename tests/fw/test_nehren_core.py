# Rules-core checks that run under CPython (pytest) and MicroPython (mp_run).
# Expected values are worked out by hand from the rulebook.
from fwtest import raises
from triad import games
from triad.games.nehren import core, notation

P = notation.parse_position
F = notation.format_position
perft = games.load("nehren").perft  # engine_kit's


def moves(text):
    return sorted(notation.format_move(m) for m in P(text).legal_moves())


def test_start_position_round_trips_and_has_27_moves():
    pos = P(notation.START)
    assert F(pos) == notation.START
    assert len(pos.legal_moves()) == 27
    assert pos.side == core.BLACK and pos.winner() == -1


def test_value_must_change_and_distance_is_new_value():
    # A lone black 2 in a corner may travel 1 or 3 cells, never 2.
    got = moves("....../....../....../....../....../w1....b2 b 0 0")
    assert got == sorted(["f1e1", "f1c1", "f1f2", "f1f4", "f1e2", "f1c4"])


def test_paths_are_blocked_and_dice_cannot_land_on_dice():
    # Black 3 on a1: a2 blocks north, c1 blocks east beyond b1.
    got = moves("....../....../....../....../w1...../b3.w1... b 0 0")
    assert got == ["a1b1", "a1b2", "a1c3"]


def test_note2_turn_in_place_forms_triads():
    # The black 1 in the a1 corner is boxed in: no regular or keep-value move.
    pos = P("....../....../....../w3.w3.../w3w1..../b1w2w2... b 0 0")
    assert pos.is_note2()
    # a1=2 makes b2-w2-w2 on rank 1 and 2-1-3 on the diagonal; a1=3 makes
    # 3-3-3 on the a-file.
    assert moves(F(pos)) == ["a1=2xa1", "a1=3xa1"]


def test_note2_turn_in_place_without_triad():
    pos = P("....../....../....../....../w1w1..../b2w1.... b 0 0")
    assert pos.is_note2()
    assert moves(F(pos)) == ["a1=1", "a1=3"]


def test_note2_keep_value_move():
    # Black 2 on a1 can still step 1 cell to a2 (a regular move): no Note 2.
    pos = P("....../....../....../w1w1..../.w1..../b2w1.... b 0 0")
    # a2 empty, a3 held: a regular move needs 1 (a2 ok!) -> not Note 2.
    assert not pos.is_note2()
    assert "a1a2" in moves(F(pos))
    # Turn a1 into a 1: the only free path is a1-a2 (1 cell), which is its
    # current value, so every regular move is gone and Note 2 allows it.
    pos = P("....../....../....../w1w1..../.w1..../b1w1.... b 0 0")
    assert pos.is_note2()
    assert moves(F(pos)) == ["a1=2", "a1=3", "a1a2"]


def test_triad_needs_both_colours():
    # Black lines of 2-2-2 or 1-2-3 made only of black dice never count.
    pos = P("....../....../....../....../b2b2..../..b3... b 0 0")
    assert moves(F(pos))
    for m in pos.legal_moves():
        assert core.m_removed(m) == 0


def test_triad_with_removal_choices_and_undo():
    # Black c4 (a 1) moves 2 cells to c2: w2-b2-b2 on rank 2 is a Triad and
    # black removes one of its own dice in it, b2 or c2.
    pos = P("....../....../..b1.../....../w2b2..../...... b 0 0")
    got = [s for s in moves(F(pos)) if s.startswith("c4c2")]
    assert got == ["c4c2xb2", "c4c2xc2"]
    m = notation.parse_move(pos, "c4c2xb2")
    before = F(pos)
    pos.make(m)
    assert F(pos) == "....../....../....../....../w2.b2.../...... w 1 0"
    pos.unmake(m)
    assert F(pos) == before


def test_double_triad_offers_union_of_own_dice_and_one_removal():
    pos = P("....../....../..b2.../..w2.../w2b2..b1./...... b 0 0")
    got = [s for s in moves(F(pos)) if s.startswith("e2c2")]
    assert got == ["e2c2xb2", "e2c2xc2", "e2c2xc4"]
    pos.make(notation.parse_move(pos, "e2c2xc4"))
    assert F(pos) == "....../....../....../..w2.../w2b2b2.../...... w 1 0"


def test_line_of_four_contains_a_triad():
    # Rank 2 reads w1 b2 w3 and black e3 (a 2) steps to d2 showing 1: the line
    # w1 b2 w3 b1 holds the new Triad b2-w3-b1 (all different, both colours).
    pos = P("....../....../....../....b2./w1b2w3.../...... b 0 0")
    got = [s for s in moves(F(pos)) if s.startswith("e3d2")]
    assert got == ["e3d2xb2", "e3d2xd2"]


def test_existing_triad_does_not_count():
    # w2-b2-w2 on rank 2 stands before the move: no move of black removes.
    pos = P("b1...../....../....../....../w2b2w2.../...... b 0 0")
    assert len(moves(F(pos))) > 0
    for m in pos.legal_moves():
        assert core.m_removed(m) == 0


def test_three_triads_end_the_game():
    pos = P("....../....../..b1.../....../w2b2..../...... b 2 0")
    pos.make(notation.parse_move(pos, "c4c2xc2"))
    assert pos.winner() == core.BLACK
    assert pos.legal_moves() == []
    assert not pos.is_note2()
    assert perft(pos, 2) == 0


def test_white_start_position_perft():
    pos = P(notation.START.replace(" b ", " w "))
    assert perft(pos, 1) == 27


def test_malformed_positions_raise_notation_error():
    bad = [
        "",
        "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0",
        "w3w3w2w2w1w1/....../....../....../b1b1b2b2b3b3 b 0 0",
        "w3w3w2w2w1/....../....../....../....../b1b1b2b2b3b3 b 0 0",
        "w3w3w2w2w1w1./....../....../....../....../b1b1b2b2b3b3 b 0 0",
        "w4w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0",
        "w0w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0",
        "x3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0",
        "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 x 0 0",
        "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 4 0",
        "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 -1",
        "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 3 3",
        "w3w3w2w2w1w1/w1...../....../....../....../b1b1b2b2b3b3 b 0 0",
    ]
    for text in bad:
        raises(notation.NotationError, P, text)


def test_malformed_and_illegal_moves_raise_notation_error():
    pos = P(notation.START)
    for text in ["", "a1", "a1a3a", "a1a2", "g1g2", "a0a2", "a1=4", "a1=2", "a1a3x", "a1a3xa3", "c1c2xz9"]:
        raises(notation.NotationError, notation.parse_move, pos, text)
    assert F(pos) == notation.START


def test_a_new_position_is_the_empty_board():
    # Position() copies a prepared empty board: border all round, the 36
    # cells empty, black to move, no Triads; each position has its own board.
    p = core.Position()
    for i in range(core.WIDTH * core.WIDTH):
        assert p.board[i] == (core.EMPTY if i in core.CELLS else core.BORDER)
    assert p.side == core.BLACK and p.score[0] == 0 and p.score[1] == 0
    q = core.Position()
    q.board[core.CELLS[0]] = 1
    assert p.board[core.CELLS[0]] == core.EMPTY
