# The game review's analysis (triad/board/review.py, issue 46) under both
# interpreters: it runs a slice at a time, marks a missed win with a move
# that wins, and a deep mark only where the engine's values differ by its
# margin. (The marks against the rules by brute force: tests/host/
# test_review_marks.py.)
from array import array

from triad import games
from triad.board import review as R
from triad.games.engine_kit import Rng


def _game(g, seed, most=24):
    rng = Rng(seed)
    pos = g.parse_position(g.START)
    start = pos.copy()
    buf = array("i", bytes(4 * g.MAX_MOVES))
    moves = []
    while g.outcome(pos) < 0 and len(moves) < most:
        n = g.gen(pos, buf, 0)
        if not n:
            break
        m = buf[rng.below(n)]
        moves.append(m)
        pos.make(m)
    return start, moves


def _wins(g, pos, m):
    me = pos.side
    pos.make(m)
    w = g.outcome(pos) == me
    pos.unmake(m)
    return w


def test_review_runs_in_slices_and_marks_by_the_rules():
    deep = 0
    for name in games.NAMES:
        g = games.load(name)
        start, moves = _game(g, 3)
        rv = R.Review(g, start, moves, nodes=60)
        slices = 0
        while not rv.step():
            slices += 1
        # The work came in many slices, not one long call.
        assert slices > len(moves), (name, slices)
        positions = [start.copy()]
        for m in moves:
            p = positions[-1].copy()
            p.make(m)
            positions.append(p)
        for ply, kind, m, best, reply in rv.marks:
            pos = positions[ply - 1]
            assert not _wins(g, pos, m)
            if kind == R.MISSED:
                assert _wins(g, pos, best), (name, ply)
            elif kind == R.DEEP:
                # the engine's value of the move played (from the next
                # position's search) is below the best's by the margin
                assert len(g.SIDES) == 2 and rv.known[ply - 1] and rv.known[ply]
                after = rv.value[ply]
                played = after if rv.side[ply] == pos.side else -after
                assert rv.value[ply - 1] - played >= rv.margin > 0, (name, ply)
                assert rv.kind_text(kind) == "mistake"
                deep += 1
    assert deep > 0  # the random games hold deep marks: the check above ran


def test_a_missed_win_is_marked_and_a_winning_move_never():
    g = games.load("nehren")
    for seed in (1, 2, 3, 4, 5):
        start, moves = _game(g, seed, 200)
        pos = start.copy()
        for k in range(len(moves)):
            pos.make(moves[k])
        if g.outcome(pos) < 0:
            continue
        # The game's last move won it: never marked. Play a losing
        # alternative there instead and the review marks a missed win.
        last = len(moves) - 1
        pos = start.copy()
        for k in range(last):
            pos.make(moves[k])
        assert R.Review(g, start, moves, nodes=0).run().mark_at(last + 1) is None
        buf = array("i", bytes(4 * g.MAX_MOVES))
        n = g.gen(pos, buf, 0)
        other = [buf[i] for i in range(n) if not _wins(g, pos, buf[i])]
        if not other:
            continue
        alt = moves[:last] + [other[0]]
        mk = R.Review(g, start, alt, nodes=0).run().mark_at(last + 1)
        assert mk is not None and mk[1] == R.MISSED and _wins(g, pos, mk[3])
        return
    assert False, "no seeded game ended in a win"
