"""Tests of the reference rules implementation (tests/reference_nehren.py).

These validate the *oracle* itself against hand-made positions.  Every
expected move list below was worked out by hand from the rules text; the
reasoning is written next to it.  Nothing here imports the firmware.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import reference_nehren as ref  # noqa: E402


def make_pos(dice, side="b", scores=(0, 0)):
    """Build a position string from {"a1": "b1", ...} (test-local helper,
    deliberately independent of ref.format_position)."""
    rows = []
    for rank in "654321":
        row = ""
        for file in "abcdef":
            row += dice.get(file + rank, ".")
        rows.append(row)
    return "%s %s %d %d" % ("/".join(rows), side, scores[0], scores[1])


def moves(pos_str):
    return sorted(ref.legal_moves(pos_str))


# ---------------------------------------------------------------------------
# Notation
# ---------------------------------------------------------------------------

def test_helper_builds_the_start_position():
    start = make_pos({
        "a6": "w3", "b6": "w3", "c6": "w2", "d6": "w2", "e6": "w1", "f6": "w1",
        "a1": "b1", "b1": "b1", "c1": "b2", "d1": "b2", "e1": "b3", "f1": "b3",
    })
    assert start == ref.START
    assert start == "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"


def test_parse_start():
    p = ref.parse_position(ref.START)
    assert p["side"] == "b"
    assert p["scores"] == {"b": 0, "w": 0}
    assert p["board"]["a1"] == ("b", 1)
    assert p["board"]["f1"] == ("b", 3)
    assert p["board"]["a6"] == ("w", 3)
    assert p["board"]["f6"] == ("w", 1)
    assert len(p["board"]) == 12
    assert ref.format_position(p) == ref.START


def test_parse_rank_order_and_files():
    # A single die on c2: rank 2 is the fifth rank in the text.
    text = "....../....../....../....../..b2.../...... w 1 2"
    p = ref.parse_position(text)
    assert p["board"] == {"c2": ("b", 2)}
    assert p["side"] == "w"
    assert p["scores"] == {"b": 1, "w": 2}
    assert ref.format_position(p) == text


@pytest.mark.parametrize("text", [
    "",
    "w3w3w2w2w1w1/....../....../....../b1b1b2b2b3b3 b 0 0",             # 5 ranks
    "w3w3w2w2w1w1/....../....../....../....../....../b1b1b2b2b3b3 b 0 0",  # 7 ranks
    "w3w3w2w2w1/....../....../....../....../b1b1b2b2b3b3 b 0 0",         # 5 tokens
    "w3w3w2w2w1w1./....../....../....../....../b1b1b2b2b3b3 b 0 0",      # 7 tokens
    "w3w3w2w2w1w0/....../....../....../....../b1b1b2b2b3b3 b 0 0",       # value 0
    "w3w3w2w2w1w4/....../....../....../....../b1b1b2b2b3b3 b 0 0",       # value 4
    "w3w3w2w2w1w/....../....../....../....../b1b1b2b2b3b3 b 0 0",        # no value
    "w3w3w2w2w1r1/....../....../....../....../b1b1b2b2b3b3 b 0 0",       # colour
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 x 0 0",       # side
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0",         # 1 score
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 4",       # score 4
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b -1 0",      # score <0
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0 junk",  # trailing
    "w3w3w2w2w1w1/....../....../b1..../....../b1b1b2b2b3b3 b 0 0",       # 7 black
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 3 3",       # both won
])
def test_parse_rejects_malformed(text):
    with pytest.raises(ValueError):
        ref.parse_position(text)


# ---------------------------------------------------------------------------
# Movement
# ---------------------------------------------------------------------------

def test_start_position_moves():
    # a1 (1): up a3 a4, diag c3 d4 (right blocked by b1)            -> 4
    # b1 (1): up b3 b4; up-right c2 d3 e4 -> d3 e4; up-left a2 then
    #   off the board; left/right blocked by dice                   -> 4
    # c1 (2): values 1 and 3: c2, c4; b2, d2; 3 up-left c1-b2-a3-off;
    #   3 up-right d2 e3 f4                                         -> 5
    # d1 (2): d2, d4; c2, e2; 3 up-left c2 b3 a4; up-right e2 f3 off -> 5
    # e1 (3): values 1 and 2: e2, e3; d2, f2; 2 up-left d2 c3;
    #   2 up-right f2 then off                                      -> 5
    # f1 (3): f2, f3; e2; 2 up-left e2 d3                           -> 4
    expected = sorted([
        "a1a3", "a1a4", "a1c3", "a1d4",
        "b1b3", "b1b4", "b1d3", "b1e4",
        "c1c2", "c1c4", "c1b2", "c1d2", "c1f4",
        "d1d2", "d1d4", "d1c2", "d1e2", "d1a4",
        "e1e2", "e1e3", "e1d2", "e1f2", "e1c3",
        "f1f2", "f1f3", "f1e2", "f1d3",
    ])
    assert len(expected) == 27
    assert moves(ref.START) == expected
    assert ref.perft(ref.START, 1) == 27


def test_board_edge_stops_moves():
    # Lone black 1 in the corner: values 2 and 3, only three directions.
    p = make_pos({"a1": "b1", "f6": "w1"})
    assert moves(p) == sorted(["a1a3", "a1a4", "a1c1", "a1d1", "a1c3", "a1d4"])


def test_white_to_move_uses_white_dice():
    p = make_pos({"a1": "b1", "f6": "w1"}, side="w")
    assert moves(p) == sorted(["f6f4", "f6f3", "f6d6", "f6c6", "f6d4", "f6c3"])


def test_value_must_change():
    # A 2 in the middle of an empty board can move 1 or 3, never 2.
    p = make_pos({"d4": "b2", "f6": "w1"})
    expected = sorted([
        # distance 1, all 8 neighbours
        "d4c3", "d4c4", "d4c5", "d4d3", "d4d5", "d4e3", "d4e4", "d4e5",
        # distance 3: left a4, down d1, down-left a1; the rest leave the board
        "d4a4", "d4d1", "d4a1",
    ])
    assert moves(p) == expected
    distance_two = {"b4", "f4", "d2", "d6", "b2", "f2", "b6"}
    assert not any(m[2:4] in distance_two for m in moves(p))


def test_blocked_paths_and_no_landing_on_dice():
    # Black 1 on c3; white on c4 (blocks upwards), e3 (landing square of a
    # 2 to the right, and on the path of a 3), a1 (landing square of a 2
    # down-left).  Remaining: c1, a3, e5, f6, e1, a5.
    p = make_pos({"c3": "b1", "c4": "w1", "e3": "w1", "a1": "w1"})
    assert moves(p) == sorted(["c3c1", "c3a3", "c3e5", "c3f6", "c3e1", "c3a5"])


def test_perft_small_by_hand():
    p = make_pos({"a1": "b1", "f6": "w1"})
    assert ref.perft(p, 0) == 1
    assert ref.perft(p, 1) == 6
    # White f6 (1) has 6 moves (f4 f3 d6 c6 d4 c3) unless the black die
    # blocks: black on c3 removes f6c3 (5); black on d4 removes d4 and c3
    # (4).  6+6+6+6+5+4 = 33.
    assert ref.perft(p, 2) == 33


# ---------------------------------------------------------------------------
# Triads
# ---------------------------------------------------------------------------

def test_simple_triad_all_equal_remove_moved_die():
    # Black a1 (3) -> a3 as a 2 next to white b3 (2) and c3 (2): 2-2-2.
    # The only own die in the Triad is the moved one.
    p = make_pos({"a1": "b3", "b3": "w2", "c3": "w2", "f6": "w1"})
    # a1 as 1: a2, b1, b2 (no triad: every line through them has a gap)
    # a1 as 2: a3 (triad), c1; c3 is occupied (and so is the path for 3)
    assert moves(p) == sorted(["a1a2", "a1b1", "a1b2", "a1a3xa3", "a1c1"])
    after = ref.apply(p, "a1a3xa3")
    assert after == make_pos({"b3": "w2", "c3": "w2", "f6": "w1"},
                             side="w", scores=(1, 0))


def test_triad_all_different_any_order():
    # White a3 (3), black b3 (1); black moves c1 (1) -> c3 as a 2: 3-1-2.
    p = make_pos({"a3": "w3", "b3": "b1", "c1": "b1", "f6": "w1"})
    ms = moves(p)
    assert "c1c3xb3" in ms and "c1c3xc3" in ms
    assert "c1c3" not in ms
    assert not any(m.startswith("c1c3x") and m not in ("c1c3xb3", "c1c3xc3")
                   for m in ms)


def test_two_equal_one_different_is_not_a_triad():
    # w2 b2 + moved b1 -> 2-2-1, neither all equal nor all different.
    p = make_pos({"a3": "w2", "b3": "b2", "c2": "b3", "f6": "w1"})
    ms = moves(p)
    assert "c2c3" in ms   # c2 (3) -> c3 as a 1
    assert not any(m.startswith("c2c3x") for m in ms)


def test_double_triad_one_removal_union_of_own_dice():
    # Black f3 (1) -> c3 as a 3 (path e3 d3 c3).
    #   row 3:   a3 w1, b3 b2, c3 b3         -> 1-2-3 mixed: Triad
    #   file c:  c3 b3, c4 w3, c5 b3         -> 3-3-3 mixed: Triad
    # Own dice in the Triads: b3, c3, c5.  Exactly one removal.
    dice = {"a3": "w1", "b3": "b2", "c4": "w3", "c5": "b3", "f3": "b1"}
    p = make_pos(dice)
    ms = moves(p)
    assert sorted(m for m in ms if m.startswith("f3c3")) == \
        ["f3c3xb3", "f3c3xc3", "f3c3xc5"]
    for removed in ("b3", "c3", "c5"):
        after = dict(dice)
        del after["f3"]
        after["c3"] = "b3"
        del after[removed]
        assert ref.apply(p, "f3c3x" + removed) == \
            make_pos(after, side="w", scores=(1, 0))


def test_line_of_four_containing_a_triad():
    # Row 3 after c2 (2) -> c3 as a 1: w2 b3 b1 b1.
    #   (a3 b3 c3) = w2 b3 b1 -> 2-3-1 mixed: Triad
    #   (b3 c3 d3) = b3 b1 b1 -> own dice only (and not a valid pattern)
    p = make_pos({"a3": "w2", "b3": "b3", "d3": "b1", "c2": "b2", "f6": "w1"})
    ms = moves(p)
    assert sorted(m for m in ms if m.startswith("c2c3")) == ["c2c3xb3", "c2c3xc3"]


def test_line_of_four_two_triads_same_line():
    # Row 3 after c6 (2) -> c3 as a 3: w3 w3 b3 w3; both windows containing
    # c3 are 3-3-3 mixed Triads, the only own die is c3.
    p = make_pos({"a3": "w3", "b3": "w3", "d3": "w3", "c6": "b2"})
    ms = moves(p)
    assert sorted(m for m in ms if m.startswith("c6c3")) == ["c6c3xc3"]


def test_three_own_dice_never_a_triad():
    # Black a3 (1), b3 (2); black c6 (1) -> c3 as a 3: 1-2-3 but all black.
    p = make_pos({"a3": "b1", "b3": "b2", "c6": "b1", "f1": "w1"})
    ms = moves(p)
    assert "c6c3" in ms
    assert not any("x" in m for m in ms)


def test_three_opponent_dice_plus_nothing_is_not_ours():
    # Three white 1s in a row already on the board: not a Triad (one colour),
    # and black moving elsewhere gets no removal.
    p = make_pos({"a1": "w1", "b1": "w1", "c1": "w1", "f6": "b1"})
    assert not any("x" in m for m in moves(p))


def test_existing_triad_does_not_count():
    # a1 w1, b1 b1, c1 w1 is a Triad already on the board.
    # Black d3 (3) -> d1 as a 2 extends the line: (b1 c1 d1) = 1-1-2, no.
    # Black f6 (1) -> f4 far away: no.
    p = make_pos({"a1": "w1", "b1": "b1", "c1": "w1", "d3": "b3", "f6": "b1",
                  "a6": "w2"})
    ms = moves(p)
    assert "d3d1" in ms
    assert "f6f4" in ms
    assert not any("x" in m for m in ms)


def test_existing_triad_dice_not_removable_with_new_triad():
    # Old Triad a1 w1 / b1 b1 / c1 w1 stays.  Black f1 (1) -> f3 as a 2
    # next to white e3 (2), d3 (2) (row 3: d3 e3 f3 = 2-2-2).  Only f3 may
    # be removed -- b1 belongs to the old Triad only.
    p = make_pos({"a1": "w1", "b1": "b1", "c1": "w1",
                  "d3": "w2", "e3": "w2", "f1": "b1"})
    ms = moves(p)
    assert sorted(m for m in ms if m.startswith("f1f3")) == ["f1f3xf3"]


def test_diagonal_triads_both_directions():
    # main diagonal a1 w3, b2 w3; black c6 (2) -> c3 as a 3: (a1 b2 c3) 3-3-3.
    p = make_pos({"a1": "w3", "b2": "w3", "c6": "b2", "f6": "w1"})
    assert sorted(m for m in moves(p) if m.startswith("c6c3")) == ["c6c3xc3"]
    # anti-diagonal a5 w1, b4 w2; black f3 (2) -> c3 as a 3: (a5 b4 c3) 1-2-3
    p = make_pos({"a5": "w1", "b4": "w2", "f3": "b2", "f6": "w1"})
    assert sorted(m for m in moves(p) if m.startswith("f3c3")) == ["f3c3xc3"]


def test_moved_die_in_middle_of_triad():
    # w1 on a2, w2 on c2; black b5 (1) -> b2 as a 3 (path b4 b3 b2):
    # (a2 b2 c2) = 1-3-2 -> Triad with the moved die in the middle.
    p = make_pos({"a2": "w1", "c2": "w2", "b5": "b1", "f6": "w1"})
    assert sorted(m for m in moves(p) if m.startswith("b5b2")) == ["b5b2xb2"]


# ---------------------------------------------------------------------------
# Scores and end of game
# ---------------------------------------------------------------------------

def test_finished_game_has_no_moves():
    dice = {"a1": "b1", "b1": "b1", "f6": "w1", "e6": "w2"}
    assert ref.legal_moves(make_pos(dice, side="w", scores=(3, 1))) == []
    assert ref.winner(make_pos(dice, side="w", scores=(3, 1))) == "b"
    assert ref.legal_moves(make_pos(dice, side="b", scores=(0, 3))) == []
    assert ref.winner(make_pos(dice, side="b", scores=(0, 3))) == "w"
    assert ref.perft(make_pos(dice, side="b", scores=(0, 3)), 2) == 0
    assert ref.winner(make_pos(dice, side="b", scores=(2, 2))) is None


def test_third_triad_wins():
    dice = {"a1": "b3", "b3": "w2", "c3": "w2", "f6": "w1"}
    p = make_pos(dice, side="b", scores=(2, 1))
    after = ref.apply(p, "a1a3xa3")
    assert after == make_pos({"b3": "w2", "c3": "w2", "f6": "w1"},
                             side="w", scores=(3, 1))
    assert ref.winner(after) == "b"
    assert ref.legal_moves(after) == []


def test_white_scores_for_white():
    # Mirror: white f6 (3) -> f4 as a 2 next to black e4 (2), d4 (2).
    p = make_pos({"f6": "w3", "e4": "b2", "d4": "b2", "a1": "b1"}, side="w",
                 scores=(1, 0))
    assert "f6f4xf4" in moves(p)
    assert ref.apply(p, "f6f4xf4") == make_pos(
        {"e4": "b2", "d4": "b2", "a1": "b1"}, side="b", scores=(1, 1))


def test_apply_rejects_illegal_moves():
    p = make_pos({"a1": "b3", "b3": "w2", "c3": "w2", "f6": "w1"})
    for bad in ["a1a3", "a1a3xb3", "a1a3xc3", "a1a5", "f6f4", "a1=2", "zz",
                "a1b1xb1"]:
        with pytest.raises(ValueError):
            ref.apply(p, bad)


# ---------------------------------------------------------------------------
# Note 2
# ---------------------------------------------------------------------------

def test_note2_boxed_die_value_change_only():
    # Black a1 (1) boxed in by white a2, b1, b2: no regular move, and no
    # keep-value move either (every first step is blocked).
    p = make_pos({"a1": "b1", "a2": "w1", "b1": "w1", "b2": "w1"})
    assert moves(p) == ["a1=2", "a1=3"]
    assert ref.apply(p, "a1=3") == make_pos(
        {"a1": "b3", "a2": "w1", "b1": "w1", "b2": "w1"}, side="w")


def test_note2_value_change_forms_triad():
    # Same box plus white a3 (3): a1=2 makes (a1 a2 a3) = 2-1-3 mixed.
    p = make_pos({"a1": "b1", "a2": "w1", "b1": "w1", "b2": "w1", "a3": "w3"})
    assert moves(p) == ["a1=2xa1", "a1=3"]
    assert ref.apply(p, "a1=2xa1") == make_pos(
        {"a2": "w1", "b1": "w1", "b2": "w1", "a3": "w3"}, side="w",
        scores=(1, 0))


def test_note2_keep_value_move():
    # Black a1 (1): a2 and b1 occupied, b2 empty but c3 occupied, so values
    # 2 and 3 cannot move.  Black f6 (3) boxed by e6, f5, e5.
    # Note 2: a1=2, a1=3, a1b2 (keep value 1, move 1), f6=1, f6=2.
    p = make_pos({"a1": "b1", "a2": "w2", "b1": "w3", "c3": "w2",
                  "f6": "b3", "e6": "w1", "f5": "w1", "e5": "w1"})
    assert moves(p) == sorted(["a1=2", "a1=3", "a1b2", "f6=1", "f6=2"])
    assert ref.apply(p, "a1b2") == make_pos(
        {"b2": "b1", "a2": "w2", "b1": "w3", "c3": "w2",
         "f6": "b3", "e6": "w1", "f5": "w1", "e5": "w1"}, side="w")


def test_note2_removal_choices_include_other_own_dice():
    # Black a1 (1) and a2 (2) boxed in by white a3 (2), b1, b2, b3 (3s).
    # Existing column a1 a2 a3 = 1-2-2 (not a Triad).
    #   a1=2: 2-2-2 mixed -> remove a1 or a2
    #   a1=3: 3-2-2       -> nothing
    #   a2=1: 1-1-2       -> nothing  (a2 a3 a4: a4 empty)
    #   a2=3: 1-3-2 mixed -> remove a1 or a2
    p = make_pos({"a1": "b1", "a2": "b2", "a3": "w2",
                  "b1": "w3", "b2": "w3", "b3": "w3"})
    assert moves(p) == sorted(["a1=2xa1", "a1=2xa2", "a1=3", "a2=1",
                               "a2=3xa1", "a2=3xa2"])
    assert ref.perft(p, 1) == 6


def test_note2_only_when_no_regular_move():
    # Boxed a1 as before, but black also has a free die on f6: regular
    # moves exist, so no Note 2 move for a1 (nor anything else).
    p = make_pos({"a1": "b1", "a2": "w1", "b1": "w1", "b2": "w1", "f6": "b1"})
    ms = moves(p)
    assert ms == sorted(["f6f4", "f6f3", "f6d6", "f6c6", "f6d4", "f6c3"])
    assert not any("=" in m for m in ms)


def test_note2_no_dice_no_moves():
    p = make_pos({"f6": "w1"}, side="b")
    assert ref.legal_moves(p) == []
