# Tables of Cornelson's engine, written out as data (the engine loads in the
# board's scan loop: issue 15; computing them at import took most of its
# 75 ms there). tests/fw/test_cornelson_engine.py checks each against the
# function that computes it from the geometry.
from array import array

from triad.compat import const
from triad.games.cornelson import geometry as g

_NONE = const(255)
_EXIT_TO = g.EXIT_TO
_EXIT_BORDER = g.EXIT_BORDER
_BU = g.BORDER_U
_BV = g.BORDER_V
_DOCK_OWNER = g.DOCK_OWNER
_NB = g.NB


def _border_at():
    """BORDER_AT[p * 6 + d]: the border between post p and its neighbour in
    direction d (NONE when there is none)."""
    t = bytearray(b"\xff" * (g.N_POSTS * 6))
    for b in range(g.N_BORDERS):
        u = _BU[b]
        v = _BV[b]
        for d in range(6):
            if _NB[u * 6 + d] == v:
                t[u * 6 + d] = b
            if _NB[v * 6 + d] == u:
                t[v * 6 + d] = b
    return bytes(t)


# Written out; checked against _border_at(). Two posts (6 directions each) a
# line.
BORDER_AT = (
    b"\x00\x01\x02\xff\xff\xff\x03\x04\x05\x00\xff\xff"
    b"\x06\x07\x08\x03\xff\xff\xff\x09\x0a\x06\xff\xff"
    b"\x0b\x0c\x0d\xff\xff\x02\x0e\x0f\x10\x0b\x01\x05"
    b"\x11\x12\x13\x0e\x04\x08\x14\x15\x16\x11\x07\x0a"
    b"\xff\x17\x18\x14\x09\xff\x19\x1a\x1b\xff\xff\x0d"
    b"\x1c\x1d\x1e\x19\x0c\x10\x1f\x20\x21\x1c\x0f\x13"
    b"\x22\x23\x24\x1f\x12\x16\x25\x26\x27\x22\x15\x18"
    b"\xff\x28\x29\x25\x17\xff\x2a\x2b\xff\xff\xff\x1b"
    b"\x2c\x2d\x2e\x2a\x1a\x1e\x2f\x30\x31\x2c\x1d\x21"
    b"\x32\x33\x34\x2f\x20\x24\x35\x36\x37\x32\x23\x27"
    b"\x38\x39\x3a\x35\x26\x29\xff\xff\x3b\x38\x28\xff"
    b"\x3c\x3d\xff\xff\x2b\x2e\x3e\x3f\x40\x3c\x2d\x31"
    b"\x41\x42\x43\x3e\x30\x34\x44\x45\x46\x41\x33\x37"
    b"\x47\x48\x49\x44\x36\x3a\xff\xff\x4a\x47\x39\x3b"
    b"\x4b\x4c\xff\xff\x3d\x40\x4d\x4e\x4f\x4b\x3f\x43"
    b"\x50\x51\x52\x4d\x42\x46\x53\x54\x55\x50\x45\x49"
    b"\xff\xff\x56\x53\x48\x4a\x57\xff\xff\xff\x4c\x4f"
    b"\x58\xff\xff\x57\x4e\x52\x59\xff\xff\x58\x51\x55"
    b"\xff\xff\xff\x59\x54\x56"
)

# Progress of a jewel by its distance in steps to the opponent's docks
# (ignoring gems and jewels; portals included).
_PROG_BY_DIST = bytes((0, 120, 70, 46, 32, 24, 18, 13, 9, 6, 4, 2, 1))


def _progress():
    out = []
    for side in (0, 1):
        dist = bytearray(b"\x63" * g.N_SPACES)
        first = g.FIRST_DOCK + 3 * (side ^ 1)
        frontier = [first, first + 1, first + 2]
        for s in frontier:
            dist[s] = 0
        while frontier:
            nxt = []
            for s in frontier:
                for e in range(3):
                    t = _EXIT_TO[s * 3 + e]
                    if t != _NONE and dist[t] > dist[s] + 1:
                        dist[t] = dist[s] + 1
                        nxt.append(t)
            frontier = nxt
        out.append(bytes(_PROG_BY_DIST[d] if d < len(_PROG_BY_DIST) else 0 for d in dist))
    return out[0], out[1]


# Written out as BORDER_AT (checked against _progress()), by space index.
PROG_S = (
    b"\x06\x04\x02\x01\x02\x04\x06\x0d\x09\x06\x04\x06"
    b"\x04\x06\x09\x0d\x18\x12\x0d\x09\x0d\x09\x0d\x09"
    b"\x0d\x12\x18\x12\x18\x12\x18\x12\x18\x12\x18\x12"
    b"\x18\x12\x20\x2e\x20\x2e\x20\x2e\x20\x2e\x20\x46"
    b"\x78\x46\x78\x46\x78\x46\x02\x00\x02\x00\x00\x00"
    b"\x09\x12\x20\x0d\x18\x2e\x2e\x18\x0d\x20\x12\x09"
)
PROG_N = (
    b"\x46\x78\x46\x78\x46\x78\x46\x20\x2e\x20\x2e\x20"
    b"\x2e\x20\x2e\x20\x12\x18\x12\x18\x12\x18\x12\x18"
    b"\x12\x18\x12\x18\x12\x0d\x09\x0d\x09\x0d\x09\x0d"
    b"\x12\x18\x0d\x09\x06\x04\x06\x04\x06\x09\x0d\x06"
    b"\x04\x02\x01\x02\x04\x06\x00\x00\x00\x02\x00\x02"
    b"\x2e\x18\x0d\x20\x12\x09\x09\x12\x20\x0d\x18\x2e"
)
_ZERO72 = bytes(g.N_SPACES)

# Open exits of a jewel -> value. For the side to move (it steps next) and
# for the side that just moved (its opponent can close an exit now).
MOB_STM = array("h", (-300, -25, -6, 0))
MOB_MOVED = array("h", (-1500, -90, -20, 0))
# Value for the mover of closing one open exit of an opponent jewel that has
# k open exits (a Barrier on its border, or a jewel on its target).
BLOCK_W = array("h", (0, 900, 70, 20))
