# The rules core keeps two regular-move generators side by side: the plain
# Python one and the viper one MicroPython uses (on CPython the shim makes it
# plain Python too). They must write the same moves in the same order, on
# every position, with and without a selected die. Runs under CPython and
# MicroPython (where this really compares native code with bytecode).
from array import array

from triad.compat import MICROPYTHON
from triad import games
from triad.games.nehren import core, notation

perft = games.load("nehren").perft  # engine_kit's

SEED = 12345


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
    return pos


def positions():
    """Dense random boards (many Triads and removal choices) and positions
    reached by random play from rolled starts."""
    rng = Lcg(SEED)
    out = []
    for _ in range(120):
        out.append(random_board(rng))
    buf = array("i", bytes(4 * core.MAX_MOVES))
    for g in range(12):
        pos = notation.parse_position(notation.START)
        for i in range(6):
            pos.board[core.CELLS[i]] = 1 + rng.next(3)
            pos.board[core.CELLS[30 + i]] = 4 | (1 + rng.next(3))
        for ply in range(60):
            out.append(pos.copy())
            n = pos.gen(buf, 0)
            if n == 0:
                break
            pos.make(buf[rng.next(n)])
    return out


def run(fn, pos, sel, stop, start):
    buf = array("i", bytes(4 * core.MAX_MOVES))
    before = bytes(pos.board)
    end = fn(pos.board, buf, start, pos.side << 2, sel, stop)
    assert bytes(pos.board) == before  # the board is restored
    return [buf[i] for i in range(start, end)] if not stop else end


def test_viper_and_python_generators_agree_move_list_by_move_list():
    checked = 0
    with_removals = 0
    for pos in positions():
        sels = [0] + [sq for sq in core.CELLS if pos.board[sq]]
        for sel in sels:
            a = run(core.gen_regular_py, pos, sel, 0, 3)
            b = run(core.gen_regular_viper, pos, sel, 0, 3)
            assert a == b, (notation.format_position(pos), sel, a, b)
            for m in a:
                if core.m_removed(m):
                    with_removals += 1
            assert run(core.gen_regular_py, pos, sel, 1, 0) == run(
                core.gen_regular_viper, pos, sel, 1, 0
            )
            checked += 1
    assert checked > 1000
    assert with_removals > 100  # the Triad code was really exercised


def test_gen_takes_the_fast_path_and_the_list_path_alike():
    # Position.gen uses the viper generator for array("i") buffers and the
    # Python one for anything else (e.g. a list); both give the same moves.
    for pos in positions()[::7]:
        buf = array("i", bytes(4 * core.MAX_MOVES))
        lst = [0] * core.MAX_MOVES
        n = pos.gen(buf, 0)
        k = pos.gen(lst, 0)
        assert n == k and list(buf[:n]) == lst[:k]


def test_perft_start_position():
    pos = notation.parse_position(notation.START)
    assert perft(pos, 3) == 20673
    assert notation.format_position(pos) == notation.START


def test_runtime_selects_viper_on_micropython():
    if MICROPYTHON:
        assert core._gen_regular_fast is core.gen_regular_viper
    else:
        assert core._gen_regular_fast is core.gen_regular_py
