"""`python -m simulator` as a person types it: its help names every board
and says what each option does; a board asked for with a game it does not
play is refused; a stop while it is still starting is quiet."""
import os
import signal
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sim(*args, timeout=120):
    env = dict(os.environ)
    env.pop("TRIAD_SIM_BOARD", None)
    return subprocess.run([sys.executable, "-m", "simulator"] + list(args), cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_serve_help_names_every_board_and_explains_every_option():
    r = sim("serve", "--help")
    assert r.returncode == 0
    text = " ".join(r.stdout.split())  # argparse folds lines
    assert "(pico_v1, hex_v1, tri_v1)" in text
    for option, words in (("--port PORT", "TCP port"), ("--host HOST", "address to listen on"),
                          ("--seed SEED", "random seed"), ("--no-browser", "open no browser")):
        assert option in text and words in text, option


@pytest.mark.parametrize("cmd", [["serve", "--no-browser", "--port", "0"], ["script", "nothing.txt"]])
def test_a_board_that_does_not_play_the_game_is_refused(cmd):
    r = sim(*(cmd + ["--game", "browne", "--board", "pico_v1"]))
    assert r.returncode == 2
    assert r.stdout == ""
    assert "board pico_v1 plays nehren, not browne" in r.stderr


@pytest.mark.parametrize("delay", [0.2, 0.5, 1.0, 2.0])
def test_sigterm_while_starting_stops_without_a_traceback(delay, tmp_path):
    env = dict(os.environ)
    env.pop("TRIAD_SIM_BOARD", None)
    p = subprocess.Popen([sys.executable, "-m", "simulator", "serve", "--no-browser", "--port", "0",
                          "--state-dir", str(tmp_path)], cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(delay)
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=60)
    assert "Traceback" not in err, err
    assert p.returncode in (0, -signal.SIGTERM), (p.returncode, err)
