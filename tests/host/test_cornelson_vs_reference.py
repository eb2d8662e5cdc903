"""Cross-check Cornelson's TRIAD rules core (firmware/triad/games/cornelson)
against the independent reference (tests/reference_cornelson.py).

(a) perft agrees on hand-made positions in every mode
(b) hypothesis: random games in every mode -- at each ply the sets of turns,
    the positions they lead to and their outcomes agree; make/unmake is
    exact; turn text round-trips; footprints change the sensed board exactly
    as the positions do
(c) malformed positions and turns raise NotationError, never anything else
"""

import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import reference_cornelson as ref  # noqa: E402

C = pytest.importorskip("triad.games.cornelson")
games = pytest.importorskip("triad.games")

MID = "..s./.n.s./..ns../..ssn../.nns../..s../.... S:b6,c4,P1 N:c8,e5,P9! s 2 1"
CROWDED = "n.s./sn.ns/.nsns./ns.s.ns/.snns./ns.n./s.n. S:a4,c5,d2 N:d7,e4,c9 n 3 4"
NEAR_END = "snsn/nsnsn/snsnsn/nsnsnsn/snsnsn/nsn.n/s..n S:a3,f2 N:b4,P9! s 9 8"
CAPTURE_START = ref.START.replace("S:S1,S2,S3 N:N1,N2,N3", "S:- N:-")
WINNER = {-1: None, 0: "s", 1: "n", 255: "draw"}


def core_turns(text, mode):
    """{normalised turn: (position text after, winner)} from the core, with
    make/unmake and notation checked on the way."""
    pos = C.parse_position(text, mode)
    before = C.format_position(pos)
    out = {}
    for m in pos.legal_moves():
        t = C.format_move(pos, m)
        assert C.parse_move(pos, t) == m
        parts = t.split()
        key = (parts[0], tuple(sorted(parts[1:])))
        assert key not in out, "turn listed twice: %s" % t
        pos.make(m)
        out[key] = (C.format_position(pos), WINNER[C.outcome(pos)])
        pos.unmake(m)
        assert C.format_position(pos) == before
    return out


def ref_turns(text, mode):
    out = {}
    for key, s2, _ in ref.iter_turns(ref.parse(text, mode)):
        post, steps = key
        out[(post or "-", tuple(sorted(a + "-" + b for a, b in steps)))] = (ref.fmt(s2), s2.winner)
    return out


@pytest.mark.parametrize("mode", ref.MODES)
@pytest.mark.parametrize("text,depth", [(ref.START, 2), (MID, 2), (CROWDED, 1), (NEAR_END, 2)])
def test_perft_agrees(text, depth, mode):
    pos = C.parse_position(text, mode)
    assert C.perft(pos, depth) == ref.perft(text, depth, mode)


def test_perft_start_depth_3():
    assert C.perft(C.parse_position(ref.START), 3) == 186480


def _check_footprint(pos, m):
    """Applying the footprint's LIFTs and PLACEs to expected(pos) gives
    expected(pos after m)."""
    out = [0] * 64
    n = C.footprint(pos, m, out)
    a = bytearray(C.N_SITES)
    C.expected(pos, a)
    for e in out[:n]:
        site, act = e & 255, (e >> 8) & 3
        if act == games.LIFT:
            assert a[site] == 1
            a[site] = 0
        elif act == games.PLACE:
            assert a[site] == 0
            a[site] = 1
        else:
            assert a[site] == 1 and site < 37
    pos.make(m)
    b = bytearray(C.N_SITES)
    C.expected(pos, b)
    pos.unmake(m)
    assert a == b


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ref.MODES), st.data())
def test_random_games_agree(mode, data):
    text = CAPTURE_START if mode == "capture" else ref.START
    for _ in range(data.draw(st.integers(10, 50))):
        got = core_turns(text, mode)
        want = ref_turns(text, mode)
        assert set(got) == set(want), text
        for k in want:
            assert got[k] == want[k], (text, k)
        if not want:
            break
        key = data.draw(st.sampled_from(sorted(want)))
        pos = C.parse_position(text, mode)
        m = C.parse_move(pos, _text_of(pos, key))
        _check_footprint(pos, m)
        text = want[key][0]
        if want[key][1] is not None:
            break


def _text_of(pos, key):
    for m in pos.legal_moves():
        parts = C.format_move(pos, m).split()
        if parts[0] == key[0] and tuple(sorted(parts[1:])) == key[1]:
            return " ".join(parts)
    raise AssertionError(key)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="./snSNPabcdefg0123456789:!,- ", max_size=90))
def test_garbage_positions_raise_notation_error_only(text):
    try:
        C.parse_position(text)
    except C.NotationError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ABCDEFGabcdefSNP0123456789- !", max_size=30))
def test_garbage_turns_raise_notation_error_only(text):
    pos = C.parse_position(MID)
    try:
        m = C.parse_move(pos, text)
    except C.NotationError:
        return
    assert m in pos.legal_moves()


def test_the_benchs_phase_once_yardstick_counts_what_the_reference_plays():
    # bench/cornelson_bench.py measures the core against
    # bench/plain_cornelson_phase.py (the jewel phase once per set of
    # captured posts at the last ply): it must count exactly the reference's
    # turns, in every mode, or the ratio compares different trees.
    import random

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "bench"))
    import plain_cornelson_phase as phase

    rnd = random.Random(26)
    checked = 0
    for mode in ref.MODES:
        for game in range(2):
            s = ref.parse(ref.START, mode)
            for ply in range(70):
                ts = list(ref.iter_turns(s))
                assert phase.count(s) == len(ts), (mode, ref.fmt(s))
                checked += 1
                if not ts:
                    break
                s = rnd.choice(ts)[1]
    assert checked > 200
