"""`make flash` end to end on the emulated Pico: the board's UF2 in rp2040py
(`rp2040py micropython --image build/triad-board.uf2 --pty`), reached by the
flash command itself (`python -m host_tools flash`, run with .venv's Python and
its pinned mpremote, as `make flash` runs it) over the emulator's pty, as a
real Pico's /dev/ttyACM0 would be.

The UF2 has the firmware frozen in, and its frozen main.py runs at boot in
preference to a main.py on the filesystem; but sys.path on the rp2 port is
['', '.frozen', '/lib'], so the `triad` package on the filesystem (what
`make flash` writes) shadows the frozen one. To prove that the flashed copy is
what runs, the builds here carry their own versions (VERSION + "-emu-a" and
"-emu-b"; the frozen firmware says plain VERSION):

- The board's LittleFS starts with build A as an earlier `make flash` left it
  (its manifest included; copying all of it over the emulated USB takes a
  minute and a half, so it is put on the filesystem image instead), plus a
  stale module of ours and a file of the user's. It boots, answers hello
  with A's version, and gets a saved game and a setting over the protocol.
- `python -m host_tools flash --build B`: the board's REPL is reached while
  the firmware runs (Ctrl-C), the on-board helper hashes the files with the
  rp2 port's hashlib, only the changed module is written, the stale one is
  removed, the board is reset (machine.reset(): the emulator restarts the
  chip with its flash kept and the pty stays) and must answer hello with B's
  version.
- After the update the board resumes the same saved game with the same
  settings, the user's file and the game files are byte for byte what they
  were, and the manifest names B.
- `make dev` (mpremote mount of the working tree) runs the working tree on
  the same board, with the saved game from the board's own flash.

The emulator boots the firmware from LittleFS in about 0.5 s of emulated
time but 10 to 45 s of wall-clock time (idle or busy machine); this module
takes about 70 s on an idle one. docs/flashing.md has what was tried by hand
(a first flash of everything, mip, TCP)."""
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest

# `make test-hil-full` only: make flash and make dev end to end took about
# 400 s of wall time of make test's budget (a fresh 2-core machine, beside
# the HIL scripts); make test keeps the image's own boot and USB tests.
pytestmark = pytest.mark.skipif(not os.environ.get("TRIAD_HIL_FULL"),
                                reason="make flash / make dev end to end: make test-hil-full (TRIAD_HIL_FULL=1)")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UF2 = os.environ.get("TRIAD_UF2", os.path.join(ROOT, "build", "triad-board.uf2"))
DEV_PYTHON = os.path.join(ROOT, ".venv", "bin", "python")  # $(PY) of the Makefile
RP2040PY = os.path.join(os.path.dirname(sys.executable), "rp2040py")

from host_tools import emulator, flash  # noqa: E402
from host_tools.link import SerialLink  # noqa: E402

BOOT_S = 300.0  # wall-clock seconds allowed for a boot (10 to 45 s seen)
PROTECTED_NOW = ("game.snap", "game.log", "settings.txt", "notes.txt")


class Emulator:
    """`rp2040py micropython --image UF2 --littlefs IMG --pty` in a process of
    its own; .port is the pty it serves the USB console on."""

    def __init__(self, uf2, littlefs):
        self.lines = []
        self.proc = subprocess.Popen(
            [RP2040PY, "micropython", "--image", uf2, "--littlefs", littlefs, "--pty"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        found = threading.Event()
        self.port = None

        def read():
            for line in self.proc.stdout:
                self.lines.append(line.rstrip("\n"))
                m = re.search(r"listening on (/\S+)", line)
                if m and self.port is None:
                    self.port = m.group(1)
                    found.set()
            found.set()

        threading.Thread(target=read, daemon=True).start()
        if not found.wait(60) or self.port is None:
            self.stop()
            raise RuntimeError("the emulator did not open a pty:\n" + "\n".join(self.lines))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def set_version(repo, version):
    path = os.path.join(repo, "firmware", "triad", "__init__.py")
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(re.sub(r'^VERSION\s*=\s*"[^"]*"', 'VERSION = "%s"' % version, text, count=1, flags=re.M))


def host_tools(repo, *args, timeout=900):
    """`python -m host_tools ARGS` of .venv (what `make firmware`/`make flash`
    run) in a copy of the repository."""
    return subprocess.run([DEV_PYTHON, "-m", "host_tools"] + list(args), cwd=repo, capture_output=True, text=True,
                          timeout=timeout)


def read_files(port, names):
    """{name: bytes or None} of files on the board, over mpremote's raw REPL
    (stops the running firmware)."""
    dev = flash.MpremoteDevice(port)
    try:
        out = dev.run("import binascii\nfor n in %r:\n    try:\n        f = open('/' + n, 'rb')\n"
                      "    except OSError:\n        print(n, '-')\n        continue\n"
                      "    print(n, binascii.hexlify(f.read()).decode() or '=')\n    f.close()\n" % (list(names),))
    finally:
        dev.close()
    got = {}
    for line in out.splitlines():
        n, _, hexdata = line.strip().partition(" ")
        got[n] = None if hexdata == "-" else (b"" if hexdata == "=" else bytes.fromhex(hexdata))
    return got


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    if not os.path.exists(UF2):
        pytest.fail("no UF2 at %s: run `make uf2` (make test-pico does)" % UF2)
    if not os.path.exists(DEV_PYTHON):
        pytest.fail("no %s: run `make venv` (make test-pico does)" % DEV_PYTHON)
    tmp = tmp_path_factory.mktemp("flash")
    # The host tools and the firmware, copied so that the builds can carry
    # versions of their own; the flash command reads the expected version
    # from the copy's firmware/triad/__init__.py. (simulator/ too: the host
    # tools' command line ends through simulator.closed_pipe.)
    repo = str(tmp / "repo")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for d in ("host_tools", "firmware", "simulator"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(repo, d), ignore=ignore)
    base = flash.firmware_version()
    versions = {"a": base + "-emu-a", "b": base + "-emu-b"}
    builds = {}
    for k in ("a", "b"):
        set_version(repo, versions[k])
        builds[k] = str(tmp / ("build-" + k))
        r = host_tools(repo, "firmware", "--out", builds[k])
        assert r.returncode == 0, r.stdout + r.stderr
    # The board's filesystem: build A as `make flash` left it, a stale module
    # of an older firmware, and a file of the user's.
    fs = str(tmp / "fs")
    shutil.copytree(builds["a"], fs)
    with open(os.path.join(fs, flash.MANIFEST), "w") as f:
        f.write(flash.manifest_text(flash.local_files(builds["a"]), versions["a"]))
    with open(os.path.join(fs, "triad", "stale.py"), "w") as f:
        f.write("# left by an older firmware\n")
    with open(os.path.join(fs, "notes.txt"), "w") as f:
        f.write("the user's own file\n")
    img = emulator.make_littlefs(fs, str(tmp / "lfs.img"))
    emu = Emulator(UF2, img)
    try:
        yield {"repo": repo, "builds": builds, "versions": versions, "base": base, "port": emu.port, "emu": emu}
    finally:
        emu.stop()


def hello(port, version):
    return flash.check_hello(lambda: SerialLink(port), version, timeout=BOOT_S, report=lambda s: None)


def test_make_flash_updates_the_board_and_keeps_its_saved_game(setup, figures):
    port, versions = setup["port"], setup["versions"]
    # Build A on the filesystem runs, not the frozen firmware.
    t0 = time.time()
    assert hello(port, versions["a"]) == (versions["a"], 2)
    figures["boot from LittleFS to hello (wall s)"] = "%.0f" % (time.time() - t0)
    link = SerialLink(port)
    try:
        # A new game (the new-game button's, written at once), not a
        # `position`: a position's start is written once its pieces stand on
        # the switches (docs/store.md, "A start written later"), and this
        # emulated board has none.
        assert link.send("new", 30) == "ok new"
        assert link.send("set brightness 33", 30) == "ok set brightness 33"
        before = link.status(30)
    finally:
        link.close()
    setup["start"] = before["start"]  # (resumed by make dev below)
    assert before["start"] and before["settings"]["brightness"] == "33", before
    files = read_files(port, PROTECTED_NOW)
    assert all(files[n] for n in PROTECTED_NOW), files

    t0 = time.time()
    r = host_tools(setup["repo"], "flash", "--port", port, "--build", setup["builds"]["b"], "--timeout", str(BOOT_S))
    figures["make flash of one changed module, reset and hello (wall s)"] = "%.0f" % (time.time() - t0)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    n = len(flash.local_files(setup["builds"]["b"]))
    assert "%d files in the build: 1 to write, %d unchanged, 1 to remove" % (n, n - 1) in out, out
    assert "  remove triad/stale.py" in out and "  write  triad/__init__.mpy" in out, out
    assert "the board answers: triad-board %s, protocol 2" % versions["b"] in out, out
    assert "Traceback" not in out, out

    link = SerialLink(port)
    try:
        assert link.hello() == (versions["b"], 2)
        after = link.status(30)
    finally:
        link.close()
    for key in ("start", "position", "moves", "settings", "turn"):
        assert after[key] == before[key], (key, before, after)

    again = read_files(port, PROTECTED_NOW + ("triad/stale.py", flash.MANIFEST))
    for name in PROTECTED_NOW:
        assert again[name] == files[name], name
    assert again["triad/stale.py"] is None
    assert again[flash.MANIFEST].startswith(("# triad firmware %s," % versions["b"]).encode())
    # What runs is the filesystem's copy: '' (the root) before '.frozen'.
    dev = flash.MpremoteDevice(port)
    try:
        text = dev.run("import sys, triad\nprint(sys.path)\nprint(triad.VERSION, triad.__file__)")
    finally:
        dev.close()
    assert text.splitlines() == ["['', '.frozen', '/lib']", "%s triad/__init__.mpy" % versions["b"]], text


def test_make_dev_runs_the_working_tree_with_the_boards_saved_game(setup, figures):
    """`make dev PORT=<pty>`: mpremote mounts firmware/ and imports main from
    /remote; the saved game of the previous test is on the board's flash."""
    port = setup["port"]
    t0 = time.time()
    proc = subprocess.Popen(["make", "--no-print-directory", "-s", "dev", "PORT=" + port], cwd=ROOT,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    lines = []
    try:
        timer = threading.Timer(BOOT_S + 300, lambda: os.killpg(proc.pid, signal.SIGTERM))
        timer.start()
        for raw in proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip()
            lines.append(line)
            if line.startswith("evt state"):
                break
        timer.cancel()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
    figures["make dev to the first state (wall s)"] = "%.0f" % (time.time() - t0)
    text = "\n".join(lines)
    assert "mounted at /remote" in text, text
    assert "evt resume " + setup["start"] in text and "evt state sync" in text, text
    assert "evt error" not in text, text
    # mpremote is gone; the working tree's firmware still runs on the board.
    assert hello(port, setup["base"]) == (setup["base"], 2)
