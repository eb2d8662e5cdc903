"""Hypothesis over whole Nehren games with any faults at any calls.

The file system (tests/fw/faultfs.py) fails the calls hypothesis chooses, in
the ways it chooses (EIO, a partial write, a late EIO after the data is on
flash, ENOSPC, a read-only mount), optionally on a flash that is already full
of another game's save. storeprop.play then restarts and checks: the resumed
game is the committed moves up to at least the last one reported saved,
every move after it was reported unsaved, and the game then ends saved.
(tests/fw/test_store_faults.py runs the deterministic loop of the same
property under CPython and MicroPython.)
"""
from hypothesis import given, settings, strategies as st

from faultfs import KINDS
from storeprop import Stats, nehren_game, play
from triad.board import store

FAULTS = st.dictionaries(st.integers(0, 400), st.sampled_from(KINDS), max_size=12)
TOTAL = Stats()


def _other(files):
    from faultfs import FaultFs

    fs = FaultFs(files)
    g = store.GameStore("", fs, rules=None, game="cornelson")
    g.start("cornelson-start", "c")
    for i in range(40):
        g.append("m%d" % i)
    return fs.files


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 10 ** 6), n=st.integers(1, 60), plan=FAULTS,
       every=st.sampled_from([2, 4, 16]), spare=st.one_of(st.none(), st.integers(0, 1200)))
def test_any_faults_then_restart(seed, n, plan, every, spare):
    moves = nehren_game(n, seed)
    files = None
    capacity = None
    if spare is not None:
        files = _other({})
        capacity = sum(len(v) for v in files.values()) + spare
    play(moves, plan, TOTAL, compact_every=every, capacity=capacity, files=files)
    assert TOTAL.lost == 0


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10 ** 6), start=st.integers(0, 200), length=st.integers(1, 60),
       kind=st.sampled_from(KINDS))
def test_a_run_of_failing_calls(seed, start, length, kind):
    # The simulator's `flashfail n`: n calls in a row fail.
    plan = {}
    for c in range(start, start + length):
        plan[c] = kind
    play(nehren_game(40, seed), plan, TOTAL)
    assert TOTAL.lost == 0


def test_zz_figures(capsys):
    with capsys.disabled():
        print("\nstore faults (hypothesis): " + TOTAL.line())
