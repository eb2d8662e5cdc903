# Scripted scenarios through `python -m simulator script`: the unchanged
# firmware main loop on simulated hardware and time. Each script in
# tests/scripts states the outcome a player would see in its "# expect" lines.
import os
import subprocess
import sys

import pytest

from simulator.script import ScriptError, parse, run_file

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPTS = os.path.join(ROOT, "tests", "scripts")


def said(path):
    """The script's `# expect say: <text>` lines, in order: what its `say`
    lines must print (the page's words at that moment)."""
    with open(path) as f:
        return ["say: " + line[len("# expect say:"):].strip() for line in f if line.startswith("# expect say:")]


def expectations(path):
    want = {}
    with open(path) as f:
        for line in f:
            if line.startswith("# expect "):
                key, _, value = line[len("# expect ") :].partition(":")
                want[key.strip()] = value.strip()
    return want


@pytest.mark.parametrize("name", sorted(n for n in os.listdir(SCRIPTS) if n.endswith(".txt")))
def test_script(name):
    path = os.path.join(SCRIPTS, name)
    want = expectations(path)
    assert "position" in want and "moves" in want, "script lacks its # expect lines"
    out = []
    position, moves = run_file(path, out=out.append)
    assert position == want["position"]
    assert moves == want["moves"]
    assert [ln for ln in out if ln.startswith("say: ")] == said(path)
    assert [ln for ln in out if not ln.startswith("say: ")] == ["position: " + position, "moves: " + moves]


def test_cli_contract_prints_position_and_moves():
    path = os.path.join(SCRIPTS, "01_simple_move.txt")
    r = subprocess.run(
        [sys.executable, "-m", "simulator", "script", path], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    want = expectations(path)
    assert lines == ["position: " + want["position"], "moves: " + want["moves"]]


def test_cli_unknown_line_names_the_line(tmp_path):
    p = tmp_path / "bad.txt"
    p.write_text("position w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0\n\nlift c1\njump c4\n")
    r = subprocess.run(
        [sys.executable, "-m", "simulator", "script", str(p)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 2
    assert "line 4" in r.stderr and "jump" in r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize(
    "text, words",
    [
        ("lift z9", ["line 1", "bad cell"]),
        ("wait soon", ["line 1", "whole number"]),
        ("position w3w3/....", ["line 1", "bad position"]),
        ("\n# c\npress jump", ["line 3", "button"]),
        ("slide c1", ["line 1", "cells"]),
    ],
)
def test_bad_lines_are_clear_errors(text, words):
    with pytest.raises(ScriptError) as e:
        parse(text)
    for w in words:
        assert w in str(e.value)


def test_impossible_physical_action_is_reported_with_line(tmp_path):
    p = tmp_path / "empty.txt"
    p.write_text("position w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0\nlift c3\n")
    with pytest.raises(ScriptError) as e:
        run_file(str(p), out=lambda s: None)
    assert "line 2" in str(e.value) and "no die on c3" in str(e.value)


def test_setup_roll_then_play(tmp_path):
    # From power-on the board rolls a start position and waits for all twelve
    # dice; putting them on their home cells starts the game.
    from simulator.sim import Simulation

    sim = Simulation(state_dir=str(tmp_path), seed=5)
    try:
        sim.boot()
        sim.run(500)
        state, start = sim.state()
        assert state == "setup"
        homes = [f + r for r in "16" for f in "abcdef"]
        for name in homes[:-1]:
            sim.place(name)
        sim.run(3000)
        assert sim.state()[0] == "setup"
        sim.place(homes[-1])
        sim.run(3000)
        state, pos = sim.state()
        assert (state, pos) == ("play", start)
        rank1 = start.split("/")[5].split()[0]
        assert [int(v) for v in rank1[1::2]] == sorted(int(v) for v in rank1[1::2])
    finally:
        sim.shutdown()


from triad.games import NAMES as GAME_NAMES  # noqa: E402

GAME_SCRIPTS = sorted(
    (game, n)
    for game in os.listdir(SCRIPTS)
    if game in GAME_NAMES and os.path.isdir(os.path.join(SCRIPTS, game))
    for n in os.listdir(os.path.join(SCRIPTS, game))
    if n.endswith(".txt")
)


# The HIL scripts (tests/scripts/hil/<game>/, run on the UF2 too by
# tests/pico/test_hil.py) that state their outcome: held to it here on CPython.
HIL = os.path.join(SCRIPTS, "hil")
HIL_SCRIPTS = sorted(
    ("hil/" + game, n)
    for game in os.listdir(HIL)
    if game in GAME_NAMES
    for n in os.listdir(os.path.join(HIL, game))
    if n.endswith(".txt") and expectations(os.path.join(HIL, game, n))
)


@pytest.mark.parametrize("game,name", GAME_SCRIPTS + HIL_SCRIPTS, ids=["%s/%s" % g for g in GAME_SCRIPTS + HIL_SCRIPTS])
def test_script_of_another_game(game, name):
    # tests/scripts/<game>/: the same contract with --game, sites by name.
    path = os.path.join(SCRIPTS, game, name)
    want = expectations(path)
    assert "position" in want and "moves" in want, "script lacks its # expect lines"
    r = subprocess.run(
        [sys.executable, "-m", "simulator", "script", "--game", game.split("/")[-1], path],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert r.returncode == 0, r.stderr
    # (a game with no moves yet prints "moves: ", its space at the line's end)
    got = [line.rstrip() for line in r.stdout.strip().splitlines() if not line.startswith("lights: ")]
    # Each `say` line prints the page's words then (issue 35), as the
    # script's `# expect say:` lines state them, in order.
    assert [ln for ln in got if ln.startswith("say: ")] == said(path)
    got = [ln for ln in got if not ln.startswith("say: ")]
    assert got == ["position: " + want["position"], ("moves: " + want["moves"]).rstrip()]


def test_unknown_game_is_refused():
    r = subprocess.run(
        [sys.executable, "-m", "simulator", "script", "--game", "chess", os.path.join(SCRIPTS, "01_simple_move.txt")],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert r.returncode == 2 and "chess" in r.stderr


def test_lights_line_format_and_dark():
    from simulator.script import lights_line

    assert lights_line([(0, 0, 0)] * 44) == "lights: dark"
    assert lights_line([(0, 0, 0), (1, 2, 255), (0, 0, 0), (16, 0, 0)]) == "lights: 1=0102ff 3=100000"


def test_lights_takes_nothing():
    with pytest.raises(ScriptError, match="line 1: lights takes nothing"):
        parse("lights 3\n")


def test_lights_shows_a_lifted_dies_destinations(tmp_path):
    import re

    p = tmp_path / "lights.txt"
    p.write_text("position w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0\n"
                 "lights\nlift c1\nwait 60\nlights\n")
    out = []
    run_file(str(p), out=out.append)
    before, lifted = out[0], out[1]
    for line in (before, lifted):
        assert re.fullmatch(r"lights: (\d+=[0-9a-f]{6})( \d+=[0-9a-f]{6})*", line), line
    slots = lambda line: {int(item.split("=")[0]) for item in line[len("lights: "):].split()}  # noqa: E731
    # c1 (slot 2) shows 2: its destinations b2, c2, d2 (slots 7, 8, 9) light
    # once it is lifted, and were dark before.
    assert {7, 8, 9} <= slots(lifted)
    assert not {7, 8, 9} & slots(before)


def test_say_prints_one_line_of_the_pages_words(tmp_path):
    # The `say` contract (issue 35): exactly one line "say: <text>", the
    # page's words at that moment (the instruction, and any fault).
    p = tmp_path / "say.txt"
    p.write_text("position w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0\nsay\nlift a1\nsay\n")
    out = []
    run_file(str(p), out=out.append)
    says = [ln for ln in out if ln.startswith("say: ")]
    assert len(says) == 2 and all("\n" not in s for s in says)
    assert says[0] == "say: Lift one of your dice: the lit cells show where it can go and in its colour the value to turn it to."
    assert says[1].startswith("say: Now put the die on a lit cell")


def test_say_takes_no_argument():
    with pytest.raises(ScriptError, match="line 1: say takes nothing"):
        parse("say loudly\n")
