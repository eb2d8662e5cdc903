"""Relays and Redis servers for the relay's tests and benchmarks: real
processes on this machine's loopback, each started on a free port and
stopped by the test that started it."""
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


class Relay:
    """`python -m host_tools serve` in a process of its own."""

    def __init__(self, store=":memory:", redis=None, host="127.0.0.1", port=0, extra=(), preexec_fn=None):
        cmd = [sys.executable, "-m", "host_tools", "serve", "--host", host, "--port", str(port), "--store", store]
        self.cmd = cmd
        if redis:
            cmd += ["--redis", redis]
        cmd += list(extra)
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     preexec_fn=preexec_fn)
        self.line = self.proc.stdout.readline().rstrip("\n")
        if not self.line.startswith("serving ws://"):
            self.proc.kill()
            raise RuntimeError("relay did not start: %r %s" % (self.line, self.proc.stderr.read()))
        self.url = self.line.split()[1]
        self.port = int(self.url.rsplit(":", 1)[1].split("/")[0])

    def alive(self):
        return self.proc.poll() is None

    def kill(self):
        """A crash: SIGKILL, nothing flushed by the relay itself."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        if not self.proc.stderr.closed:
            self.err = self.proc.stderr.read()  # what it logged (a test reads it after)
        self.proc.stdout.close()
        self.proc.stderr.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    """Debian's redis-server on a free loopback port, stopped after. With
    persist (the default) it keeps an append-only file in a temporary
    directory of its own, so a restart() keeps the rooms, as a relay
    requires; persist=False keeps nothing (a relay refuses it unless
    --redis-volatile)."""

    def __init__(self, persist=True):
        import tempfile

        self.port = free_port()
        self.persist = persist
        self.dir = tempfile.mkdtemp(prefix="triad-redis-")
        self.url = "redis://127.0.0.1:%d/0" % self.port
        self.start()

    def start(self):
        keep = ["--appendonly", "yes", "--appendfsync", "always"] if self.persist else ["--appendonly", "no"]
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--dir", self.dir,
             "--protected-mode", "yes"] + keep, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), 0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("redis-server did not start on port %d" % self.port)

    def restart(self):
        """Stop it (a clean shutdown: what it persists is written) and start
        it again on the same port and directory."""
        self._halt()
        self.start()

    def _halt(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def stop(self):
        self._halt()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def have_redis():
    return os.path.exists(REDIS_SERVER)
