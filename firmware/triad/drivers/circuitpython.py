# CircuitPython drivers for the RP2040 board: the same interface as
# triad.drivers.rp2 (matrix.read_into(raw), buttons.read_into(levels),
# leds.show(frame)/set_brightness(b)) plus the serial line, the flash, the
# clock and the random seed, over CircuitPython's own modules:
#   reed matrix  keypad.KeyMatrix: scanned and debounced in C in the
#                background; its events keep a bytearray of closed switches
#                that read_into() hands on (digitalio scanning where a build
#                has no keypad)
#   buttons      keypad.Keys (value_when_pressed=False, pull=True)
#   LEDs         Adafruit's neopixel.NeoPixel (adafruit-circuitpython-neopixel
#                on adafruit_pixelbuf): pixel order and brightness are the
#                library's
#   piezo        pwmio.PWMOut (variable frequency), only while sound is on
#   serial       usb_cdc.console (or supervisor.runtime + sys.stdin)
#   flash        the store's files, honouring boot.py's choice of USB-drive
#                mode (CIRCUITPY read-only to this code: saving is skipped)
#   clock        time.monotonic_ns() folded to the ticks period of
#                triad.compat (CircuitPython's time has no ticks_ms)
# Every CircuitPython module is imported inside a constructor, so this file
# imports anywhere (the MicroPython unix port, CPython over fake modules) and
# the pure code above the drivers never learns which runtime it runs on.
# triad.drivers.open_board() picks this module when sys.implementation.name
# is "circuitpython". It carries no @micropython.native/viper: stock
# CircuitPython has no native emitter and rejects those decorators.
import os
import sys
import time

from triad.board.store import OsFs
from triad.compat import ticks_diff

# triad.compat's ticks_add/ticks_diff wrap at 2**30 on every runtime without
# time.ticks_* (CircuitPython included); supervisor.ticks_ms() wraps at
# 2**29, so the clock is made here from monotonic_ns() with the same period.
_TICKS_MASK = (1 << 30) - 1

EROFS = 30  # errno of a write to CIRCUITPY while it is in USB-drive mode

READ_ONLY_MESSAGE = (
    "evt error not saved: CIRCUITPY is read-only to the board (USB-drive mode: "
    "%s was held at power-up); the game plays on but is not saved. Power up "
    "without holding it to save games.\n"
)


def ticks_ms():
    return (time.monotonic_ns() // 1000000) & _TICKS_MASK


def sleep_ms(ms):
    time.sleep(ms / 1000)


def seed():
    """30 random bits for the set-up roll: os.urandom (the RP2040's ring
    oscillator) where the port has it, else the time since power-up."""
    try:
        b = os.urandom(4)
        return b[0] | (b[1] << 8) | (b[2] << 16) | ((b[3] & 0x3F) << 24)
    except (AttributeError, NotImplementedError, OSError):
        return time.monotonic_ns() & _TICKS_MASK


def pin(gpio):
    """The board's pin object for RP2040 GPIO number `gpio` (the board
    description holds GPIO numbers): board.GP<n> on a Pico, else
    microcontroller.pin.GPIO<n>, which every RP2040 board has (Feather
    RP2040, KB2040 and others name their pins differently)."""
    import board

    p = getattr(board, "GP%d" % gpio, None)
    if p is None:
        import microcontroller

        p = getattr(microcontroller.pin, "GPIO%d" % gpio)
    return p


def boot_button(desc):
    """The button that, held at power-up, selects USB-drive mode (boot.py)."""
    return "menu" if "menu" in desc.BUTTON_NAMES else desc.BUTTON_NAMES[-1]


def _kwargs_without(kwargs, name):
    out = dict(kwargs)
    del out[name]
    return out


def _make_scanner(factory, kwargs):
    # debounce_threshold came with CircuitPython 9; older keypad lacks it.
    try:
        return factory(**kwargs)
    except TypeError:
        return factory(**_kwargs_without(kwargs, "debounce_threshold"))


class _KeyState:
    """A keypad scanner's events folded into a bytearray of keys held: what
    the pure scanner code expects from a raw read. keypad has already
    debounced them (debounce_threshold scans at the board's SCAN_HZ); the
    MatrixScanner/Buttons above integrate again, which only adds
    DEBOUNCE readings of latency (about 10 ms: a changing switch is read
    again halfway to the next scan; against the 0.8 s a move must rest)."""

    def __init__(self, scanner, keypad_mod, n):
        self.scanner = scanner
        self.events = scanner.events
        self.held = bytearray(n)
        self._event = keypad_mod.Event()  # reused: get_into() allocates nothing

    def read_into(self, out):
        events = self.events
        held = self.held
        if events.overflowed:
            # Events were lost: start again from "all released"; keypad then
            # reports every key still held as newly pressed.
            events.clear()
            for i in range(len(held)):
                held[i] = 0
            self.scanner.reset()
        ev = self._event
        while events.get_into(ev):
            k = ev.key_number
            if k < len(held):
                held[k] = 1 if ev.pressed else 0
        for i in range(len(held)):
            out[i] = held[i]


class KeypadMatrix(_KeyState):
    """The reed matrix through keypad.KeyMatrix. Diodes point from column to
    row (cathode on the row), so columns_to_anodes=True: keypad drives one
    row low at a time and reads the pulled-up columns, as the MicroPython
    driver does. key_number = row * ncols + col, the matrix position that
    MATRIX_CELL maps to a cell."""

    def __init__(self, desc, keypad_mod):
        self.nrows = len(desc.ROW_PINS)
        self.ncols = len(desc.COL_PINS)
        scanner = _make_scanner(keypad_mod.KeyMatrix, {
            "row_pins": [pin(p) for p in desc.ROW_PINS],
            "column_pins": [pin(p) for p in desc.COL_PINS],
            "columns_to_anodes": True,
            "interval": 1 / desc.SCAN_HZ,
            "debounce_threshold": desc.DEBOUNCE,
        })
        _KeyState.__init__(self, scanner, keypad_mod, self.nrows * self.ncols)


class KeypadButtons(_KeyState):
    """The buttons through keypad.Keys: active low with the internal
    pull-ups, as wired (hardware/README.md)."""

    def __init__(self, desc, keypad_mod):
        self.n = len(desc.BUTTON_PINS)
        scanner = _make_scanner(keypad_mod.Keys, {
            "pins": [pin(p) for p in desc.BUTTON_PINS],
            "value_when_pressed": False,
            "pull": True,
            "interval": 1 / desc.SCAN_HZ,
            "debounce_threshold": desc.BUTTON_DEBOUNCE,
        })
        _KeyState.__init__(self, scanner, keypad_mod, self.n)


def _delay_us():
    try:
        import microcontroller

        return microcontroller.delay_us
    except (ImportError, AttributeError):
        return lambda us: time.sleep(us / 1000000)


class DigitalioMatrix:
    """The fallback for a build without keypad: the rp2 driver's scan over
    digitalio. Rows are open drain (a released row floats), columns pulled
    up; raw[row*ncols+col] = 1 where a closed switch pulls the column low."""

    def __init__(self, desc):
        import digitalio

        self._rows = []
        for p in desc.ROW_PINS:
            d = digitalio.DigitalInOut(pin(p))
            d.switch_to_output(value=True, drive_mode=digitalio.DriveMode.OPEN_DRAIN)
            self._rows.append(d)
        self._cols = []
        for p in desc.COL_PINS:
            d = digitalio.DigitalInOut(pin(p))
            d.switch_to_input(pull=digitalio.Pull.UP)
            self._cols.append(d)
        self.nrows = len(self._rows)
        self.ncols = len(self._cols)
        self._settle = desc.SETTLE_US
        self._delay_us = _delay_us()

    def read_into(self, raw):
        cols = self._cols
        delay = self._delay_us
        i = 0
        for row in self._rows:
            row.value = False
            delay(self._settle)
            for col in cols:
                raw[i] = 0 if col.value else 1
                i += 1
            row.value = True


class DigitalioButtons:
    def __init__(self, desc):
        import digitalio

        self._pins = []
        for p in desc.BUTTON_PINS:
            d = digitalio.DigitalInOut(pin(p))
            d.switch_to_input(pull=digitalio.Pull.UP)
            self._pins.append(d)
        self.n = len(self._pins)

    def read_into(self, levels):
        for i in range(self.n):
            levels[i] = 0 if self._pins[i].value else 1


class Leds:
    """The controller's frame (R,G,B per slot: 36 cells, then status LEDs)
    on Adafruit's NeoPixel, in chain order. The library owns the colour order
    on the wire (GRB, WS2812B) and the brightness; this class only sets that
    brightness to the board's setting, lowered for a frame whose estimated
    current would exceed LED_BUDGET_MA (the same limiter as the rp2 driver,
    so both runtimes draw the same current for the same frame)."""

    def __init__(self, desc, brightness=None):
        import neopixel

        self._chain = desc.LED_CHAIN
        self.n = len(self._chain)
        self._max_b = desc.BRIGHTNESS_MAX
        self._ma = desc.LED_MA_PER_CHANNEL
        self._budget255 = desc.LED_BUDGET_MA * 255
        self.brightness = 0
        self.scale = 0  # effective 0..255 scale of the last frame
        self.set_brightness(desc.BRIGHTNESS_DEFAULT if brightness is None else brightness)
        self._np = neopixel.NeoPixel(
            pin(desc.LED_PIN), self.n, bpp=3, brightness=self.brightness / 255,
            auto_write=False, pixel_order=neopixel.GRB)

    def set_brightness(self, b):
        if b < 0:
            b = 0
        if b > self._max_b:
            b = self._max_b
        self.brightness = b

    def show(self, frame):
        chain = self._chain
        n = self.n
        total = 0
        for p in range(n):
            s = chain[p] * 3
            total += frame[s] + frame[s + 1] + frame[s + 2]
        scale = self.brightness
        full_ma = (total * self._ma + 254) // 255  # rounded up: errs safe
        if full_ma * scale > self._budget255:
            scale = self._budget255 // full_ma
        self.scale = scale
        np = self._np
        np.brightness = scale / 255
        for p in range(n):
            s = chain[p] * 3
            np[p] = (frame[s], frame[s + 1], frame[s + 2])
        np.show()

    def off(self):
        self._np.fill(0)
        self._np.show()


class Buzzer:
    """The optional piezo on BUZZER_PIN through pwmio.PWMOut, as
    triad.drivers.rp2.Buzzer: enable(on) outside the tick, tone(hz) in it."""

    HALF = 32768

    def __init__(self, desc):
        self.pin = desc.BUZZER_PIN
        self._pwm = None
        self.hz = 0

    def enable(self, on):
        if on and self._pwm is None:
            import pwmio

            self._pwm = pwmio.PWMOut(pin(self.pin), frequency=440, duty_cycle=0, variable_frequency=True)
        elif not on and self._pwm is not None:
            self._pwm.deinit()
            self._pwm = None
        self.hz = 0

    def tone(self, hz):
        pwm = self._pwm
        if pwm is None:
            return
        if hz:
            pwm.frequency = hz
            pwm.duty_cycle = Buzzer.HALF
        else:
            pwm.duty_cycle = 0
        self.hz = hz


class Hardware:
    """matrix, buttons, leds and the optional buzzer, as
    triad.drivers.rp2.Hardware has them."""

    def __init__(self, desc, brightness=None, keypad_mod=None):
        self.desc = desc
        if keypad_mod is None:
            try:
                import keypad as keypad_mod
            except ImportError:
                keypad_mod = None
        if keypad_mod is not None:
            self.matrix = KeypadMatrix(desc, keypad_mod)
            self.buttons = KeypadButtons(desc, keypad_mod)
        else:
            self.matrix = DigitalioMatrix(desc)
            self.buttons = DigitalioButtons(desc)
        self.leds = Leds(desc, brightness)
        self.buzzer = Buzzer(desc) if getattr(desc, "BUZZER_PIN", None) is not None else None


class Serial:
    """The USB serial console as a non-blocking byte source."""

    def __init__(self):
        self._con = None
        self._runtime = None
        try:
            import usb_cdc

            self._con = usb_cdc.console
        except ImportError:
            pass
        if self._con is None:
            try:
                import supervisor

                self._runtime = supervisor.runtime
            except ImportError:
                pass

    def read(self, limit=64):
        con = self._con
        if con is not None:
            n = con.in_waiting
            if not n:
                return b""
            return con.read(n if n < limit else limit)
        rt = self._runtime
        if rt is None:
            return b""
        out = b""
        while len(out) < limit and rt.serial_bytes_available:
            c = sys.stdin.read(1)
            if not c:
                break
            out += c if isinstance(c, bytes) else c.encode()
        return out

    def write(self, text):
        sys.stdout.write(text)


def _mount_readonly(path="/"):
    try:
        import storage

        return bool(storage.getmount(path).readonly)
    except (ImportError, AttributeError, OSError):
        return False


def _errno(e):
    return e.args[0] if e.args else None


class Flash(OsFs):
    """The store's files on CIRCUITPY. In USB-drive mode (boot.py left the
    drive writable for the computer) this code may not write: every write,
    rename and removal is skipped, the game plays on, and the serial line
    says so at the first skipped write after power-up and then at most once
    a minute (SAY_EVERY_MS) while writes keep being skipped. Reading still
    works, so a game saved in game-saving mode resumes. A write refused with
    EROFS switches to the same behaviour."""

    SAY_EVERY_MS = 60000

    def __init__(self, say, readonly=None, button="menu", clock=None):
        self.say = say
        self.readonly = _mount_readonly() if readonly is None else readonly
        self.button = button
        self.clock = clock or ticks_ms
        self.skipped = 0
        self._said_at = 0

    def _skip(self, path):
        now = self.clock()
        if self.skipped == 0 or ticks_diff(now, self._said_at) >= self.SAY_EVERY_MS:
            self.say(READ_ONLY_MESSAGE % self.button)
            self._said_at = now
        self.skipped += 1

    def _guard(self, op, path, *args):
        if self.readonly:
            self._skip(path)
            return
        try:
            op(self, path, *args)
        except OSError as e:
            if _errno(e) != EROFS:
                raise
            self.readonly = True
            self._skip(path)

    def write(self, path, data):
        self._guard(OsFs.write, path, data)

    def append(self, path, data):
        self._guard(OsFs.append, path, data)

    def rename(self, src, dst):
        self._guard(OsFs.rename, src, dst)

    def remove(self, path):
        self._guard(OsFs.remove, path)

    def mkdirs(self, path):
        self._guard(OsFs.mkdirs, path)


class Board:
    """What triad.drivers.open_board() returns on CircuitPython."""

    def __init__(self, desc):
        self.serial = Serial()
        self.hw = Hardware(desc)
        self.seed = seed()
        self.fs = Flash(self.serial.write, button=boot_button(desc))
        self.ticks_ms = ticks_ms
        self.sleep_ms = sleep_ms
