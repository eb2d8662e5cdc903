"""tests/fw under the 32-bit unix port of the board's MicroPython version
(make unix32: MICROPY_FORCE_32BIT, single-precision floats): small ints of 31
bits and the RP2040's object sizes, so an overflow into a big int, or an
allocation under heap_lock that only 32 bits cause, shows up here."""
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UF2 = os.environ.get("TRIAD_UF2", os.path.join(ROOT, "build", "triad-board.uf2"))
MP32 = os.environ.get("TRIAD_MP32", os.path.join(ROOT, "build", "micropython32"))


def run(*args):
    if not os.path.exists(MP32):
        pytest.fail("no 32-bit MicroPython at %s: run `make unix32` (make test-pico does)" % MP32)
    env = dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware") + ":" + os.path.join(ROOT, "tests", "fw"))
    return subprocess.run([MP32] + list(args), capture_output=True, text=True, timeout=600, env=env, cwd=ROOT)


def test_it_is_32_bit_with_single_precision_floats():
    r = run("-c", "import sys; print(sys.maxsize, 1.0 / 3, sys.implementation.version[:2])")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["2147483647", "0.3333333", "(1,", "25)"], r.stdout


def test_rules_core_under_32_bit():
    r = run("tests/mp_run.py", "nehren_core")
    last = r.stdout.strip().splitlines()[-1]
    assert r.returncode == 0 and last.endswith(" 0 failed"), r.stdout + r.stderr


FW_MODULES = sorted(n[:-3] for n in os.listdir(os.path.join(ROOT, "tests", "fw"))
                    if n.startswith("test_") and n.endswith(".py"))


@pytest.mark.parametrize("module", FW_MODULES)
def test_dual_runtime_suite_under_32_bit(module):
    # One process per module, as the board runs one game at a time: three
    # games' tables and buffers together do not fit the port's heap.
    # A roomy heap: this run is about 31-bit ints and the RP2040's object
    # sizes (the heap targets are make bench's); LittleFS's RAM disk and a
    # 150-move save must fit beside the module.
    r = run("-X", "heapsize=4M", "tests/mp_run.py", "=" + module)
    last = r.stdout.strip().splitlines()[-1]
    assert r.returncode == 0 and last.endswith(" 0 failed") and not last.startswith("0 passed"), (
        r.stdout[-4000:] + r.stderr)
