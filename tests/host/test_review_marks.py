"""The review's marks (triad/board/review.py, issue 46) checked against the
games' rules by brute force: at one ply (could the mover have won at once?)
and at two (after the move, can the next player win at once, and was there
a move after which nobody could?), on seeded random games of all three
games. The reference below walks every legal move through the face,
nothing of the review's own."""
import random

import pytest

from host_tools import games
from triad.board import review as R

SEEDS = (1, 2, 3)
MAX_PLIES = 60


def random_game(g, seed):
    rng = random.Random(seed)
    pos = g.parse_position(g.START)
    start = pos.copy()
    moves = []
    while g.outcome(pos) < 0 and len(moves) < MAX_PLIES:
        ms = games.legal_moves(g, pos)
        if not ms:
            break
        m = rng.choice(ms)
        moves.append(m)
        pos.make(m)
    return start, moves


def wins(g, pos, m):
    me = pos.side
    pos.make(m)
    w = g.outcome(pos) == me
    pos.unmake(m)
    return w


def next_can_win(g, pos, m):
    """After m, the side to move has a move that wins at once."""
    pos.make(m)
    ok = g.outcome(pos) < 0 and any(wins(g, pos, r) for r in games.legal_moves(g, pos))
    pos.unmake(m)
    return ok


def reference_marks(g, start, moves):
    """{ply: kind} by the contract's words, every move tried."""
    out = {}
    pos = start.copy()
    for k, m in enumerate(moves):
        ms = games.legal_moves(g, pos)
        if not wins(g, pos, m):
            if any(wins(g, pos, c) for c in ms):
                out[k + 1] = R.MISSED
            elif next_can_win(g, pos, m) and any(not next_can_win(g, pos, c) for c in ms):
                out[k + 1] = R.ALLOWS
        pos.make(m)
    return out


def _check(g, start, moves, rv):
    ref = reference_marks(g, start, moves)
    got = {mk[0]: mk[1] for mk in rv.marks if mk[1] != R.DEEP}
    assert got == ref
    # Each mark's better move is legal there and does what the mark says.
    positions = [start.copy()]
    for m in moves:
        p = positions[-1].copy()
        p.make(m)
        positions.append(p)
    plies = [mk[0] for mk in rv.marks]
    assert plies == sorted(set(plies))  # in order, one a turn
    for ply, kind, m, best, reply in rv.marks:
        pos = positions[ply - 1]
        assert m == moves[ply - 1]
        assert best in games.legal_moves(g, pos) and best != m
        assert not wins(g, pos, m)  # a move that wins is never marked
        if kind == R.MISSED:
            assert wins(g, pos, best)
        elif kind == R.ALLOWS:
            assert not next_can_win(g, pos, best)
            after = pos.copy()
            after.make(m)
            assert wins(g, after, reply)
    return ref


@pytest.mark.parametrize("name", games.NAMES)
def test_marks_match_brute_force(name):
    g = games.load(name)
    seen = set()
    for seed in SEEDS:
        start, moves = random_game(g, seed)
        rv = R.Review(g, start, moves, nodes=0).run()
        seen.update(_check(g, start, moves, rv).values())
    # The seeded games hold both kinds, so the comparison tested something.
    assert seen == {R.MISSED, R.ALLOWS}


@pytest.mark.parametrize("name", games.NAMES)
def test_engine_changes_only_the_better_move(name):
    """With the engine searching, the brute-force marks stay as they are
    (the engine picks among the better moves, adds its own deep marks)."""
    g = games.load(name)
    start, moves = random_game(g, SEEDS[0])
    rv = R.Review(g, start, moves, nodes=100).run()
    _check(g, start, moves, rv)
    if len(g.SIDES) == 3:
        assert all(mk[1] != R.DEEP for mk in rv.marks)  # Browne's seats: no deeper marks
