"""The board's firmware as CircuitPython loads it (README "On CircuitPython").

  python -m host_tools.circuitpython [--out build/circuitpython] [--drive /media/$USER/CIRCUITPY]

Builds the CIRCUITPY drive's layout into --out, and with --drive copies what
changed onto a mounted drive (the board must be in USB-drive mode: hold
"menu" while plugging it in or pressing reset; see firmware/boot.py):

  code.py            CircuitPython's entry (it runs code.py before main.py)
  boot.py            chooses USB-drive mode or game-saving mode at power-up
  triad/...          the firmware package, as source
  lib/neopixel.mpy, lib/adafruit_pixelbuf.mpy
                     Adafruit's libraries, not built here: install them with
                     `circup install -r firmware/requirements-circuitpython.txt`
                     (or copy them from the Adafruit bundle for your
                     CircuitPython version)

The files are the same source files MicroPython runs, with one mechanical
change: each line `@micropython.native` / `@micropython.viper` becomes a
comment. Stock CircuitPython for the RP2040 is built without the native
emitter, and its compiler rejects those decorators ("SyntaxError: invalid
micropython decorator"); without them the functions run as bytecode, i.e.
exactly the code that CPython runs in the tests (triad.compat gives ptr8 and
friends a plain meaning). Line numbers stay the same, so a traceback on the
board points at the right line in firmware/.

Left out: main.py (CircuitPython would run code.py first anyway), perft.py
and the MicroPython drivers (triad/drivers/rp2.py, usb_serial.py,
entropy.py).
The saved game and settings on the drive (game.*, settings.*) are never
written or removed.
"""
import argparse
import filecmp
import os
import re
import shutil
import sys

from host_tools import flash

ROOT = flash.ROOT
FIRMWARE = flash.FIRMWARE
OUT = os.path.join(ROOT, "build", "circuitpython")
REQUIREMENTS = os.path.join(FIRMWARE, "requirements-circuitpython.txt")

MICROPYTHON_ONLY = ("main.py", "perft.py", "triad/drivers/entropy.py", "triad/drivers/rp2.py",
                    "triad/drivers/usb_serial.py")
MICROPYTHON_ONLY_DIRS = ()
# Library files that lib/ must hold on the board (module names in the bundle).
LIB_FILES = ("neopixel", "adafruit_pixelbuf")

_EMITTER = re.compile(r"^([ \t]*)@micropython\.(native|viper)[ \t]*(#.*)?$")


def bundle_files():
    """Firmware source files that go on a CircuitPython board, sorted."""
    return [rel for rel in flash.source_files()
            if rel not in MICROPYTHON_ONLY and not rel.startswith(MICROPYTHON_ONLY_DIRS)]


def to_circuitpython(text):
    """(source without native/viper decorators, number of lines changed)."""
    out = []
    n = 0
    for line in text.split("\n"):
        m = _EMITTER.match(line)
        if m:
            line = "%s# @micropython.%s: bytecode on CircuitPython (no native emitter)" % (
                m.group(1), m.group(2))
            n += 1
        out.append(line)
    return "\n".join(out), n


def build(out=OUT, report=print):
    """Write the bundle into out/ (replaced). Returns [(path, lines changed)]."""
    if os.path.isdir(out):
        shutil.rmtree(out)
    rows = []
    for rel in bundle_files():
        with open(os.path.join(FIRMWARE, rel), encoding="utf-8") as f:
            text, n = to_circuitpython(f.read())
        dest = os.path.join(out, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        rows.append((rel, n))
    os.makedirs(os.path.join(out, "lib"), exist_ok=True)
    if report:
        for rel, n in rows:
            if n:
                report("%s: %d native/viper decorator(s) made comments" % (rel, n))
        report("%d files into %s" % (len(rows), os.path.relpath(out, ROOT) if out.startswith(ROOT) else out))
        report("libraries for lib/: circup install -r %s" % os.path.relpath(REQUIREMENTS, ROOT))
    return rows


def missing_libs(drive):
    lib = os.path.join(drive, "lib")
    return [name for name in LIB_FILES
            if not any(os.path.exists(os.path.join(lib, name + ext)) for ext in (".mpy", ".py"))]


def copy_to_drive(out, drive, report=print):
    """Copy the bundle in out/ onto a mounted CIRCUITPY drive; only changed
    files are written, boot.py last. Returns the paths written."""
    if not os.path.isdir(drive):
        raise SystemExit("no drive at %s" % drive)
    written = []
    rels = sorted((rel for rel in bundle_files()), key=lambda r: r == "boot.py")
    for rel in rels:
        src = os.path.join(out, rel)
        dst = os.path.join(drive, rel)
        if os.path.exists(dst) and filecmp.cmp(src, dst, shallow=False):
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        try:
            shutil.copyfile(src, dst)
        except OSError as e:
            raise SystemExit("cannot write %s (%s): is the board in game-saving mode? "
                             "Hold menu while resetting it (USB-drive mode)" % (dst, e))
        written.append(rel)
    report("%d files written to %s" % (len(written), drive))
    missing = missing_libs(drive)
    if missing:
        report("lib/ lacks %s: circup install -r %s" % (", ".join(missing), os.path.relpath(REQUIREMENTS, ROOT)))
    return written


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m host_tools.circuitpython", description=__doc__.split("\n")[0])
    p.add_argument("--out", default=OUT, help="where to build the drive layout (default build/circuitpython)")
    p.add_argument("--drive", help="a mounted CIRCUITPY drive to copy the changed files onto")
    args = p.parse_args(argv)
    build(args.out)
    if args.drive:
        copy_to_drive(args.out, args.drive)
    return 0


if __name__ == "__main__":
    sys.exit(main())
