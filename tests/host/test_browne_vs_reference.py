"""Cross-check Browne's Triad rules core (firmware/triad/games/browne)
against the independent reference in tests/reference_browne.py.

(a) legal turn lists and outcomes agree on hand-made and seeded positions
(b) perft agrees
(c) hypothesis: random games -- turn lists, outcomes, parse/format round
    trips, make gives the reference's position, unmake restores exactly
(d) hypothesis: arbitrary boards agree, perft included
(e) any text given to the notation raises NotationError or parses
(f) the bench's plain perft (bench/plain_browne.py) counts what the
    reference counts
"""

import os
import random
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

_TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, _TESTS)
sys.path.insert(0, os.path.join(os.path.dirname(_TESTS), "bench"))

import plain_browne as plain  # noqa: E402
import reference_browne as ref  # noqa: E402

G = pytest.importorskip("triad.games.browne")
core = pytest.importorskip("triad.games.browne.core")

OUTCOME = {None: -1, "r": 0, "g": 1, "b": 2, "draw": 255}

START = ref.START
HAND = [
    START,
    "R:A1 G:A4 B:C3 r",
    "R:A1 G:A4 B:B3,C3 r",
    "R:E3 G:A5,E7 B:F7,I9 r",
    "R:E3 G:A5,E7 B:D4,F7,I9 r",
    "R:A1,E3 G:E7 B:F7,I9 r",
    "R:E3 G:E7 B:F7 r",
    "R:E3 G:E7 B:F7,I9 r",
    "R:A4,B5 G:A5 B:B6 g",
    "R:A3,B2,C1 G:I9 B:A1 b",
    "R:A3,B2,C1 G:I7,I8,I9 B:A1 b",
    "R:E6 G: B:I9 g",
    "R:B4,C1,D1,D2,E1,E2,G3 G:B5,H8,I7 B:D8,G4,I6 b",
]


def ref_playout(seed, start=START, limit=200):
    rng = random.Random(seed)
    pos = start
    seen = [pos]
    for _ in range(limit):
        ms = ref.legal_moves(pos)
        if not ms:
            break
        pos = ref.apply(pos, rng.choice(ms))
        seen.append(pos)
    return seen


def _seeded():
    out = []
    for seed in range(10):
        out += ref_playout(seed)
    return list(dict.fromkeys(out))


SEEDED = _seeded()


def core_turns(text):
    pos = G.parse_position(text)
    return sorted(G.format_move(pos, m) for m in pos.legal_moves())


def test_seeded_games_reach_every_kind_of_ending():
    ends = [ref.outcome(p) for p in SEEDED if ref.outcome(p) is not None]
    assert "draw" in ends and len(set(ends)) >= 3


@pytest.mark.parametrize("text", HAND + SEEDED)
def test_turns_and_outcome_agree(text):
    assert core_turns(text) == sorted(ref.legal_moves(text))
    pos = G.parse_position(text)
    assert G.format_position(pos) == ref.fmt(ref.parse(text))
    assert G.outcome(pos) == OUTCOME[ref.outcome(text)]
    assert (G.outcome_text(pos) == "") == (ref.outcome(text) is None)


@pytest.mark.parametrize(
    "text,depth",
    [(t, 2) for t in HAND] + [(t, 2) for t in SEEDED[5::15]],
)
def test_perft_matches_reference(text, depth):
    pos = G.parse_position(text)
    assert [G.perft(pos, d) for d in range(depth + 1)] == [
        ref.perft(text, d) for d in range(depth + 1)
    ]
    assert G.format_position(pos) == text


def test_start_perft_numbers():
    # tests/fw/test_browne_core.py checks the core against these (depth 3
    # under MicroPython, where it takes a fraction of a second).
    assert [ref.perft(START, d) for d in range(4)] == [1, 144, 14161, 1060824]


# ---------------------------------------------------------------------------
# (c) random games
# ---------------------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 60))
def test_random_games_agree(seed, plies):
    rng = random.Random(seed)
    pos = G.parse_position(START)
    history = []
    for _ in range(plies):
        before = G.format_position(pos)
        assert G.format_position(G.parse_position(before)) == before
        moves = pos.legal_moves()
        texts = [G.format_move(pos, m) for m in moves]
        ref_texts = ref.legal_moves(before)
        assert sorted(texts) == sorted(ref_texts), before
        assert len(set(texts)) == len(texts)
        assert G.outcome(pos) == OUTCOME[ref.outcome(before)]
        assert pos.count_moves() == len(moves)
        if not moves:
            break
        for i in rng.sample(range(len(moves)), min(25, len(moves))):
            m, text = moves[i], texts[i]
            assert G.parse_move(pos, text) == m
            pos.make(m)
            assert G.format_position(pos) == ref.apply(before, text), (before, text)
            pos.unmake(m)
            assert G.format_position(pos) == before
        m = rng.choice(moves)
        history.append((before, m))
        pos.make(m)
    for before, m in reversed(history):
        pos.unmake(m)
        assert G.format_position(pos) == before


# ---------------------------------------------------------------------------
# (d) arbitrary boards
# ---------------------------------------------------------------------------

NAMES = [ref.name(c) for c in ref.CELLS]


@st.composite
def boards(draw):
    cells = draw(st.lists(st.sampled_from(NAMES), unique=True, min_size=1, max_size=45))
    owners = [draw(st.sampled_from("RGB")) for _ in cells]
    lists = {k: [c for c, o in zip(cells, owners) if o == k] for k in "RGB"}
    return "R:%s G:%s B:%s %s" % (
        ",".join(lists["R"]),
        ",".join(lists["G"]),
        ",".join(lists["B"]),
        draw(st.sampled_from("rgb")),
    )


@settings(max_examples=150, deadline=None)
@given(boards())
def test_arbitrary_boards_agree(text):
    pos = G.parse_position(text)
    canon = ref.fmt(ref.parse(text))
    assert G.format_position(pos) == canon
    assert core_turns(text) == sorted(ref.legal_moves(text))
    assert G.outcome(pos) == OUTCOME[ref.outcome(text)]
    n1 = ref.perft(text, 1)
    assert G.perft(pos, 1) == n1
    if n1 <= 400:
        assert G.perft(pos, 2) == ref.perft(text, 2)
    assert G.format_position(pos) == canon


# ---------------------------------------------------------------------------
# (e) malformed input
# ---------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="RGBrgb:, ABCDEFGHIJ0123456789@-x\t", max_size=40))
def test_any_position_text_parses_or_raises_notation_error(text):
    try:
        pos = G.parse_position(text)
    except G.NotationError:
        return
    assert G.parse_position(G.format_position(pos)) == pos


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ABCDEFGHIJ0123456789@- ", max_size=12))
def test_any_turn_text_parses_or_raises_notation_error(text):
    pos = G.parse_position(START)
    try:
        m = G.parse_move(pos, text)
    except G.NotationError:
        return
    assert m in pos.legal_moves()


# ---------------------------------------------------------------------------
# (f) the bench's yardstick
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", HAND[:9] + SEEDED[7::20])
def test_plain_bench_perft_matches_reference(text):
    for d in (1, 2):
        if d == 2 and ref.perft(text, 1) > 400:
            break
        assert plain.perft(plain.parse(text), d) == ref.perft(text, d), (text, d)


# ---------------------------------------------------------------------------
# (g) the engine's viper path (MicroPython's; its source runs as Python
#     here) plays only the reference's turns
# ---------------------------------------------------------------------------


def test_engine_fast_path_plays_reference_turns():
    from triad.games.browne.engine.search import Engine

    def no_clock():
        return 0

    engines = [Engine(5), Engine(4), Engine(5)]
    for i, eng in enumerate(engines):
        eng.fast = True  # the kernels, make_v/unmake_v and the viper generator
        eng.seed(i + 3)
    turns = 0
    for game in range(3):
        rng = random.Random(game)
        pos = G.parse_position(START)
        for _ in range(2):  # a random opening, so the games differ
            pos.make(rng.choice(pos.legal_moves()))
        while G.outcome(pos) < 0 and turns < 200:
            before = G.format_position(pos)
            m = engines[pos.side].choose(pos, 1 << 20, no_clock, None, 120)
            assert G.format_position(pos) == before  # the engine searched its own copy
            text = G.format_move(pos, m)
            assert text in ref.legal_moves(before), (before, text)
            board, counts = bytearray(pos.board), bytearray(pos.counts)
            side = core.make_v(board, counts, m, pos.side)
            pos.make(m)
            assert (bytes(board), bytes(counts), side) == (bytes(pos.board), bytes(pos.counts), pos.side)
            assert G.format_position(pos) == ref.apply(before, text), (before, text)
            turns += 1
        assert G.outcome(pos) == OUTCOME[ref.outcome(G.format_position(pos))]
    assert turns > 20
