# The teaching mode of Browne's and Cornelson's games through the script
# contract (`python -m simulator script --game NAME`): every lesson solved by
# its script in tests/scripts/lessons/<game>/ (the unchanged firmware on
# simulated hardware and time, `-v` shows the board's `evt lesson` lines),
# a wrong try put back and the right move shown after two, the lessons
# reached from the board's menu, and each lesson's data sound.
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.append(os.path.join(ROOT, "firmware"))
LESSONS = os.path.join(ROOT, "tests", "scripts", "lessons")
GAMES = ("browne", "cornelson")
SCRIPTS = sorted(
    (game, n) for game in GAMES if os.path.isdir(os.path.join(LESSONS, game))
    for n in os.listdir(os.path.join(LESSONS, game)) if n.endswith(".txt"))

from triad import games  # noqa: E402


def expectations(path):
    want = {}
    with open(path) as f:
        for line in f:
            if line.startswith("# expect "):
                key, _, value = line[len("# expect "):].partition(":")
                want[key.strip()] = value.strip()
    return want


def _script(game, text_or_path, tmp_path=None):
    path = text_or_path
    if tmp_path is not None:
        path = str(tmp_path / "s.txt")
        with open(path, "w") as f:
            f.write(text_or_path)
    r = subprocess.run([sys.executable, "-m", "simulator", "script", "--game", game, "-v", path],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = (r.stdout + r.stderr).splitlines()
    events = [ln.split("evt lesson ", 1)[1] for ln in lines if "evt lesson " in ln]
    result = [ln for ln in r.stdout.splitlines() if ln.startswith(("position: ", "moves: "))]
    return events, result


@pytest.mark.parametrize("game", GAMES)
def test_every_lesson_has_its_script(game):
    n = len(games.load(game).LESSONS())
    assert n >= 8
    assert len([s for s in SCRIPTS if s[0] == game]) == n


@pytest.mark.parametrize("game,name", SCRIPTS, ids=["%s/%s" % s for s in SCRIPTS])
def test_lesson_script_solves_it(game, name):
    path = os.path.join(LESSONS, game, name)
    want = expectations(path)
    events, result = _script(game, path)
    assert result == ["position: " + want["position"], "moves: " + want["moves"]]
    assert "solved %s %s" % (want["solved"], want["moves"]) in events
    assert not any(e.startswith("wrong") for e in events)


@pytest.mark.parametrize("game", GAMES)
def test_lesson_data_is_sound(game):
    g = games.load(game)
    for item in g.LESSONS():
        goal, text, lit, solved, show = item[:5]
        assert 0 < len(goal) < 160 and "\n" not in goal
        pos = g.parse_position(text)
        for k, v in item[5] if len(item) > 5 else ():
            g.apply_setting(pos, k, v)
        for name in lit.split():
            assert g.site_index(name) >= 0 and g.owner(pos, g.site_index(name)) >= 0, name
        m = g.parse_move(pos, show)

        def ok(w):
            return solved(pos, w) if callable(solved) else g.format_move(pos, w) in solved

        assert ok(m), show
        # Some legal turn is wrong: the lesson asks for something.
        assert not all(ok(w) for w in pos.legal_moves()), goal


def test_browne_wrong_twice_then_the_right_turn_is_shown(tmp_path):
    # Lesson 3 asks for the capture of A2: capturing Blue's F5 (E5-E4) is
    # wrong, twice; the board puts the lesson back and then shows E5-A1.
    wrong = "lift E5\nplace E4\nwait 1000\nlift F5\nwait 500\nplace B3\nwait 1500\n" \
            "lift B3\nlift E4\nplace E5\nplace F5\nwait 1500\n"
    events, result = _script("browne", "lesson 3\n" + wrong * 2
                             + "lift E5\nplace A1\nwait 1000\nlift A2\nwait 500\nplace E3\nwait 1000\n",
                             tmp_path)
    assert events.count("wrong 3 E5-E4@B3") == 2
    assert "hint 3 E5-A1@E3" in events
    assert events[-1] == "solved 3 E5-A1@E3"
    assert result[1] == "moves: E5-A1@E3"


@pytest.mark.parametrize("game", GAMES)
def test_menu_in_setup_starts_the_lessons(game, tmp_path):
    # On the board: a short menu press in set-up (a new game) starts lesson 1.
    n = len(games.load(game).LESSONS())
    events, _ = _script(game, "serial new\npress menu\nwait 500\nserial lesson\nreply ok lesson 1 of %d\n" % n,
                        tmp_path)
    assert events and events[0].startswith("1 ")


def test_cornelson_a_forfeit_is_wrong_twice_then_the_turn_is_shown(tmp_path):
    # Lesson 8 (rule 3.1): the jewel lifted before the swap forfeits the
    # capture (C5!0); after two such tries the board lights the right turn,
    # and the capture swapped first solves it.
    wrong = ("place C5\nwait 300\nlift b2\nplace b1\nwait 1500\n"
             "lift C5\nlift b1\nplace b2\nwait 1500\n")
    right = "place C5\nwait 300\nlift C4\nwait 100\nplace C4\nwait 300\nlift b2\nplace b1\nwait 1000\n"
    events, result = _script("cornelson", "lesson 8\n" + wrong * 2 + right, tmp_path)
    assert events.count("wrong 8 C5!0 b2-b1") == 2
    assert "hint 8 C5 b2-b1" in events
    assert events[-1] == "solved 8 C5 b2-b1"
    assert result[1] == "moves: C5 b2-b1"


def test_cornelson_lessons_run_in_their_mode_and_the_mode_returns(tmp_path):
    # In a game of Capture the jewels leave the board; lesson 1 (a standard
    # game) still has them, lesson 9 sets Capture itself, and leaving the
    # lessons the saved game is again a game of Capture (no jewels).
    r = subprocess.run(
        [sys.executable, "-m", "simulator", "script", "--game", "cornelson", "-v", _write(tmp_path, (
            "serial set mode capture\nlesson 1\nserial state\nreply ok state play ..../...../....../......./"
            "....../...../.... S:a4 N:f4 s 0 0\nlesson 9\nplace B4\nwait 300\nlift B3\nwait 100\nplace B3\n"
            "wait 1000\nlesson off\nserial state\nreply ok state sync ..../...../....../......./....../"
            "...../.... S:- N:- s 0 0\n"))],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "evt lesson solved 9 B4" in r.stdout + r.stderr


def _write(tmp_path, text):
    path = str(tmp_path / "m.txt")
    with open(path, "w") as f:
        f.write(text)
    return path


@pytest.mark.parametrize("game", GAMES)
def test_the_lesson_data_loads_only_when_asked_for(game):
    # On the board the lessons cost RAM only once a lesson is asked for: the
    # game (and its engine's modules) never import the data module.
    code = ("import sys; sys.path.append('firmware'); from triad import games; g = games.load(%r); "
            "import triad.board.controller, triad.board.lessons; "
            "print('triad.games.%s.lessons' in sys.modules); g.LESSONS(); "
            "print('triad.games.%s.lessons' in sys.modules)") % (game, game, game)
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.stdout.split() == ["False", "True"], r.stderr
