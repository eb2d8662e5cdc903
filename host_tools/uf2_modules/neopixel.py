# WS2812 ("NeoPixel") driver for the board's UF2, frozen as `neopixel`.
#
# MicroPython's stock RP2040 firmware gets `neopixel` from micropython-lib,
# which Debian's MicroPython source leaves out; this is the same public API
# (NeoPixel(pin, n, bpp=3, timing=1), ORDER, buf, n, len(), [i], fill(),
# write()) over the firmware's own machine.bitstream, so triad.drivers.rp2
# runs unchanged. It lives outside firmware/ so that CPython tests and
# the simulator, which substitute their own `neopixel`, never import it.
from machine import bitstream


class NeoPixel:
    # Byte position of R, G, B, W inside one LED's bytes (WS2812: GRB).
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        pin.init(pin.OUT)
        if timing == 1:  # 800 kHz: high/low ns for a 0 bit, then a 1 bit
            self.timing = (400, 850, 800, 450)
        elif timing == 0:  # 400 kHz parts
            self.timing = (800, 1700, 1600, 900)
        else:
            self.timing = timing

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        base = i * self.bpp
        order = self.ORDER
        buf = self.buf
        for k in range(self.bpp):
            buf[base + order[k]] = v[k]

    def __getitem__(self, i):
        base = i * self.bpp
        return tuple(self.buf[base + self.ORDER[k]] for k in range(self.bpp))

    def fill(self, v):
        for i in range(self.n):
            self[i] = v

    def write(self):
        bitstream(self.pin, 0, self.timing, self.buf)
