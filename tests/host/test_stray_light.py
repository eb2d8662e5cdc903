"""The fault light marks the smallest correction (issue 24.6): in
Cornelson's game, an object put on the board after a legal gem was placed
blinks red, the gem does not (the board used to flag both, as if the gem
were wrong too). Through the script contract: `python -m simulator script`
and its `lights` lines."""
import os
import subprocess
import sys

from triad import games

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
START = "..../...../....../......./....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0"
FRAMES = 8  # 60 ms apart: both halves of the 250 ms fast blink


def run_script(tmp_path, text):
    p = tmp_path / "script.txt"
    p.write_text(text)
    r = subprocess.run([sys.executable, "-m", "simulator", "script", "--game", "cornelson", str(p)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def red_slots(line):
    """The slots of a lights line that are lit pure red (the fault's ERROR)."""
    out = set()
    for item in line[len("lights: "):].split():
        slot, rgb = item.split("=")
        if rgb != "000000" and rgb[2:] == "0000":
            out.add(int(slot))
    return out


def test_a_stray_object_blinks_red_and_the_legal_gem_does_not(tmp_path):
    G = games.load("cornelson")
    gem, stray = G.SITE_NAMES.index("D4"), G.SITE_NAMES.index("B2")
    looks = "wait 60\nlights\n" * FRAMES
    out = run_script(tmp_path, "position %s\nplace D4\nwait 1000\nplace B2\nwait 1000\n%s"
                     "lift B2\nwait 1000\nlift S3\nplace a6\nlift S1\nplace a2\nlift S2\nplace a4\nwait 1500\n"
                     % (START, looks))
    frames = [line for line in out if line.startswith("lights: ")]
    assert len(frames) == FRAMES
    reds = [red_slots(line) for line in frames]
    assert any(stray in r for r in reds), frames  # the stray blinks red
    assert not any(gem in r for r in reds), frames  # the gem placed is not the fault
    # Once the stray is off, the turn goes on from the gem as placed.
    assert out[-1] == "moves: D4 S1-a2 S2-a4 S3-a6"


def test_after_jewel_steps_only_the_stray_blinks(tmp_path):
    # Two jewels have stepped (their docks empty, their treys taken): a
    # stray object on a trey blinks red; the gem, the two jewels and the
    # docks they left do not (they used to blink red as well).
    G = games.load("cornelson")
    looks = "wait 60\nlights\n" * FRAMES
    out = run_script(tmp_path, "position %s\nplace D4\nwait 1000\nlift S1\nplace a2\nwait 1000\nlift S3\nplace a6\n"
                     "wait 1000\nplace c5\nwait 1000\n%slift c5\nwait 1000\nlift S2\nplace a4\nwait 1500\n"
                     % (START, looks))
    reds = [red_slots(line) for line in out if line.startswith("lights: ")]
    assert len(reds) == FRAMES
    assert any(G.SITE_NAMES.index("c5") in r for r in reds), out
    for name in ("D4", "a2", "a6", "S1", "S3"):
        assert not any(G.SITE_NAMES.index(name) in r for r in reds), (name, out)
    assert out[-1] == "moves: D4 S1-a2 S2-a4 S3-a6"


def test_a_jewel_on_a_wrong_trey_still_blinks(tmp_path):
    # The light still says what is wrong when it is the player's own piece:
    # the jewel put where it may not stand blinks red.
    G = games.load("cornelson")
    looks = "wait 60\nlights\n" * FRAMES
    out = run_script(tmp_path, "position %s\nplace D4\nwait 1000\nlift S1\nplace b5\nwait 1000\n%s"
                     "lift b5\nplace a2\nwait 1000\nlift S2\nplace a4\nlift S3\nplace a6\nwait 1500\n" % (START, looks))
    reds = [red_slots(line) for line in out if line.startswith("lights: ")]
    assert any(G.SITE_NAMES.index("b5") in r for r in reds), out
    assert not any(G.SITE_NAMES.index("D4") in r for r in reds), out
    assert out[-1] == "moves: D4 S1-a2 S2-a4 S3-a6"


def test_a_stray_object_before_the_gem_has_settled(tmp_path):
    # The coin comes 0.3 s after the gem, before the board took the gem as
    # the turn's placement (it still reads the turn's first step): the coin
    # blinks, the gem does not.
    G = games.load("cornelson")
    looks = "wait 60\nlights\n" * FRAMES
    out = run_script(tmp_path, "position %s\nplace D4\nwait 300\nplace c5\nwait 1000\n%slift c5\nwait 1000\n"
                     "lift S1\nplace a2\nlift S2\nplace a4\nlift S3\nplace a6\nwait 1500\n" % (START, looks))
    reds = [red_slots(line) for line in out if line.startswith("lights: ")]
    assert any(G.SITE_NAMES.index("c5") in r for r in reds), out
    assert not any(G.SITE_NAMES.index("D4") in r for r in reds), out
    assert out[-1] == "moves: D4 S1-a2 S2-a4 S3-a6"
