# Byte loops of the main-loop tick as viper functions: as bytecode they cost
# milliseconds of RP2040 time per tick, and slice assignment allocates a
# slice object on the board's MicroPython (1.25). Plain Python on CPython
# through the triad.compat shim; tests/fw/test_tick_fast_paths.py proves the
# two equal.
from triad.compat import micropython, ptr8


@micropython.viper
def zero(buf, n: int):
    b = ptr8(buf)
    i = 0
    while i < n:
        b[i] = 0
        i += 1


@micropython.viper
def copy_if_changed(src, dst, n: int) -> int:
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
def next_diff(a, b, i: int, n: int) -> int:
    """The first index from i where a and b differ (n: none)."""
    x = ptr8(a)
    y = ptr8(b)
    while i < n:
        if x[i] != y[i]:
            return i
        i += 1
    return n


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
