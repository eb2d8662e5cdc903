"""The references' lazy random turns (bench/uct.py's playouts) draw only
legal turns: reference_nehren.random_result and reference_cornelson.
random_turn against the references' full lists, over seeded random games to
their end. Nothing here imports the firmware."""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import reference_cornelson as rc  # noqa: E402
import reference_nehren as rn  # noqa: E402


def test_nehren_random_results_are_legal_to_the_end():
    rng = random.Random(5)
    plies = 0
    for _game in range(6):
        pos = rn.parse_position(rn.START)
        for _ in range(400):
            r = rn.random_result(pos, rng)
            full = rn.legal_results(pos)
            if r is None:
                assert full == []
                assert rn.winner_of(pos) is not None
                break
            move, after = r
            assert (move, rn.format_position(after)) in [(m, rn.format_position(p)) for m, p in full]
            pos = after
            plies += 1
    assert plies > 100


def test_nehren_random_result_falls_back_to_note_2():
    # Black's only die (a1, a 1) is boxed in by White's b1, a2, b2: no
    # regular move and no one-cell move, so a turn is a Note 2 value change
    # in place, a1=2 or a1=3, and random turns draw both
    pos = rn.parse_position("....../....../....../....../w1w1..../b1w1.... b 0 0")
    assert sorted(rn.legal_moves(rn.format_position(pos))) == ["a1=2", "a1=3"]
    rng = random.Random(1)
    seen = set(rn.random_result(pos, rng)[0] for _ in range(40))
    assert seen == {"a1=2", "a1=3"}


def test_cornelson_random_turns_are_legal_to_the_end():
    rng = random.Random(7)
    ends = 0
    posts = set()
    for _game in range(3):
        st = rc.parse(rc.START)
        while True:
            r = rc.random_turn(st, rng)
            if r is None:
                assert st.winner is not None
                ends += 1
                break
            key, after, text = r
            full = rc.turns(st)
            assert key in full
            assert full[key][1] == text
            assert rc.fmt(full[key][0]) == rc.fmt(after) and full[key][0].winner == after.winner
            posts.add(key[0])
            st = after
    assert ends == 3
    assert len(posts) > 10  # posts all over the board, not the first vacant one
