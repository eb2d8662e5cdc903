# The engine keeps two evaluations side by side: evaluate_py (the plain
# reference) and evaluate_viper (what MicroPython uses; on CPython the shim
# makes it plain Python). They must give the same score and leave the same
# OUT and THREATS (the quiescence search generates moves from THREATS in
# their order) on every position. Runs under CPython and MicroPython, where
# it compares native code with bytecode.
from array import array

from triad.compat import MICROPYTHON
from triad.games.nehren import core, notation
from triad.games.nehren.engine import evaluate as ev


class Lcg:
    """Deterministic and identical on both runtimes (no `random` needed)."""

    def __init__(self, seed):
        self.s = seed

    def next(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 8) % n


def random_board(rng):
    pos = core.Position()
    for side in (0, 1):
        for _ in range(rng.next(7)):
            sq = core.CELLS[rng.next(36)]
            if not pos.board[sq]:
                pos.board[sq] = (side << 2) | (1 + rng.next(3))
    pos.side = rng.next(2)
    pos.score[0] = rng.next(3)
    pos.score[1] = rng.next(3)
    return pos


def game_positions(rng, games, plies):
    """Positions of random games from rolled starts (Triads, removals and
    Note 2 positions on the way; scores up to the end of the game)."""
    buf = array("i", bytes(4 * core.MAX_MOVES))
    for g in range(games):
        pos = notation.parse_position(notation.START)
        for i in range(6):
            pos.board[core.CELLS[i]] = 1 + rng.next(3)
            pos.board[core.CELLS[30 + i]] = 4 | (1 + rng.next(3))
        for ply in range(plies):
            yield pos
            n = pos.gen(buf, 0)
            if n == 0:
                break
            # Prefer Triads now and then, so later scores get reached.
            m = buf[rng.next(n)]
            if rng.next(8) == 0:
                for i in range(n):
                    if core.m_removed(buf[i]):
                        m = buf[i]
                        break
            pos.make(m)


def snapshot(fn, pos):
    ev.OUT[0] = ev.OUT[1] = ev.OUT[2] = ev.OUT[3] = 99
    for i in range(len(ev.THREATS)):
        ev.THREATS[i] = 0xEE
    score = fn(pos)
    n = ev.OUT[3]
    return score, bytes(ev.OUT), bytes(ev.THREATS[: 2 * n])


def viper(pos):
    before = bytes(pos.board)
    score = ev.evaluate_viper(pos.board, pos.score, pos.side)
    assert bytes(pos.board) == before
    return score


def check(positions):
    n = 0
    for pos in positions:
        side0 = pos.side
        for side in (side0, side0 ^ 1):
            pos.side = side
            want = snapshot(ev.evaluate_py, pos)
            got = snapshot(viper, pos)
            assert got == want, (notation.format_position(pos), got, want)
            assert got == snapshot(ev.evaluate, pos)
            n += 1
        pos.side = side0
    return n


def test_viper_evaluation_equals_the_reference_in_random_games():
    rng = Lcg(2024)
    seen = []

    def tracked():
        for pos in game_positions(rng, 60, 80):
            yield pos
            seen.append(pos.score[0] + pos.score[1])

    assert check(tracked()) > 2000
    # The games reach Triads (scores and removals), not only quiet play.
    assert max(seen) >= 3


def test_viper_evaluation_equals_the_reference_on_random_boards():
    rng = Lcg(77)
    positions = [random_board(rng) for _ in range(400)]
    check(positions)


def test_viper_evaluation_with_many_threats():
    # Crowded boards where the threat list may reach MAX_THREATS.
    rng = Lcg(5)
    positions = []
    for _ in range(200):
        pos = core.Position()
        for i in range(12):
            sq = core.CELLS[rng.next(36)]
            if not pos.board[sq]:
                pos.board[sq] = ((i & 1) << 2) | (1 + rng.next(3))
        positions.append(pos)
    check(positions)


def test_the_fast_evaluation_is_the_one_the_runtime_uses():
    pos = notation.parse_position(notation.START)
    if MICROPYTHON:
        assert ev.evaluate is not ev.evaluate_py
    assert ev.evaluate(pos) == ev.evaluate_py(pos)


def test_the_centre_table_is_its_formula():
    # CENTRE is written out (a loop at import cost the board 5 ms): 12 on
    # the four centre cells, 8 and 4 on the rings around, 0 on the edge and
    # outside the board.
    want = bytearray(100)
    for sq in core.CELLS:
        f = core.file_of(sq)
        r = core.rank_of(sq)
        df = f - 3 if f >= 3 else 2 - f
        dr = r - 3 if r >= 3 else 2 - r
        want[sq] = (3 - (df if df > dr else dr)) * 4
    assert ev.CENTRE == bytes(want)
