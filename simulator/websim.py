# The simulator behind the page: a realtime Simulation of the unchanged
# firmware, its log, the serial line to it, the change signals the page's
# event stream waits on, and the threads that poll the firmware's state and
# watch the switches. What the page knows of the firmware is in
# simulator/tracking.py, what it shows in simulator/frame.py, what the
# player's hands do in simulator/actions.py; the HTTP server is
# simulator/web.py.
import json
import os
import random
import re
import threading
import time

from simulator import actions
from simulator.frame import frame, palette
from simulator.game import N_SITES
from simulator.hardware import PhysicalBoard, SimError
from simulator.sim import Simulation
from simulator.tracking import Tracker

LOG_KEEP = 3000
POLL_S = 1.0  # the firmware's state is asked for at least this often
TICK_S = 0.1  # switch readings (bounce, noise) are pushed at this rate


def default_state_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "triad-sim")


class RecordingBoard(PhysicalBoard):
    """The physical board, remembering what each switch read last: the raw
    matrix the firmware saw, noise and bounce included."""

    def __init__(self, seed=0):
        super().__init__(seed)
        self.last_read = bytearray(N_SITES)

    def closed(self, cell, now):
        c = super().closed(cell, now)
        if cell < N_SITES:
            self.last_read[cell] = 1 if c else 0
        return c


class WebSim:
    """A realtime Simulation plus what the page needs: a cached frame, a log,
    the firmware's state (asked over the serial line) and change signals."""

    def __init__(self, state_dir=None, seed=None, speed=1.0):
        self.restart = None  # serve(): restart the process as another board
        self.relay = None  # the relay's room this board plays a seat of, as the page shows it
        self.relay_seat = None  # (host_tools/relay/sim_seat.py)
        if seed is None:
            seed = random.SystemRandom().randrange(1, 1 << 30)
        self.state_dir = state_dir or default_state_dir()
        self.sim = Simulation(state_dir=self.state_dir, seed=seed, realtime=True, speed=speed)
        self.sim.board = RecordingBoard(seed)  # before boot: the stand-ins read it
        self.seed = seed
        self.act_lock = threading.RLock()  # actions run one at a time, in order
        # One serial command at a time; a poll's four (state, moves, start,
        # get) hold it together, so the page never shows the state from
        # before a command with the moves from after it.
        self.cmd_lock = threading.RLock()
        self.cond = threading.Condition()
        self.version = 0
        self.log = []  # (seq, text)
        self.log_seq = 0
        self.log_lock = threading.Lock()
        self.track = Tracker()  # the firmware's state and events, as the page knows them
        # The numbers of the poller's lines (Simulation.send): their replies
        # stay out of the log. By number, not by "a poll is under way": a
        # late reply to the player's own line, arriving during a poll, is
        # still the player's to see.
        self._quiet_lines = set()
        self._poll_now = threading.Event()
        self.stopping = False
        self.brightness = 64
        self.names = palette()
        self._frame_cache = (None, None)
        self.settings = {}
        self.sim.listeners.append(self._on_sim)
        self._threads = []

    # -- life -----------------------------------------------------------------
    def start(self):
        self.power_on()
        for fn, name in ((self._poller, "sim-poll"), (self._ticker, "sim-tick")):
            t = threading.Thread(target=fn, name=name, daemon=True)
            t.start()
            self._threads.append(t)

    def stop(self):
        self.stopping = True
        self._poll_now.set()
        self.bump()
        self.sim.shutdown()

    def power_on(self):
        with self.act_lock:
            if self.sim.running:
                return
            self.brightness = self._read_brightness()
            self.sim.boot()
            self.add_log("# power on (boot %d)" % self.sim.boots)
        self._poll_now.set()

    def power_cut(self):
        with self.act_lock:
            if not self.sim.running:
                return
            self.sim.power_cut()
            self.track.power_cut()
            self.add_log("# power cut")
        self.bump()

    def _read_brightness(self):
        # The firmware keeps its brightness in settings.txt on its flash.
        default = getattr(self.sim.desc, "BRIGHTNESS_DEFAULT", 64)
        try:
            with open(os.path.join(self.state_dir, "settings.txt"), "rb") as f:
                text = f.read(4096).decode("ascii", "replace")
            m = re.search(r"^brightness=(\d+)", text, re.M)
            if m and int(m.group(1)) > 0:
                return int(m.group(1))
        except OSError:
            pass
        return default or 64

    # -- change signals ---------------------------------------------------------
    def bump(self):
        with self.cond:
            self.version += 1
            self.cond.notify_all()

    def wait_change(self, seen, timeout):
        with self.cond:
            if self.version == seen and not self.stopping:
                self.cond.wait(timeout)
            return self.version

    def _on_sim(self, kind, payload):
        # Called from the firmware thread: never block here.
        if kind == "tone":
            return  # the piezo (sim.tones): the page plays its cues from the events
        if kind == "serial":
            line = payload
            if line.startswith("evt "):
                self.track.on_event(line[4:], self.sim.shadow)
                self.add_log(line)
                self._poll_now.set()
            elif line.startswith("ok") or line.startswith("err"):
                seq = self.sim.reply_seq
                if seq in self._quiet_lines:
                    self._quiet_lines.discard(seq)
                else:
                    self.add_log(line)
                for k in [k for k in list(self._quiet_lines) if k < seq]:
                    self._quiet_lines.discard(k)  # lines a power cut left unanswered
            else:
                self.add_log(line)
        elif kind == "crash":
            self.add_log("# firmware crashed:\n" + str(payload))
        self.bump()

    def add_log(self, text):
        with self.log_lock:
            self.log_seq += 1
            self.log.append((self.log_seq, text))
            if len(self.log) > LOG_KEEP:
                del self.log[: len(self.log) - LOG_KEEP]
        self.bump()

    def log_since(self, seq):
        with self.log_lock:
            if not self.log or self.log[-1][0] <= seq:
                return seq, []
            out = [t for s, t in self.log if s > seq]
            return self.log[-1][0], out

    # -- the serial line ----------------------------------------------------------
    def command(self, line, quiet=False):
        """Send one line to the firmware; its reply (or raises SimError)."""
        with self.cmd_lock:
            if not self.sim.running:
                raise SimError("the board is switched off")
            if not quiet:
                self.add_log("> " + line)
            return self.sim.send(line, timeout_ms=3000, numbered=self._quiet_lines.add if quiet else None)

    def _poller(self):
        while not self.stopping:
            self._poll_now.wait(POLL_S)
            self._poll_now.clear()
            if self.stopping:
                return
            if not self.sim.running:
                continue
            try:
                with self.cmd_lock:
                    changed = self.track.poll(self.command)
                if changed:
                    self.bump()
            except Exception:
                pass  # power cut meanwhile: the next round asks again

    def _ticker(self):
        last = None
        while not self.stopping:
            time.sleep(TICK_S)
            m = bytes(self.sim.board.last_read)
            if m != last:
                last = m
                self.bump()

    def frame_json(self):
        ver = self.version
        cached_ver, text = self._frame_cache
        if cached_ver != ver:
            text = json.dumps(self.frame(), separators=(",", ":"))
            self._frame_cache = (ver, text)
        return text

    @property
    def fw(self):
        """The firmware's state as the page knows it (tracking.Tracker.fw)."""
        return self.track.fw

    def frame(self):
        """What the page shows now (frame.frame)."""
        return frame(self)

    def review(self):
        """The board's game looked back on (simulator/review.py), for the
        page: {ok, moves, evals, marks} or {ok: false, error}. The last
        answer is kept for the same game."""
        from simulator import review

        fw = self.track.fw
        key = (fw.get("start", ""), tuple(fw.get("moves", [])), tuple(sorted((fw.get("settings") or {}).items())))
        cached = getattr(self, "_review_cache", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        if not key[1]:
            return {"ok": False, "error": "no moves to review"}
        try:
            out = dict(review.analyse(key[0], list(key[1]), fw.get("settings") or {}), ok=True)
        except (ValueError, IndexError) as e:  # (the game's NotationError: the page's copy out of step)
            return {"ok": False, "error": str(e)}
        self._review_cache = (key, out)
        return out

    def review_record(self, text):
        """A record opened on the page, looked back on (not the board's game)."""
        from simulator import review

        try:
            start, moves, settings = review.read_record(text)
            if not moves:
                return {"ok": False, "error": "the record has no moves"}
            return dict(review.analyse(start, moves, settings), ok=True, record=True)
        except ValueError as e:  # RecordError, the game's NotationError
            return {"ok": False, "error": str(e)}

    def record(self):
        """The board's game as a record file's text (docs/records.md)."""
        import datetime

        from simulator import review

        fw = self.track.fw
        date = datetime.datetime.now().astimezone().replace(microsecond=0).isoformat()
        return review.record_text(fw.get("start", ""), list(fw.get("moves", [])), fw.get("settings") or {}, date)

    def poll_soon(self):
        """Ask the firmware for its state now (not at the next POLL_S)."""
        self._poll_now.set()

    # -- the player's hands ---------------------------------------------------------------
    def act(self, actions_):
        """Carry out the page's actions (simulator/actions.py)."""
        return actions.act(self, actions_)
