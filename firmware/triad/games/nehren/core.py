# Rules core of Klaus Nehren's Triad. Pure: no hardware, no time, no I/O.
#
# The board is a padded bytearray of 10x10: the 6x6 playing area sits inside
# a two-cell border of BORDER bytes. A die can travel at most three cells and
# stops at the first non-empty byte, so one border cell would stop any ray;
# the second ring lets Triad windows (two cells either side of a die) be read
# without bounds checks.
#
# A square index is sq = (rank + 2) * 10 + (file + 2), rank 0 = rank 1.
# A cell byte is 0 (empty), 1..3 (black die showing 1..3), 5..7 (white die,
# 4 | value) or BORDER.
#
# A move is one small int (27 bits, so it stays a small int on the RP2040):
#   bits  0..6   from square
#   bits  7..13  to square (== from for a Note 2 value change in place)
#   bits 14..15  value shown after the move
#   bits 16..17  value shown before the move (so unmake needs no history)
#   bits 18..24  square of the removed own die after a Triad, 0 for none
#   bits 25..26  value of the removed die
# Everything make() changes is in the move, so unmake() is its exact inverse.
from array import array

from triad.compat import MICROPYTHON, const, micropython, ptr8, ptr32
from triad.games import engine_kit

BLACK = const(0)
WHITE = const(1)
EMPTY = const(0)
BORDER = const(8)
WHITE_BIT = const(4)
WIDTH = const(10)
WIN_TRIADS = const(3)
# A position has at most 6 dice x 8 directions x 2 distances = 96 regular
# moves (Note 2: 6 x (2 + 8) = 60), each with at most 6 removal choices.
MAX_MOVES = const(576)

# Squares of the 36 playing cells, a1 b1 .. f1, a2 .. f6.
CELLS = bytes((r + 2) * 10 + f + 2 for r in range(6) for f in range(6))
# The eight directions a die can travel.
DIRECTIONS = (1, -1, 10, -10, 9, -9, 11, -11)
# One direction per line through a cell, for Triad windows.
AXES = (1, 10, 9, 11)


def sq_of(file, rank):
    return (rank + 2) * 10 + file + 2


def file_of(sq):
    return sq % 10 - 2


def rank_of(sq):
    return sq // 10 - 2


def encode(fr, to, new, old, rem=0, remval=0):
    return fr | (to << 7) | (new << 14) | (old << 16) | (rem << 18) | (remval << 25)


def m_from(m):
    return m & 127


def m_to(m):
    return (m >> 7) & 127


def m_new(m):
    return (m >> 14) & 3


def m_old(m):
    return (m >> 16) & 3


def m_removed(m):
    return (m >> 18) & 127


def m_removed_value(m):
    return (m >> 25) & 3


def is_triad(a, b, c):
    """True when three cell bytes are dice of both colours showing all-equal or
    all-different values."""
    if not (0 < a < 8 and 0 < b < 8 and 0 < c < 8):
        return False
    if not ((a | b | c) & WHITE_BIT) or ((a & b & c) & WHITE_BIT):
        return False
    mask = (1 << (a & 3)) | (1 << (b & 3)) | (1 << (c & 3))
    # Exactly two distinct values is the only failing case.
    return mask != 6 and mask != 10 and mask != 12


def _emit_with_removals(board, to, side_bit, base, buf, n):
    """Append the move `base` to buf once per removal choice (or once with no
    removal when it forms no Triad). The moved die already stands on `to`."""
    first = n
    for d in AXES:
        for k in (-2, -1, 0):
            a = to + k * d
            pa = board[a]
            pb = board[a + d]
            pc = board[a + d + d]
            if not is_triad(pa, pb, pc):
                continue
            # Each of the three cells may hold one of the mover's own dice.
            for j in (0, 1, 2):
                c = a + j * d
                p = board[c]
                if (p & WHITE_BIT) != side_bit:
                    continue
                cand = base | (c << 18) | ((p & 3) << 25)
                i = first
                while i < n:
                    if buf[i] == cand:
                        break
                    i += 1
                if i == n:
                    buf[n] = cand
                    n += 1
    if n == first:
        buf[n] = base
        n += 1
    return n


# -- regular move generation: one plain-Python and one viper path ----------
#
# Both write exactly the same moves in exactly the same order (tests/fw/
# test_core_fast.py compares them move list by move list on both runtimes).
# gen_regular_py is the readable one; gen_regular_viper is the same loops in
# viper form (machine-word ints, ptr8/ptr32 access, one table look-up per
# Triad window) and is what MicroPython uses. On CPython the shim makes the
# decorator and the casts no-ops, so the viper source runs there too.
# Arguments: padded board, an array("i") buf, start index n, side_bit (0 or
# WHITE_BIT), sel (a square, or 0 for every die), stop (1: return n + 1 at
# the first regular move found, writing nothing). Returns the end index.


def gen_regular_py(board, buf, n, side_bit, sel, stop):
    for sq in CELLS:
        if sel and sq != sel:
            continue
        p = board[sq]
        if not p or (p & WHITE_BIT) != side_bit:
            continue
        v = p & 3
        for d in DIRECTIONS:
            s = sq
            for k in (1, 2, 3):
                s += d
                if board[s]:
                    break
                if k == v:
                    continue
                if stop:
                    return n + 1
                board[sq] = EMPTY
                board[s] = side_bit | k
                n = _emit_with_removals(
                    board, s, side_bit, sq | (s << 7) | (k << 14) | (v << 16), buf, n
                )
                board[s] = EMPTY
                board[sq] = p
    return n


# _TRI[a * 81 + b * 9 + c] is 1 when cell bytes a, b, c (0..8) form a Triad.
_TRI = bytes(
    1 if is_triad(a, b, c) else 0 for a in range(9) for b in range(9) for c in range(9)
)
# Directions biased by +11 so they fit in bytes.
_DIRS11 = bytes(d + 11 for d in DIRECTIONS)
_AXES = bytes(AXES)


@micropython.viper
def gen_regular_viper(board: ptr8, buf: ptr32, n: int, side_bit: int, sel: int, stop: int) -> int:
    cells = ptr8(CELLS)
    tri = ptr8(_TRI)
    dirs = ptr8(_DIRS11)
    axes = ptr8(_AXES)
    ci = 0
    while ci < 36:
        sq = int(cells[ci])
        ci += 1
        if sel != 0 and sq != sel:
            continue
        p = int(board[sq])
        if p == 0 or (p & 4) != side_bit:
            continue
        v = p & 3
        board[sq] = 0
        di = 0
        while di < 8:
            d = int(dirs[di]) - 11
            di += 1
            s = sq
            k = 1
            while k <= 3:
                s += d
                if board[s] != 0:
                    break
                if k == v:
                    k += 1
                    continue
                if stop != 0:
                    board[sq] = p
                    return n + 1
                board[s] = side_bit | k
                base = sq | (s << 7) | (k << 14) | (v << 16)
                first = n
                ai = 0
                while ai < 4:
                    ax = int(axes[ai])
                    ai += 1
                    a0 = s - ax - ax
                    w = 0
                    while w < 3:
                        pa = int(board[a0])
                        pb = int(board[a0 + ax])
                        pc = int(board[a0 + ax + ax])
                        if tri[pa * 81 + pb * 9 + pc] != 0:
                            c = a0
                            j = 0
                            while j < 3:
                                q = int(board[c])
                                if (q & 4) == side_bit:
                                    cand = base | (c << 18) | ((q & 3) << 25)
                                    i = first
                                    while i < n:
                                        if int(buf[i]) == cand:
                                            break
                                        i += 1
                                    if i == n:
                                        buf[n] = cand
                                        n += 1
                                c += ax
                                j += 1
                        a0 += ax
                        w += 1
                if n == first:
                    buf[n] = base
                    n += 1
                board[s] = 0
                k += 1
        board[sq] = p
    return n


if MICROPYTHON:
    _gen_regular_fast = gen_regular_viper
else:
    _gen_regular_fast = gen_regular_py

_ARRAY = type(array("i"))
_NOBUF = array("i", (0,))


def _empty_board():
    board = bytearray(WIDTH * WIDTH)
    for i in range(WIDTH * WIDTH):
        board[i] = BORDER
    for sq in CELLS:
        board[sq] = EMPTY
    return bytes(board)


_EMPTY_BOARD = _empty_board()


class Position:
    """A game state: padded board, side to move and both scores."""

    def __init__(self):
        # A copy of the empty board (two bytecode loops here cost 2.7 ms of
        # the RP2040's time, paid by every copy() and parse as well).
        self.board = bytearray(_EMPTY_BOARD)
        self.side = BLACK
        self.score = bytearray(2)
        # The board's "Note 2 Triad" setting: with it off, a Note 2 action
        # never forms a Triad (a house rule); the rulebook counts them.
        self.note2_triads = True

    def copy(self):
        p = Position()
        p.board[:] = self.board
        p.side = self.side
        p.score[0] = self.score[0]
        p.score[1] = self.score[1]
        p.note2_triads = self.note2_triads
        return p

    def set_from(self, other):
        """Become a copy of other without allocating."""
        self.board[:] = other.board
        self.side = other.side
        self.score[0] = other.score[0]
        self.score[1] = other.score[1]
        self.note2_triads = other.note2_triads

    def __eq__(self, other):
        return (
            isinstance(other, Position)
            and self.board == other.board
            and self.side == other.side
            and self.score == other.score
        )

    def winner(self):
        """BLACK or WHITE once a side has three Triads, else -1."""
        if self.score[0] >= WIN_TRIADS:
            return BLACK
        if self.score[1] >= WIN_TRIADS:
            return WHITE
        return -1

    def game_over(self):
        return self.score[0] >= WIN_TRIADS or self.score[1] >= WIN_TRIADS

    def count_dice(self, side):
        bit = side << 2
        n = 0
        for sq in CELLS:
            p = self.board[sq]
            if p and (p & WHITE_BIT) == bit:
                n += 1
        return n

    # -- move generation ------------------------------------------------

    def _gen_regular(self, buf, n, sel, stop_at_first):
        if type(buf) is _ARRAY:
            return _gen_regular_fast(
                self.board, buf, n, self.side << 2, sel, 1 if stop_at_first else 0
            )
        return gen_regular_py(
            self.board, buf, n, self.side << 2, sel, 1 if stop_at_first else 0
        )

    def _gen_note2(self, buf, n, sel):
        board = self.board
        side_bit = self.side << 2
        for sq in CELLS:
            if sel and sq != sel:
                continue
            p = board[sq]
            if not p or (p & WHITE_BIT) != side_bit:
                continue
            v = p & 3
            # (a) turn the die in place to a different value
            for k in (1, 2, 3):
                if k == v:
                    continue
                board[sq] = side_bit | k
                n = self._emit_note2(board, sq, side_bit, sq | (sq << 7) | (k << 14) | (v << 16), buf, n)
            board[sq] = p
            # (b) move it exactly its current value without turning it
            for d in DIRECTIONS:
                s = sq
                k = 0
                while k < v:
                    s += d
                    if board[s]:
                        break
                    k += 1
                if k < v:
                    continue
                board[sq] = EMPTY
                board[s] = p
                n = self._emit_note2(board, s, side_bit, sq | (s << 7) | (v << 14) | (v << 16), buf, n)
                board[s] = EMPTY
                board[sq] = p
        return n

    def _emit_note2(self, board, to, side_bit, base, buf, n):
        if self.note2_triads:
            return _emit_with_removals(board, to, side_bit, base, buf, n)
        buf[n] = base
        return n + 1

    def has_regular_move(self):
        return self._gen_regular(_NOBUF, 0, 0, True) > 0

    def is_note2(self):
        """True when Note 2 applies: the game goes on but no die can make a
        regular move."""
        return not self.game_over() and not self.has_regular_move()

    def gen(self, buf, start=0, sel=0):
        """Write the legal moves into buf from index start and return the end
        index. With sel, only moves of the die on square sel. Allocates
        nothing. An array("i") buf takes the fast (viper) path on
        MicroPython; any other mutable int sequence works, more slowly."""
        score = self.score
        if score[0] >= WIN_TRIADS or score[1] >= WIN_TRIADS:
            return start  # (game_over())
        board = self.board
        side_bit = self.side << 2
        if sel:
            p = board[sel]
            if not p or (p & WHITE_BIT) != side_bit:
                return start  # no die of the side to move there: no move at all
        # The kernels called from here, not through _gen_regular and
        # has_regular_move: the board lists one site's moves from its tick
        # (a piece lifted or knocked over), which runs under the search's
        # deepest ply, and each frame less leaves about 250 bytes more of
        # the 8 KiB C stack (docs/performance.md, "C stack margin").
        kernel = _gen_regular_fast if type(buf) is _ARRAY else gen_regular_py
        end = kernel(board, buf, start, side_bit, sel, 0)
        if end == start and (sel == 0 or _gen_regular_fast(board, _NOBUF, 0, side_bit, 0, 1) == 0):
            end = self._gen_note2(buf, start, sel)
        return end

    def legal_moves(self, sel=0):
        """The legal moves as a new list (convenient, allocates)."""
        buf = array("i", bytes(4 * MAX_MOVES))
        n = self.gen(buf, 0, sel)
        return [buf[i] for i in range(n)]

    # -- make / unmake ----------------------------------------------------

    def make(self, m):
        board = self.board
        side = self.side
        side_bit = side << 2
        fr = m & 127
        to = (m >> 7) & 127
        rem = (m >> 18) & 127
        board[fr] = EMPTY
        board[to] = side_bit | ((m >> 14) & 3)
        if rem:
            board[rem] = EMPTY
            self.score[side] += 1
        self.side = side ^ 1

    def unmake(self, m):
        board = self.board
        side = self.side ^ 1
        self.side = side
        side_bit = side << 2
        fr = m & 127
        to = (m >> 7) & 127
        rem = (m >> 18) & 127
        board[to] = EMPTY
        if rem:
            self.score[side] -= 1
            if rem != to:
                board[rem] = side_bit | ((m >> 25) & 3)
        board[fr] = side_bit | ((m >> 16) & 3)


class MoveStack(engine_kit.MoveStack):
    """Preallocated move buffer shared by the plies of a search."""

    def __init__(self, plies=16):
        engine_kit.MoveStack.__init__(self, MAX_MOVES, plies)
