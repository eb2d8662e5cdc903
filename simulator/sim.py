# A whole simulated board: the firmware's unchanged firmware/main.py running
# in its own thread over the stand-ins of simulator.hardware, a simulated
# clock, serial line, flash folder and entropy source.
import os
import runpy
import sys
import tempfile
import threading
import traceback
import types

from simulator import clock as clk
from simulator.game import DESC, GAME, N_SITES, parse_position, piece
from simulator.hardware import (
    BUTTONS,
    Die,
    PhysicalBoard,
    SimError,
    cell_index,
    cell_name,
    make_machine,
    make_neopixel,
)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
MAIN_PY = os.path.join(FIRMWARE, "main.py")
if FIRMWARE not in sys.path:
    # Appended: firmware/code.py and boot.py must not shadow the stdlib's.
    sys.path.append(FIRMWARE)

SLIDE_DWELL_MS = 60  # a sliding die rests this long on each cell it passes
PRESS_MS = 100
LONG_PRESS_MS = 1000

def move_label(pos, origin, site):
    """The label the piece lifted from origin carries on site when put there
    by a legal move of pos (None: no such move)."""
    from array import array
    from triad.games import LIFT, PLACE, ROLE_GAME

    buf = array("i", bytes(4 * GAME.MAX_MOVES))
    fp = array("i", bytes(4 * 32))
    by_role = None
    for k in range(GAME.gen(pos, buf, 0, origin)):
        m = buf[k]
        n = GAME.footprint(pos, m, fp)
        steps = [(fp[j] & 255, (fp[j] >> 8) & 3, fp[j] >> 10) for j in range(n)]
        if not steps or steps[0][:2] != (origin, LIFT):
            continue
        roles = [r for s, a, r in steps if (s, a) == (site, PLACE)]
        if not roles:
            continue
        after = pos.copy()
        after.make(m)
        p = piece(after, site)
        if p is not None:
            return p[1]
        # Taken off again by the same move (a Triad's removal): the label
        # its placement's light role names.
        k = roles[0] - ROLE_GAME
        if by_role is None and 0 <= k < len(GAME.LABELS):
            by_role = GAME.LABELS[k]
    return by_role


_current = None  # the Simulation whose firmware is running (one per process)


def _clock():
    return _current.clock


ANSWERS_KEPT = 256  # replies kept for send to take, the latest ones


class Simulation:
    def __init__(self, state_dir=None, seed=1, realtime=False, speed=1.0, echo=None):
        self.desc = DESC
        self.seed = seed
        self.realtime = realtime
        self.speed = speed
        self.board = PhysicalBoard(seed)
        self.clock = None
        self.state_dir = state_dir or tempfile.mkdtemp(prefix="triad-sim-")
        self.serial_in = bytearray()
        self.serial_lock = threading.Lock()
        self.lines = []  # every line the firmware wrote, in order
        self.events = []  # (ms, line) of "evt" lines
        # Lines sent and answered, counted over every boot: the number of a
        # line is the number of its reply (send).
        self.lines_sent = 0
        self._unended = 0  # bytes sent since the last line's end
        self._lines_answered = 0
        self._answers = {}  # line number -> its reply, until send takes it
        self.reply_seq = -1  # the number of the last reply
        self.led_bytes = bytes(3 * len(self.desc.LED_CHAIN))
        self.led_writes = 0
        self.tones = []  # (ms, hz) of every change of the piezo (hz 0: silent), kept for the last 500
        self.boots = 0
        self.crash = None
        self.thread = None
        self.echo = echo  # optional callable(line) for every firmware line
        self.listeners = []  # callables(kind, payload) for the browser
        self._partial = ""
        self._old_cwd = None
        self.shadow = None  # the firmware's game as told by its events

    # -- power ------------------------------------------------------------------
    @property
    def running(self):
        return self.thread is not None and self.thread.is_alive()

    def boot(self):
        """Power on: a fresh interpreter state runs firmware/main.py."""
        global _current
        if self.running:
            raise SimError("already powered on")
        start = 1000 if self.clock is None else self.clock.now_ms() + 500
        if self.realtime:
            self.clock = clk.RealClock(start, self.speed)
        else:
            self.clock = clk.VirtualClock(start)
        _current = self
        clk.install_time(_clock)
        self._install_modules()
        if self._old_cwd is None:
            self._old_cwd = os.getcwd()
        os.makedirs(self.state_dir, exist_ok=True)
        os.chdir(self.state_dir)  # the firmware's flash is this folder
        self.boots += 1
        self.crash = None
        with self.serial_lock:
            self.serial_in = bytearray()
            self._forget_unanswered()
        self.thread = threading.Thread(target=self._firmware, name="firmware", daemon=True)
        self.thread.start()
        if not self.realtime:
            self.clock.first_grant()
        self._notify("power", {"on": True})

    def power_cut(self):
        """Power off at once, wherever the firmware is; LEDs go dark."""
        if not self.running:
            return
        self.clock.stop()
        self.thread.join(5)
        self.led_bytes = bytes(len(self.led_bytes))
        with self.serial_lock:
            self.serial_in = bytearray()
        self._notify("power", {"on": False})
        self._notify("leds", None)

    def shutdown(self):
        self.power_cut()
        if self._old_cwd is not None:
            os.chdir(self._old_cwd)
            self._old_cwd = None

    def _firmware(self):
        try:
            runpy.run_path(MAIN_PY, run_name="__main__")
        except clk.PowerOff:
            pass
        except BaseException:
            self.crash = traceback.format_exc()
            self._notify("crash", self.crash)
        finally:
            if not self.realtime:
                self.clock._to_driver.release()

    def _install_modules(self):
        for name in list(sys.modules):
            if name == "triad" or name.startswith("triad.") or name in ("machine", "neopixel"):
                del sys.modules[name]
        # The board this simulator is: the firmware's one place that picks
        # its board description (triad.boards) names it.
        chosen = types.ModuleType("triad.boards")
        chosen.ACTIVE = self.desc
        chosen.__path__ = [os.path.join(FIRMWARE, "triad", "boards")]
        sys.modules["triad.boards"] = chosen
        sys.modules["machine"] = make_machine(self.board, self.desc, self.clock, self._on_tone)
        sys.modules["neopixel"] = make_neopixel(self._on_leds)
        sys.modules["triad.drivers.usb_serial"] = self._serial_module()
        sys.modules["triad.drivers.entropy"] = self._entropy_module()

    def _serial_module(self):
        sim = self
        mod = types.ModuleType("triad.drivers.usb_serial")

        class UsbSerial:
            def read(self, limit=64):
                with sim.serial_lock:
                    if not sim.serial_in:
                        return b""
                    data = bytes(sim.serial_in[:limit])
                    del sim.serial_in[:limit]
                    return data

            def write(self, text):
                sim._serial_out(text)

        mod.UsbSerial = UsbSerial
        return mod

    def _entropy_module(self):
        mod = types.ModuleType("triad.drivers.entropy")
        value = (self.seed * 7919 + self.boots) & 0x3FFFFFFF
        mod.seed = lambda: value
        return mod

    # -- time -------------------------------------------------------------------
    def now_ms(self):
        return self.clock.now_ms() if self.clock else 0

    def run(self, ms):
        """Let simulated time pass (virtual mode: instantly; real mode: sleeps)."""
        if ms < 0:
            raise SimError("cannot wait a negative time")
        if self.realtime:
            import time

            time.sleep(ms / 1000.0 / self.clock.speed)
            return
        if not self.running:
            self.clock.us += int(ms) * 1000
            return
        self.clock.grant(ms)

    # -- the serial line ----------------------------------------------------------
    def send(self, line, timeout_ms=2000, numbered=None):
        """Send one command line; return the firmware's reply line to it.

        The firmware answers every non-empty line with exactly one "ok" or
        "err" line, in order (docs/protocol.md), so the k-th line sent is
        answered by the k-th reply. A reply is matched by that number, not by
        "the next one to come": a reply that came after its command timed
        out is never taken as the answer to a later command. numbered(k), if
        given, is told the line's number before the line goes out."""
        k = self.write_serial((self._checked_line(line) + "\n").encode(), numbered)
        waited = 0
        while k not in self._answers and waited < timeout_ms and self.running:
            self.run(10)
            waited += 10
        return self._answer(k, line)

    def write_serial(self, data, numbered=None):
        """Bytes onto the firmware's serial line as a host writes them (a
        link's raw writes too, so that their lines are counted); the number
        of the last line they complete, or -1. A board without power hears
        nothing."""
        if not self.running:
            return -1
        with self.serial_lock:
            k = self._count_lines(data, numbered)
            self.serial_in += data
        return k

    def _checked_line(self, line):
        text = line.rstrip("\n")
        if not text or "\n" in text or "\r" in text:
            raise SimError("one non-empty line at a time, not %r" % (line,))
        if not self.running:
            raise SimError("the board is switched off")
        return text

    def _count_lines(self, data, numbered=None):
        # The firmware's rule (Protocol.feed): a CR or LF ends a line, and a
        # line with at least one byte (too long, or not ASCII, included) gets
        # one reply.
        k = -1
        for b in data:
            if b == 10 or b == 13:
                if self._unended:
                    k = self.lines_sent
                    self.lines_sent += 1
                    self._unended = 0
                    if numbered is not None:
                        numbered(k)
            else:
                self._unended += 1
        return k

    def _answer(self, k, line):
        """The reply to line number k (or SimError); answers to lines before
        it that came too late are dropped."""
        reply = self._answers.pop(k, None)
        for late in [j for j in list(self._answers) if j < k]:
            self._answers.pop(late, None)
        if reply is None:
            raise SimError("no reply to %r from the firmware" % line)
        return reply

    def _forget_unanswered(self):
        # What the power cut caught (a line unread, half read or unanswered)
        # is never answered: the boot's first reply answers the first line
        # sent after it.
        self._unended = 0
        self._lines_answered = self.lines_sent

    def _serial_out(self, text):
        self._partial += text
        while "\n" in self._partial:
            line, self._partial = self._partial.split("\n", 1)
            self._line(line)

    def _line(self, line):
        self.lines.append(line)
        if self.echo:
            self.echo(line)
        if line.startswith("evt "):
            self.events.append((self.now_ms(), line))
            self._on_event(line[4:])
        elif line.startswith("ok") or line.startswith("err"):
            self.reply_seq = self._lines_answered  # (read by listeners, below)
            self._answers[self.reply_seq] = line
            self._lines_answered += 1
            # A link's raw lines are never taken by send: forget the old ones
            # (a send still waiting is never this far behind).
            self._answers.pop(self.reply_seq - ANSWERS_KEPT, None)
        self._notify("serial", line)

    def _on_event(self, text):
        kind, _, arg = text.partition(" ")
        if kind in ("setup", "play", "position", "resume"):
            try:
                self.shadow = GAME.parse_position(arg)
            except ValueError:
                self.shadow = None
        elif kind == "move" and self.shadow is not None:
            try:
                m = GAME.parse_move(self.shadow, arg)
            except ValueError:
                return
            before = self._pieces()
            self.shadow.make(m)
            self._dress_pieces(before - self._pieces())

    def _pieces(self):
        return sum(1 for i in range(N_SITES) if piece(self.shadow, i) is not None)

    def _dress_pieces(self, taken_off):
        # The player set each piece as they moved it (a die turned to its new
        # value): show what the firmware now believes; pieces taken off the
        # board leave the hand.
        pos = self.shadow
        with self.board.lock:
            cells = self.board.cells
            for i in range(len(cells)):
                d = cells[i]
                p = piece(pos, i)
                if d is not None and p is not None:
                    d.colour, d.value = p
            for _ in range(max(0, taken_off)):
                if self.board.hand:
                    self.board.hand.pop()

    # -- the LEDs ---------------------------------------------------------------
    def _on_leds(self, data):
        self.led_bytes = data
        self.led_writes += 1
        self._notify("leds", None)

    def _on_tone(self, hz, ms=None):
        self.tones.append((self.now_ms() if ms is None else ms, hz))
        del self.tones[:-500]
        self._notify("tone", hz)

    def leds(self):
        """The colour each frame slot's LED shows now (36 cells, then the
        status LEDs), as (r, g, b) after the firmware's brightness."""
        chain = self.desc.LED_CHAIN
        out = [(0, 0, 0)] * len(chain)
        data = self.led_bytes
        for p, slot in enumerate(chain):
            g, r, b = data[3 * p], data[3 * p + 1], data[3 * p + 2]
            out[slot] = (r, g, b)
        return out

    def led(self, name):
        return self.leds()[cell_index(name)]

    # -- hands ------------------------------------------------------------------
    def lift(self, name):
        c = cell_index(name)
        d = self.board.lift(c, self.now_ms())
        # Where the piece stood in the game (not a cell it only slid over):
        # a person turns it for the move they make from there.
        pos = self.shadow
        if pos is not None and d.colour is not None:
            p = piece(pos, c)
            if p is not None and p[0] == d.colour:
                d.origin = c
        return d

    def place(self, name, die=None):
        """Put a piece down: `die` (one in the hand), else the one lifted
        last, else one from the box. A person turns a die as they move it:
        put on a site that is a legal next step of the site it was lifted
        from, it shows the label that move gives (back on its own site, its
        old label)."""
        c = cell_index(name)
        if die is None and not self.board.hand and self.shadow is not None:
            # A piece taken from the box: give it what the game expects on
            # that site (set-up), else it is a stray object.
            p = piece(self.shadow, c)
            if p is not None:
                die = Die(p[0], p[1])
        d = self.board.place(c, self.now_ms(), die)
        self._turn(d, c)
        return d

    def _turn(self, d, site):
        if not GAME.LABELS or d.colour is None or d.origin < 0 or self.shadow is None:
            return
        pos = self.shadow.copy()
        o = d.origin
        if site == o:
            p = piece(pos, o)
            if p is not None and p[0] == d.colour:
                d.value = p[1]
            return
        label = move_label(pos, o, site)
        if label is not None:
            with self.board.lock:
                d.value = label

    def knock(self, name):
        """A die knocked off the board: it leaves the cell and the hand."""
        d = self.lift(name)
        self.board.remove_from_hand(d)

    def slide(self, names):
        if len(names) < 2:
            raise SimError("slide needs a start and an end cell")
        cells = [cell_index(n) for n in names]
        self.lift(names[0])
        for n in names[1:-1]:
            self.place(n)
            self.run(SLIDE_DWELL_MS)
            self.lift(n)
        self.place(names[-1])

    def bounce(self, name, ms=40):
        self.board.bounce(cell_index(name), self.now_ms(), ms)

    def press(self, button, long=False):
        if button not in BUTTONS:
            raise SimError("unknown button %r: one of %s" % (button, ", ".join(BUTTONS)))
        i = BUTTONS.index(button)
        self.board.set_button(i, True)
        self._notify("buttons", None)
        self.run(LONG_PRESS_MS if long else PRESS_MS)
        self.board.set_button(i, False)
        self._notify("buttons", None)

    def set_position(self, text):
        """Both the game and the physical board start from a position."""
        parse_position(text)  # a clear error before anything changes
        self.board.set_position(text)
        reply = self.send("position " + text)
        if not reply.startswith("ok"):
            raise SimError("the board refused the position: " + reply)
        # The board resumes play once it has seen the dice settle.
        waited = 0
        while waited < 5000 and not self.send("state").startswith("ok state play"):
            self.run(100)
            waited += 100

    def lesson(self, arg):
        """The board's teaching mode: `lesson <n>` over the serial line, and
        the dice set as the lesson's set-up light shows (like a position);
        "off" leaves it (the saved game's dice are not set back)."""
        reply = self.send("lesson " + str(arg))
        if not reply.startswith("ok"):
            raise SimError("the board refused the lesson: " + reply)
        if arg == "off":
            return reply
        # The lesson's position, as the board told it (evt setup).
        self.board.set_position(GAME.format_position(self.shadow))
        waited = 0
        while waited < 5000 and not self.send("state").startswith("ok state play"):
            self.run(100)
            waited += 100
        return reply

    # -- observation ----------------------------------------------------------------
    def state(self):
        """(state name, position text) as the firmware reports them."""
        reply = self.send("state")
        parts = reply.split(" ", 3)
        if len(parts) < 4 or parts[0] != "ok":
            raise SimError("unexpected reply " + reply)
        return parts[2], parts[3]

    def moves(self):
        reply = self.send("moves")
        return reply[len("ok moves") :].strip()

    def matrix(self):
        now = self.now_ms()
        return [1 if self.board.closed(i, now) else 0 for i in range(N_SITES)]

    def _notify(self, kind, payload):
        for fn in list(self.listeners):
            try:
                fn(kind, payload)
            except Exception:
                pass
