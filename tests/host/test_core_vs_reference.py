"""Cross-check the fast rules core (firmware/triad/games/nehren) against the
independent reference implementation in tests/reference_nehren.py.

(a) legal move lists agree on hand-made and seeded positions
(b) perft agrees (depth 3 where affordable, depth 2 elsewhere)
(c) hypothesis: random legal games -- make/unmake, legality, round-trips,
    resulting positions all agree with the reference
(d) malformed positions and moves raise notation.NotationError, never
    anything else
"""

import os
import random
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import reference_nehren as ref  # noqa: E402

core = pytest.importorskip("triad.games.nehren.core")
notation = pytest.importorskip("triad.games.nehren.notation")
perft = pytest.importorskip("triad.games").load("nehren").perft  # engine_kit's

NotationError = notation.NotationError


def make_pos(dice, side="b", scores=(0, 0)):
    """Position string from {"a1": "b1", ...} (independent of both sides)."""
    rows = []
    for rank in "654321":
        rows.append("".join(dice.get(f + rank, ".") for f in "abcdef"))
    return "%s %s %d %d" % ("/".join(rows), side, scores[0], scores[1])


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------

START = ref.START

# Middle game, White to move, Black has scored once (5 black dice).
MID_A = "w3.w2..w1/..w2.b1./.b3..w3./..b2.../b1...w1./....b3. w 1 0"

# Dense centre with many Triad chances for both sides.
DENSE = "....../..w1b3../.b2w2.b1./.w3.b2w1./..b3w2../b1....w3 b 0 0"
DENSE_W = DENSE[:-5] + "w 0 0"

# Double Triad (f3c3 forms a row and a file Triad); Black on 2, so any
# Triad wins.  Near the end of the game.
DOUBLE_NEAR_END = make_pos(
    {"a3": "w1", "b3": "b2", "c4": "w3", "c5": "b3", "f3": "b1", "a1": "b2",
     "f6": "w1", "e6": "w2", "f5": "w3"},
    side="b", scores=(2, 1))

# Both on two Triads, White to move, Triad chances around.
BOTH_ON_TWO = "....../..w1b3../.b2w2.../.w3.b2w1./..b3.../b1....w3 w 2 2"

# Note 2 positions (side to move has no regular move).
NOTE2_CHANGE = make_pos({"a1": "b1", "a2": "w1", "b1": "w1", "b2": "w1",
                         "a3": "w3", "f6": "w2"})
NOTE2_KEEP = make_pos({"a1": "b1", "a2": "w2", "b1": "w3", "c3": "w2",
                       "f6": "b3", "e6": "w1", "f5": "w1", "e5": "w1"})
NOTE2_TWO_BOXED = make_pos({"a1": "b1", "a2": "b2", "a3": "w2",
                            "b1": "w3", "b2": "w3", "b3": "w3", "f6": "w1"})
# White boxed in the top-right corner by Black; White is on 2 Triads.
NOTE2_WHITE = make_pos({"f6": "w1", "e6": "b1", "f5": "b3", "d4": "b1",
                        "e5": "b2", "a1": "b1"}, side="w", scores=(1, 2))

# Finished games.
FINISHED_B = make_pos({"b3": "w2", "c3": "w2", "f6": "w1", "a1": "b1"},
                      side="w", scores=(3, 1))
FINISHED_W = make_pos({"b3": "w2", "c3": "w2", "a1": "b1", "b1": "b2"},
                      side="b", scores=(0, 3))

# Non-standard start rolls: Black ascending left to right on rank 1,
# White ascending from its own seat (so descending as seen from Black).
START_ROLLS = "w3w2w2w1w1w1/....../....../....../....../b1b2b2b2b3b3 b 0 0"

HAND_POSITIONS = [
    START, MID_A, DENSE, DENSE_W, DOUBLE_NEAR_END, BOTH_ON_TWO,
    NOTE2_CHANGE, NOTE2_KEEP, NOTE2_TWO_BOXED, NOTE2_WHITE,
    FINISHED_B, FINISHED_W, START_ROLLS,
]


def ref_playout(seed, plies, start=START):
    """Positions along a random game played with the REFERENCE only."""
    rng = random.Random(seed)
    pos = start
    seen = [pos]
    for _ in range(plies):
        ms = ref.legal_moves(pos)
        if not ms:
            break
        # Prefer Triad-forming moves now and then so scores move along.
        triads = [m for m in ms if "x" in m]
        m = rng.choice(triads if triads and rng.random() < 0.5 else ms)
        pos = ref.apply(pos, m)
        seen.append(pos)
    return seen


def _seeded_positions():
    out = []
    for seed in range(12):
        line = ref_playout(seed, 60)
        out += line[5::9]
        out.append(line[-1])
    # keep unique, stable order
    return list(dict.fromkeys(out))


SEEDED_POSITIONS = _seeded_positions()


def test_sanity_positions_are_what_the_comments_say():
    for p in (NOTE2_CHANGE, NOTE2_KEEP, NOTE2_TWO_BOXED, NOTE2_WHITE):
        ms = ref.legal_moves(p)
        assert ms and any("=" in m for m in ms), p
    assert "f3c3xc5" in ref.legal_moves(DOUBLE_NEAR_END)
    assert ref.legal_moves(FINISHED_B) == [] == ref.legal_moves(FINISHED_W)
    # The seeded games reach scored and finished positions too.
    assert any(ref.winner(p) is not None for p in SEEDED_POSITIONS)
    assert any(p.endswith((" 1 1", " 2 1", " 1 2", " 2 2"))
               for p in SEEDED_POSITIONS)


# ---------------------------------------------------------------------------
# helpers on the core side
# ---------------------------------------------------------------------------

def core_moves(pos_str):
    pos = notation.parse_position(pos_str)
    return sorted(notation.format_move(m) for m in pos.legal_moves())


WINNER_CODES = {None: -1, "b": 0, "w": 1}


# ---------------------------------------------------------------------------
# (a) legal move lists
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("pos_str", HAND_POSITIONS)
def test_legal_moves_hand_positions(pos_str):
    assert core_moves(pos_str) == sorted(ref.legal_moves(pos_str))


@pytest.mark.parametrize("pos_str", SEEDED_POSITIONS)
def test_legal_moves_seeded_positions(pos_str):
    assert core_moves(pos_str) == sorted(ref.legal_moves(pos_str))


@pytest.mark.parametrize("pos_str", HAND_POSITIONS + SEEDED_POSITIONS)
def test_winner_and_format(pos_str):
    pos = notation.parse_position(pos_str)
    assert notation.format_position(pos) == pos_str
    assert pos.winner() == WINNER_CODES[ref.winner(pos_str)]


def test_start_constant():
    assert notation.START == ref.START


# ---------------------------------------------------------------------------
# (b) perft
# ---------------------------------------------------------------------------

PERFT_CASES = [
    (START, 3),
    (MID_A, 3),
    (DENSE, 3),
    (DOUBLE_NEAR_END, 3),
    (NOTE2_TWO_BOXED, 3),
    (NOTE2_WHITE, 3),
    (BOTH_ON_TWO, 2),
    (START_ROLLS, 2),
    (FINISHED_B, 2),
]


@pytest.mark.parametrize("pos_str,depth", PERFT_CASES)
def test_perft_matches_reference(pos_str, depth):
    pos = notation.parse_position(pos_str)
    expected = [ref.perft(pos_str, d) for d in range(depth + 1)]
    got = [perft(pos, d) for d in range(depth + 1)]
    assert got == expected
    # perft must leave the position untouched
    assert notation.format_position(pos) == pos_str


def test_perft_start_known_values():
    # depth 1 worked out by hand in test_reference_rules.py
    assert perft(notation.parse_position(START), 0) == 1
    assert perft(notation.parse_position(START), 1) == 27


# ---------------------------------------------------------------------------
# (c) random legal games
# ---------------------------------------------------------------------------

@st.composite
def start_positions(draw):
    black = sorted(draw(st.lists(st.integers(1, 3), min_size=6, max_size=6)))
    white = sorted(draw(st.lists(st.integers(1, 3), min_size=6, max_size=6)),
                   reverse=True)
    return "%s/....../....../....../....../%s b 0 0" % (
        "".join("w%d" % v for v in white), "".join("b%d" % v for v in black))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1),
       plies=st.integers(1, 80),
       start=st.one_of(st.just(START), start_positions()))
def test_random_games_agree(seed, plies, start):
    rng = random.Random(seed)
    pos = notation.parse_position(start)
    for _ in range(plies):
        before = notation.format_position(pos)
        assert notation.format_position(notation.parse_position(before)) == before

        moves = pos.legal_moves()
        texts = [notation.format_move(m) for m in moves]
        ref_texts = ref.legal_moves(before)
        assert sorted(texts) == sorted(ref_texts), before
        assert len(set(texts)) == len(texts), before   # no duplicates
        assert pos.winner() == WINNER_CODES[ref.winner(before)]
        if not moves:
            assert ref.winner(before) is not None or not ref_texts
            break

        # every move: legal per the reference, parse_move round trip,
        # make gives the reference's position, unmake restores exactly
        for m, text in zip(moves, texts):
            assert text in ref_texts
            assert notation.parse_move(pos, text) == m
            pos.make(m)
            after = notation.format_position(pos)
            assert after == ref.apply(before, text), (before, text)
            pos.unmake(m)
            assert notation.format_position(pos) == before, (before, text)

        # bias towards Triads so games progress to scores 1..3
        triad_moves = [m for m, t in zip(moves, texts) if "x" in t]
        if triad_moves and rng.random() < 0.6:
            m = rng.choice(triad_moves)
        else:
            m = rng.choice(moves)
        pos.make(m)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), plies=st.integers(1, 60))
def test_make_unmake_deep_stack(seed, plies):
    """Make a whole game, then unmake all of it: every intermediate
    position string is restored exactly."""
    rng = random.Random(seed)
    pos = notation.parse_position(START)
    history = []
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            break
        m = rng.choice(moves)
        history.append((notation.format_position(pos), m))
        pos.make(m)
    final = notation.format_position(pos)
    assert notation.format_position(notation.parse_position(final)) == final
    for before, m in reversed(history):
        pos.unmake(m)
        assert notation.format_position(pos) == before


@st.composite
def arbitrary_positions(draw):
    """Any board (not necessarily reachable): up to 6 dice per colour."""
    cells = [f + r for r in "123456" for f in "abcdef"]
    chosen = draw(st.lists(st.sampled_from(cells), unique=True, max_size=12))
    nb = draw(st.integers(0, min(6, len(chosen))))
    if len(chosen) - nb > 6:
        nb = len(chosen) - 6
    dice = {}
    for i, c in enumerate(chosen):
        colour = "b" if i < nb else "w"
        dice[c] = colour + str(draw(st.integers(1, 3)))
    side = draw(st.sampled_from("bw"))
    sb = draw(st.integers(0, 3))
    sw = draw(st.integers(0, 2 if sb == 3 else 3))
    return make_pos(dice, side, (sb, sw))


@settings(max_examples=300, deadline=None)
@given(arbitrary_positions())
def test_arbitrary_positions_agree(pos_str):
    pos = notation.parse_position(pos_str)
    assert notation.format_position(pos) == pos_str
    assert core_moves(pos_str) == sorted(ref.legal_moves(pos_str))
    assert perft(pos, 2) == ref.perft(pos_str, 2)
    assert notation.format_position(pos) == pos_str


# ---------------------------------------------------------------------------
# (d) malformed input
# ---------------------------------------------------------------------------

BAD_POSITIONS = [
    "",
    " ",
    "b 0 0",
    "w3w3w2w2w1w1/....../....../....../b1b1b2b2b3b3 b 0 0",             # 5 ranks
    "w3w3w2w2w1w1/....../....../....../....../....../b1b1b2b2b3b3 b 0 0",  # 7
    "w3w3w2w2w1w1//....../....../....../b1b1b2b2b3b3 b 0 0",            # empty
    "w3w3w2w2w1/....../....../....../....../b1b1b2b2b3b3 b 0 0",         # 5 tokens
    "w3w3w2w2w1w1./....../....../....../....../b1b1b2b2b3b3 b 0 0",      # 7 tokens
    "w3w3w2w2w1w1/...../....../....../....../b1b1b2b2b3b3 b 0 0",        # 5 dots
    "w3w3w2w2w1w1/......./....../....../....../b1b1b2b2b3b3 b 0 0",      # 7 dots
    "w3w3w2w2w1w0/....../....../....../....../b1b1b2b2b3b3 b 0 0",       # value 0
    "w3w3w2w2w1w4/....../....../....../....../b1b1b2b2b3b3 b 0 0",       # value 4
    "w3w3w2w2w1w/....../....../....../....../b1b1b2b2b3b3 b 0 0",        # no value
    "w3w3w2w2w1ww/....../....../....../....../b1b1b2b2b3b3 b 0 0",
    "w3w3w2w2w1r1/....../....../....../....../b1b1b2b2b3b3 b 0 0",       # colour
    "W3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0",       # case
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 x 0 0",       # side
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 B 0 0",
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 bw 0 0",
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0",         # 1 score
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b",
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 4",       # score 4
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b -1 0",
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b x 0",
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 1.5",
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 10 0",
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 3 3",       # both won
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0 junk",  # trailing
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0 0",
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3b b 0 0",
    "w3w3w2w2w1w1/....../....../b1..../....../b1b1b2b2b3b3 b 0 0",       # 7 black
    "w3w3w2w2w1w1/w1...../....../....../....../b1b1b2b2b3b3 b 0 0",      # 7 white
    "w3w3w2w2w1w1\\....../....../....../....../b1b1b2b2b3b3 b 0 0",
    "6/6/6/6/6/6 b 0 0",                                                 # FEN-ish
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0\x00",
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b ٠ 0",     # arabic 0
    "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b ³ 0",      # superscript
]


@pytest.mark.parametrize("text", BAD_POSITIONS)
def test_bad_positions_raise_notation_error(text):
    with pytest.raises(NotationError):
        notation.parse_position(text)
    # and the reference agrees they are malformed
    with pytest.raises(ValueError):
        ref.parse_position(text)


def test_notation_error_is_value_error():
    assert issubclass(NotationError, ValueError)


def _core_parse_or_none(text):
    try:
        return notation.parse_position(text)
    except NotationError:
        return None
    # any other exception propagates and fails the test


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_random_text_positions(text):
    pos = _core_parse_or_none(text)
    if pos is not None:
        canonical = notation.format_position(pos)
        # anything the core accepts is a valid position (modulo whitespace)
        assert canonical == " ".join(text.split())
        ref.parse_position(canonical)


ALPHABET = "bw0123456789./ -x=\n\tBW"


@st.composite
def mutated_positions(draw):
    base = draw(st.sampled_from(HAND_POSITIONS))
    s = list(base)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["insert", "delete", "replace"]))
        i = draw(st.integers(0, len(s)))
        ch = draw(st.sampled_from(ALPHABET))
        if kind == "insert":
            s.insert(i, ch)
        elif kind == "delete" and i < len(s):
            del s[i]
        elif i < len(s):
            s[i] = ch
    return "".join(s)


@settings(max_examples=400, deadline=None)
@given(mutated_positions())
def test_mutated_positions_core_agrees_with_reference(text):
    pos = _core_parse_or_none(text)
    normalised = " ".join(text.split())
    try:
        ref_pos = ref.parse_position(normalised)
    except ValueError:
        ref_pos = None
    if ref_pos is None:
        assert pos is None, "core accepted malformed %r" % (text,)
    else:
        assert pos is not None, "core rejected valid %r" % (text,)
        assert notation.format_position(pos) == ref.format_position(ref_pos)


BAD_MOVES_AT_START = [
    "", " ", "a1", "a1a", "a1a3a", "a1a3x", "a1a3xa", "a1a3xz9", "a1a3xa3xa3",
    "g1g3", "a0a2", "a7a5", "A1A3", "a1-a3", "a1 a3", "1a3a",
    "a1=", "a1=0", "a1=4", "a1=x", "a1=22", "=2", "a1=2x",
    "a1a2",        # distance 1 keeps the value 1: not a regular move
    "a1b1",        # lands on a die
    "a1a5",        # distance 4
    "a1b3",        # not a straight line
    "c1c3",        # distance 2 keeps the value 2
    "c1e3",        # same, diagonal
    "a6a4",        # White's die, Black to move
    "a3a4",        # empty cell
    "a1=2",        # Note 2 change while regular moves exist
    "e1e3xe3",     # removal without a Triad
    "a1a3xa1",
    "a1a1",
]


@pytest.mark.parametrize("text", BAD_MOVES_AT_START)
def test_bad_moves_raise_notation_error(text):
    pos = notation.parse_position(START)
    with pytest.raises(NotationError):
        notation.parse_move(pos, text)
    assert notation.format_position(pos) == START
    with pytest.raises(ValueError):
        ref.apply(START, text)


@pytest.mark.parametrize("pos_str,text", [
    # a Triad move written without its removal
    (DOUBLE_NEAR_END, "f3c3"),
    # a removal of a die that is not one's own / not in a new Triad
    (DOUBLE_NEAR_END, "f3c3xa3"),
    (DOUBLE_NEAR_END, "f3c3xc4"),
    (DOUBLE_NEAR_END, "f3c3xa1"),
    # Note 2: value unchanged, or a regular move while boxed
    (NOTE2_CHANGE, "a1=1"),
    (NOTE2_CHANGE, "a1=2"),          # forms a Triad: needs xa1
    (NOTE2_CHANGE, "a1a3"),
    (NOTE2_KEEP, "a1c3"),
    (NOTE2_KEEP, "a1b2xb2"),
    # finished game
    (FINISHED_B, "f6f4"),
    (FINISHED_W, "a1a3"),
])
def test_illegal_moves_in_positions(pos_str, text):
    assert text not in ref.legal_moves(pos_str)
    pos = notation.parse_position(pos_str)
    with pytest.raises(NotationError):
        notation.parse_move(pos, text)


@pytest.mark.parametrize("pos_str", HAND_POSITIONS)
def test_every_reference_move_parses(pos_str):
    pos = notation.parse_position(pos_str)
    for text in ref.legal_moves(pos_str):
        m = notation.parse_move(pos, text)
        assert notation.format_move(m) == text


@settings(max_examples=300, deadline=None)
@given(pos_str=st.sampled_from(HAND_POSITIONS),
       text=st.one_of(st.text(max_size=12),
                      st.text(alphabet="abcdefg0123456x= ", max_size=10)))
def test_random_move_text(pos_str, text):
    pos = notation.parse_position(pos_str)
    legal = ref.legal_moves(pos_str)
    try:
        m = notation.parse_move(pos, text)
    except NotationError:
        assert text not in legal
        return
    # accepted: it must be a legal move (modulo surrounding whitespace)
    assert m in pos.legal_moves()
    assert notation.format_move(m) == text.strip()
    assert text.strip() in legal
