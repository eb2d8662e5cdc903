"""A connection to a board speaking the line protocol (docs/protocol.md).

Every transport gives the same object: send(command) returns the board's
reply line ("ok ..." / "err ..."), and every "evt ..." line the board writes
is queued for next_event(). Transports:

  SerialLink   a Pico on a serial port, a pty, or any pyserial URL
               (socket://127.0.0.1:PORT for an emulator's TCP port)
  ProcessLink  a process speaking the protocol on stdin/stdout (the MicroPython
               unix-port board of the tests: tests/unixboard.py)
  SimLink      the CPython simulator (simulator.sim.Simulation) in-process

open_link(spec): "sim" or "sim:SEED" -> SimLink, "exec:COMMAND" -> ProcessLink,
anything else -> SerialLink (a device path or a pyserial URL).
"""
import collections
import shlex
import subprocess
import threading
import time

PROTOCOL_VERSION = 2


class LinkError(Exception):
    pass


class Link:
    """Line bookkeeping shared by the transports: lines come in through
    _incoming() (from a reader thread or a callback), replies and events are
    split into two queues."""

    def __init__(self):
        self._cond = threading.Condition()
        self._replies = collections.deque()
        self._events = collections.deque()
        self._partial = b""
        self.closed = False
        self.transcript = []  # every line both ways: ("<", line) / (">", line)
        self._send_lock = threading.Lock()

    # -- incoming ---------------------------------------------------------------
    def _incoming(self, data):
        """Bytes from the board (any split)."""
        self._partial += data
        while True:
            i = self._partial.find(b"\n")
            if i < 0:
                break
            raw, self._partial = self._partial[:i], self._partial[i + 1 :]
            self._line(raw.decode("utf-8", "replace").rstrip("\r"))

    def _line(self, line):
        with self._cond:
            self.transcript.append(("<", line))
            if line.startswith("evt "):
                self._events.append(line)
            elif line.startswith("ok") or line.startswith("err"):
                self._replies.append(line)
            # anything else (a MicroPython banner, a traceback) is only in the transcript
            self._cond.notify_all()

    def _eof(self):
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    # -- outgoing ---------------------------------------------------------------
    def write_raw(self, data):
        raise NotImplementedError

    def send(self, command, timeout=5.0):
        """Send one command line; return its reply line."""
        if "\n" in command or "\r" in command:
            raise LinkError("one line at a time")
        with self._send_lock:
            with self._cond:
                self._replies.clear()
                self.transcript.append((">", command))
            self.write_raw((command + "\n").encode())
            return self._own_reply(command, timeout)

    def _own_reply(self, command, timeout):
        # Every "ok" reply names its command (docs/protocol.md); one naming
        # another is a late answer to an earlier line (e.g. a hello sent
        # while the board was still booting), not the answer to this one.
        while True:
            reply = self.wait_reply(timeout, command)
            if not _answers_other(reply, command):
                return reply

    def wait_reply(self, timeout=5.0, what="the command"):
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self._replies:
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    raise LinkError("no reply to %r from the board" % (what,))
                self._cond.wait(min(left, 0.05))
                self._pump()
            return self._replies.popleft()

    def _pump(self):
        """Transports without a reader thread make progress here."""

    def next_event(self, timeout=None):
        """The next "evt ..." line (without "evt "), or None on time-out/EOF."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while not self._events:
                if self.closed:
                    return None
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return None
                self._cond.wait(0.05 if left is None else min(left, 0.05))
                self._pump()
            return self._events.popleft()[4:]

    def drain_events(self):
        with self._cond:
            out = [e[4:] for e in self._events]
            self._events.clear()
            return out

    def wait_event(self, kinds, timeout=10.0):
        """Skip events until one of the given kinds; return it (or raise)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            ev = self.next_event(max(left, 0)) if left > 0 else None
            if ev is None:
                raise LinkError("no %s event from the board" % "/".join(kinds))
            if ev.split(" ", 1)[0] in kinds:
                return ev

    # -- conveniences ---------------------------------------------------------------
    def hello(self):
        """(firmware version, protocol version) from the board's hello."""
        reply = self.send("hello")
        w = reply.split()
        if len(w) < 6 or w[:3] != ["ok", "hello", "triad-board"] or w[4] != "proto":
            raise LinkError("not a Triad board: %r" % reply)
        # "... game NAME" since the game seam; a board without it plays Nehren's game
        self.game = w[7] if len(w) >= 8 and w[6] == "game" else "nehren"
        return w[3], int(w[5])

    def status(self, timeout=5.0):
        """The full state ("status" command) as a dict: state, turn, score,
        winner, start, position, moves (list), meta, settings (dict), ..."""
        with self._send_lock:
            with self._cond:
                self._replies.clear()
                mark = len(self.transcript)
                self.transcript.append((">", "status"))
            self.write_raw(b"status\n")
            reply = self._own_reply("status", timeout)  # not a late hello's answer
            if reply != "ok status":
                raise LinkError("status refused: " + reply)
            with self._cond:
                lines = [ln for d, ln in self.transcript[mark:] if d == "<" and ln.startswith("evt full ")]
                # the full-state lines are answers, not news: take them off the event queue
                kept = [e for e in self._events if not e.startswith("evt full ")]
                self._events.clear()
                self._events.extend(kept)
        return parse_full(lines)

    def close(self):
        self.closed = True


def parse_full(lines):
    out = {"moves": [], "settings": {}}
    for line in lines:
        body = line[len("evt full ") :]
        key, _, value = body.partition(" ")
        if key == "moves":
            out["moves"].extend(value.split())
        elif key == "settings":
            for kv in value.split():
                k, _, v = kv.partition("=")
                out["settings"][k] = v
        elif key == "score":
            out["score"] = tuple(int(x) for x in value.split())
        elif key == "nmoves":
            out["nmoves"] = int(value)
        elif key == "meta":
            out["meta"] = "" if value == "-" else value
        else:
            out[key] = value
    return out


class _ThreadReader:
    def _start_reader(self, read):
        def loop():
            try:
                while not self.closed:
                    data = read()
                    if data is None:
                        break
                    if data:
                        self._incoming(data)
            except (OSError, ValueError):
                pass
            finally:
                self._eof()

        self._reader = threading.Thread(target=loop, name="link-reader", daemon=True)
        self._reader.start()


class SerialLink(_ThreadReader, Link):
    """A board on a serial port (or a pty, or a pyserial URL)."""

    def __init__(self, port, baudrate=115200):
        Link.__init__(self)
        try:
            import serial
        except ImportError:  # pragma: no cover - pinned in requirements-dev.txt
            raise LinkError("pyserial is not installed (pip install -r requirements-dev.txt)")
        try:
            self.port = serial.serial_for_url(port, baudrate=baudrate, timeout=0.05)
        except (serial.SerialException, ValueError) as e:
            raise LinkError("cannot open %s: %s" % (port, e))

        def read():
            data = self.port.read(256)
            return data

        self._start_reader(read)

    def write_raw(self, data):
        self.port.write(data)
        self.port.flush()

    def close(self):
        Link.close(self)
        # Let the reader thread see `closed` and leave its read (timeout 0.05 s)
        # before the port goes: pyserial's read on a port closed under it
        # raises TypeError (a device) or AttributeError (socket://).
        reader = getattr(self, "_reader", None)
        if reader is not None and reader is not threading.current_thread():
            reader.join(1.0)
        try:
            self.port.close()
        except Exception:
            pass


class ProcessLink(_ThreadReader, Link):
    """A process speaking the protocol on its stdin/stdout."""

    def __init__(self, argv, cwd=None, env=None):
        Link.__init__(self)
        if isinstance(argv, str):
            argv = shlex.split(argv)
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=env, bufsize=0
        )
        out = self.proc.stdout

        def read():
            data = out.read1(4096) if hasattr(out, "read1") else out.read(1)
            return data if data else None

        self._start_reader(read)

    def write_raw(self, data):
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise LinkError("the board process is gone: %s" % e)

    def close(self):
        Link.close(self)
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(0.5)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


class SimLink(Link):
    """The CPython simulator in this process. Time is simulated: waiting for
    a reply or an event lets the simulated board run."""

    def __init__(self, sim=None, seed=1, state_dir=None):
        Link.__init__(self)
        if sim is None:
            from simulator.sim import Simulation

            sim = Simulation(seed=seed, state_dir=state_dir)
        self.sim = sim
        self._seen = 0
        if not sim.running:
            sim.boot()

    def _pump(self):
        sim = self.sim
        if sim.running and not sim.realtime:
            sim.run(10)
        self._collect()

    def _collect(self):
        lines = self.sim.lines
        while self._seen < len(lines):
            line = lines[self._seen]
            self._seen += 1
            self._line(line)
        if self.sim.crash:
            self._eof()

    def _line(self, line):
        # called with or without the condition held (Condition is re-entrant? no): use a plain append path
        self.transcript.append(("<", line))
        if line.startswith("evt "):
            self._events.append(line)
        elif line.startswith("ok") or line.startswith("err"):
            self._replies.append(line)

    def write_raw(self, data):
        self.sim.write_serial(data)

    def wait_reply(self, timeout=5.0, what="the command"):
        # Simulated time: up to timeout seconds of board time.
        waited = 0
        while not self._replies:
            self._collect()
            if self._replies:
                break
            if waited >= timeout * 1000 or not self.sim.running:
                raise LinkError("no reply to %r from the simulated board" % (what,))
            self.sim.run(10)
            waited += 10
        return self._replies.popleft()

    def next_event(self, timeout=None):
        waited = 0
        limit = 10_000 if timeout is None else timeout * 1000
        while not self._events:
            self._collect()
            if self._events:
                break
            if waited >= limit or not self.sim.running:
                return None
            self.sim.run(10)
            waited += 10
        return self._events.popleft()[4:]

    def status(self, timeout=5.0):
        self._collect()
        self._replies.clear()
        mark = len(self.transcript)
        self.transcript.append((">", "status"))
        self.write_raw(b"status\n")
        reply = self.wait_reply(timeout, "status")
        if reply != "ok status":
            raise LinkError("status refused: " + reply)
        lines = [ln for d, ln in self.transcript[mark:] if d == "<" and ln.startswith("evt full ")]
        kept = [e for e in self._events if not e.startswith("evt full ")]
        self._events.clear()
        self._events.extend(kept)
        return parse_full(lines)

    def send(self, command, timeout=5.0):
        self._collect()
        self._replies.clear()
        self.transcript.append((">", command))
        self.write_raw((command + "\n").encode())
        return self._own_reply(command, timeout)

    def close(self):
        Link.close(self)
        self.sim.shutdown()


def open_link(spec, **kw):
    if spec == "sim" or spec.startswith("sim:"):
        seed = int(spec[4:]) if spec.startswith("sim:") else kw.get("seed", 1)
        return SimLink(seed=seed, state_dir=kw.get("state_dir"))
    if spec.startswith("exec:"):
        return ProcessLink(spec[5:])
    return SerialLink(spec, **{k: v for k, v in kw.items() if k == "baudrate"})


def _answers_other(reply, command):
    if not reply.startswith("ok "):
        return False
    word = command.split(None, 1)[0] if command.strip() else ""
    return reply.split(" ", 2)[1] != word
