# The USB serial console of the Pico as a non-blocking byte source.
import sys

try:
    import select
except ImportError:
    select = None  # type: ignore[assignment]


class UsbSerial:
    def __init__(self):
        self.stdin = getattr(sys.stdin, "buffer", sys.stdin)
        self.poller = None
        self.has_ipoll = False
        if select is not None:
            self.poller = select.poll()
            self.poller.register(sys.stdin, select.POLLIN)
            self.has_ipoll = hasattr(self.poller, "ipoll")
        self.byte = bytearray(1)

    def read(self, limit=64):
        """Bytes waiting on the line (b"" when none), without blocking."""
        if self.poller is None:
            return b""
        out = b""
        while len(out) < limit and self._ready():
            c = self.stdin.read(1)
            if not c:
                break
            out += c if isinstance(c, bytes) else c.encode()
        return out

    def _ready(self):
        # ipoll (MicroPython) reuses one result tuple: no allocation per tick.
        # It is called as a method (no getattr: a bound method object would
        # be allocated on every tick).
        poller = self.poller
        if poller is None:
            return False
        if not self.has_ipoll:
            return bool(poller.poll(0))
        for _ in poller.ipoll(0):
            return True
        return False

    def write(self, text):
        sys.stdout.write(text)
