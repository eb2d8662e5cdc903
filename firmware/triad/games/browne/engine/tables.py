# Tables of Browne's engine, written out as data (the engine loads in the
# board's scan loop: issue 15); tests/fw/test_browne_engine.py computes them.
from triad.games.browne import core

# ADJ[a - b + 12] = 1 when squares a and b are neighbours.
_adj = bytearray(25)
for _d in core.DIRECTIONS:
    _adj[_d + 12] = 1
ADJ = bytes(_adj)
del _adj

# Quiet drops: the mover's own pieces next to a cell, and the centre first
# among equals. DIST[sq]: the hex distance of a cell from the centre E5 (0
# off the board), one row of the padded 11 x 11 board a line; written out,
# not computed at import (tests/fw/test_browne_engine.py computes it):
# the engine loads in the board's scan loop (issue 15).
DIST = (
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
    b"\x00\x04\x04\x04\x04\x04\x00\x00\x00\x00\x00"
    b"\x00\x04\x03\x03\x03\x03\x04\x00\x00\x00\x00"
    b"\x00\x04\x03\x02\x02\x02\x03\x04\x00\x00\x00"
    b"\x00\x04\x03\x02\x01\x01\x02\x03\x04\x00\x00"
    b"\x00\x04\x03\x02\x01\x00\x01\x02\x03\x04\x00"
    b"\x00\x00\x04\x03\x02\x01\x01\x02\x03\x04\x00"
    b"\x00\x00\x00\x04\x03\x02\x02\x02\x03\x04\x00"
    b"\x00\x00\x00\x00\x04\x03\x03\x03\x03\x04\x00"
    b"\x00\x00\x00\x00\x00\x04\x04\x04\x04\x04\x00"
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
)
