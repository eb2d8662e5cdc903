# MicroPython drivers for the RP2040 board: reed switch matrix, WS2812 chain,
# buttons, the optional piezo (machine.PWM), entropy. machine/neopixel are only touched inside constructors, so
# this module imports anywhere (the unix port has no Pin; tests substitute
# fake `machine`/`neopixel` modules through sys.modules before importing).
# read_into()/show() run every scan: Pin objects and bound methods are made
# once in __init__ and the loops allocate nothing.
import os
import sys
from array import array

from triad.compat import micropython, const, ptr8, ptr32

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


# On the RP2040 itself the matrix and the buttons are read through the
# single-cycle IO block (SIO) instead of one machine.Pin call per pin: a row
# is driven and released with one write to the output-enable set / clear
# aliases (what Pin.value does for an OPEN_DRAIN pin: gpio_set_dir), and
# all columns are one read of GPIO_IN. Pin by pin the scan took 0.6-1.5 ms
# of every 10 ms tick on the emulated chip (docs/performance.md, "The tick
# while the board thinks"). The Pin objects are still made: they set the
# pins' modes and pulls. Addresses from the RP2040 datasheet (2.3.1.7 SIO,
# 4.6.5 TIMER); word offsets below are from SIO_BASE.
SIO_BASE = 0xD0000000
TIMERAWL = 0x40054028  # the microsecond timer's low word (what sleep_us reads)
_GPIO_IN = const(1)  # 0x004
_GPIO_OE_SET = const(9)  # 0x024
_GPIO_OE_CLR = const(10)  # 0x028


def chip_registers():
    """(SIO, TIMERAWL) where the board's own chip runs this, else None (the
    simulator's and the tests' stand-in pins: the Pin-by-Pin path)."""
    if sys.platform == "rp2":
        return (SIO_BASE, TIMERAWL)
    return None


def _need(mod, name):
    if mod is None:
        raise OSError("no %s module on this port" % name)
    return mod


class Matrix:
    """Drives one row low at a time and reads the columns; raw[row*ncols+col]
    becomes 1 where a closed switch pulls the column low."""

    def __init__(self, desc, regs=None):
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
        # regs: (SIO, timer) as addresses, or stand-ins in tests; None: the
        # pins one by one (read_pins).
        regs = chip_registers() if regs is None else regs
        self._sio = None
        if regs:
            self._sio, self._timer = regs
            self._row_mask = array("I", [1 << p for p in desc.ROW_PINS])
            self._col_pin = bytes(desc.COL_PINS)

    def read_into(self, raw):
        sio = self._sio
        if sio is not None:
            _scan_rows(sio, self._timer, self._row_mask, self._col_pin, raw, self.nrows, self.ncols, self._settle)
        else:
            self.read_pins(raw)

    @micropython.native
    def read_pins(self, raw):
        """The plain path: every pin through machine.Pin."""
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
    def __init__(self, desc, regs=None):
        Pin = _need(machine, "machine").Pin
        self._pins = [Pin(p, Pin.IN, Pin.PULL_UP) for p in desc.BUTTON_PINS]
        self._get = [p.value for p in self._pins]
        self.n = len(self._pins)
        regs = chip_registers() if regs is None else regs
        self._sio = regs[0] if regs else None
        self._pin_no = bytes(desc.BUTTON_PINS)

    def read_into(self, levels):
        sio = self._sio
        if sio is not None:
            _read_levels(sio, self._pin_no, levels, self.n)  # one read of GPIO_IN
        else:
            self.read_pins(levels)

    def read_pins(self, levels):
        """The plain path: every pin through machine.Pin."""
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
        self._chain = bytes(desc.LED_CHAIN)  # bytes: the viper loops read it with ptr8
        self.n = len(self._chain)
        self._np = np_mod.NeoPixel(Pin(desc.LED_PIN), self.n)
        self._buf = self._np.buf
        self._bpp = len(self._buf) // self.n
        order = self._np.ORDER
        # Byte offsets of R, G, B inside one LED's bytes, 2 bits each.
        self._order = order[0] | (order[1] << 2) | (order[2] << 4)
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

    def show(self, frame):
        n = self.n
        # The byte loops are viper (_chain_sum, _scale_into): as bytecode or
        # native code they cost ~1.7 ms of emulated RP2040 time per frame.
        total = _chain_sum(frame, self._chain, n)
        scale = self.brightness
        # Rounded up so the estimate errs on the safe side.
        full_ma = (total * self._ma + 254) // 255
        if full_ma * scale > self._budget255:
            scale = self._budget255 // full_ma
        self.scale = scale
        _scale_into(self._buf, frame, self._chain, n, self._bpp, self._order, scale)
        self._np.write()

    def off(self):
        buf = self._buf
        for i in range(len(buf)):
            buf[i] = 0
        self._np.write()


class Buzzer:
    """A passive piezo on BUZZER_PIN, driven with a square wave from the
    pin's PWM slice (half duty: the loudest). The PWM is set up by
    enable(True) and released by enable(False), both outside the tick, so a
    board with sound off never drives the pin; tone() runs in the tick and
    allocates nothing."""

    HALF = 32768

    def __init__(self, desc):
        self.pin = desc.BUZZER_PIN
        self._pwm = _unset()  # machine.PWM while enabled, else None
        self.hz = 0  # what sounds now (0: silent)

    def enable(self, on):
        if on and self._pwm is None:
            m = _need(machine, "machine")
            self._pwm = m.PWM(m.Pin(self.pin))
            self._pwm.duty_u16(0)
        elif not on and self._pwm is not None:
            self._pwm.duty_u16(0)
            self._pwm.deinit()
            self._pwm = None
            Pin = machine.Pin
            Pin(self.pin, Pin.OUT, value=0)  # quiet and not floating
        self.hz = 0

    def tone(self, hz):
        pwm = self._pwm
        if pwm is None:
            return
        if hz:
            pwm.freq(hz)
            pwm.duty_u16(Buzzer.HALF)
        else:
            pwm.duty_u16(0)
        self.hz = hz


class Hardware:
    def __init__(self, desc, brightness=None, regs=None):
        self.desc = desc
        self.matrix = Matrix(desc, regs)
        self.buttons = ButtonPins(desc, regs)
        self.leds = Leds(desc, brightness)
        # The optional piezo (BUZZER_PIN None or absent: no pin was free).
        pin = getattr(desc, "BUZZER_PIN", None)
        self.buzzer = Buzzer(desc) if pin is not None else None
        # Whether the firmware's code runs from the image's flash (App:
        # the engine's modules are then imported at start-up).
        self.code_in_flash = code_in_flash()
        # A sleep_ms wakes that much after the call, so a tick slept to
        # from inside a millisecond started up to 1 ms after its point on
        # the grid (an 11.2 ms gap between two scans): on the chip the loop
        # sleeps a ms less and waits out the rest on the clock (App.step).
        # (Not over stand-in pins: a simulated clock stands still then.)
        self.exact_wake = sys.platform == "rp2"


def code_in_flash():
    """True where the triad package is frozen into the board's image: its
    bytecode runs from flash, and importing a module costs only its
    objects' RAM (Nehren's engine modules 5.4 KB, Browne's 2.2, Cornelson's
    4.4, where a stock MicroPython with the .py files copied to its
    filesystem holds each module's bytecode in RAM). A frozen module has no
    file on the filesystem."""
    if sys.platform != "rp2":
        return False
    try:
        os.stat(__file__)
        return False
    except OSError:
        return True


def _unset():
    # None, typed as anything: the attribute is set later (mypy, untyped def).
    return None


@micropython.viper
def _chain_sum(frame, chain, n: int) -> int:
    """Sum of the R, G and B bytes of the frame's first n slots, in chain order."""
    f = ptr8(frame)
    ch = ptr8(chain)
    total = 0
    p = 0
    while p < n:
        s = ch[p] * 3
        total += f[s] + f[s + 1] + f[s + 2]
        p += 1
    return total


@micropython.viper
def _scale_into(buf, frame, chain, n: int, bpp: int, order: int, scale: int):
    """LED p of the chain gets frame slot chain[p], each channel * scale // 255,
    at the byte offsets packed in `order` (R, G, B: 2 bits each)."""
    b = ptr8(buf)
    f = ptr8(frame)
    ch = ptr8(chain)
    o_r = order & 3
    o_g = (order >> 2) & 3
    o_b = (order >> 4) & 3
    p = 0
    while p < n:
        s = ch[p] * 3
        d = p * bpp
        b[d + o_r] = (f[s] * scale) // 255
        b[d + o_g] = (f[s + 1] * scale) // 255
        b[d + o_b] = (f[s + 2] * scale) // 255
        p += 1


@micropython.viper
def _scan_rows(sio, timer, rows, cols, raw, nrows: int, ncols: int, settle: int):
    """Matrix.read_pins through the SIO registers: row r (its mask rows[r])
    is driven low, and after `settle` us of the timer every column is read
    at once from GPIO_IN (cols: the column pins); raw[r * ncols + c] = 1
    where column c reads low. Row r is released before row r + 1 is
    driven, as read_pins does; row r's bits are unpacked while row r + 1
    settles."""
    io = ptr32(sio)
    tm = ptr32(timer)
    rm = ptr32(rows)
    cp = ptr8(cols)
    out = ptr8(raw)
    i = 0
    r = 0
    if nrows > 0:
        io[_GPIO_OE_SET] = rm[0]
    t0 = tm[0]
    while r < nrows:
        while tm[0] - t0 < settle:
            pass
        v = io[_GPIO_IN]
        io[_GPIO_OE_CLR] = rm[r]
        r += 1
        if r < nrows:
            io[_GPIO_OE_SET] = rm[r]
            t0 = tm[0]
        c = 0
        while c < ncols:
            out[i] = ((v >> cp[c]) & 1) ^ 1
            i += 1
            c += 1


@micropython.viper
def _read_levels(sio, pins, levels, n: int):
    """ButtonPins.read_pins from one read of GPIO_IN: levels[i] = 1 where
    pin pins[i] reads low (pressed)."""
    io = ptr32(sio)
    v = io[_GPIO_IN]
    p = ptr8(pins)
    out = ptr8(levels)
    i = 0
    while i < n:
        out[i] = ((v >> p[i]) & 1) ^ 1
        i += 1
