# The Triad smart board firmware package. Everything under it runs on the
# RP2040 (MicroPython), on the MicroPython unix port and on CPython.
VERSION = "0.1.0"

# Every one-character string of printable ASCII, interned now, before the
# firmware's modules load (issue 35.13). MicroPython interns a one-character
# string made at run time (text[i], iterating a str, chr()) as a qstr the
# first time it appears, and keeps its qstrs in pools that double: when the
# last pool is full, the next new one needs a pool twice its size, in one
# piece (on the unix-port board, firmware loaded from .py: 1280 entries,
# about 14 KB). A heap the game has cut into pieces has no such piece:
# MemoryError, the board's loop gone (the hands naming row 6 for the first
# time, b6d4, once the firmware's own names had filled the pool). The
# protocol takes printable ASCII only, so with these interned at start-up
# no text the board reads makes a qstr while it plays. (CPython: no-op.)
for _c in range(32, 127):
    chr(_c)
del _c
