"""The C stack's margin on the real image: for each game, the deepest C-stack
use (the stack painted at power-up, the lowest word written read back) while
the engine runs its deepest search (the hint) and a lifted piece's
destinations animate, on the emulated RP2040 (tests/pico/stack_margin.py).
Fails when fewer than FLOOR_BYTES are left before MicroPython's "maximum
recursion depth exceeded" (docs/performance.md, "C stack margin")."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Below this the next added frame of the tick or the search (a Python call
# costs the C stack about 150-300 bytes on the RP2040) could end in the tick
# guard's "maximum recursion depth exceeded", as in issue 22's find.
FLOOR_BYTES = 1024


# make test (make test-pico) measures Nehren, whose tick once overflowed
# under a search; make test-hil-full (TRIAD_HIL_FULL=1) every game.
GAMES = ["nehren", "browne", "cornelson"] if os.environ.get("TRIAD_HIL_FULL") else ["nehren"]


def measure(game):
    return subprocess.run([sys.executable, os.path.join(ROOT, "tests", "pico", "stack_margin.py"), game],
                          cwd=ROOT, capture_output=True, text=True, timeout=3600)


@pytest.mark.parametrize("game", GAMES)
def test_stack_left_during_the_deepest_search_with_a_piece_lifted(game, figures, background_result):
    r = background_result()
    assert r.returncode == 0, r.stderr
    kv = dict(ln.split(" ", 1) for ln in r.stdout.splitlines() if " " in ln)
    figures["C stack left, %s hint search + lift (bytes)" % game] = "%s of %s" % (kv["stack_left"], kv["stack_limit"])
    assert kv["errors"] == "0", r.stdout  # the tick guard caught nothing
    assert int(kv["lit_while_lifted"]) > 0, r.stdout  # the lifted piece's lights were drawn
    assert int(kv["stack_used"]) > 0, r.stdout  # the paint was read (a stack was used at all)
    assert int(kv["stack_left"]) >= FLOOR_BYTES, r.stdout


# Started in the background at collection (conftest.py), before the HIL
# scripts: its search keeps the chip busy for most of its emulated time.
test_stack_left_during_the_deepest_search_with_a_piece_lifted.background = lambda game: (
    100000, lambda: measure(game))
