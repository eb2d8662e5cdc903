# The USB serial console of the Pico as a non-blocking byte source.
import sys

try:
    import select
except ImportError:
    select = None


class UsbSerial:
    def __init__(self):
        self.stdin = getattr(sys.stdin, "buffer", sys.stdin)
        self.poller = None
        if select is not None:
            self.poller = select.poll()
            self.poller.register(sys.stdin, select.POLLIN)
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
        ipoll = getattr(self.poller, "ipoll", None)
        if ipoll is None:
            return bool(self.poller.poll(0))
        for _ in ipoll(0):
            return True
        return False

    def write(self, text):
        sys.stdout.write(text)
