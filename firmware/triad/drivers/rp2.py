# MicroPython drivers for the RP2040 board: reed switch matrix, WS2812 chain,
# buttons, entropy. machine/neopixel are only touched inside constructors, so
# this module imports anywhere (the unix port has no Pin; tests substitute
# fake `machine`/`neopixel` modules through sys.modules before importing).
# read_into()/show() run every scan: Pin objects and bound methods are made
# once in __init__ and the loops allocate nothing.
import os

from triad.compat import micropython

try:
    import machine
except ImportError:
    machine = None  # type: ignore[assignment]
try:
    import neopixel
except ImportError:
    neopixel = None  # type: ignore[assignment]
try:
    from time import sleep_us
except ImportError:
    # CPython runs this module only over stand-in pins (tests, simulator),
    # which settle at once; a real sleep would only slow the simulated clock.
    def sleep_us(us):  # type: ignore[misc]
        pass


def _need(mod, name):
    if mod is None:
        raise OSError("no %s module on this port" % name)
    return mod


class Matrix:
    """Drives one row low at a time and reads the columns; raw[row*ncols+col]
    becomes 1 where a closed switch pulls the column low."""

    def __init__(self, desc):
        m = _need(machine, "machine")
        Pin = m.Pin
        # Open drain: a released row floats instead of being driven high, so
        # two closed switches in one column can never short two outputs even
        # if a diode is missing or reversed.
        self._rows = [Pin(p, Pin.OPEN_DRAIN, value=1) for p in desc.ROW_PINS]
        self._cols = [Pin(p, Pin.IN, Pin.PULL_UP) for p in desc.COL_PINS]
        self._row_set = [p.value for p in self._rows]
        self._col_get = [p.value for p in self._cols]
        self.nrows = len(self._rows)
        self.ncols = len(self._cols)
        self._settle = desc.SETTLE_US

    @micropython.native
    def read_into(self, raw):
        row_set = self._row_set
        col_get = self._col_get
        nc = self.ncols
        settle = self._settle
        i = 0
        for r in range(self.nrows):
            drive = row_set[r]
            drive(0)
            sleep_us(settle)
            for c in range(nc):
                raw[i] = 0 if col_get[c]() else 1
                i += 1
            drive(1)


class ButtonPins:
    def __init__(self, desc):
        Pin = _need(machine, "machine").Pin
        self._pins = [Pin(p, Pin.IN, Pin.PULL_UP) for p in desc.BUTTON_PINS]
        self._get = [p.value for p in self._pins]
        self.n = len(self._pins)

    def read_into(self, levels):
        get = self._get
        for i in range(self.n):
            levels[i] = 0 if get[i]() else 1


class Leds:
    """Writes a controller frame (R,G,B per slot: 36 cells, then status LEDs)
    into the NeoPixel buffer in chain order and colour order, scaled by the
    brightness and by a limiter that keeps the estimated current within
    LED_BUDGET_MA."""

    def __init__(self, desc, brightness=None):
        np_mod = _need(neopixel, "neopixel")
        Pin = _need(machine, "machine").Pin
        self._chain = desc.LED_CHAIN
        self.n = len(self._chain)
        self._np = np_mod.NeoPixel(Pin(desc.LED_PIN), self.n)
        self._buf = self._np.buf
        self._bpp = len(self._buf) // self.n
        order = self._np.ORDER
        self._o_r = order[0]
        self._o_g = order[1]
        self._o_b = order[2]
        self._max_b = desc.BRIGHTNESS_MAX
        # The limiter works in mA at full scale: est = sum * mA/255 for the
        # raw frame, then est * scale/255 must stay within the budget. Every
        # product stays far below 2**30 (44 LEDs: 2640 * 255), so the
        # RP2040 never falls back to big integers in show().
        self._ma = desc.LED_MA_PER_CHANNEL
        self._budget255 = desc.LED_BUDGET_MA * 255
        if self.n * 3 * self._ma * 255 >= 1 << 30:
            raise ValueError("LED chain too long for small-int maths")
        self.brightness = 0
        self.scale = 0  # effective scale of the last frame, for diagnostics
        self.set_brightness(desc.BRIGHTNESS_DEFAULT if brightness is None else brightness)

    def set_brightness(self, b):
        if b < 0:
            b = 0
        if b > self._max_b:
            b = self._max_b
        self.brightness = b

    @micropython.native
    def show(self, frame):
        chain = self._chain
        buf = self._buf
        n = self.n
        total = 0
        for p in range(n):
            s = chain[p] * 3
            total += frame[s] + frame[s + 1] + frame[s + 2]
        scale = self.brightness
        # Rounded up so the estimate errs on the safe side.
        full_ma = (total * self._ma + 254) // 255
        if full_ma * scale > self._budget255:
            scale = self._budget255 // full_ma
        self.scale = scale
        bpp = self._bpp
        o_r = self._o_r
        o_g = self._o_g
        o_b = self._o_b
        for p in range(n):
            s = chain[p] * 3
            d = p * bpp
            v = frame[s]
            buf[d + o_r] = (v * scale) // 255
            v = frame[s + 1]
            buf[d + o_g] = (v * scale) // 255
            v = frame[s + 2]
            buf[d + o_b] = (v * scale) // 255
        self._np.write()

    def off(self):
        buf = self._buf
        for i in range(len(buf)):
            buf[i] = 0
        self._np.write()


class Hardware:
    def __init__(self, desc, brightness=None):
        self.desc = desc
        self.matrix = Matrix(desc)
        self.buttons = ButtonPins(desc)
        self.leds = Leds(desc, brightness)
