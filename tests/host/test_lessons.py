# The teaching mode through the script contract: every lesson of the game
# solved by its script in tests/scripts/lessons/ (the unchanged firmware on
# simulated hardware and time), the right move shown after two wrong tries,
# and the saved game on flash untouched by a lesson.
import os
import subprocess
import sys

import pytest

from simulator.script import parse, run
from simulator.sim import Simulation

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LESSONS = os.path.join(ROOT, "tests", "scripts", "lessons")
NAMES = sorted(n for n in os.listdir(LESSONS) if n.endswith(".txt"))


def expectations(path):
    want = {}
    with open(path) as f:
        for line in f:
            if line.startswith("# expect "):
                key, _, value = line[len("# expect ") :].partition(":")
                want[key.strip()] = value.strip()
    return want


def _run(text, sim=None, boot=True):
    sim = sim or Simulation(seed=3)
    if boot:
        sim.boot()
    run(sim, parse(text))
    return sim


def _lesson_events(sim):
    return [line[len("evt lesson ") :] for _, line in sim.events if line.startswith("evt lesson ")]


def test_every_lesson_has_its_script():
    from simulator.game import GAME

    n = len(GAME.LESSONS())
    assert n >= 8
    assert len(NAMES) == n


@pytest.mark.parametrize("name", NAMES)
def test_lesson_script_solves_it(name):
    path = os.path.join(LESSONS, name)
    want = expectations(path)
    with open(path) as f:
        sim = _run(f.read())
    try:
        state, position = sim.state()
        assert position == want["position"]
        assert sim.moves() == want["moves"]
        n = want["solved"]
        assert "solved %s %s" % (n, want["moves"]) in _lesson_events(sim)
        assert not any(e.startswith("wrong") for e in _lesson_events(sim))
    finally:
        sim.shutdown()


def test_cli_contract_for_a_lesson_script():
    path = os.path.join(LESSONS, NAMES[0])
    r = subprocess.run([sys.executable, "-m", "simulator", "script", path], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    want = expectations(path)
    assert r.stdout.strip().splitlines() == ["position: " + want["position"], "moves: " + want["moves"]]


def test_wrong_twice_then_the_right_move_is_shown_and_solves():
    sim = _run("""lesson 1
lift c3
place f3
wait 1500
lift f3
place c3
wait 1500
lift c3
place c6
wait 1500
lift c6
place c3
wait 1500
""")
    try:
        ev = _lesson_events(sim)
        assert ev.count("wrong 1 c3f3") == 1 and ev.count("wrong 1 c3c6") == 1
        assert ev[-1] == "hint 1 c3e3"
        assert sim.state()[0] == "play"
        # The hint light: c3 cyan, e3 in the colour of the value 2.
        from triad.board import palette as pal

        b = 64
        assert sim.led("c3") == tuple(v * b // 255 for v in pal.HINT)
        seen = set()
        for _ in range(30):  # the destination blinks in its value's colour
            sim.run(50)
            seen.add(sim.led("e3"))
        assert tuple(v * b // 255 for v in pal.VALUE[2]) in seen
        run(sim, parse("lift c3\nplace e3\nwait 1000\n"))
        assert _lesson_events(sim)[-1] == "solved 1 c3e3"
        sim.run(2000)
        assert _lesson_events(sim)[-1].startswith("2 ")
    finally:
        sim.shutdown()


def _flash(sim):
    out = {}
    for dirpath, _, files in os.walk(sim.state_dir):
        for f in files:
            p = os.path.join(dirpath, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, sim.state_dir)] = fh.read()
    return out


def test_the_saved_game_is_untouched_by_lessons():
    start = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"
    sim = _run("position %s\nlift a1\nplace a3\nwait 1500\n" % start)
    try:
        assert sim.moves() == "a1a3"
        before = _flash(sim)
        run(sim, parse(open(os.path.join(LESSONS, NAMES[3])).read()))
        run(sim, parse("wait 2500\nlift c3\nplace f3\nwait 1500\n"))  # lesson 5: a wrong move
        assert _flash(sim) == before
        assert sim.send("lesson off") == "ok lesson off"
        assert _flash(sim) == before
        assert sim.moves() == "a1a3"
        assert sim.state()[0] == "sync"  # the saved game's dice go back
        assert any(line.startswith("evt resume ") for _, line in sim.events[-6:])
    finally:
        sim.shutdown()


def test_lesson_command_errors_change_nothing():
    sim = Simulation(seed=3)
    sim.boot()
    try:
        assert sim.send("lesson").startswith("ok lesson off of ")
        assert sim.send("lesson 0").startswith("err value lesson is 1..")
        assert sim.send("lesson x").startswith("err value")
        assert "lesson" in sim.send("help").split()
        assert not _lesson_events(sim)
    finally:
        sim.shutdown()
