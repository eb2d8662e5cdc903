# The script contract on the real firmware image: the board's UF2 running on
# an emulated RP2040 (rp2040py) with a modelled board wired to its pins, and
# the simulator's own physical model (PhysicalBoard: pieces, the hand,
# slides, bounces, noise) behind that board (`python -m simulator script
# --target pico`).
#
# The modelled board is built from the board description alone:
#   - the reed matrix: a listener on every row pin; a row the firmware drives
#     low (open drain: output enabled, level low) pulls low each column whose
#     switch on that row is closed, through its diode (so there is no
#     ghosting: only driven rows count); a released column is left to the
#     firmware's pull-up;
#   - buttons: pads shorted to ground while pressed, else left to the pull-up;
#   - the LED chain: rp2040py's WS2812 decoder on LED_PIN, decoding the
#     waveform (whatever drives it) into frames in chain order, mapped back to
#     frame slots through LED_CHAIN;
#   - the piezo: the PWM slice of BUZZER_PIN, read as a frequency.
#
# Time. The CPython simulator's firmware runs on a virtual clock that starts
# at 1000 ms, ticks exactly every 10 ms and thinks in no time; a script's
# action at simulated time S happens just before the tick at S. The emulated
# chip's TIMER is set at each power-up so that its clock reads the simulated
# time and the firmware's first tick comes a little before the simulated
# boot; its ticks fall on a grid of their own phase. An emulated tick at t
# stands for the simulated tick at the grid point at or below t, so both
# firmwares see the same phase of every light (every blink and animation
# period of the firmware is a multiple of 10 ms) on corresponding ticks, and
# simulated time S is carried out where the first emulated tick at or after
# S drives its first row: the previous tick has finished (however long it
# ran on the chip), this one has read nothing yet. The emulated
# chip is paused at each of those instants (a clock alarm that holds the
# emulator's thread), so runs are exactly repeatable.
#
# Not modelled: analog effects (column capacitance, the settle time beyond
# the firmware's own wait), magnets and the reed switches' own bounce timing
# (PhysicalBoard's chatter is a square wave of 7 ms), the LEDs' current, the
# board's flash wear. Docs: docs/firmware-image.md, "The emulated target".
import os
import queue
import tempfile

from simulator.game import N_SITES
from simulator.hardware import BUTTONS, SimError
from simulator.sim import Simulation

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The firmware's first tick must come before the simulated boot time: the
# emulated TIMER starts this many ms before it at power-up. Boot to the first
# tick measured on a fresh flash: pico_v1 about 225 ms of emulated time,
# hex_v1 185, tri_v1 460 (it outran the 300 ms this once was, and the clock
# was shifted: see LIGHT_PERIOD_MS).
BOOT_ALLOWANCE_MS = 600
# A boot slower than the allowance shifts the emulated clock by this much
# (and says so on stderr). It is NOT a period of every light: the slow blink
# repeats every 1 200 ms ((now // 600) & 1), a breath every 1 280 ms (32
# steps of 40), the win's chase every 1 440 ms; their common multiple is
# minutes of emulated time. A shifted run keeps the fast blink and the think
# circle but may show the slow blink inverted and a breath at another step
# (tri_v1's 460 ms boot against the old 300 ms allowance hid a fault's
# slow blink this way), so the allowance must cover every boot.
LIGHT_PERIOD_MS = 3000
WALL_TIMEOUT_S = 900.0
TICKS_WRAP_US = (1 << 30) * 1000
# The chip pauses where the tick that stands for a simulated instant drives
# its first row; if no tick comes within this (the firmware stopped
# scanning), it pauses anyway.
FALLBACK_MS = 30
# A row 0 driven up to this long before a grid point of the firmware's
# rhythm is its tick (the tick's clock read and the ms it reads: a tick is
# never early, but the first tick's phase is known to the ms only).
GRID_EARLY_MS = 2
# The most bytes the firmware reads from the serial line in one tick
# (App.tick: UsbSerial.read's limit).
SERIAL_READ = 64


class PicoError(SimError):
    pass


def uf2_for_board(board, build=True):
    """The board's UF2, built (or copied from the build cache) by
    host_tools.pico_build: build/triad-board-<board>.uf2; TRIAD_UF2_<BOARD>
    in the environment names another image."""
    env = os.environ.get("TRIAD_UF2_" + board.upper())
    if env:
        if not os.path.exists(env):
            raise PicoError("TRIAD_UF2_%s names %s, which does not exist" % (board.upper(), env))
        return env
    out = os.path.join(ROOT, "build", "triad-board-%s.uf2" % board)
    if build:
        import subprocess
        import sys

        cmd = [sys.executable, "-m", "host_tools.pico_build", "uf2", "--board", board, "--out", out]
        r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            if os.path.exists(out):
                return out  # an image built before is better than none; the build said why it failed
            raise PicoError("could not build the %s UF2 (%s):\n%s" % (board, " ".join(cmd[2:]), r.stdout[-2000:]))
    if not os.path.exists(out):
        raise PicoError("no UF2 at %s" % out)
    return out


class ModelledBoard:
    """The board description's wiring around the emulated chip, over a
    PhysicalBoard. Every callback runs on the emulator's thread."""

    def __init__(self, desc, physical, sim_ms):
        from rp2040py.external.ws2812 import Ws2812

        self.desc = desc
        self.physical = physical
        self.sim_ms = sim_ms  # callable: the simulated time (ms) of now
        self.rows = tuple(desc.ROW_PINS)
        self.cols = tuple(desc.COL_PINS)
        self.ncols = len(self.cols)
        self.cmap = bytes(desc.MATRIX_CELL)
        self.driven = [False] * len(self.rows)
        self.col_low = [False] * self.ncols
        self.buttons = tuple(desc.BUTTON_PINS)
        self.button_low = [False] * len(self.buttons)
        self.frame = None  # the last latched LED frame, chain order, (r, g, b)
        self.frames = 0
        self.frame_log = []  # (emulated ns, frame) of recent latched frames (bench)
        self.scan_log = []  # emulated ns of recent scans (row 0 driven; bench)
        self.on_row = None  # callable(row, emulated ns) on every row driven low
        self.mcu = None
        self.leds = Ws2812(desc.LED_PIN, color_order="GRB", on_pixels=self._on_pixels)

    def attach(self, mcu):
        from rp2040py.gpio_pin import GPIOPinState

        self.mcu = mcu
        low = GPIOPinState.LOW
        for r, pin in enumerate(self.rows):
            def on_change(value, old, r=r):
                drive = value == low
                if drive != self.driven[r]:
                    self.driven[r] = drive
                    if drive and r == 0:
                        self.scan_log.append(mcu.clock.nanos)
                        del self.scan_log[:-4000]
                    if drive and self.on_row is not None:
                        self.on_row(r, mcu.clock.nanos)
                    self.refresh()
            mcu.gpio[pin].add_listener(on_change)
        for pin in self.cols + self.buttons:
            mcu.gpio[pin].release_input()
        self.leds.attach(mcu)

    def _on_pixels(self, pixels):
        self.frame = pixels
        self.frames += 1
        self.frame_log.append((self.mcu.clock.nanos, pixels))
        del self.frame_log[:-400]

    def refresh(self):
        """Drive the column and button pads from the physical board now."""
        mcu = self.mcu
        if mcu is None:
            return
        now = self.sim_ms()
        phys = self.physical
        nc = self.ncols
        cmap = self.cmap
        for c in range(nc):
            low = False
            for r, d in enumerate(self.driven):
                if d and phys.closed(cmap[r * nc + c], now):
                    low = True
                    break
            if low != self.col_low[c]:
                self.col_low[c] = low
                pad = mcu.gpio[self.cols[c]]
                if low:
                    pad.set_input_value(False)
                else:
                    pad.release_input()
        for b, pin in enumerate(self.buttons):
            low = bool(phys.buttons[b])
            if low != self.button_low[b]:
                self.button_low[b] = low
                if low:
                    mcu.gpio[pin].set_input_value(False)
                else:
                    mcu.gpio[pin].release_input()

    def power_off(self):
        self.frame = None
        self.driven = [False] * len(self.rows)

    def slots(self):
        """(r, g, b) per frame slot of the last latched frame (dark when none)."""
        chain = self.desc.LED_CHAIN
        out = [(0, 0, 0)] * len(chain)
        frame = self.frame or ()
        for p, slot in enumerate(chain):
            if p < len(frame):
                px = frame[p]
                out[slot] = (px[0], px[1], px[2])
        return out

    def tone_hz(self):
        """What the piezo sounds now: its PWM slice's frequency while the
        pin is the PWM's and the duty is not 0 (0: silent, or no piezo)."""
        pin = getattr(self.desc, "BUZZER_PIN", None)
        if pin is None or self.mcu is None:
            return 0
        mcu = self.mcu
        from rp2040py._gpio_pin import FUNCTION_PWM

        if mcu.gpio[pin].function_select != FUNCTION_PWM:
            return 0
        ch = mcu.pwm.channels[(pin >> 1) & 7]
        cc = (ch.cc >> (16 if pin & 1 else 0)) & 0xFFFF
        if not (ch.csr & 1) or cc == 0:
            return 0
        div = ch.div / 16.0 or 1.0  # 8.4 fixed point
        return int(round(mcu.pwm.clock_freq / ((ch.top + 1) * div)))


# MicroPython 1.25's RPI_PICO image (memmap_mp.ld, as the ELF's symbols say:
# __StackBottom 0x20040000, __StackTop 0x20042000): core 0's C stack is the
# 8 KiB of SRAM banks 4 and 5; MicroPython raises "maximum recursion depth
# exceeded" 256 bytes before its end (ports/rp2/main.c, mp_stack_set_limit).
STACK_BOTTOM = 0x20040000
STACK_TOP = 0x20042000
STACK_LIMIT_BYTES = (STACK_TOP - STACK_BOTTOM) - 256
_SRAM = 0x20000000
_PAINT = b"\xa5\x5a\xc3\x3c"


class PicoSimulation(Simulation):
    """A Simulation whose firmware is the UF2 on the emulated RP2040: the
    same hands (lift, place, slide, knock, press), the same serial line and
    observations, on emulated time (see the header)."""

    def __init__(self, uf2, seed=1, echo=None):
        super().__init__(state_dir=None, seed=seed, echo=echo)
        self.uf2 = uf2
        self.device = None
        self.model = None
        self._tmp = tempfile.TemporaryDirectory(prefix="triad-pico-")
        self.sim_us = 1000 * 1000 - 500 * 1000  # boot() adds 500 ms: the first boot is at 1000 ms
        self.offset_us = 0  # emulated TIMER us = simulated us + offset_us (once aligned)
        self.powered = False
        self._booting = False
        self._orders = queue.Queue()
        self._done = queue.Queue()
        self._alarm = None
        self._period_us = 1000000 // self.desc.SCAN_HZ
        self.boot_ms = None  # emulated ms from power-up to the first tick, last boot
        self._want_pause = False  # the next tick's first row drive pauses the chip
        self._tick_sim_ms = 0  # the simulated tick the running emulated tick stands for
        self._grid0_ms = 0  # the firmware's ms of its first tick since power-up
        self._grid_k = 0  # the grid point (ticks since the first) of the last row 0 driven
        self._boot_ms_sim = 0  # the simulated time of the last boot (its first tick)
        self.allowance_ms = BOOT_ALLOWANCE_MS
        self._tone_now = 0  # the piezo's frequency at the last tick (0: silent)

    # -- the emulated chip ------------------------------------------------------
    def _timer(self):
        return self.device.mcu.timer

    def _timer_us(self, ns):
        # The firmware's clock (ticks_ms: the TIMER's ms modulo 2**30) as a
        # signed count: the TIMER starts one wrap of ticks_ms up, so that the
        # firmware may boot "before" 0 ms when the simulated boot is at 1000.
        return (ns - self._timer()._epoch_nanos) / 1000.0 - TICKS_WRAP_US

    def _create(self):
        from rp2040py.boards import BOARDS, resolve_firmware
        from rp2040py.device import MicroPythonDevice

        from simulator.emulated_usb import host_waits_with_no_data
        from simulator.littlefs import make_littlefs

        empty = os.path.join(self._tmp.name, "empty")
        os.makedirs(empty, exist_ok=True)
        # A formatted, empty LittleFS (a fresh board's first boot would
        # format it itself, at a cost of emulated seconds).
        lfs = make_littlefs(empty, os.path.join(self._tmp.name, "lfs.img"))
        board = resolve_firmware(BOARDS["pico"], "micropython", os.path.abspath(self.uf2))
        # A quiet console leaves the chip idle, as on a real host (see there).
        self.device = host_waits_with_no_data(MicroPythonDevice(board=board, filesystem=lfs))
        self.model = ModelledBoard(self.desc, self.board, self._sim_ms_now)
        self.model.on_row = self._on_row
        self.model.attach(self.device.mcu)
        self.device.cdc.on_serial_data = self._on_serial
        self._alarm = self.device.mcu.clock.create_alarm(self._on_alarm)

    def _sim_ms_now(self):
        """The simulated time the physical board is read at: that of the
        simulated tick the running emulated tick stands for (the CPython
        firmware's clock stands still during a tick), so bounces and noise
        read alike: set where the chip pauses, one period on at each tick."""
        if self.device is None or not self.powered or self._booting:
            return self.sim_us // 1000
        return self._tick_sim_ms

    def _set_timer(self, us):
        """Make the emulated TIMER read `us` now (at power-up only: the
        firmware has not read it yet)."""
        t = self._timer()
        t._epoch_nanos = self.device.mcu.clock.nanos - (us + TICKS_WRAP_US) * 1000.0

    def _on_row(self, row, ns):
        if row == 0 and not self._booting:
            # The piezo as the tick before left it, at that tick's simulated
            # time: what the CPython target's PWM stand-in records (tones).
            hz = self.model.tone_hz()
            if hz != self._tone_now:
                self._tone_now = hz
                self._on_tone(hz, self._tick_sim_ms)
            # One period on for each tick of the firmware's rhythm, not for
            # each row 0 driven: the firmware also reads the matrix between
            # two ticks (a changing switch halfway to the next tick, and in
            # a search whenever a tick would come late: triad/app.py), and
            # such a reading stands for the tick before it. A tick is told
            # by the grid point of the firmware's clock it falls on (its
            # rhythm keeps the phase of its first tick: App._on_grid),
            # readings up to 2 ms before a grid point counted on it.
            k = int((self._timer_us(ns) / 1000.0 - self._grid0_ms + GRID_EARLY_MS) // (self._period_us / 1000.0))
            if k != self._grid_k:
                self._grid_k = k
                self._tick_sim_ms += self._period_us // 1000
        if row == 0 and self._want_pause:
            # The tick that stands for the simulated instant begins: the
            # previous tick has finished (its LED frame latched, its serial
            # line read), this one has not read a column yet.
            self._want_pause = False
            self._alarm.cancel()
            self._pause_here()
            return
        if row != 0 or not self._booting:
            return
        # The first row the firmware drives after power-up: its first tick.
        # The tick read its clock a few microseconds before driving the row.
        # (boot_ms: power-up to the first tick, for the docs and the bench)
        self._booting = False
        t_us = self._timer_us(ns) - 30
        tick_ms = int(t_us // 1000)
        self._grid0_ms = tick_ms  # (the firmware's first tick: its rhythm's phase)
        self._grid_k = 0
        boot_ms = self._boot_ms_sim
        # The emulated clock reads the simulated time (plus a multiple of
        # LIGHT_PERIOD_MS when the boot was slow): an emulated tick at t
        # stands for the simulated tick at the grid point at or below t, so
        # every light's phase on it is the simulated tick's.
        off = 0
        while boot_ms + self._period_us // 1000 + off <= tick_ms:
            off += LIGHT_PERIOD_MS
        self.boot_ms = tick_ms - (boot_ms - self.allowance_ms)
        self.offset_us = off * 1000
        if off:
            import sys

            sys.stderr.write("simulator: the emulated chip took %d ms to its first tick, more than the %d ms "
                             "allowed (pico.BOOT_ALLOWANCE_MS): its clock is shifted by %d ms, and slow blinks "
                             "and breathing lights may differ from the cpython target\n"
                             % (self.boot_ms, self.allowance_ms, off))
        # The simulated firmware's first tick runs at the boot time itself,
        # before the script's first line: the script starts one period on.
        self._schedule_sim(self.sim_us)

    def _schedule_sim(self, sim_us):
        """Pause the chip at the emulated instant that carries out
        simulated time sim_us (on the emulator's thread)."""
        mcu = self.device.mcu
        target_ns = self._timer()._epoch_nanos + (sim_us + self.offset_us + TICKS_WRAP_US) * 1000.0
        self._alarm.schedule(max(0.0, target_ns - mcu.clock.nanos))

    def _on_alarm(self):
        # At the simulated instant on the emulated clock: pause when the
        # next tick (the one that stands for the instant) drives its first row (a tick that
        # runs long on the chip is let finish, as the CPython firmware's
        # ticks take no time), or FALLBACK_MS later if no tick comes.
        if self._want_pause:
            # No tick came (the firmware is busy inside one, e.g. a long
            # serial command): pause mid-tick. No tick starts here, so the
            # simulated tick the running one stands for is kept.
            self._want_pause = False
            self._pause_here(tick=False)
            return
        self._want_pause = True
        self._alarm.schedule(FALLBACK_MS * 1e6)

    def _pause_here(self, tick=True):
        if tick:
            self._tick_sim_ms = self.sim_us // 1000  # the tick that starts here stands for the host's instant
        # On the emulator's thread: hold it here (emulated time stands
        # still) and carry out the host's orders until one lets time run.
        self._done.put(("paused", None))
        while True:
            kind, arg = self._orders.get()
            if kind == "do":
                try:
                    self._done.put(("ok", arg()))
                except BaseException as e:  # handed to the host thread
                    self._done.put(("err", e))
            elif kind == "run":
                arg()
                return
            elif kind == "quit":
                return

    def _wait(self, what):
        try:
            kind, value = self._done.get(timeout=WALL_TIMEOUT_S)
        except queue.Empty:
            raise PicoError("the emulated Pico did not %s within %d s (wall clock)" % (what, WALL_TIMEOUT_S))
        if kind == "err":
            raise value
        return kind, value

    def _do(self, fn):
        self._orders.put(("do", fn))
        return self._wait("answer")[1]

    def _run_to(self, sim_us):
        self._orders.put(("run", lambda: (self.model.refresh(), self._schedule_sim(sim_us))))
        self._wait("reach %d ms" % (sim_us // 1000))

    # -- power ------------------------------------------------------------------
    @property
    def running(self):
        return self.powered

    def boot(self):
        if self.powered:
            raise SimError("already powered on")
        self.sim_us += 500 * 1000
        self._boot_ms_sim = self.sim_us // 1000
        # The simulated firmware's first tick runs at the boot time itself,
        # before the script's first line: the script starts one period on.
        self.sim_us += self._period_us
        self.boots += 1
        self.crash = None
        self._partial = ""
        self._forget_unanswered()
        self._booting = True
        if self.device is None:
            self._create()
            self._paint_stack()
            self._set_timer((self._boot_ms_sim - self.allowance_ms) * 1000)
            self.powered = True
            self.device.start_async(timeout=WALL_TIMEOUT_S)
        else:
            def restart():
                self.device.hard_reset()  # flash (LittleFS) kept, RAM and peripherals reset
                self._set_timer((self._boot_ms_sim - self.allowance_ms) * 1000)
                self.model.power_off()
                self.model.refresh()
            self.powered = True
            self._orders.put(("run", restart))
        # Runs until the first tick's row drive schedules the first pause.
        self._wait("boot into its first tick")
        self._notify("power", {"on": True})

    def power_cut(self):
        if not self.powered:
            return
        self.powered = False
        self.model.power_off()
        self.led_bytes = bytes(len(self.led_bytes))
        self._notify("power", {"on": False})

    def shutdown(self):
        device = self.device
        if device is not None:
            self.device = None
            device.simulator.stop()  # takes effect once the pause below lets go
            self._orders.put(("quit", None))
        self.powered = False
        self._tmp.cleanup()

    # -- time -------------------------------------------------------------------
    def now_ms(self):
        return self.sim_us // 1000

    def run(self, ms):
        if ms < 0:
            raise SimError("cannot wait a negative time")
        self.sim_us += int(ms) * 1000
        if self.powered:
            self._run_to(self.sim_us)

    # -- the serial line ----------------------------------------------------------
    def _on_serial(self, data):
        # On the emulator's thread, while it runs.
        self._serial_out(bytes(data).decode("utf-8", "replace").replace("\r", ""))

    def write_serial(self, data, numbered=None):
        """(Simulation.write_serial: the bytes go in by the emulated USB.)"""
        if not self.powered:
            return -1
        with self.serial_lock:
            k = self._count_lines(data, numbered)
        cdc = self.device.cdc
        self._do(lambda: [cdc.send_serial_byte(b) for b in data])
        return k

    def send(self, line, timeout_ms=2000, numbered=None):
        # (Replies matched to lines by number, as Simulation.send does.)
        sent_us = self.sim_us
        data = (self._checked_line(line) + "\n").encode()
        k = self.write_serial(data, numbered)
        waited = 0
        while k not in self._answers and waited < timeout_ms and self.powered:
            self.run(10)
            waited += 10
        reply = self._answer(k, line)
        # The script goes on where the CPython target's would. The firmware
        # reads at most SERIAL_READ bytes a tick (App.tick: serial.read(64))
        # and answers a line in the tick that reads its end (Protocol.feed),
        # so the CPython target sees the reply one period after that tick.
        # On the chip the wait above may run longer, for two reasons that
        # are not the firmware's answer: a command can keep the chip busy
        # for many of its ms in one tick (`position` about 80 ms on
        # pico_v1: it writes the start to flash), which the CPython
        # firmware does in no time, and a pause that fell inside it counted
        # as one more step; and the emulated USB may hand the line over
        # after the tick's read (tri_v1's `set opponent n` was answered a
        # tick late). Counted in emulated ms, every later line of a script
        # ran 10-20 ms late (a breathing light a step apart). The chip
        # stays paused where it is (ahead of that instant for as long as
        # the command ran), and the tick it is paused at stands for the
        # script's instant.
        t_us = sent_us + self._period_us * ((len(data) + SERIAL_READ - 1) // SERIAL_READ)
        if self.powered and t_us < self.sim_us:
            self.sim_us = t_us
            self._tick_sim_ms = t_us // 1000
        return reply

    # -- the C stack ------------------------------------------------------------
    def _paint_stack(self):
        sram = self.device.mcu.sram
        a, b = STACK_BOTTOM - _SRAM, STACK_TOP - _SRAM
        sram[a:b] = _PAINT * ((b - a) // 4)

    def repaint_stack(self):
        """Paint the unused part of the C stack again (below the stack
        pointer where the chip stands now), so that stack_used() tells the
        deepest use from here on rather than since power-up."""
        def paint():
            mcu = self.device.mcu
            sp = mcu.core.sp
            if not (STACK_BOTTOM < sp <= STACK_TOP):
                raise PicoError("the stack pointer %#x is outside the C stack" % sp)
            a = STACK_BOTTOM - _SRAM
            b = ((sp - 64) & ~3) - _SRAM  # the words just below SP may be live (an interrupt's frame)
            mcu.sram[a:b] = _PAINT * ((b - a) // 4)
            return STACK_TOP - sp
        return self._do(paint)

    def stack_used(self):
        """The deepest the C stack has reached since power-up (bytes below
        its top): the lowest word of the painted region that was written."""
        def scan():
            sram = self.device.mcu.sram
            a, b = STACK_BOTTOM - _SRAM, STACK_TOP - _SRAM
            i = a
            while i < b and bytes(sram[i:i + 4]) == _PAINT:
                i += 4
            return b - i
        return self._do(scan)

    # -- the LEDs ---------------------------------------------------------------
    def leds(self):
        if not self.powered:
            return [(0, 0, 0)] * len(self.desc.LED_CHAIN)
        return self._do(self.model.slots)

    def tone(self):
        return self._do(self.model.tone_hz) if self.powered else 0
