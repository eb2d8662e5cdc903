# The tables and the loops of Nehren's search (engine/search.py, which
# imports them from here): the cell index, the Zobrist-like keys, Triad-
# forming move generation, move ordering and make / unmake in viper, each
# with the plain twin tests/fw/test_engine.py holds it to. A module of their
# own so that loading the engine is two steps of the board's loop, not one:
# search.py in one piece held the chip 12-14 ms (issue 48: no scan gap over
# 10 ms while the board thinks; board/player.py imports ENGINE_MODULES one
# by one).
from array import array

from triad.compat import MICROPYTHON, const, micropython, ptr8, ptr16, ptr32
from triad.games.engine_kit import MASK30
from triad.games.nehren import core
from triad.games.nehren.engine.evaluate import OUT, THREATS, MAX_THREATS

# Square -> cell index 0..35 (255 outside the board).
_ci = bytearray(b"\xff" * 100)
for _i in range(36):
    _ci[core.CELLS[_i]] = _i
CELL_INDEX = bytes(_ci)
del _ci


# _TRI[a * 81 + b * 9 + c]: 1 when cell bytes a, b, c (0..8) form a Triad:
# the rules core's table (built there from core.is_triad). Building a second
# copy here cost 74 ms of the RP2040's time at the engine's first import,
# one piece the board's loop could not tick through (issue 15).
_TRI = core._TRI
_DIRS = (1, -1, 10, -10, 9, -9, 11, -11)


def gen_triads(board, side, buf, n):
    """Write the Triad-forming regular moves of `side` (each removal choice
    a move, like core.Position.gen) into buf from n; return the end. Uses
    the threats evaluate() just found for this position (THREATS, OUT[3]),
    which include every Triad-forming regular move. Allocates nothing."""
    sb = side << 2
    th = THREATS
    tri = _TRI
    k = OUT[3] * 2
    t = 0
    while t < k:
        e = th[t]
        bit = th[t + 1]
        t += 2
        need = 1 if bit == 2 else (2 if bit == 4 else 3)
        for d in _DIRS:
            s = e + d
            j = 1
            while j < need:
                if board[s]:
                    break
                s += d
                j += 1
            if j < need:
                continue
            p = board[s]
            if p == 0 or p == 8 or (p & 4) != sb or (p & 3) == need:
                continue
            base = s | (e << 7) | (need << 14) | ((p & 3) << 16)
            board[s] = 0
            board[e] = sb | need
            first = n
            for ax in (1, 10, 9, 11):
                a = e - ax - ax
                for w in (0, 1, 2):
                    pa = board[a]
                    pb = board[a + ax]
                    pc = board[a + ax + ax]
                    if tri[pa * 81 + pb * 9 + pc]:
                        c = a
                        for j in (0, 1, 2):
                            q = board[c]
                            if (q & 4) == sb:
                                cand = base | (c << 18) | ((q & 3) << 25)
                                i = first
                                while i < n:
                                    if buf[i] == cand:
                                        break
                                    i += 1
                                if i == n:
                                    buf[n] = cand
                                    n += 1
                            c += ax
                    a += ax
            board[e] = 0
            board[s] = p
    return n


# Zobrist keys: two independent 30-bit keys per (cell, piece byte 1..7), per
# (side, Triads made) and for the side to move. Key 1 indexes the table,
# key 2 verifies the entry.
def _keys(seed, n):
    a = array("i", bytes(4 * n))
    _fill_keys(a, n, (seed & MASK30) or 0x2545F49)
    return a


@micropython.viper
def _fill_keys(a: ptr32, n: int, x: int):
    # n values of Rng(seed).next() into a (the same xorshift, in viper: in
    # bytecode the 592 keys cost 44 ms of the RP2040's time at import).
    i = 0
    while i < n:
        x = x ^ ((x & 0x1FFFF) << 13)
        x = x ^ (x >> 17)
        x = x ^ ((x & 0x3FFFFFF) << 4)
        x = x & 0x3FFFFFFF
        if x == 0:
            x = 0x2545F49
        a[i] = x
        i += 1


Z1 = _keys(0x1234567, 36 * 8)
Z2 = _keys(0x2AB3C4D, 36 * 8)
S1 = _keys(0x0F0F0F1, 8)  # side * 4 + Triads
S2 = _keys(0x3C3C3C3, 8)
SIDE1 = const(0x15A5A5A5)
SIDE2 = const(0x2B4B4B4B)


def hash_pair(pos, which):
    """Full Zobrist key `which` (1 or 2) of pos, computed from scratch."""
    z = Z1 if which == 1 else Z2
    s = S1 if which == 1 else S2
    board = pos.board
    ci = CELL_INDEX
    h = 0
    for sq in core.CELLS:
        p = board[sq]
        if p:
            h ^= z[ci[sq] * 8 + p]
    h ^= s[pos.score[0]] ^ s[4 + pos.score[1]]
    if pos.side:
        h ^= SIDE1 if which == 1 else SIDE2
    return h


def hash_after(h, m, side, triads, which):
    """Key `which` after move m by `side` (who had made `triads`) from a
    position with key h. Mirrors core.Position.make from the move's bits."""
    z = Z1 if which == 1 else Z2
    ci = CELL_INDEX
    sb = side << 2
    h ^= z[ci[m & 127] * 8 + (sb | ((m >> 16) & 3))]
    h ^= z[ci[(m >> 7) & 127] * 8 + (sb | ((m >> 14) & 3))]
    rem = (m >> 18) & 127
    if rem:
        s = S1 if which == 1 else S2
        h ^= z[ci[rem] * 8 + (sb | ((m >> 25) & 3))]
        h ^= s[side * 4 + triads] ^ s[side * 4 + triads + 1]
    return h ^ (SIDE1 if which == 1 else SIDE2)


# -- the search's inner loops in viper -------------------------------------
#
# On the Pico a bytecode is a few hundred times slower than on a PC while
# native code is only some tens of times slower, so per node the search
# keeps as little bytecode as it can: what runs once per node or once per
# move (the Triad generator, ordering, picking the next move, both keys of a
# child, the repetition scan) is viper. Each does exactly what the Python it
# replaced did (gen_triads stays as the readable reference; tests compare
# them and the whole search against a recorded table), so the engine
# searches the same tree, only faster. On CPython the shim makes them plain
# Python.
_DIRS11 = bytes(d + 11 for d in _DIRS)  # biased to fit in bytes
_AXES = bytes(core.AXES)


@micropython.viper
def gen_triads_viper(board: ptr8, side: int, buf: ptr32, n: int) -> int:
    sb = side << 2
    th = ptr8(THREATS)
    out = ptr8(OUT)
    tri = ptr8(_TRI)
    dirs = ptr8(_DIRS11)
    axes = ptr8(_AXES)
    k = int(out[3]) * 2
    t = 0
    while t < k:
        e = int(th[t])
        bit = int(th[t + 1])
        t += 2
        need = 3
        if bit == 2:
            need = 1
        elif bit == 4:
            need = 2
        di = 0
        while di < 8:
            d = int(dirs[di]) - 11
            di += 1
            s = e + d
            j = 1
            while j < need:
                if int(board[s]) != 0:
                    break
                s += d
                j += 1
            if j < need:
                continue
            p = int(board[s])
            if p == 0 or p == 8 or (p & 4) != sb or (p & 3) == need:
                continue
            base = s | (e << 7) | (need << 14) | ((p & 3) << 16)
            board[s] = 0
            board[e] = sb | need
            first = n
            ai = 0
            while ai < 4:
                ax = int(axes[ai])
                ai += 1
                a = e - ax - ax
                w = 0
                while w < 3:
                    pa = int(board[a])
                    pb = int(board[a + ax])
                    pc = int(board[a + ax + ax])
                    if int(tri[pa * 81 + pb * 9 + pc]) != 0:
                        c = a
                        jj = 0
                        while jj < 3:
                            q = int(board[c])
                            if (q & 4) == sb:
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
                            jj += 1
                    a += ax
                    w += 1
            board[e] = 0
            board[s] = p
    return n


_gen_triads_fast = gen_triads_viper if MICROPYTHON else gen_triads


@micropython.viper
def _order_moves(buf: ptr32, order: ptr16, start: int, end: int, ttm: int, k1: int, k2: int, hist: ptr16):
    """Ordering scores of buf[start:end]: table move, Triads, killers, then
    history (from, to)."""
    ci = ptr8(CELL_INDEX)
    i = start
    while i < end:
        m = int(buf[i])
        o = 0
        if m == ttm:
            o = 32000
        elif ((m >> 18) & 127) != 0:
            o = 30000
        elif m == k1:
            o = 29000
        elif m == k2:
            o = 28000
        else:
            o = int(hist[int(ci[m & 127]) * 36 + int(ci[(m >> 7) & 127])]) >> 3
        order[i] = o
        i += 1


@micropython.viper
def _pick(buf: ptr32, order: ptr16, i: int, end: int):
    """Bring the first of the best-ordered moves of buf[i:end] to i."""
    bi = i
    bo = int(order[i])
    j = i + 1
    while j < end:
        if int(order[j]) > bo:
            bo = int(order[j])
            bi = j
        j += 1
    if bi != i:
        m = int(buf[bi])
        buf[bi] = buf[i]
        buf[i] = m
        order[bi] = order[i]
        order[i] = bo


@micropython.viper
def _child_keys(keys: ptr32, j: int, m: int, st: int):
    """keys[j], keys[j + 1]: the two keys of a position where side st >> 2,
    having made st & 3 Triads, plays m; writes the keys after m into
    keys[j + 2], keys[j + 3] (hash_after for both at once)."""
    z1 = ptr32(Z1)
    z2 = ptr32(Z2)
    ci = ptr8(CELL_INDEX)
    side = st >> 2
    sb = side << 2
    a = int(ci[m & 127]) * 8 + (sb | ((m >> 16) & 3))
    b = int(ci[(m >> 7) & 127]) * 8 + (sb | ((m >> 14) & 3))
    h1 = int(keys[j]) ^ int(z1[a]) ^ int(z1[b])
    h2 = int(keys[j + 1]) ^ int(z2[a]) ^ int(z2[b])
    rem = (m >> 18) & 127
    if rem != 0:
        c = int(ci[rem]) * 8 + (sb | ((m >> 25) & 3))
        s1 = ptr32(S1)
        s2 = ptr32(S2)
        t = side * 4 + (st & 3)
        h1 = h1 ^ int(z1[c]) ^ int(s1[t]) ^ int(s1[t + 1])
        h2 = h2 ^ int(z2[c]) ^ int(s2[t]) ^ int(s2[t + 1])
    keys[j + 2] = h1 ^ SIDE1
    keys[j + 3] = h2 ^ SIDE2


@micropython.viper
def _decay(hist: ptr16, n: int):
    """Age the history table at the start of a search: hist[i] >>= 2 (in
    bytecode 43 ms of the RP2040's time before the first node)."""
    i = 0
    while i < n:
        hist[i] = hist[i] >> 2
        i += 1


@micropython.viper
def _repeated(rep: ptr32, j: int, h1: int) -> bool:
    """Record h1 at rep[j]; True when it occurred before with the same side
    to move (every second entry back)."""
    rep[j] = h1
    j -= 2
    while j >= 0:
        if int(rep[j]) == h1:
            return True
        j -= 2
    return False


@micropython.viper
def _make(board: ptr8, score: ptr8, m: int, side: int):
    """core.Position.make of m by side, except flipping pos.side (the caller
    does: viper cannot set an attribute cheaply)."""
    board[m & 127] = 0
    board[(m >> 7) & 127] = (side << 2) | ((m >> 14) & 3)
    rem = (m >> 18) & 127
    if rem != 0:
        board[rem] = 0
        score[side] = int(score[side]) + 1


@micropython.viper
def _unmake(board: ptr8, score: ptr8, m: int, side: int):
    """core.Position.unmake of m made by side (pos.side flipped back by the
    caller)."""
    sb = side << 2
    to = (m >> 7) & 127
    rem = (m >> 18) & 127
    board[to] = 0
    if rem != 0:
        score[side] = int(score[side]) - 1
        if rem != to:
            board[rem] = sb | ((m >> 25) & 3)
    board[m & 127] = sb | ((m >> 16) & 3)
