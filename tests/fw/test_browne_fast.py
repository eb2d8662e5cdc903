# Browne's Triad keeps two move generators side by side: the plain Python one
# and the viper one MicroPython uses (on CPython the shim makes it plain
# Python too). They must write the same moves in the same order, in every
# mode, with and without a selected piece, and leave the board as they found
# it. Runs under CPython and MicroPython (where this really compares native
# code with bytecode).
from array import array

from triad.compat import MICROPYTHON
from triad.games.browne import core, notation

# Turn buffers for the module: MAX_MOVES turns are 53 KB, and fresh ones per
# call fragment the 32-bit build's heap.
BUF = array("i", bytes(4 * core.MAX_MOVES))
BUF2 = array("i", bytes(4 * core.MAX_MOVES))
_POSITIONS = []

MODES = (core.MODE_TURNS, core.MODE_SLIDES, core.MODE_COUNT, core.MODE_ANY)


class Lcg:
    """Deterministic and identical on both runtimes (no `random` needed)."""

    def __init__(self, seed):
        self.s = seed

    def next(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 8) % n


def random_board(rng, fill):
    """Each cell holds a piece with probability fill/8, of a random side."""
    pos = core.Position()
    for i in range(core.N_CELLS):
        if rng.next(8) < fill:
            pos.put(i, rng.next(3))
    pos.side = rng.next(3)
    return pos


def positions():
    if not _POSITIONS:
        _POSITIONS.extend(_positions())
    return _POSITIONS


def _positions():
    rng = Lcg(777)
    out = []
    for k in range(60):
        out.append(random_board(rng, 1 + k % 6))
    # Captures of a side's last pieces: few pieces of one side.
    for k in range(20):
        pos = random_board(rng, 3)
        victim = rng.next(3)
        for i in range(core.N_CELLS):
            if pos.owner(i) == victim and rng.next(4):
                pos.put(i, -1)
        out.append(pos)
    buf = BUF
    for g in range(8):
        pos = notation.parse_position(notation.START)
        while True:
            out.append(pos.copy())
            n = pos.gen(buf, 0)
            if n == 0:
                break
            pos.make(buf[rng.next(n)])
    return out


def run(fn, pos, sel, mode, start):
    buf = BUF2
    before = bytes(pos.board)
    end = fn(pos.board, pos.counts, buf, start, pos.side, sel, mode)
    assert bytes(pos.board) == before
    if mode == core.MODE_TURNS or mode == core.MODE_SLIDES:
        return [buf[i] for i in range(start, end)]
    return end


def test_viper_and_python_generators_agree_move_list_by_move_list():
    checked = 0
    captures = 0
    eliminations = 0
    for pos in positions():
        c = pos.counts
        if not (c[0] and c[1] and c[2]):
            continue  # Position.gen never calls the generators then
        sels = [0]
        own = 1 << pos.side
        for sq in core.CELLS:
            if pos.board[sq] == own and len(sels) < 4:
                sels.append(sq)
        for sel in sels:
            for mode in MODES:
                if sel and mode == core.MODE_ANY:
                    continue
                a = run(core.gen_py, pos, sel, mode, 3)
                b = run(core.gen_viper, pos, sel, mode, 3)
                assert a == b, (notation.format_position(pos), sel, mode)
                checked += 1
                if mode == core.MODE_SLIDES:
                    for m in a:
                        if core.m_mask(m):
                            captures += 1
                if mode == core.MODE_TURNS:
                    for m in a:
                        if core.m_drop(m) == core.NO_DROP:
                            eliminations += 1
    assert checked > 500
    # The capture and elimination code was really exercised.
    assert captures > 100
    assert eliminations > 5


def test_modes_agree_with_each_other():
    buf = BUF
    for pos in positions()[::3]:
        n = pos.gen(buf, 0)
        turns = [buf[i] for i in range(n)]
        assert pos.count_moves() == n
        k = pos.gen_slides(buf, 0)
        slides = [buf[i] for i in range(k)]
        # Every turn is a slide completed with a drop (or none).
        for m in turns:
            assert (m | (63 << 12)) in slides
        assert len(slides) == len(set(m | (63 << 12) for m in turns))
        c = pos.counts
        if c[0] and c[1] and c[2]:
            assert pos.has_move() == (k > 0)
        assert n <= core.MAX_MOVES and k <= core.MAX_SLIDES
        # With a selected piece: exactly that piece's turns.
        for site in range(core.N_CELLS):
            if pos.owner(site) == pos.side:
                j = pos.gen(buf, 0, site)
                assert j <= core.MAX_PIECE_MOVES
                mine = [m for m in turns if core.m_from(m) == site]
                assert [buf[i] for i in range(j)] == mine


def test_gen_takes_the_fast_path_and_the_list_path_alike():
    for pos in positions()[::7]:
        buf = BUF
        lst = [0] * (pos.count_moves() + 1)
        n = pos.gen(buf, 0)
        k = pos.gen(lst, 0)
        assert n == k and list(buf[:n]) == lst[:k]


def test_max_moves_bound():
    # The bound in core.py: slides <= min(6 * min(E, 42), 18 * (61 - E)),
    # drops per slide <= E + 6, maximised over E empty cells.
    best = 0
    for e in range(62):
        s = min(6 * min(e, 42), 18 * (61 - e))
        if s * (e + 6) > best:
            best = s * (e + 6)
    assert best == core.MAX_MOVES
    # Every colour leaves at most 42 foreign cells; a piece reaches at most 18.
    for side in (0, 1, 2):
        foreign = 0
        for sq in core.CELLS:
            if core.CELL_COLOUR[sq] != side:
                foreign += 1
        assert foreign <= 42
    # A lone piece (other sides' pieces off the board) reaches at most 18.
    buf = array("i", bytes(4 * core.MAX_SLIDES))
    most = 0
    for sq in core.CELLS:
        for side in (0, 1, 2):
            pos = core.Position()
            pos.put(core.SITE_OF_SQ[sq], side)
            k = core.gen_py(pos.board, bytearray((1, 1, 1)), buf, 0, side, 0, core.MODE_SLIDES)
            most = max(most, k)
    assert most == 18


def test_runtime_selects_viper_on_micropython():
    if MICROPYTHON:
        assert core._gen_fast is core.gen_viper
    else:
        assert core._gen_fast is core.gen_py


def test_viper_make_and_unmake_are_the_plain_ones():
    # Position.make/unmake are make_v/unmake_v on MicroPython (the engine
    # makes a turn for every slide and child it looks at) and the plain
    # methods on CPython: every turn of the positions above, captures,
    # eliminations and drops, changes the board, the counts and the side to
    # move alike, and unmaking it restores the position exactly.
    buf = BUF
    made = 0
    captured = 0
    for pos in positions()[::2]:
        c = pos.counts
        if not (c[0] and c[1] and c[2]):
            continue
        n = pos.gen(buf, 0)
        for i in range(0, n, 1 + n // 40):
            m = buf[i]
            a = pos.copy()
            b = pos.copy()
            a.make_plain(m)
            b.side = core.make_v(b.board, b.counts, m, b.side)
            assert a == b, (notation.format_position(pos), m)
            assert a != pos
            a.unmake_plain(m)
            b.side = core.unmake_v(b.board, b.counts, m)
            assert a == pos and b == pos, (notation.format_position(pos), m)
            made += 1
            if core.m_mask(m):
                captured += 1
    assert made > 500 and captured > 100, (made, captured)
