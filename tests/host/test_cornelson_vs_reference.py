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


# A tourney's Game Tallies, one for each set of rules they give (12.2-12.4):
# what both players have won decides (none, Breach, Trap, Capture, Breach and
# Capture, Trap and Capture, Breach and Trap), with outcomes only one has
# mixed in (they change no rule).
TALLIES = [
    ({"s": set(), "n": set()}),
    ({"s": {"breach"}, "n": {"breach", "capture"}}),
    ({"s": {"trap"}, "n": {"trap"}}),
    ({"s": {"capture", "trap"}, "n": {"capture"}}),
    ({"s": {"breach", "capture"}, "n": {"breach", "capture"}}),
    ({"s": {"trap", "capture"}, "n": {"trap", "capture"}}),
    ({"s": {"breach", "trap"}, "n": {"breach", "trap"}}),
]


def _code(won):
    # The board's Game Tally setting by its word (the protocol's `series`).
    return C.SETTING_CHOICES["series"].index(ref.tally_word(won))


def _tourney_position(text, won):
    pos = C.parse_position(text)
    C.apply_setting(pos, "series", _code(won))
    C.apply_setting(pos, "mode", "tourney")
    return pos


@pytest.mark.parametrize("won", TALLIES, ids=[ref.tally_word(w) for w in TALLIES])
@pytest.mark.parametrize("text,depth", [(MID, 1), (CROWDED, 1), (NEAR_END, 2)])
def test_perft_agrees_in_a_tourneys_games(text, depth, won):
    # The core's rule bits for a tourney's game against the reference's
    # reading of 12.2-12.4 written from the rulebook.
    assert C.perft(_tourney_position(text, won), depth) == ref.perft(text, depth, ref.tourney_rules(won))


@pytest.mark.parametrize("won", TALLIES, ids=[ref.tally_word(w) for w in TALLIES])
def test_a_tourneys_games_agree_turn_by_turn(won):
    import random

    rnd = random.Random(len(ref.tally_word(won)) * 7 + sum(map(len, won.values())))
    rules = ref.tourney_rules(won)
    for game in range(2):
        st = ref.parse(ref.START, rules)
        for ply in range(60):
            text = ref.fmt(st)
            pos = _tourney_position(text, won)
            got = {}
            for m in pos.legal_moves():
                parts = C.format_move(pos, m).split()
                pos.make(m)
                got[(parts[0], tuple(sorted(parts[1:])))] = (C.format_position(pos), WINNER[C.outcome(pos)])
                pos.unmake(m)
            assert got == ref_turns(text, rules), (ref.tally_word(won), text)
            if not got:
                break
            _, st, _ = ref.random_turn(st, rnd)


class _Won:
    def __init__(self, result, reason):
        self.result = result
        self.reason = reason


def test_a_tourneys_verdicts_agree():
    # Every Game Tally not yet won, every way a game ends: the core's
    # Tourney.record (what the board enters, evt series) against the
    # reference's 12.0-12.1.
    from triad.games.cornelson import core, tourney as T

    why = {"breach": core.WHY_BREACH, "trap": core.WHY_TRAP, "capture": core.WHY_CAPTURE,
           "stuck": core.WHY_STUCK}
    verdict = {T.GAME_WON: "tally", T.GAME_DRAWN: "drawn", T.SERIES_WON: "won", T.NOTHING: "none"}
    seen = set()
    for code in range(64):
        word = C.SETTING_CHOICES["series"][code]
        won = {}
        for side, part in zip("sn", word.split(":")):
            won[side] = set(o for o in ref.OUTCOMES if o[0] in part)
        if len(won["s"]) == 3 or len(won["n"]) == 3:
            continue
        assert _code(won) == code
        for winner in "sn":
            for reason in why:
                t = C.new_tourney(code)
                got = verdict[t.record(_Won("sn".index(winner), why[reason]))]
                want, after = ref.tourney_record(won, winner, ref.outcome_of(winner, reason))
                assert got == want, (word, winner, reason)
                assert C.SETTING_CHOICES["series"][0 if want == "won" else t.code()] == ref.tally_word(after)
                seen.add(want)
        t = C.new_tourney(code)
        assert verdict[t.record(_Won(255, core.WHY_FULL))] == ref.tourney_record(won, "draw", None)[0] == "none"
    assert seen == {"tally", "drawn", "won"}


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
