# Scan, debounce and button events (board/scan.py) and the RP2040 drivers
# (drivers/rp2.py) over fake `machine`/`neopixel` modules. Runs under CPython
# (pytest) and the MicroPython unix port (tests/mp_run.py).
import sys

from fwtest import raises
from triad.compat import MICROPYTHON, micropython
from triad.boards import ACTIVE, pico_v1
from triad.board import scan


class Desc:
    """pico_v1 with overrides, so tests can change one datum at a time."""

    def __init__(self, **over):
        for k in dir(pico_v1):
            if not k.startswith("_"):
                setattr(self, k, getattr(pico_v1, k))
        for k in over:
            setattr(self, k, over[k])


class Like:
    """A board description with overrides."""

    def __init__(self, desc, **over):
        for k in dir(desc):
            if not k.startswith("_"):
                setattr(self, k, getattr(desc, k))
        for k in over:
            setattr(self, k, over[k])


def feed(sc, raw, now, seq, step=10):
    """Apply a sequence of 0/1 readings to matrix position 0 (cell via map)."""
    changes = 0
    for v in seq:
        raw[0] = v
        if sc.update(raw, now):
            changes += 1
        now += step
    return now, changes


# -- matrix debounce ---------------------------------------------------------

def test_active_board_is_pico_v1():
    assert ACTIVE is pico_v1
    assert ACTIVE.DEBOUNCE >= 2 and ACTIVE.SCAN_HZ >= 100


def test_bouncing_cell_never_changes_stable_until_it_holds():
    sc = scan.MatrixScanner(Desc(DEBOUNCE=3))
    raw = bytearray(36)
    now, changes = feed(sc, raw, 0, (1, 0, 1, 0, 1, 0, 1, 0, 1, 0))
    assert changes == 0 and sc.stable[0] == 0
    # Now it holds: the third agreeing scan flips it, not earlier.
    now, changes = feed(sc, raw, now, (1, 1))
    assert changes == 0 and sc.stable[0] == 0
    assert sc.update(raw, now) is True
    assert sc.stable[0] == 1 and sc.changed_at == now


def test_slide_touch_shorter_than_debounce_never_appears():
    sc = scan.MatrixScanner(Desc(DEBOUNCE=3))
    raw = bytearray(36)
    # A die slid over a1 closes it for two scans, twice, then is gone.
    now, changes = feed(sc, raw, 0, (1, 1, 0, 0, 1, 1, 0, 0, 0, 0))
    assert changes == 0
    assert sc.stable == bytearray(36)


def test_release_needs_the_same_agreement():
    sc = scan.MatrixScanner(Desc(DEBOUNCE=3))
    raw = bytearray(36)
    now, changes = feed(sc, raw, 0, (1, 1, 1))
    assert changes == 1 and sc.stable[0] == 1
    # A die wobbling on its cell opens the switch briefly: still there.
    now, changes = feed(sc, raw, now, (0, 1, 0, 1, 1, 0))
    assert changes == 0 and sc.stable[0] == 1
    now, changes = feed(sc, raw, now, (0, 0, 0))
    assert changes == 1 and sc.stable[0] == 0


def _chattering(base, start, t):
    """The simulator's model of contact chatter (simulator/hardware.py): for
    40 ms from `start` the reading flips while (t // 7) is odd."""
    if start <= t < start + 40 and (t // 7) & 1:
        return 1 - base
    return base


def test_chatter_never_passes_however_often_the_switch_is_read():
    # A piece's reed chatters for 40 ms (knocked, or a neighbour taken off:
    # issue 47's Browne fuzz, where C1's chatter during a capture was
    # believed as "taken off, a new piece dropped on it" and committed as
    # the drop). The board reads a changing switch again halfway to the
    # next scan (issue 48) and between a search's slices, so the readings
    # come every 5 ms or closer: no stretch of chatter shorter than the
    # debounce's hold may flip the snapshot, at any phase.
    limit = 3
    for base in (0, 1):
        for step in (10, 5, 4, 3, 2, 1):
            for start in range(0, 14):
                sc = scan.MatrixScanner(Desc(DEBOUNCE=limit))
                raw = bytearray(36)
                raw[0] = base
                for t in (0, 10, 20, 30):
                    sc.update(raw, t)
                assert sc.stable[0] == base
                t = 40
                while t < 200:
                    raw[0] = _chattering(base, 50 + start, t)
                    if (t % 10) == 0:
                        assert not sc.update(raw, t), (base, step, start, t)
                    else:
                        assert not sc.read_between(raw, t), (base, step, start, t)
                    assert sc.stable[0] == base
                    t += step
                assert not sc.unsettled()


def test_a_change_is_believed_once_it_has_held_for_its_readings():
    # A lift read every 5 ms (a scan, the read halfway, the next scan) is
    # believed at the third reading, 10 ms after it was first seen, as
    # before; readings closer together need 7 (10 less the readings'
    # jitter in a search: scan.HOLD_JITTER_MS).
    sc = scan.MatrixScanner(Desc(DEBOUNCE=3))
    raw = bytearray(36)
    raw[0] = 1
    for t in (0, 10, 20):
        sc.update(raw, t)
    raw[0] = 0
    assert not sc.update(raw, 30)
    assert not sc.read_between(raw, 35)
    assert sc.update(raw, 40) and sc.stable[0] == 0 and sc.changed_at == 40
    raw[0] = 1
    assert not sc.update(raw, 50)
    for t in (53, 56):
        assert not sc.read_between(raw, t) and sc.stable[0] == 0 and sc.unsettled()
    assert sc.read_between(raw, 57) and sc.stable[0] == 1 and not sc.unsettled()
    # Scans alone, every 10 ms: three agreeing scans, as ever.
    raw[0] = 0
    assert not sc.update(raw, 70) and not sc.update(raw, 80)
    assert sc.update(raw, 90) and sc.stable[0] == 0


def test_changed_at_and_stable_for():
    sc = scan.MatrixScanner(Desc(DEBOUNCE=2), now=1000)
    raw = bytearray(36)
    assert sc.stable_for(1500) == 500
    raw[7] = 1
    assert not sc.update(raw, 2000)
    assert sc.update(raw, 2010)
    assert sc.changed_at == 2010
    assert not sc.update(raw, 2020)
    assert sc.stable_for(2510) == 500
    assert sc.changed_at == 2010


def test_the_snapshot_ages_from_the_scan_that_debounces_it():
    # The app makes its scanner at time 0 and first reads the switches at
    # boot's end (here 52 s on): a piece standing then shows only after
    # DEBOUNCE scans, and until it does the all-open snapshot is no board
    # at rest (issue 36: it had rested "since 0", set-up completed on it and
    # the piece became a move).
    sc = scan.MatrixScanner(Desc(DEBOUNCE=3))
    raw = bytearray(36)
    raw[5] = 1
    assert not sc.update(raw, 52000)
    assert sc.stable_for(52000) == 0
    assert not sc.update(raw, 52010)
    assert sc.stable_for(52010) == 0
    assert sc.update(raw, 52020)
    assert sc.stable[pico_v1.MATRIX_CELL[5]] == 1
    assert sc.changed_at == 52020 and sc.stable_for(52820) == 800
    # An empty board likewise: no age until its scans agree.
    sc = scan.MatrixScanner(Desc(DEBOUNCE=3))
    raw[5] = 0
    assert not sc.update(raw, 52000) and sc.stable_for(52000) == 0
    assert not sc.update(raw, 52010) and sc.stable_for(52015) == 5
    assert not sc.update(raw, 52020) and sc.stable_for(52030) == 10
    assert not sc.update(raw, 52030) and sc.stable_for(52830) == 810
    # reset() begins it again.
    sc.reset(60000)
    raw[5] = 1
    assert not sc.update(raw, 61000) and sc.stable_for(61000) == 0


def test_a_change_confirmed_by_late_scans_is_dated_as_if_on_time():
    # The board was busy for 100 ms between two scans (a serial command on
    # the chip): the die placed at 1000 is confirmed at 1110, dated 1020, as
    # scans every 10 ms would have confirmed it, so it settles as early.
    sc = scan.MatrixScanner(Desc(DEBOUNCE=3), now=990)
    raw = bytearray(36)
    raw[4] = 1
    assert not sc.update(raw, 1000)
    assert not sc.update(raw, 1100)
    assert sc.update(raw, 1110)
    assert sc.changed_at == 1020 and sc.stable_for(1820) == 800
    # Lifted again with every scan on time: dated when confirmed.
    raw[4] = 0
    for t in (1120, 1130):
        assert not sc.update(raw, t)
    assert sc.update(raw, 1140) and sc.changed_at == 1140
    # Lateness before the change began does not date it back.
    raw[4] = 1
    assert not sc.update(raw, 1400)  # (the scan before came 250 ms late)
    assert not sc.update(raw, 1410)
    assert sc.update(raw, 1420) and sc.changed_at == 1420
    # A scan that came 5 ms late and the one after it 5 ms early (the loop
    # back on its grid) lost no time: nothing is dated back.
    raw[4] = 0
    for t in (1430, 1445):
        assert not sc.update(raw, t)
    assert sc.update(raw, 1450) and sc.changed_at == 1450


def test_stable_for_survives_tick_wrap_and_saturates():
    from triad.compat import ticks_add

    sc = scan.MatrixScanner(Desc(DEBOUNCE=1))
    raw = bytearray(36)
    t0 = ticks_add(0, -20)  # 20 ms before the tick counter wraps
    raw[3] = 1
    assert sc.update(raw, t0)
    t1 = ticks_add(t0, 50)
    assert t1 < t0  # wrapped
    assert not sc.update(raw, t1)
    assert sc.stable_for(t1) == 50
    # A board left alone for two hours reports the cap, never a negative age.
    t2 = ticks_add(t0, 7200000)
    sc.update(raw, t2)
    assert sc.stable_for(t2) == scan.STABLE_CAP_MS


def test_matrix_cell_mapping_is_respected():
    # Reverse routing: matrix position m is cell 35 - m.
    cmap = bytes(35 - m for m in range(36))
    sc = scan.MatrixScanner(Desc(MATRIX_CELL=cmap, DEBOUNCE=1))
    raw = bytearray(36)
    raw[0] = 1  # matrix row 0, column 0
    raw[13] = 1
    assert sc.update(raw, 0)
    assert sc.stable[35] == 1 and sc.stable[22] == 1
    assert sum(sc.stable) == 2


def test_matrix_cell_must_be_a_permutation():
    raises(ValueError, scan.MatrixScanner, Desc(MATRIX_CELL=bytes(36)))
    raises(ValueError, scan.MatrixScanner, Desc(MATRIX_CELL=bytes([36] + list(range(1, 36)))))


def test_reset_clears_snapshot():
    sc = scan.MatrixScanner(Desc(DEBOUNCE=1))
    raw = bytearray(36)
    raw[5] = 1
    sc.update(raw, 10)
    sc.reset(99)
    assert sum(sc.stable) == 0 and sc.changed_at == 99


# -- buttons -----------------------------------------------------------------

def press(b, levels, now, idx, scans, step=10):
    for _ in range(scans):
        levels[idx] = 1
        b.update(levels, now)
        now += step
    return now


def release(b, levels, now, idx, scans, step=10):
    for _ in range(scans):
        levels[idx] = 0
        b.update(levels, now)
        now += step
    return now


def test_button_short_press_fires_on_release():
    b = scan.Buttons(Desc(BUTTON_DEBOUNCE=3))
    lv = bytearray(4)
    now = press(b, lv, 0, 2, 10)  # hint held for 100 ms
    assert b.pressed[2] == 1
    assert b.pop() == scan.NO_EVENT
    now = release(b, lv, now, 2, 3)
    assert b.pop() == scan.HINT
    assert b.pop() == scan.NO_EVENT


def test_button_bounce_is_not_a_press():
    b = scan.Buttons(Desc(BUTTON_DEBOUNCE=3))
    lv = bytearray(4)
    now = 0
    for v in (1, 0, 1, 0, 1, 0, 0, 0):
        lv[0] = v
        b.update(lv, now)
        now += 10
    assert b.pop() == scan.NO_EVENT


def test_button_long_press_fires_once_while_held():
    b = scan.Buttons(Desc(BUTTON_DEBOUNCE=3, LONG_PRESS_MS=800))
    lv = bytearray(4)
    now = press(b, lv, 0, 3, 40)  # debounced at t=20, held to t=390
    assert b.pop() == scan.NO_EVENT
    now = press(b, lv, now, 3, 50)  # now past 800 ms since the press
    assert b.pop() == scan.MENU_LONG
    now = press(b, lv, now, 3, 100)  # still held: no repeat
    assert b.pop() == scan.NO_EVENT
    now = release(b, lv, now, 3, 5)  # release after a long press: nothing
    assert b.pop() == scan.NO_EVENT
    assert scan.event_button(scan.MENU_LONG) == 3 and scan.event_is_long(scan.MENU_LONG)
    assert scan.NEW_LONG == 1 * 2 + 1 and scan.CONFIRM == 0


def test_button_events_queue_in_order_and_overflow_drops_oldest():
    b = scan.Buttons(Desc(BUTTON_DEBOUNCE=1))
    lv = bytearray(4)
    now = 0
    for i in range(10):
        now = press(b, lv, now, i % 4, 1)
        now = release(b, lv, now, i % 4, 1)
    got = []
    while True:
        ev = b.pop()
        if ev < 0:
            break
        got.append(ev)
    # 10 presses into a ring of 8: the first two are gone.
    assert got == [(i % 4) * 2 for i in range(2, 10)]


def test_buttons_idle_skip_changes_nothing():
    # update() skips the per-button loop when no button is down or
    # counting; the same presses through the loop every tick (_update)
    # give the same events and states, long presses included.
    d = Desc()
    a = scan.Buttons(d)
    b = scan.Buttons(d)
    lv = bytearray(4)
    rng = 7
    now = 0
    events = 0
    for k in range(3000):
        rng = (rng * 1103515245 + 12345) & 0x7FFFFFFF
        if (rng >> 12) % 9 == 0:  # a button goes down or up now and then
            lv[(rng >> 4) % 4] ^= 1
        a.update(lv, now)
        b._update(lv, now)
        ea = a.pop()
        assert ea == b.pop(), k
        events += ea >= 0
        assert a.pressed == b.pressed and a._count == b._count, k
        now += 10 if k % 50 else 900  # long holds too
    assert events > 50


def test_buttons_reject_wrong_names():
    raises(ValueError, scan.Buttons, Desc(BUTTON_NAMES=("new", "confirm", "hint", "menu")))


# -- drivers/rp2 over fake hardware -------------------------------------------

class World:
    """A virtual board: pins by GPIO number, a switch matrix, button levels."""

    def __init__(self, desc):
        self.desc = desc
        self.pins = {}
        self.rows = []
        self.closed = bytearray(len(desc.ROW_PINS) * len(desc.COL_PINS))
        self.buttons_down = bytearray(len(desc.BUTTON_PINS))
        self.multi_low = 0  # set if a column was read with two rows driven
        self.pulls = 0
        self.pwms = []  # machine.PWM objects made (the piezo)
        self.tones = [-1] * 256  # what the piezo sounded: hz, 0 for silence
        self.ntones = 0

    def sounded(self):
        return self.tones[: self.ntones]


def make_machine(world):
    class Pin:
        IN = 0
        OUT = 1
        OPEN_DRAIN = 2
        PULL_UP = 1

        def __init__(self, gpio, mode=-1, pull=-1, value=None):
            self.gpio = gpio
            self.mode = -1
            self.pull = -1
            self.v = 1
            self.init(mode, pull, value)
            world.pins[gpio] = self

        def init(self, mode=-1, pull=-1, value=None):
            if mode != -1:
                self.mode = mode
            if pull != -1:
                self.pull = pull
                world.pulls += 1
            if value is not None:
                self.v = value

        def value(self, v=None):
            if v is not None:
                self.v = v
                return None
            d = world.desc
            g = self.gpio
            for c in range(len(d.COL_PINS)):
                if d.COL_PINS[c] == g:
                    return self._column(c)
            for b in range(len(d.BUTTON_PINS)):
                if d.BUTTON_PINS[b] == g:
                    return 0 if world.buttons_down[b] else 1
            return self.v

        def _column(self, c):
            d = world.desc
            ncols = len(d.COL_PINS)
            level = 1
            low = 0
            for r in range(len(d.ROW_PINS)):
                rp = world.pins[d.ROW_PINS[r]]
                if rp.v == 0 and (rp.mode == Pin.OUT or rp.mode == Pin.OPEN_DRAIN):
                    low += 1
                    if world.closed[r * ncols + c]:
                        level = 0
            if low > 1:
                world.multi_low = 1
            return level

    class PWM:
        """A PWM slice on a pin: what the piezo would sound is recorded in
        world.tones as (hz, duty) on every change (hz 0: silent)."""

        def __init__(self, pin):
            self.pin = pin
            self.f = 0
            self.duty = 0
            self.live = True
            world.pwms.append(self)

        def freq(self, f=None):
            if f is None:
                return self.f
            self.f = f
            return None

        def duty_u16(self, d=None):
            if d is None:
                return self.duty
            self.duty = d
            # Into a preallocated log: this runs in the tick, under heap_lock.
            k = world.ntones
            if k < len(world.tones):
                world.tones[k] = self.f if d else 0
                world.ntones = k + 1
            return None

        def deinit(self):
            self.live = False

    class machine:
        pass

    machine.Pin = Pin
    machine.PWM = PWM
    return machine


def make_neopixel():
    class NeoPixel:
        ORDER = (1, 0, 2, 3)  # GRB(W), as MicroPython's own driver

        def __init__(self, pin, n, bpp=3, timing=1):
            self.pin = pin
            self.n = n
            self.buf = bytearray(n * bpp)
            self.writes = 0

        def write(self):
            self.writes += 1

    class neopixel:
        pass

    neopixel.NeoPixel = NeoPixel
    return neopixel


_MOD = "triad.drivers.rp2"


def fresh_rp2(world):
    sys.modules["machine"] = make_machine(world)
    sys.modules["neopixel"] = make_neopixel()
    if _MOD in sys.modules:
        del sys.modules[_MOD]
    __import__(_MOD)
    return sys.modules[_MOD]


def forget_rp2():
    for name in ("machine", "neopixel", _MOD):
        if name in sys.modules:
            del sys.modules[name]


def test_rp2_module_imports_without_hardware():
    forget_rp2()
    __import__(_MOD)
    rp2 = sys.modules[_MOD]
    assert hasattr(rp2, "Matrix") and hasattr(rp2, "Hardware")
    forget_rp2()


def test_rp2_matrix_reads_the_virtual_switches():
    d = Desc()
    w = World(d)
    try:
        rp2 = fresh_rp2(w)
        m = rp2.Matrix(d)
        raw = bytearray(36)
        m.read_into(raw)
        assert raw == bytearray(36)
        for pos in (0, 7, 17, 30, 35):
            w.closed[pos] = 1
        m.read_into(raw)
        assert [i for i in range(36) if raw[i]] == [0, 7, 17, 30, 35]
        # Every row released afterwards, and never two driven at once.
        for p in d.ROW_PINS:
            assert w.pins[p].v == 1 and w.pins[p].mode == w.pins[p].OPEN_DRAIN
        assert w.multi_low == 0
        for p in d.COL_PINS:
            assert w.pins[p].pull == w.pins[p].PULL_UP
        # Rectangle of three closed switches: with diodes there is no fourth.
        w.closed[7] = 0
        w.closed[1] = 1
        w.closed[6] = 1
        m.read_into(raw)
        assert raw[0] and raw[1] and raw[6] and not raw[7]
    finally:
        forget_rp2()


def test_rp2_matrix_with_scanner_and_odd_routing():
    cmap = bytes((m * 5) % 36 if m else 0 for m in range(36))
    # (m*5) % 36 is a permutation because gcd(5, 36) == 1.
    d = Desc(MATRIX_CELL=cmap, DEBOUNCE=2)
    w = World(d)
    try:
        rp2 = fresh_rp2(w)
        m = rp2.Matrix(d)
        sc = scan.MatrixScanner(d)
        raw = bytearray(36)
        w.closed[3] = 1  # matrix row 0, column 3 -> cell 15
        m.read_into(raw)
        sc.update(raw, 0)
        m.read_into(raw)
        assert sc.update(raw, 10)
        assert [c for c in range(36) if sc.stable[c]] == [15]
    finally:
        forget_rp2()


def test_rp2_buttons_are_active_low():
    d = Desc()
    w = World(d)
    try:
        rp2 = fresh_rp2(w)
        bp = rp2.ButtonPins(d)
        lv = bytearray(4)
        bp.read_into(lv)
        assert lv == bytearray(4)
        w.buttons_down[1] = 1
        bp.read_into(lv)
        assert lv == bytearray([0, 1, 0, 0])
    finally:
        forget_rp2()


# -- the register path (on the RP2040: SIO and TIMER instead of Pin calls) ----

class FakeChip:
    """The SIO registers the register path uses (word 1 GPIO_IN, 9 / 10 the
    output-enable set / clear aliases) over a World, and the timer's low
    word (reads advance it 3 us). Records what a careful engineer checks
    on a scope: the rows driven at each GPIO_IN read and for how long."""

    def __init__(self, world):
        self.w = world
        self.oe = 0
        self.t = 0
        self.driven_at = 0
        self.reads = []  # (rows driven (mask), us since the last drive)
        self.timer = FakeTimer(self)

    def __getitem__(self, k):
        assert k == 1, k  # only GPIO_IN is read
        d = self.w.desc
        self.reads.append((self.oe, self.t - self.driven_at))
        level = (1 << 30) - 1  # pulled up
        nc = len(d.COL_PINS)
        for c in range(nc):
            for r in range(len(d.ROW_PINS)):
                if (self.oe >> d.ROW_PINS[r]) & 1 and self.w.closed[r * nc + c]:
                    level &= ~(1 << d.COL_PINS[c])
        for b in range(len(d.BUTTON_PINS)):
            if self.w.buttons_down[b]:
                level &= ~(1 << d.BUTTON_PINS[b])
        return level

    def __setitem__(self, k, v):
        if k == 9:
            self.oe |= v
            self.driven_at = self.t
        elif k == 10:
            self.oe &= ~v
        else:
            raise AssertionError("register %d written" % k)


class FakeTimer:
    def __init__(self, chip):
        self.chip = chip

    def __getitem__(self, k):
        self.chip.t += 3
        return self.chip.t


def _boards():
    from triad.boards import hex_v1, tri_v1

    return (pico_v1, hex_v1, tri_v1)


def _regs(world, levels):
    """(SIO, timer) for the register path. CPython: FakeChip over the world.
    MicroPython compiles the path to machine code, which takes addresses or
    buffers: a register block whose GPIO_IN is `levels` whatever the rows
    (every row then reads the same columns) and a timer that stands still
    (the settle wait must then be 0)."""
    if not MICROPYTHON:
        chip = FakeChip(world)
        return chip, chip.timer
    block = bytearray(64)
    for i in range(4):
        block[4 + i] = (levels >> (8 * i)) & 255
    return block, bytearray(4)


def test_rp2_register_scan_equals_the_pin_scan_on_every_board():
    rng = 12345
    for d in _boards():
        nr = len(d.ROW_PINS)
        nc = len(d.COL_PINS)
        w = World(d)
        try:
            rp2 = fresh_rp2(w)
            for k in range(25):
                cols = 0
                for i in range(nr * nc):
                    rng = (rng * 1103515245 + 12345) & 0x7FFFFFFF
                    if MICROPYTHON:  # the same columns closed on every row
                        w.closed[i] = (rng >> 9) & 1 if i < nc else w.closed[i % nc]
                    else:
                        w.closed[i] = 1 if (rng >> 9) % 4 == 0 else 0
                levels = (1 << 30) - 1
                for c in range(nc):
                    if w.closed[c]:
                        levels &= ~(1 << d.COL_PINS[c])
                regs = _regs(w, levels)
                fast = rp2.Matrix(Like(d, SETTLE_US=0) if MICROPYTHON else d, regs)
                # (made last: the world's pins are the last ones made)
                plain = rp2.Matrix(d)
                assert plain._sio is None  # off the chip: the Pin path
                want = bytearray(nr * nc)
                plain.read_into(want)
                got = bytearray(b"\x07" * (nr * nc))
                fast.read_into(got)
                assert got == want, (d.NAME, k)
                assert [i for i in range(nr * nc) if got[i]] == [i for i in range(nr * nc) if w.closed[i]]
                if not MICROPYTHON:
                    chip = regs[0]
                    assert chip.oe == 0  # every row released afterwards
                    assert len(chip.reads) == nr  # one read a row
                    for r in range(nr):
                        rows, waited = chip.reads[r]
                        assert rows == 1 << d.ROW_PINS[r]  # that row alone, driven
                        assert waited >= d.SETTLE_US  # after the settle time
        finally:
            forget_rp2()


def test_rp2_register_buttons_equal_the_pin_buttons():
    for d in _boards():
        w = World(d)
        try:
            rp2 = fresh_rp2(w)
            plain = rp2.ButtonPins(d)
            assert plain._sio is None
            for k in range(16):
                levels = (1 << 30) - 1
                for b in range(4):
                    w.buttons_down[b] = (k >> b) & 1
                    if w.buttons_down[b]:
                        levels &= ~(1 << d.BUTTON_PINS[b])
                fast = rp2.ButtonPins(d, _regs(w, levels))
                want = bytearray(4)
                plain.read_into(want)
                got = bytearray(b"\x07" * 4)
                fast.read_into(got)
                assert got == want == bytearray([(k >> b) & 1 for b in range(4)]), (d.NAME, k)
        finally:
            forget_rp2()


def test_rp2_register_path_allocates_nothing():
    d = pico_v1
    w = World(d)
    try:
        rp2 = fresh_rp2(w)
        if MICROPYTHON:
            regs = _regs(w, (1 << 30) - 1)
            d2 = Like(d, SETTLE_US=0)
        else:
            regs = _regs(w, 0)
            d2 = d
        m = rp2.Matrix(d2, regs)
        bp = rp2.ButtonPins(d2, regs)
        raw = bytearray(36)
        lv = bytearray(4)
        m.read_into(raw)
        micropython.heap_lock()
        try:
            m.read_into(raw)
            bp.read_into(lv)
        finally:
            micropython.heap_unlock()
    finally:
        forget_rp2()


def test_rp2_leds_chain_order_grb_and_brightness():
    d = Desc(BRIGHTNESS_MAX=255)
    w = World(d)
    try:
        rp2 = fresh_rp2(w)
        leds = rp2.Leds(d, brightness=255)
        frame = bytearray(3 * 44)
        frame[0:3] = bytes((10, 20, 30))  # a1
        frame[3 * 6:3 * 7] = bytes((1, 2, 3))  # a2: chain position 11
        frame[3 * 11:3 * 12] = bytes((4, 5, 6))  # f2: chain position 6
        frame[3 * 36:3 * 37] = bytes((7, 8, 9))  # Black's turn LED: last
        leds.show(frame)
        buf = leds._np.buf
        assert leds._np.writes == 1
        assert bytes(buf[0:3]) == bytes((20, 10, 30))  # G, R, B
        assert bytes(buf[33:36]) == bytes((2, 1, 3))
        assert bytes(buf[18:21]) == bytes((5, 4, 6))
        assert bytes(buf[129:132]) == bytes((8, 7, 9))
        assert sum(buf) == sum(frame)
        leds.set_brightness(128)
        leds.show(frame)
        assert bytes(buf[0:3]) == bytes((20 * 128 // 255, 10 * 128 // 255, 30 * 128 // 255))
        leds.set_brightness(999)
        assert leds.brightness == 255
        leds.set_brightness(-4)
        assert leds.brightness == 0
    finally:
        forget_rp2()


def test_rp2_leds_default_and_max_brightness_from_description():
    d = Desc()
    w = World(d)
    try:
        rp2 = fresh_rp2(w)
        leds = rp2.Leds(d)
        assert leds.brightness == d.BRIGHTNESS_DEFAULT
        leds.set_brightness(255)
        assert leds.brightness == d.BRIGHTNESS_MAX
    finally:
        forget_rp2()


def estimated_ma(buf, d):
    return sum(buf) * d.LED_MA_PER_CHANNEL / 255


def test_rp2_leds_power_limiter():
    d = Desc(BRIGHTNESS_MAX=255)
    w = World(d)
    try:
        rp2 = fresh_rp2(w)
        leds = rp2.Leds(d, brightness=255)
        frame = bytearray(b"\xff" * (3 * 44))  # everything full white: 2.6 A
        leds.show(frame)
        ma = estimated_ma(leds._np.buf, d)
        assert ma <= d.LED_BUDGET_MA
        assert ma >= d.LED_BUDGET_MA * 9 // 10  # limited, not blacked out
        assert leds.scale < 255
        # Uniform scaling keeps the colour: all channels equal.
        assert min(leds._np.buf) == max(leds._np.buf)
        # A typical frame (a few lit cells) is not touched by the limiter.
        frame = bytearray(3 * 44)
        for i in range(12):
            frame[3 * i] = 255
        leds.show(frame)
        assert leds.scale == 255
        assert leds._np.buf[1] == 255
        # Lower brightness first, then the limiter only if still needed.
        leds.set_brightness(20)
        leds.show(bytearray(b"\xff" * (3 * 44)))
        assert leds.scale == 20
    finally:
        forget_rp2()


def test_rp2_hardware_and_entropy_seed():
    d = Desc()
    w = World(d)
    try:
        rp2 = fresh_rp2(w)
        hw = rp2.Hardware(d)
        assert hw.matrix.nrows == 6 and hw.leds.n == 44 and hw.buttons.n == 4
    finally:
        forget_rp2()
    from triad.drivers import entropy

    seeds = [entropy.seed() for _ in range(4)]
    for s in seeds:
        assert 0 <= s < (1 << 30)  # a small int on the RP2040
    assert len(set(seeds)) > 1


def test_hot_paths_do_not_allocate():
    # heap_lock makes any heap allocation raise MemoryError on MicroPython;
    # on CPython it is a no-op and the same code simply runs.
    d = Desc(DEBOUNCE=2, BUTTON_DEBOUNCE=2, LONG_PRESS_MS=100)
    w = World(d)
    try:
        rp2 = fresh_rp2(w)
        m = rp2.Matrix(d)
        bp = rp2.ButtonPins(d)
        leds = rp2.Leds(d)
        sc = scan.MatrixScanner(d)
        bt = scan.Buttons(d)
        raw = bytearray(36)
        lv = bytearray(4)
        frame = bytearray(b"\x80" * (3 * 44))
        log = bytearray(64)
        n_ev = 0
        changes = 0
        now = 0
        micropython.heap_lock()
        try:
            for i in range(60):
                w.closed[i % 36] = 1 if (i // 7) & 1 else 0
                w.buttons_down[0] = 1 if 10 <= i < 14 else 0
                w.buttons_down[1] = 1 if i >= 20 else 0
                m.read_into(raw)
                if sc.update(raw, now):
                    changes += 1
                sc.stable_for(now)
                bp.read_into(lv)
                bt.update(lv, now)
                ev = bt.pop()
                if ev >= 0:
                    log[n_ev] = ev
                    n_ev += 1
                leds.show(frame)
                now += 10
        finally:
            micropython.heap_unlock()
        assert changes > 0
        assert bytes(log[:n_ev]) == bytes((scan.CONFIRM, scan.NEW_LONG))
        assert leds._np.writes == 60
    finally:
        forget_rp2()


def test_heap_lock_really_locks_on_micropython():
    if not MICROPYTHON:
        return
    micropython.heap_lock()
    try:
        try:
            bytearray(10)
            hit = False
        except MemoryError:
            hit = True
    finally:
        micropython.heap_unlock()
    assert hit
