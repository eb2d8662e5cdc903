# The physical side of a simulated board: dice on cells, a hand holding
# lifted dice, buttons, switch bounce and noise, and stand-in `machine` and
# `neopixel` modules through which the firmware's own drivers (triad.drivers.
# rp2) scan this board and light its LEDs exactly as they would a real one.
import random
import threading
import types

from simulator.game import N_SITES, SimError, piece, parse_position, site_index, site_name

BUTTONS = ("confirm", "new", "hint", "menu")
cell_index = site_index  # the script contract's word for a site is "cell"
cell_name = site_name


class Die:
    """A piece (colour: a side letter; value: its label, a die's 1..3, or
    None) or a foreign object (colour None)."""

    __slots__ = ("colour", "value", "origin")

    def __init__(self, colour, value):
        self.colour = colour
        self.value = value
        self.origin = -1  # the site the piece stood on in the game when lifted

    def as_dict(self):
        return {"colour": self.colour, "value": self.value}


class PhysicalBoard:
    def __init__(self, seed=0):
        self.cells = [None] * N_SITES
        self.hand = []
        self.buttons = bytearray(len(BUTTONS))
        self.bounce_until = [0] * N_SITES
        self.noise = 0.0
        self.rng = random.Random(seed)
        self.lock = threading.RLock()
        self.log = []  # (ms, text) of every physical action, for the event log

    # -- what a hand does ---------------------------------------------------------
    def set_position(self, position_text):
        """Put pieces on the board as the position says."""
        pos = parse_position(position_text)
        with self.lock:
            self.cells = [None] * N_SITES
            self.hand = []
            for i in range(N_SITES):
                p = piece(pos, i)
                if p is not None:
                    self.cells[i] = Die(p[0], p[1])

    def clear(self):
        with self.lock:
            self.cells = [None] * N_SITES
            self.hand = []

    def lift(self, cell, now=0):
        with self.lock:
            d = self.cells[cell]
            if d is None:
                raise SimError("no die on %s to lift" % cell_name(cell))
            self.cells[cell] = None
            self.hand.append(d)
            self.log.append((now, "lift " + cell_name(cell)))
            return d

    def place(self, cell, now=0, die=None):
        """Put down the die lifted last (or `die`, or a foreign object when
        the hand is empty)."""
        with self.lock:
            if self.cells[cell] is not None:
                raise SimError("%s already holds a die" % cell_name(cell))
            if die is None:
                die = self.hand.pop() if self.hand else Die(None, 0)
            elif die in self.hand:
                self.hand.remove(die)
            self.cells[cell] = die
            self.log.append((now, "place " + cell_name(cell)))
            return die

    def remove_from_hand(self, die):
        with self.lock:
            if die in self.hand:
                self.hand.remove(die)

    def bounce(self, cell, now, ms=40):
        with self.lock:
            self.bounce_until[cell] = now + ms
            self.log.append((now, "bounce " + cell_name(cell)))

    def set_button(self, index, pressed):
        self.buttons[index] = 1 if pressed else 0

    # -- what the switches say ----------------------------------------------------
    def closed(self, cell, now):
        if cell >= N_SITES:
            return False  # a matrix position with no switch (hex_v1's spares)
        c = self.cells[cell] is not None
        if self.bounce_until[cell] > now:
            # Contact chatter: the reading flips on and off for a moment.
            if (now // 7) & 1:
                c = not c
        if self.noise and self.rng.random() < self.noise:
            c = not c
        return c

    def occupancy(self):
        return [0 if d is None else 1 for d in self.cells]

    def snapshot(self):
        with self.lock:
            return {
                "cells": [None if d is None else d.as_dict() for d in self.cells],
                "hand": [d.as_dict() for d in self.hand],
                "buttons": list(self.buttons),
            }


def make_machine(board, desc, clock, on_tone=None):
    """A stand-in `machine` module wired like the board description: rows
    driven low pull the columns of closed switches low through the diodes;
    a PWM on the piezo's pin tells on_tone(hz) what it sounds (0: silence)."""
    m = types.ModuleType("machine")
    row_index = {p: r for r, p in enumerate(desc.ROW_PINS)}
    col_index = {p: c for c, p in enumerate(desc.COL_PINS)}
    button_index = {p: b for b, p in enumerate(desc.BUTTON_PINS)}
    ncols = len(desc.COL_PINS)
    driven = [False] * len(desc.ROW_PINS)
    cmap = desc.MATRIX_CELL

    class Pin:
        IN = 0
        OUT = 1
        OPEN_DRAIN = 2
        PULL_UP = 1
        PULL_DOWN = 2

        def __init__(self, pin_id, mode=-1, pull=-1, value=None):
            self.id = pin_id
            self.mode = mode
            self.level = 1 if value is None else value
            if value is not None:
                self.value(value)

        def init(self, mode=-1, pull=-1, value=None):
            self.mode = mode
            if value is not None:
                self.value(value)

        def value(self, v=None):
            pid = self.id
            if v is not None:
                self.level = 1 if v else 0
                if pid in row_index:
                    driven[row_index[pid]] = not self.level
                return None
            if pid in col_index:
                col = col_index[pid]
                now = clock.now_ms()
                for r, low in enumerate(driven):
                    if low and board.closed(cmap[r * ncols + col], now):
                        return 0
                return 1
            if pid in button_index:
                return 0 if board.buttons[button_index[pid]] else 1
            return self.level

        __call__ = value

        def on(self):
            self.value(1)

        def off(self):
            self.value(0)

    class PWM:
        """The piezo's PWM slice (triad.drivers.rp2.Buzzer drives it): a
        tone is its frequency while the duty is not 0."""

        def __init__(self, pin, freq=0, duty_u16=0):
            self.pin = pin
            self.f = freq
            self.duty = duty_u16
            self.sounding = 0

        def _tell(self):
            hz = self.f if self.duty else 0
            if hz != self.sounding:
                self.sounding = hz
                if on_tone is not None:
                    on_tone(hz)

        def freq(self, f=None):
            if f is None:
                return self.f
            self.f = f
            self._tell()
            return None

        def duty_u16(self, d=None):
            if d is None:
                return self.duty
            self.duty = d
            self._tell()
            return None

        def deinit(self):
            self.duty = 0
            self._tell()

    m.Pin = Pin
    m.PWM = PWM
    m.freq = lambda *a: 125000000
    m.unique_id = lambda: b"SIMBOARD"
    return m


def make_neopixel(on_write):
    """A stand-in `neopixel` module: the firmware fills .buf (GRB) and calls
    write(); on_write receives the bytes the LEDs would get."""
    np = types.ModuleType("neopixel")

    class NeoPixel:
        ORDER = (1, 0, 2, 3)

        def __init__(self, pin, n, bpp=3, timing=1):
            self.pin = pin
            self.n = n
            self.bpp = bpp
            self.buf = bytearray(n * bpp)

        def __len__(self):
            return self.n

        def __setitem__(self, i, v):
            for k in range(self.bpp):
                self.buf[i * self.bpp + self.ORDER[k]] = v[k]

        def __getitem__(self, i):
            return tuple(self.buf[i * self.bpp + self.ORDER[k]] for k in range(self.bpp))

        def fill(self, v):
            for i in range(self.n):
                self[i] = v

        def write(self):
            on_write(bytes(self.buf))

    np.NeoPixel = NeoPixel
    return np


class FlashFaults:
    """Faults of the simulated flash (the script's `flashfail <n>`): the next
    n write calls of the firmware's file system (write, append, rename,
    remove, mkdirs) raise OSError(5) and change nothing. The flash is the
    store's file system object in the running firmware (triad.board.store's
    OsFs on the state folder); its write calls are wrapped in place, so the
    firmware runs unchanged. A power cut reloads the firmware, and with it an
    unwrapped file system: arm() again after boot."""

    WRITE_CALLS = ("write", "append", "rename", "remove", "mkdirs")

    def __init__(self):
        self.pending = 0
        self.failed = 0  # write calls failed so far
        self._fs = None

    @classmethod
    def of(cls, sim):
        """The FlashFaults of a Simulation (made on first use)."""
        ff = getattr(sim, "flash_faults", None)
        if ff is None:
            ff = cls()
            sim.flash_faults = ff
        return ff

    def arm(self, n, fs=None):
        if fs is None:
            import sys

            mod = sys.modules.get("triad.board.store")
            if mod is None:
                raise SimError("flashfail: the firmware has no flash store loaded (is it running?)")
            fs = mod._OS_FS
        self.install(fs)
        self.pending += n

    def install(self, fs):
        if self._fs is fs:
            return
        self._fs = fs
        for name in self.WRITE_CALLS:
            setattr(fs, name, self._wrap(getattr(type(fs), name).__get__(fs)))

    def _wrap(self, call):
        def failing(*args):
            if self.pending > 0:
                self.pending -= 1
                self.failed += 1
                raise OSError(5, "EIO (simulated flash fault)")
            return call(*args)

        return failing
