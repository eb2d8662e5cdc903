"""The script contract on the real image: every script of tests/scripts/hil/
<game>/ run by `python -m simulator script --target pico` (the board's UF2 on
the emulated RP2040, the board modelled at its pins, pieces really placed)
prints exactly what the CPython target prints: every `lights` line, the
position and the moves.

The emulator runs about 30 emulated ms per wall-clock second, so `make test`
(make test-pico) runs one script per board (QUICK); `make test-hil-full`
(TRIAD_HIL_FULL=1) runs them all."""
import os
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HIL = os.path.join(ROOT, "tests", "scripts", "hil")
GAMES = ("nehren", "browne", "cornelson")
# The bounded part in `make test`: per board the script that covers the most
# at the least emulated time.
QUICK = {
    "nehren": "01_lift_and_move.txt",
    "browne": "01_capture_and_drop.txt",
    "cornelson": "01_first_turn.txt",
}
FULL = bool(os.environ.get("TRIAD_HIL_FULL"))


def scripts():
    out = []
    for game in GAMES:
        for name in sorted(os.listdir(os.path.join(HIL, game))):
            if name.endswith(".txt") and (FULL or QUICK[game] == name):
                out.append((game, name))
    return out


def run_script(target, game, path):
    cmd = [sys.executable, "-m", "simulator", "script", "--target", target, "--game", game, path]
    t0 = time.time()
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=3600)
    return r, time.time() - t0


@pytest.mark.parametrize("game,name", scripts())
def test_pico_prints_what_cpython_prints(game, name, figures):
    path = os.path.join(HIL, game, name)
    cp, _ = run_script("cpython", game, path)
    assert cp.returncode == 0, cp.stderr
    want = cp.stdout.splitlines()
    # The script shows something: lights lines, then the position and moves.
    assert [ln for ln in want if ln.startswith("lights: ")], want
    assert want[-2].startswith("position: ") and want[-1].startswith("moves: "), want
    pp, wall = run_script("pico", game, path)
    figures["HIL %s/%s (wall s)" % (game, name)] = "%.0f" % wall
    assert pp.returncode == 0, pp.stderr
    assert pp.stdout.splitlines() == want


def test_flashfail_is_refused_on_pico_before_anything_runs(tmp_path):
    p = tmp_path / "ff.txt"
    p.write_text("position w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0\nflashfail 1\n")
    r, _ = run_script("pico", "nehren", str(p))
    assert r.returncode == 2 and r.stdout == ""
    assert "line 2: flashfail is not available on the pico target" in r.stderr
