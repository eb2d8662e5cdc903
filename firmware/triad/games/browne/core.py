# Rules core of Cameron Browne's three-player Triad. Pure: no hardware, no
# time, no I/O.
#
# The board is a padded bytearray of 11 x 11: row r (A..I = 0..8) and
# diagonal number n (1..9) sit at square (r + 1) * 11 + n. Every byte that is
# not one of the 61 cells is BORDER, and a step from any cell lands inside
# the array, so a ray stops at the first non-empty byte without bounds checks
# and a cell's six neighbours can be read blindly.
#
# A cell byte is 0 (empty), 1 << side for a piece (RED 1, GREEN 2, BLUE 4) or
# BORDER (8). With one bit per owner, "is this an opponent's piece" is a
# single AND with the mask of both opponents, and BORDER never matches it.
#
# A move is one small int (30 bits, so a small int on the RP2040) for the
# whole turn, in site numbers (0..60, board order A1 .. I9):
#   bits  0..5   from site
#   bits  6..11  to site
#   bits 12..17  drop site, NO_DROP (63) when a player was eliminated
#   bits 18..23  capture mask: bit d set when the neighbour of `to` in
#                direction d was captured
#   bits 24..29  owner bits: bit d set when that captured piece belonged to
#                the mover's second opponent ((mover + 2) % 3), clear for the
#                first ((mover + 1) % 3)
# Everything make() changes is in the move (the mover is the piece on `to`
# afterwards), so unmake() is its exact inverse without an undo stack.
from array import array

from triad.compat import MICROPYTHON, const, micropython, ptr8, ptr32
from triad.games import DRAW

RED = const(0)
GREEN = const(1)
BLUE = const(2)
EMPTY = const(0)
BORDER = const(8)
WIDTH = const(11)
NO_DROP = const(63)
N_CELLS = const(61)

# Rows A..I: first and last diagonal number of each row.
ROW_FIRST = (1, 1, 1, 1, 1, 2, 3, 4, 5)
ROW_LAST = (5, 6, 7, 8, 9, 9, 9, 9, 9)
ROWS = "ABCDEFGHI"

# Directions 0..5; d and d + 3 are opposite. Steps in (row, number):
# (0, +1), (+1, +1), (+1, 0), (0, -1), (-1, -1), (-1, 0).
DIRECTIONS = (1, 12, 11, -1, -12, -11)

# Squares of the 61 cells in site (board) order.
CELLS = bytes(
    (r + 1) * WIDTH + n for r in range(9) for n in range(ROW_FIRST[r], ROW_LAST[r] + 1)
)


def _site_of_sq():
    t = bytearray(WIDTH * WIDTH)
    for i in range(WIDTH * WIDTH):
        t[i] = 255
    for i in range(N_CELLS):
        t[CELLS[i]] = i
    return bytes(t)


# SITE_OF_SQ[sq]: site number of a square, 255 off the board.
SITE_OF_SQ = _site_of_sq()


def _cell_colour():
    t = bytearray(WIDTH * WIDTH)
    for i in range(WIDTH * WIDTH):
        t[i] = 3
    for sq in CELLS:
        t[sq] = (sq // WIDTH - 1 + sq % WIDTH) % 3
    return bytes(t)


# CELL_COLOUR[sq]: owner of a cell, 0..2 (3 off the board).
CELL_COLOUR = _cell_colour()

# Index of a piece byte (1, 2, 4) as a side; only those three are read.
SIDE_OF_PIECE = bytes((3, 0, 1, 3, 2, 3, 3, 3, 3))

# The most turns gen() can write. A slide lands on an empty cell of another
# colour (at most 42 exist, Red owning 19 of the 61 cells) reached along one
# of its six rays, so there are at most 6 * min(E, 42) slides with E empty
# cells; a piece reaches at most 18 cells (a line holds at most 9 cells and
# every third along it is its own colour, 6 per line, 3 lines), so also at most
# 18 * (61 - E). Each slide has at most E + 6 drops (the empties after the
# slide plus up to six captured cells). The maximum over E (at E = 47) is:
MAX_MOVES = const(13356)
# The most slides (turns without their drops): 6 * 42.
MAX_SLIDES = const(252)
# The most turns of one lifted piece: 18 landings * (60 + 6) drops.
MAX_PIECE_MOVES = const(1188)


def sq_of(r, n):
    return (r + 1) * WIDTH + n


def row_of(sq):
    return sq // WIDTH - 1


def num_of(sq):
    return sq % WIDTH


def m_from(m):
    return m & 63


def m_to(m):
    return (m >> 6) & 63


def m_drop(m):
    return (m >> 12) & 63


def m_mask(m):
    return (m >> 18) & 63


def m_owners(m):
    return (m >> 24) & 63


def with_drop(m, site):
    """The slide m (as gen_slides writes it) completed with a drop on site."""
    return (m & ~(63 << 12)) | (site << 12)


# -- move generation: one plain-Python and one viper path ---------------------
#
# Both write exactly the same moves in exactly the same order (tests/fw/
# test_browne_core.py compares them move list by move list on both runtimes):
# pieces in site order, directions 0..5, landings outwards, drops in site
# order. gen_py is the readable one; gen_viper is the same loops in viper form
# and is what MicroPython uses. On CPython the shim makes the decorator and
# the casts no-ops, so the viper source runs (and is tested) there too.
#
# Arguments: padded board, counts (pieces per side), an array("i") buf, start
# index n, side to move, sel (a square, or 0 for every piece), mode:
#   MODE_TURNS   write every legal turn (slide with its drop)
#   MODE_SLIDES  write every legal slide once, drop field NO_DROP
#   MODE_COUNT   write nothing, return n + the number of legal turns
#   MODE_ANY     write nothing, return n + 1 if the side has any slide at all
# The max-capture rule is applied over all pieces even when sel is given.
# The board is left as it was found.
MODE_TURNS = const(0)
MODE_SLIDES = const(1)
MODE_COUNT = const(2)
MODE_ANY = const(3)


# -- landings: the cells a side can slide to ----------------------------------
#
# Every cell side can land on (not of its own colour, reached along a ray of
# empty cells from one of its pieces), each once, in gen's order, into lq
# with the pieces of side + 1 (l1) and of side + 2 (l2) next to it; mark
# (a board-sized scratch, all 0) dedupes cells reached along two rays and is
# 0 again on return. Returns their number + 256 x the most pieces one of
# them captures. gen reads its max-capture rule from it (the engine reads
# the landings themselves). landings_py is the readable one; landings_v the
# same in viper (tests/fw/test_browne_fast.py compares them).


def landings_py(board, mark, lq, l1, l2, side):
    own = 1 << side
    s1 = side + 1
    if s1 == 3:
        s1 = 0
    o1 = 1 << s1
    o2 = 7 ^ own ^ o1
    n = 0
    most = 0
    for fr in CELLS:
        if board[fr] != own:
            continue
        for d in DIRECTIONS:
            to = fr + d
            while board[to] == EMPTY:
                if mark[to] == 0 and CELL_COLOUR[to] != side:
                    mark[to] = 1
                    a = 0
                    b = 0
                    for e in DIRECTIONS:
                        q = board[to + e]
                        if q == o1:
                            a += 1
                        elif q == o2:
                            b += 1
                    lq[n] = to
                    l1[n] = a
                    l2[n] = b
                    n += 1
                    if a + b > most:
                        most = a + b
                to += d
    i = 0
    while i < n:
        mark[lq[i]] = 0
        i += 1
    return n + (most << 8)


# Directions biased by +12 so they fit in bytes.
_DIRS12 = bytes(d + 12 for d in DIRECTIONS)


@micropython.viper
def landings_v(board: ptr8, mark: ptr8, lq: ptr8, l1: ptr8, l2: ptr8, side: int) -> int:
    cells = ptr8(CELLS)
    colour = ptr8(CELL_COLOUR)
    dirs = ptr8(_DIRS12)
    own = 1 << side
    s1 = side + 1
    if s1 == 3:
        s1 = 0
    o1 = 1 << s1
    o2 = 7 ^ own ^ o1
    n = 0
    most = 0
    ci = 0
    while ci < 61:
        fr = int(cells[ci])
        ci += 1
        if int(board[fr]) != own:
            continue
        di = 0
        while di < 6:
            d = int(dirs[di]) - 12
            di += 1
            to = fr + d
            while int(board[to]) == 0:
                if int(mark[to]) == 0 and int(colour[to]) != side:
                    mark[to] = 1
                    a = 0
                    b = 0
                    ei = 0
                    while ei < 6:
                        q = int(board[to + int(dirs[ei]) - 12])
                        ei += 1
                        if q == o1:
                            a += 1
                        elif q == o2:
                            b += 1
                    lq[n] = to
                    l1[n] = a
                    l2[n] = b
                    n += 1
                    if a + b > most:
                        most = a + b
                to += d
    i = 0
    while i < n:
        mark[int(lq[i])] = 0
        i += 1
    return n + (most << 8)


# gen's scratch for landings (gen does not keep the landings).
_LMARK = bytearray(WIDTH * WIDTH)
_LQ = bytearray(64)
_L1 = bytearray(64)
_L2 = bytearray(64)


def gen_py(board, counts, buf, n, side, sel, mode):
    own = 1 << side
    opp = 7 ^ own
    o2 = 1 << ((side + 2) % 3)
    # The most pieces any slide captures (the max-capture rule).
    r = landings_py(board, _LMARK, _LQ, _L1, _L2, side)
    if not r & 255:
        return n
    if mode == MODE_ANY:
        return n + 1
    best = r >> 8
    empties = 0
    for sq in CELLS:
        if board[sq] == EMPTY:
            empties += 1
    # Pass 2: every slide capturing `best`, then its drops.
    for fr in CELLS:
        if board[fr] != own or (sel and fr != sel):
            continue
        for d in DIRECTIONS:
            to = fr + d
            while board[to] == EMPTY:
                if CELL_COLOUR[to] == side:
                    to += d
                    continue
                mask = 0
                owners = 0
                c1 = 0
                c2 = 0
                for k in range(6):
                    q = board[to + DIRECTIONS[k]]
                    if q & opp:
                        mask |= 1 << k
                        if q == o2:
                            owners |= 1 << k
                            c2 += 1
                        else:
                            c1 += 1
                if c1 + c2 != best:
                    to += d
                    continue
                base = (
                    SITE_OF_SQ[fr]
                    | (SITE_OF_SQ[to] << 6)
                    | (mask << 18)
                    | (owners << 24)
                )
                ends = (c1 and c1 == counts[(side + 1) % 3]) or (
                    c2 and c2 == counts[(side + 2) % 3]
                )
                if ends:
                    if mode == MODE_COUNT:
                        n += 1
                    else:
                        buf[n] = base | (NO_DROP << 12)
                        n += 1
                elif mode == MODE_SLIDES:
                    buf[n] = base | (NO_DROP << 12)
                    n += 1
                elif mode == MODE_COUNT:
                    n += empties + best
                else:
                    # Drops go on the board as it is after the slide and the
                    # captures.
                    board[fr] = EMPTY
                    board[to] = own
                    for k in range(6):
                        if mask & (1 << k):
                            board[to + DIRECTIONS[k]] = EMPTY
                    for i in range(N_CELLS):
                        if board[CELLS[i]] == EMPTY:
                            buf[n] = base | (i << 12)
                            n += 1
                    for k in range(6):
                        if mask & (1 << k):
                            board[to + DIRECTIONS[k]] = o2 if owners & (1 << k) else opp ^ o2
                    board[to] = EMPTY
                    board[fr] = own
                to += d
    return n


def gen_viper(board, counts, buf, n, side, sel, mode):
    """gen_py's fast form: landings_v for the max-capture rule, then
    _slides_v writes the turns (viper passes no buffers on to viper)."""
    r = landings_v(board, _LMARK, _LQ, _L1, _L2, side)
    if not r & 255:
        return n
    if mode == MODE_ANY:
        return n + 1
    return _slides_v(board, counts, buf, n, side, sel, mode, r >> 8)


@micropython.viper
def _slides_v(board: ptr8, counts: ptr8, buf: ptr32, n: int, side: int, sel: int, mode: int, best: int) -> int:
    cells = ptr8(CELLS)
    colour = ptr8(CELL_COLOUR)
    site = ptr8(SITE_OF_SQ)
    dirs = ptr8(_DIRS12)
    own = 1 << side
    opp = 7 ^ own
    s1 = side + 1
    if s1 == 3:
        s1 = 0
    s2 = s1 + 1
    if s2 == 3:
        s2 = 0
    o2 = 1 << s2
    o1 = opp ^ o2
    n1 = int(counts[s1])
    n2 = int(counts[s2])
    empties = 0
    ci = 0
    while ci < 61:
        if board[cells[ci]] == 0:
            empties += 1
        ci += 1
    ci = 0
    while ci < 61:
        fr = int(cells[ci])
        ci += 1
        if int(board[fr]) != own or (sel != 0 and fr != sel):
            continue
        di = 0
        while di < 6:
            d = int(dirs[di]) - 12
            di += 1
            to = fr + d
            while board[to] == 0:
                if int(colour[to]) == side:
                    to += d
                    continue
                mask = 0
                owners = 0
                c1 = 0
                c2 = 0
                k = 0
                while k < 6:
                    q = int(board[to + int(dirs[k]) - 12])
                    if q & opp:
                        mask |= 1 << k
                        if q == o2:
                            owners |= 1 << k
                            c2 += 1
                        else:
                            c1 += 1
                    k += 1
                if c1 + c2 != best:
                    to += d
                    continue
                base = int(site[fr]) | (int(site[to]) << 6) | (mask << 18) | (owners << 24)
                if (c1 != 0 and c1 == n1) or (c2 != 0 and c2 == n2):
                    if mode != 2:
                        buf[n] = base | (63 << 12)
                    n += 1
                elif mode == 1:
                    buf[n] = base | (63 << 12)
                    n += 1
                elif mode == 2:
                    n += empties + best
                else:
                    board[fr] = 0
                    board[to] = own
                    if mask != 0:
                        k = 0
                        while k < 6:
                            if mask & (1 << k):
                                board[to + int(dirs[k]) - 12] = 0
                            k += 1
                    i = 0
                    while i < 61:
                        if board[cells[i]] == 0:
                            buf[n] = base | (i << 12)
                            n += 1
                        i += 1
                    if mask != 0:
                        k = 0
                        while k < 6:
                            if mask & (1 << k):
                                if owners & (1 << k):
                                    board[to + int(dirs[k]) - 12] = o2
                                else:
                                    board[to + int(dirs[k]) - 12] = o1
                            k += 1
                    board[to] = 0
                    board[fr] = own
                to += d
    return n


def taken(m):
    """The pieces turn m captures: those of the side after the mover, plus
    8 times those of the side after that (one int: no tuple to allocate)."""
    mask = (m >> 18) & 63
    owners = (m >> 24) & 63
    t = 0
    for k in range(6):
        if mask & (1 << k):
            t += 8 if owners & (1 << k) else 1
    return t


def eliminates(pos, m):
    """True when slide m (no drop yet) captures the last piece of an
    opponent: the game ends with it, so the slide is the whole turn."""
    if not (m >> 18) & 63:
        return False
    t = taken(m)
    k1 = t & 7
    k2 = t >> 3
    side = pos.side
    s1 = side + 1
    if s1 == 3:
        s1 = 0
    c = pos.counts
    return k1 >= c[s1] or k2 >= c[3 - side - s1]


if MICROPYTHON:
    _gen_fast = gen_viper
else:
    _gen_fast = gen_py

_ARRAY = type(array("i"))
_NOBUF = array("i", (0,))


def _empty_board():
    board = bytearray(WIDTH * WIDTH)
    for i in range(WIDTH * WIDTH):
        board[i] = BORDER
    for sq in CELLS:
        board[sq] = EMPTY
    return bytes(board)


# Made once at import: a Position() copies it (the loops above were 3 ms of
# bytecode on the chip, in the tick that asks for a hint and in the engine's
# first load).
_EMPTY_BOARD = _empty_board()


class Position:
    """A game state: padded board, side to move, pieces per side."""

    def __init__(self):
        self.board = bytearray(_EMPTY_BOARD)
        self.side = RED
        self.counts = bytearray(3)

    def copy(self):
        p = Position()
        p.set_from(self)
        return p

    def set_from(self, other):
        """Become a copy of other without allocating."""
        self.board[:] = other.board
        self.side = other.side
        self.counts[:] = other.counts

    def __eq__(self, other):
        return (
            isinstance(other, Position)
            and self.board == other.board
            and self.side == other.side
            and self.counts == other.counts
        )

    def put(self, site, side):
        """Set up: a piece of side (or -1 for none) on site."""
        sq = CELLS[site]
        q = self.board[sq]
        if q:
            self.counts[SIDE_OF_PIECE[q]] -= 1
        if side < 0:
            self.board[sq] = EMPTY
        else:
            self.board[sq] = 1 << side
            self.counts[side] += 1

    def owner(self, site):
        """Side whose piece stands on site, -1 for none."""
        q = self.board[CELLS[site]]
        return SIDE_OF_PIECE[q] if q else -1

    # -- move generation --------------------------------------------------

    def _gen(self, buf, n, sel, mode):
        c = self.counts
        if not (c[0] and c[1] and c[2]):
            return n
        sq = CELLS[sel] if sel >= 0 else 0
        if type(buf) is _ARRAY:
            return _gen_fast(self.board, c, buf, n, self.side, sq, mode)
        return gen_py(self.board, c, buf, n, self.side, sq, mode)

    def gen(self, buf, start=0, sel=-1):
        """Write the legal turns into buf from index start and return the end
        index (none once the game is over). sel >= 0: only turns moving the
        piece on that site. Allocates nothing. An array("i") buf takes the
        fast (viper) path on MicroPython; any other mutable int sequence
        works, more slowly. buf needs room for MAX_MOVES (MAX_PIECE_MOVES
        with sel)."""
        return self._gen(buf, start, sel, MODE_TURNS)

    def gen_slides(self, buf, start=0, sel=-1):
        """Like gen, but each legal slide once with the drop field NO_DROP:
        complete it with with_drop(m, site) for any empty site after the
        slide, unless it eliminates a player (then it is a whole turn).
        Needs room for MAX_SLIDES only."""
        return self._gen(buf, start, sel, MODE_SLIDES)

    def count_moves(self):
        """Number of legal turns, without writing them."""
        return self._gen(_NOBUF, 0, -1, MODE_COUNT)

    def count(self, buf, start=0):
        """count_moves in the shape engine_kit.perft's last ply asks for
        (bulk counting; buf is unused)."""
        return self._gen(_NOBUF, 0, -1, MODE_COUNT)

    def has_move(self):
        """True when the side to move has a legal slide (pieces of all three
        sides assumed)."""
        return _gen_fast(self.board, self.counts, _NOBUF, 0, self.side, 0, MODE_ANY) > 0

    def legal_moves(self, sel=-1):
        """The legal turns as a new list (convenient, allocates). Counts them
        first so the buffer is only as big as needed: a MAX_MOVES one is
        53 KB, a third of the board's heap."""
        n = self.count_moves()
        buf = array("i", bytes(4 * (n + 1)))
        n = self.gen(buf, 0, sel)
        return [buf[i] for i in range(n)]

    # -- make / unmake ------------------------------------------------------
    #
    # make_plain / unmake_plain are the readable forms; on MicroPython make
    # and unmake are make_v / unmake_v below (the same changes, in viper: a
    # node of Browne's engine makes and unmakes a turn for every slide and
    # every child, issue 26), tests/fw/test_browne_fast.py holds them equal.

    def make(self, m):
        if MICROPYTHON:
            self.side = make_v(self.board, self.counts, m, self.side)
        else:
            self.make_plain(m)

    def unmake(self, m):
        if MICROPYTHON:
            self.side = unmake_v(self.board, self.counts, m)
        else:
            self.unmake_plain(m)

    def make_plain(self, m):
        board = self.board
        counts = self.counts
        side = self.side
        fr = CELLS[m & 63]
        to = CELLS[(m >> 6) & 63]
        board[fr] = EMPTY
        board[to] = 1 << side
        mask = (m >> 18) & 63
        if mask:
            owners = (m >> 24) & 63
            s1 = (side + 1) % 3
            s2 = (side + 2) % 3
            for k in range(6):
                if mask & (1 << k):
                    board[to + DIRECTIONS[k]] = EMPTY
                    if owners & (1 << k):
                        counts[s2] -= 1
                    else:
                        counts[s1] -= 1
        cand = CELL_COLOUR[to]
        drop = (m >> 12) & 63
        if drop != NO_DROP:
            bunny = 3 - side - cand
            board[CELLS[drop]] = 1 << bunny
            counts[bunny] += 1
        self.side = cand

    def unmake_plain(self, m):
        board = self.board
        counts = self.counts
        to = CELLS[(m >> 6) & 63]
        side = SIDE_OF_PIECE[board[to]]
        drop = (m >> 12) & 63
        if drop != NO_DROP:
            bunny = 3 - side - CELL_COLOUR[to]
            board[CELLS[drop]] = EMPTY
            counts[bunny] -= 1
        mask = (m >> 18) & 63
        if mask:
            owners = (m >> 24) & 63
            s1 = (side + 1) % 3
            s2 = (side + 2) % 3
            for k in range(6):
                if mask & (1 << k):
                    if owners & (1 << k):
                        board[to + DIRECTIONS[k]] = 1 << s2
                        counts[s2] += 1
                    else:
                        board[to + DIRECTIONS[k]] = 1 << s1
                        counts[s1] += 1
        board[to] = EMPTY
        board[CELLS[m & 63]] = 1 << side
        self.side = side


@micropython.viper
def make_v(board: ptr8, counts: ptr8, m: int, side: int) -> int:
    """Position.make_plain on a board and counts: turn m by side; returns
    the side to move next (the landing cell's owner)."""
    cells = ptr8(CELLS)
    colour = ptr8(CELL_COLOUR)
    dirs = ptr8(_DIRS12)
    fr = int(cells[m & 63])
    to = int(cells[(m >> 6) & 63])
    board[fr] = 0
    board[to] = 1 << side
    mask = (m >> 18) & 63
    if mask != 0:
        owners = (m >> 24) & 63
        s1 = side + 1
        if s1 == 3:
            s1 = 0
        s2 = s1 + 1
        if s2 == 3:
            s2 = 0
        k = 0
        while k < 6:
            if mask & (1 << k):
                board[to + int(dirs[k]) - 12] = 0
                if owners & (1 << k):
                    counts[s2] = int(counts[s2]) - 1
                else:
                    counts[s1] = int(counts[s1]) - 1
            k += 1
    cand = int(colour[to])
    drop = (m >> 12) & 63
    if drop != 63:
        bunny = 3 - side - cand
        board[int(cells[drop])] = 1 << bunny
        counts[bunny] = int(counts[bunny]) + 1
    return cand


@micropython.viper
def unmake_v(board: ptr8, counts: ptr8, m: int) -> int:
    """Position.unmake_plain on a board and counts: undo turn m; returns
    the side that played it (the piece on its landing cell)."""
    cells = ptr8(CELLS)
    colour = ptr8(CELL_COLOUR)
    dirs = ptr8(_DIRS12)
    sop = ptr8(SIDE_OF_PIECE)
    to = int(cells[(m >> 6) & 63])
    side = int(sop[int(board[to])])
    drop = (m >> 12) & 63
    if drop != 63:
        bunny = 3 - side - int(colour[to])
        board[int(cells[drop])] = 0
        counts[bunny] = int(counts[bunny]) - 1
    mask = (m >> 18) & 63
    if mask != 0:
        owners = (m >> 24) & 63
        s1 = side + 1
        if s1 == 3:
            s1 = 0
        s2 = s1 + 1
        if s2 == 3:
            s2 = 0
        k = 0
        while k < 6:
            if mask & (1 << k):
                if owners & (1 << k):
                    board[to + int(dirs[k]) - 12] = 1 << s2
                    counts[s2] = int(counts[s2]) + 1
                else:
                    board[to + int(dirs[k]) - 12] = 1 << s1
                    counts[s1] = int(counts[s1]) + 1
            k += 1
    board[to] = 0
    board[int(cells[m & 63])] = 1 << side
    return side


def outcome(pos):
    """-1 while the game goes on; else the winning side, or DRAW for a tie
    between the two remaining players."""
    c = pos.counts
    # a, b: the players still in (at most two once the game is over).
    a = -1
    b = -1
    alive = 0
    for s in (0, 1, 2):
        if c[s]:
            alive += 1
    if alive == 3:
        if pos.has_move():
            return -1
        a = (pos.side + 1) % 3
        b = (pos.side + 2) % 3
    else:
        for s in (0, 1, 2):
            if c[s]:
                if a < 0:
                    a = s
                else:
                    b = s
    if a < 0:
        return DRAW
    if b < 0:
        return a
    if c[a] > c[b]:
        return a
    if c[b] > c[a]:
        return b
    return DRAW
