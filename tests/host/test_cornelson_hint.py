"""Issue 24 (5): Cornelson's hint is seen. The board's guidance lights every
vacant post in the mover's colour; a hint (a gem to place) was lit in that
same light among them, so a press of hint changed nothing on the board.
Through the unchanged firmware on the simulated tri_v1 board."""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PROBE = r"""
import json, sys
sys.path.insert(0, ".")
from simulator.sim import Simulation
from simulator.game import GAME
sim = Simulation(seed=1)
sim.boot()
try:
    sim.set_position("..../...../....../......./....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0")
    sim.run(1500)
    posts = GAME.SITE_NAMES[:37]
    lit = lambda: [p for p in posts if sum(sim.led(p))]
    before = lit()
    sim.press("hint")
    sim.run(500)
    during = lit()
    sim.run(6000)
    print(json.dumps({"before": before, "during": during, "after": lit()}))
finally:
    sim.shutdown()
"""


def test_a_hint_lights_one_post_alone():
    env = dict(os.environ, TRIAD_SIM_BOARD="tri_v1")
    r = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    seen = json.loads(r.stdout.strip().splitlines()[-1])
    # The untouched board: every vacant post lit (where the gem may go).
    assert len(seen["before"]) == 37
    # The hint: the one post where its gem goes, alone, for a while ...
    assert len(seen["during"]) == 1
    # ... then the guidance returns.
    assert len(seen["after"]) == 37
