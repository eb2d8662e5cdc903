# Byte loops of the main-loop tick as viper functions: as bytecode they cost
# milliseconds of RP2040 time per tick, and slice assignment allocates a
# slice object on the board's MicroPython (1.25). Plain Python on CPython
# through the triad.compat shim; tests/fw/test_tick_fast_paths.py proves the
# two equal.
#
# zero, copy_if_changed and next_diff go four bytes at a time where the
# buffers are word-aligned (every bytearray the firmware makes is: the heap
# hands out 16-byte blocks; a misaligned buffer takes the byte loop, as an
# ARMv6-M word access there would fault): a viper byte loop costs about
# 0.5 us a byte on the RP2040 (the 423-byte frame compare of tri_v1 was 0.25
# ms of every tick). Viper's ptr32 reads words only as machine code, so the
# word versions are chosen where MicroPython compiles them; CPython and
# CircuitPython (which runs the viper source as bytecode) take the byte
# versions, and the tests hold the two equal on the MicroPython unix ports.
import sys

from triad.compat import micropython, ptr8, ptr32

_WORDS = sys.implementation.name == "micropython"


@micropython.viper
def zero_bytes(buf, n: int):
    b = ptr8(buf)
    i = 0
    while i < n:
        b[i] = 0
        i += 1


@micropython.viper
def _zero_words(buf, n: int):
    b = ptr8(buf)
    i = 0
    if (int(b) & 3) == 0:
        w = ptr32(buf)
        k = 0
        nw = n >> 2
        while k < nw:
            w[k] = 0
            k += 1
        i = nw << 2
    while i < n:
        b[i] = 0
        i += 1


@micropython.viper
def copy_bytes_if_changed(src, dst, n: int) -> int:
    """Make dst[:n] equal src[:n]; 1 when a byte differed, else 0."""
    s = ptr8(src)
    d = ptr8(dst)
    changed = 0
    i = 0
    while i < n:
        v = s[i]
        if d[i] != v:
            d[i] = v
            changed = 1
        i += 1
    return changed


@micropython.viper
def _copy_words_if_changed(src, dst, n: int) -> int:
    s = ptr8(src)
    d = ptr8(dst)
    changed = 0
    i = 0
    if ((int(s) | int(d)) & 3) == 0:
        sw = ptr32(src)
        dw = ptr32(dst)
        k = 0
        nw = n >> 2
        while k < nw:
            v = sw[k]
            if dw[k] != v:
                dw[k] = v
                changed = 1
            k += 1
        i = nw << 2
    while i < n:
        v = s[i]
        if d[i] != v:
            d[i] = v
            changed = 1
        i += 1
    return changed


@micropython.viper
def mark_differences(a, b, out, n: int):
    """out[i] = 1 wherever a[i] != b[i] (out keeps its other marks)."""
    x = ptr8(a)
    y = ptr8(b)
    o = ptr8(out)
    i = 0
    while i < n:
        if x[i] != y[i]:
            o[i] = 1
        i += 1


@micropython.viper
def move(src, so: int, dst, do: int, n: int):
    """dst[do:do + n] = src[so:so + n], without a slice object."""
    s = ptr8(src)
    d = ptr8(dst)
    i = 0
    while i < n:
        d[do + i] = s[so + i]
        i += 1


@micropython.viper
def next_diff_bytes(a, b, i: int, n: int) -> int:
    """The first index from i where a and b differ (n: none)."""
    x = ptr8(a)
    y = ptr8(b)
    while i < n:
        if x[i] != y[i]:
            return i
        i += 1
    return n


@micropython.viper
def _next_diff_words(a, b, i: int, n: int) -> int:
    x = ptr8(a)
    y = ptr8(b)
    if ((int(x) | int(y)) & 3) == 0:
        while i < n and (i & 3) != 0:
            if x[i] != y[i]:
                return i
            i += 1
        xw = ptr32(a)
        yw = ptr32(b)
        k = i >> 2
        nw = n >> 2
        if k < nw:
            while k < nw and xw[k] == yw[k]:
                k += 1
            i = k << 2
    while i < n:
        if x[i] != y[i]:
            return i
        i += 1
    return n


if _WORDS:
    zero = _zero_words
    copy_if_changed = _copy_words_if_changed
    next_diff = _next_diff_words
else:
    zero = zero_bytes
    copy_if_changed = copy_bytes_if_changed
    next_diff = next_diff_bytes


@micropython.viper
def next_set(a, i: int, n: int) -> int:
    """The first index from i where a is not zero (n: none)."""
    x = ptr8(a)
    while i < n:
        if x[i]:
            return i
        i += 1
    return n


@micropython.viper
def paint_where(frame, src, mask, occ, n: int):
    """frame's RGB of site i = src's, wherever mask[i] is set and occ[i] is
    not (a site's colours made once, drawn every tick)."""
    f = ptr8(frame)
    s = ptr8(src)
    m = ptr8(mask)
    o = ptr8(occ)
    i = 0
    while i < n:
        if m[i] and not o[i]:
            j = i * 3
            f[j] = s[j]
            f[j + 1] = s[j + 1]
            f[j + 2] = s[j + 2]
        i += 1
