# Stand-in `machine` and `neopixel` modules for the bench, cheap enough that
# the figures measure the firmware rather than the fake: the row a driver
# pulls low is remembered, a column reads low when that row's switch in it
# is closed. Runs under CPython and the MicroPython unix port.
import sys

ROW = 1
COL = 2
BTN = 3


class World:
    def __init__(self, desc):
        self.desc = desc
        self.ncols = len(desc.COL_PINS)
        self.closed = bytearray(len(desc.ROW_PINS) * self.ncols)  # matrix order
        self.buttons = bytearray(len(desc.BUTTON_PINS))
        self.low = -1  # row driven low now, -1 for none
        self.kind = {}
        for i, g in enumerate(desc.ROW_PINS):
            self.kind[g] = (ROW, i)
        for i, g in enumerate(desc.COL_PINS):
            self.kind[g] = (COL, i)
        for i, g in enumerate(desc.BUTTON_PINS):
            self.kind[g] = (BTN, i)

    def set_cells(self, occ):
        """Close the switches under the occupied cells (occ: 36 bytes by cell)."""
        cmap = self.desc.MATRIX_CELL
        for m in range(len(self.closed)):
            self.closed[m] = 1 if occ[cmap[m]] else 0


def install(world):
    """Put fake machine/neopixel into sys.modules (before importing
    triad.drivers.rp2) and return them."""

    class Pin:
        IN = 0
        OUT = 1
        OPEN_DRAIN = 2
        PULL_UP = 1

        def __init__(self, gpio, mode=-1, pull=-1, value=None):
            k = world.kind.get(gpio, (0, 0))
            self.k = k[0]
            self.i = k[1]
            self.base = self.i * world.ncols

        def value(self, v=None):
            w = world
            if v is not None:
                if v == 0:
                    w.low = self.i
                elif w.low == self.i:
                    w.low = -1
                return None
            if self.k == COL:
                r = w.low
                return 0 if r >= 0 and w.closed[r * w.ncols + self.i] else 1
            if self.k == BTN:
                return 0 if w.buttons[self.i] else 1
            return 1

    class NeoPixel:
        ORDER = (1, 0, 2, 3)

        def __init__(self, pin, n, bpp=3, timing=1):
            self.buf = bytearray(n * bpp)
            self.writes = 0

        def write(self):
            self.writes += 1

    class machine:
        pass

    class neopixel:
        pass

    machine.Pin = Pin
    neopixel.NeoPixel = NeoPixel
    sys.modules["machine"] = machine
    sys.modules["neopixel"] = neopixel
    return machine, neopixel


class Serial:
    """The USB console stand-in: nothing to read, writes counted."""

    def __init__(self):
        self.lines = 0

    def read(self, limit=64):
        return b""

    def write(self, text):
        self.lines += 1
